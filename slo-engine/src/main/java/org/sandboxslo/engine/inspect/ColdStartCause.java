package org.sandboxslo.engine.inspect;

/** Why a claim was served by a cold start instead of adopting a warm pool member. */
public enum ColdStartCause {
  /** The claim sets {@code spec.env}: upstream bypasses the warm pool entirely. */
  SPEC_ENV("spec.env"),
  /** The claim sets {@code spec.volumeClaimTemplates}: upstream bypasses the warm pool. */
  SPEC_VOLUME_CLAIM_TEMPLATES("spec.volumeClaimTemplates"),
  /** Neither: the pool had no adoptable member (drained, not Ready, or adoption failed). */
  NO_WARM_MEMBER("no-warm-member");

  private final String wireName;

  ColdStartCause(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
