package org.sandboxslo.engine.sli;

import java.util.List;

/**
 * Cumulative counts since the engine started (monotonic, for Prometheus counters).
 *
 * @param warmLaunches claims served warm that became Ready
 * @param coldLaunches claims served cold that became Ready
 * @param resumeSuccess resumes that reached Ready=True
 * @param resumeError resumes that ended in ReconcilerError / PodStateUnknown
 * @param resumeTimeout resumes not Ready within the resume timeout
 * @param eligibleWarmLaunches warm launches of claims that set neither env nor volumeClaimTemplates
 * @param eligibleColdLaunches cold launches of such claims (the ones a pool could have served)
 * @param claimToReadyWarm warm claim-to-ready counts per bucket of {@link #LATENCY_BUCKETS_SECONDS}
 *     (non-cumulative, last entry is +Inf), empty when unknown
 * @param claimToReadyCold the same for cold launches
 * @param claimToReadyWarmSumSeconds Σ claim-to-ready latency of warm claims, seconds
 * @param claimToReadyColdSumSeconds Σ claim-to-ready latency of cold claims, seconds
 */
public record Totals(
    long warmLaunches,
    long coldLaunches,
    long resumeSuccess,
    long resumeError,
    long resumeTimeout,
    long eligibleWarmLaunches,
    long eligibleColdLaunches,
    List<Long> claimToReadyWarm,
    List<Long> claimToReadyCold,
    double claimToReadyWarmSumSeconds,
    double claimToReadyColdSumSeconds) {

  /** Upper bounds (seconds) of the exported claim-to-ready histogram; +Inf is implicit. */
  public static final List<Double> LATENCY_BUCKETS_SECONDS =
      List.of(0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0);

  public static final Totals ZERO = new Totals(0, 0, 0, 0, 0);

  public Totals {
    claimToReadyWarm = claimToReadyWarm == null ? List.of() : List.copyOf(claimToReadyWarm);
    claimToReadyCold = claimToReadyCold == null ? List.of() : List.copyOf(claimToReadyCold);
  }

  /** Launch and resume counts only (no eligibility or latency buckets). */
  public Totals(
      long warmLaunches,
      long coldLaunches,
      long resumeSuccess,
      long resumeError,
      long resumeTimeout) {
    this(
        warmLaunches,
        coldLaunches,
        resumeSuccess,
        resumeError,
        resumeTimeout,
        0,
        0,
        List.of(),
        List.of(),
        0,
        0);
  }

  public Totals plus(Totals o) {
    return new Totals(
        warmLaunches + o.warmLaunches,
        coldLaunches + o.coldLaunches,
        resumeSuccess + o.resumeSuccess,
        resumeError + o.resumeError,
        resumeTimeout + o.resumeTimeout,
        eligibleWarmLaunches + o.eligibleWarmLaunches,
        eligibleColdLaunches + o.eligibleColdLaunches,
        add(claimToReadyWarm, o.claimToReadyWarm),
        add(claimToReadyCold, o.claimToReadyCold),
        claimToReadyWarmSumSeconds + o.claimToReadyWarmSumSeconds,
        claimToReadyColdSumSeconds + o.claimToReadyColdSumSeconds);
  }

  private static List<Long> add(List<Long> a, List<Long> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    Long[] out = new Long[Math.max(a.size(), b.size())];
    for (int i = 0; i < out.length; i++) {
      out[i] = (i < a.size() ? a.get(i) : 0L) + (i < b.size() ? b.get(i) : 0L);
    }
    return List.of(out);
  }
}
