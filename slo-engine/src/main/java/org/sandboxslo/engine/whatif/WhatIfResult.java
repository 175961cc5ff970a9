package org.sandboxslo.engine.whatif;

import java.time.Duration;
import java.util.Objects;

/**
 * What a simulated configuration did with a demand curve.
 *
 * @param config the simulated configuration
 * @param claims claims that arrived
 * @param warmLaunches claims served by adopting a Ready member
 * @param coldLaunches claims that started cold (no Ready member, none became Ready in the wait)
 * @param warmHitRatio warm / claims; null when no claim arrived
 * @param claimToReady claim → Ready over all claims; null when none
 * @param claimToReadyWarm the same for warm launches; null when none
 * @param claimToReadyCold the same for cold launches; null when none
 * @param minReadyFraction the lowest Ready idle members / replicas any pool reached during the
 *     period (1 when it never dipped); null when replicas is 0
 * @param meanReadyMembers Ready idle members averaged over the period, all pools together
 * @param membersCreated members the pools created during the simulation
 * @param idleCpuCoreHours replicas × pools × cpu request × hours of the period (what the pools
 *     reserve); 0 when the request is unknown
 * @param idleMemoryGibHours the same for memory, GiB-hours
 */
public record WhatIfResult(
    PoolConfig config,
    long claims,
    long warmLaunches,
    long coldLaunches,
    Double warmHitRatio,
    Quantiles claimToReady,
    Quantiles claimToReadyWarm,
    Quantiles claimToReadyCold,
    Double minReadyFraction,
    double meanReadyMembers,
    long membersCreated,
    double idleCpuCoreHours,
    double idleMemoryGibHours) {
  public WhatIfResult {
    Objects.requireNonNull(config, "config");
  }

  /**
   * Nearest-rank quantiles of simulated latencies (the value at rank ceil(q × n)).
   *
   * @param count samples, ≥ 1
   * @param p50 median
   * @param p95 95th percentile
   * @param p99 99th percentile
   */
  public record Quantiles(long count, Duration p50, Duration p95, Duration p99) {
    /** Quantiles of sorted nanosecond samples; null when there are none. */
    static Quantiles of(long[] sorted, int n) {
      if (n == 0) {
        return null;
      }
      return new Quantiles(n, at(sorted, n, 0.50), at(sorted, n, 0.95), at(sorted, n, 0.99));
    }

    private static Duration at(long[] sorted, int n, double q) {
      int rank = (int) Math.ceil(q * n - 1e-9);
      return Duration.ofNanos(sorted[Math.max(0, rank - 1)]);
    }
  }
}
