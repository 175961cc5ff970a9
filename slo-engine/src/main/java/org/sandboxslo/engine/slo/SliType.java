package org.sandboxslo.engine.slo;

/** The SLIs an SLO can target, with their wire names. */
public enum SliType {
  /** Good: claims served warm; valid: claims served (eligible claims only by default). */
  WARM_HIT_RATIO("warm_hit_ratio"),
  /** Good: claims Ready within the latency threshold; valid: claims Ready. */
  CLAIM_TO_READY_LATENCY("claim_to_ready_latency"),
  /** Time-slice SLO. Good: slices in which the pool's ready fraction never fell below the floor. */
  POOL_READY_FRACTION("pool_ready_fraction"),
  /** Good: resumes that reached Ready; valid: resumes that ended. */
  RESUME_SUCCESS_RATIO("resume_success_ratio");

  private final String wireName;

  SliType(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** The type for a wire name; null when unknown. */
  public static SliType ofWireName(String s) {
    for (SliType t : values()) {
      if (t.wireName.equals(s)) {
        return t;
      }
    }
    return null;
  }
}
