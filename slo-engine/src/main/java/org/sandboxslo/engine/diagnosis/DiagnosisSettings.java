package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.util.Objects;
import org.sandboxslo.engine.scrape.LatencyHistogram;

/**
 * Thresholds of the diagnoses of issue 8 part B (failed rollouts, the controller's histograms,
 * objects outside pools, snapshot clones, controller configuration). Kept apart from {@link
 * org.sandboxslo.engine.finding.DiagnosisConfig} so each can grow without the other.
 *
 * @param progressDeadline how long after a template change a rollout may go without one member of
 *     the new generation becoming Ready before it is a critical failure; default 10m
 * @param histogram how the controller's histograms are read (quantiles, minimum count, good-event
 *     threshold)
 * @param controllerWindow window of the controller-reported view; default 1h
 * @param refillBurstFraction an unpaced refill is flagged when one pool created at least this
 *     fraction of {@code --sandbox-warm-pool-max-batch-size} within {@code burstWindow}; (0, 1],
 *     default 0.5
 * @param burstWindow window for counting a refill burst; default 10s
 * @param watchLagHigh watch lag (largest over 5 minutes, any kind) from which a shared watch
 *     connection is flagged; default 5s
 * @param claimEventsRate claims/s (shortest window, all namespaces) from which claim Events are
 *     flagged as write load; default 50
 * @param probeRetention identity probes older than this are dropped; default 24h
 */
public record DiagnosisSettings(
    Duration progressDeadline,
    LatencyHistogram.Options histogram,
    Duration controllerWindow,
    double refillBurstFraction,
    Duration burstWindow,
    Duration watchLagHigh,
    double claimEventsRate,
    Duration probeRetention) {
  public DiagnosisSettings {
    positive("progress deadline", progressDeadline);
    Objects.requireNonNull(histogram, "histogram");
    positive("controller window", controllerWindow);
    positive("burst window", burstWindow);
    positive("watch lag threshold", watchLagHigh);
    positive("probe retention", probeRetention);
    if (!(refillBurstFraction > 0 && refillBurstFraction <= 1)) {
      throw new IllegalArgumentException(
          "refill burst fraction must be in (0, 1], got " + refillBurstFraction);
    }
    if (!(claimEventsRate > 0)) {
      throw new IllegalArgumentException(
          "claim events rate must be > 0 claims/s, got " + claimEventsRate);
    }
  }

  private static void positive(String what, Duration d) {
    Objects.requireNonNull(d, what);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(what + " must be > 0, got " + d);
    }
  }

  public static DiagnosisSettings defaults() {
    return new DiagnosisSettings(
        Duration.ofMinutes(10),
        LatencyHistogram.Options.defaults(),
        Duration.ofHours(1),
        0.5,
        Duration.ofSeconds(10),
        Duration.ofSeconds(5),
        50,
        Duration.ofHours(24));
  }

  /**
   * The defaults with {@code sloconsole.engine.rollout-progress-deadline} ({@code 10m}, {@code
   * 90s}, ...) applied; other keys are ignored ({@code EngineConfig#fromMap} rejects unknown ones).
   *
   * @throws IllegalArgumentException naming the key when the value does not parse or is not &gt; 0
   */
  public static DiagnosisSettings fromMap(java.util.Map<String, String> map) {
    String key = org.sandboxslo.engine.EngineConfig.ROLLOUT_PROGRESS_DEADLINE;
    String v = map.get(key);
    if (v == null) {
      return defaults();
    }
    Duration d = org.sandboxslo.engine.time.Durations.parse(key, v);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(key + " must be > 0, got " + v);
    }
    return defaults().withProgressDeadline(d);
  }

  public DiagnosisSettings withProgressDeadline(Duration d) {
    return new DiagnosisSettings(
        d,
        histogram,
        controllerWindow,
        refillBurstFraction,
        burstWindow,
        watchLagHigh,
        claimEventsRate,
        probeRetention);
  }

  public DiagnosisSettings withHistogram(LatencyHistogram.Options o) {
    return new DiagnosisSettings(
        progressDeadline,
        o,
        controllerWindow,
        refillBurstFraction,
        burstWindow,
        watchLagHigh,
        claimEventsRate,
        probeRetention);
  }

  public DiagnosisSettings withControllerWindow(Duration d) {
    return new DiagnosisSettings(
        progressDeadline,
        histogram,
        d,
        refillBurstFraction,
        burstWindow,
        watchLagHigh,
        claimEventsRate,
        probeRetention);
  }

  public DiagnosisSettings withClaimEventsRate(double r) {
    return new DiagnosisSettings(
        progressDeadline,
        histogram,
        controllerWindow,
        refillBurstFraction,
        burstWindow,
        watchLagHigh,
        r,
        probeRetention);
  }
}
