package org.sandboxslo.engine.sli;

import java.time.Duration;
import java.util.Objects;

/**
 * The SLIs of one subject over one sliding window ending at the snapshot time. Every ratio and
 * summary is {@code null} when its window holds no valid events ("no data"), never NaN, 0 or 1.
 * Window resolution is the engine's bucket width for the shortest window; data older than the
 * shortest window is rolled up into buckets of longest window / 60 (1 m for 1 h), so longer windows
 * have that resolution at their far edge. A window covers the buckets whose start is not older than
 * {@code now - window}.
 *
 * @param window the window length, e.g. PT5M
 * @param warmLaunches claims that got a warm (adopted) sandbox and became Ready in the window
 * @param coldLaunches claims that got a cold-started sandbox and became Ready in the window
 * @param warmHitRatio warm / (warm + cold); null when both are 0
 * @param claimToReady claim first seen → claim Ready, all launch types; null when no claim
 * @param claimToReadyWarm the same for warm launches only; null when none
 * @param claimToReadyCold the same for cold launches only; null when none
 * @param coldStart pool member created → member Ready (refill), 1 s resolution (object timestamps);
 *     null when no member became Ready
 * @param resumeAttempts resumes (operatingMode Suspended→Running) that ended in the window
 * @param resumeErrors of those, ended with Ready=False/ReconcilerError, Suspended=Unknown/
 *     PodStateUnknown, or not Ready within the resume timeout
 * @param resumeErrorRatio errors / attempts; null when no attempt ended
 * @param resumeLatency mode flip observed → Ready=True, successful resumes only; null when none
 */
public record WindowSlis(
    Duration window,
    long warmLaunches,
    long coldLaunches,
    Double warmHitRatio,
    LatencySummary claimToReady,
    LatencySummary claimToReadyWarm,
    LatencySummary claimToReadyCold,
    LatencySummary coldStart,
    long resumeAttempts,
    long resumeErrors,
    Double resumeErrorRatio,
    LatencySummary resumeLatency) {
  public WindowSlis {
    Objects.requireNonNull(window, "window");
    if (warmLaunches < 0 || coldLaunches < 0 || resumeAttempts < 0 || resumeErrors < 0) {
      throw new IllegalArgumentException("counts must be >= 0");
    }
  }
}
