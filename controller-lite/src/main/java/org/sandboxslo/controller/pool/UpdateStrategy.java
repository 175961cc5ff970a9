package org.sandboxslo.controller.pool;

/** {@code SandboxWarmPool.spec.updateStrategy.type}; unknown values read as {@code OnReplenish}. */
public enum UpdateStrategy {
  /** Stale members are kept and still handed to claims (upstream default). */
  ON_REPLENISH,
  /** Unclaimed stale members are deleted, all in one pass. */
  RECREATE;

  /** Parses the CRD value; null or anything else than {@code Recreate} is ON_REPLENISH. */
  public static UpdateStrategy parse(String v) {
    return "Recreate".equals(v) ? RECREATE : ON_REPLENISH;
  }
}
