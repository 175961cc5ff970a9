package org.sandboxslo.engine.finding;

/**
 * Warm-pool sizing arithmetic (reference §f): a pool must hold what arrives while a member refills,
 * {@code replicas ≥ peak claims/s × refill p95 × (1 + headroom)}; one pool refills at most ~70–85
 * sandboxes/s and stays manageable up to ~500–1,000 replicas, so demand beyond either is sharded.
 * Worked example: 40 claims/s at 45 s cold start → 1,800 members → four pools of 450.
 */
public final class PoolSizing {
  private PoolSizing() {}

  /** Conservative per-pool refill ceiling (sandboxes/s): the low end of upstream's ~70–85/s. */
  public static final double DEFAULT_REFILL_CEILING_PER_POOL = 70;

  /** Conservative per-pool replica ceiling: the low end of ~500–1,000. */
  public static final int DEFAULT_MAX_REPLICAS_PER_POOL = 500;

  /**
   * Sizing advice.
   *
   * @param claimsPerSecond peak demand, ≥ 0
   * @param refillP95Seconds member created → Ready p95, &gt; 0
   * @param headroom extra fraction, ≥ 0 (0.2 = 20 %)
   * @param replicas total replicas needed, ceil(claims/s × refill p95 × (1 + headroom))
   * @param pools pools needed, max(1, ceil(claims/s / refill ceiling), ceil(replicas / max per
   *     pool))
   * @param replicasPerPool ceil(replicas / pools)
   * @param refillRatePerPool ceil(claims/s / pools) sandboxes/s: the max-refill-rate each pool
   *     needs
   * @param cpuMillisIdle idle cost, replicas × cpu request (millicores); 0 when unknown
   * @param memoryBytesIdle idle cost, replicas × memory request (bytes); 0 when unknown
   */
  public record Advice(
      double claimsPerSecond,
      double refillP95Seconds,
      double headroom,
      long replicas,
      int pools,
      long replicasPerPool,
      long refillRatePerPool,
      long cpuMillisIdle,
      long memoryBytesIdle) {
    /**
     * "replicas = ceil(40/s × 45 s) = 1800; pools = max(ceil(40/70), ceil(1800/500)) = 4 × 450".
     */
    public String arithmetic() {
      return String.format(
          java.util.Locale.ROOT,
          "replicas = ceil(%s/s × %s s%s) = %d; pools = max(ceil(%s/%s), ceil(%d/%d)) = %d; %d per pool; refill ≥ %d/s per pool",
          num(claimsPerSecond),
          num(refillP95Seconds),
          headroom == 0 ? "" : " × " + num(1 + headroom),
          replicas,
          num(claimsPerSecond),
          num(DEFAULT_REFILL_CEILING_PER_POOL),
          replicas,
          DEFAULT_MAX_REPLICAS_PER_POOL,
          pools,
          replicasPerPool,
          refillRatePerPool);
    }
  }

  private static String num(double d) {
    return d == Math.rint(d)
        ? Long.toString((long) d)
        : String.format(java.util.Locale.ROOT, "%.2f", d);
  }

  /**
   * @param cpuMillisPerMember cpu request of one member in millicores (0 when unknown)
   * @param memoryBytesPerMember memory request of one member in bytes (0 when unknown)
   * @throws IllegalArgumentException for negative demand or headroom, or non-positive refill p95
   */
  public static Advice advise(
      double claimsPerSecond,
      double refillP95Seconds,
      double headroom,
      long cpuMillisPerMember,
      long memoryBytesPerMember) {
    if (claimsPerSecond < 0 || Double.isNaN(claimsPerSecond)) {
      throw new IllegalArgumentException("claims per second must be >= 0, got " + claimsPerSecond);
    }
    if (!(refillP95Seconds > 0)) {
      throw new IllegalArgumentException("refill p95 must be > 0 s, got " + refillP95Seconds);
    }
    if (headroom < 0 || Double.isNaN(headroom)) {
      throw new IllegalArgumentException("headroom must be >= 0, got " + headroom);
    }
    long replicas = (long) Math.ceil(claimsPerSecond * refillP95Seconds * (1 + headroom) - 1e-9);
    int pools =
        (int)
            Math.max(
                1,
                Math.max(
                    Math.ceil(claimsPerSecond / DEFAULT_REFILL_CEILING_PER_POOL - 1e-9),
                    Math.ceil((double) replicas / DEFAULT_MAX_REPLICAS_PER_POOL - 1e-9)));
    long perPool = (long) Math.ceil((double) replicas / pools);
    long refill = (long) Math.ceil(claimsPerSecond / pools - 1e-9);
    return new Advice(
        claimsPerSecond,
        refillP95Seconds,
        headroom,
        replicas,
        pools,
        perPool,
        refill,
        replicas * cpuMillisPerMember,
        replicas * memoryBytesPerMember);
  }
}
