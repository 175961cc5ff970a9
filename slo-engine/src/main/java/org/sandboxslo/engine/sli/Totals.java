package org.sandboxslo.engine.sli;

/**
 * Cumulative counts since the engine started (monotonic, for Prometheus counters).
 *
 * @param warmLaunches claims served warm that became Ready
 * @param coldLaunches claims served cold that became Ready
 * @param resumeSuccess resumes that reached Ready=True
 * @param resumeError resumes that ended in ReconcilerError / PodStateUnknown
 * @param resumeTimeout resumes not Ready within the resume timeout
 */
public record Totals(
    long warmLaunches, long coldLaunches, long resumeSuccess, long resumeError, long resumeTimeout) {
  public static final Totals ZERO = new Totals(0, 0, 0, 0, 0);

  public Totals plus(Totals o) {
    return new Totals(
        warmLaunches + o.warmLaunches,
        coldLaunches + o.coldLaunches,
        resumeSuccess + o.resumeSuccess,
        resumeError + o.resumeError,
        resumeTimeout + o.resumeTimeout);
  }
}
