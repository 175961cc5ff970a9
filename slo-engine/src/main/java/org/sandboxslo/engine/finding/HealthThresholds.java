package org.sandboxslo.engine.finding;

import java.time.Duration;
import java.util.Objects;

/**
 * Thresholds of the control-loop, watch-lag, unserved-claim and informer-health diagnoses (issue 8
 * part A), kept apart from {@link org.sandboxslo.engine.finding.DiagnosisConfig}'s older knobs.
 *
 * @param overCreationRatio a pool over-creates when owned members ≥ this × spec.replicas; &gt; 1,
 *     default 3 (upstream's normal replenishment overshoot reaches ~2×, the pre-gate runaway ~10×)
 * @param overCreationObservations consecutive observations (changes of the pool's owned count or
 *     spec.replicas) the ratio must hold, with at least one of them a growth; ≥ 1, default 3
 * @param watchLagWarn a kind whose watch lag (or cross-stream contradiction) reaches this lags;
 *     &gt; 0, default 10 s
 * @param expectationsTimeout upstream's expectations expiry: the gate releases at the latest this
 *     long after the earliest unobserved create; default 5 m (warmpool_expectations.go)
 * @param contradictionBound a stream whose cache contradicts another stream this long is
 *     suspect-stale; default 30 s
 * @param silenceBound a stream silent this long while the stream coupled to it moves is
 *     suspect-stale; default 2 m
 * @param gateControllerFix first controller version with the expectations gate; default v0.5.4
 *     (agent-sandbox#1266, fixing #1215)
 */
public record HealthThresholds(
    double overCreationRatio,
    int overCreationObservations,
    Duration watchLagWarn,
    Duration expectationsTimeout,
    Duration contradictionBound,
    Duration silenceBound,
    String gateControllerFix) {
  public HealthThresholds {
    if (!(overCreationRatio > 1)) {
      throw new IllegalArgumentException(
          "over-creation ratio must be > 1, got " + overCreationRatio);
    }
    if (overCreationObservations < 1) {
      throw new IllegalArgumentException(
          "over-creation observations must be >= 1, got " + overCreationObservations);
    }
    positive("watch lag warn", watchLagWarn);
    positive("expectations timeout", expectationsTimeout);
    positive("contradiction bound", contradictionBound);
    positive("silence bound", silenceBound);
    Objects.requireNonNull(gateControllerFix, "gateControllerFix");
  }

  private static void positive(String what, Duration d) {
    Objects.requireNonNull(d, what);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(what + " must be > 0, got " + d);
    }
  }

  public static HealthThresholds defaults() {
    return new HealthThresholds(
        3.0,
        3,
        Duration.ofSeconds(10),
        Duration.ofMinutes(5),
        Duration.ofSeconds(30),
        Duration.ofMinutes(2),
        "v0.5.4");
  }

  public HealthThresholds withOverCreation(double ratio, int observations) {
    return new HealthThresholds(
        ratio,
        observations,
        watchLagWarn,
        expectationsTimeout,
        contradictionBound,
        silenceBound,
        gateControllerFix);
  }

  public HealthThresholds withWatchLagWarn(Duration d) {
    return new HealthThresholds(
        overCreationRatio,
        overCreationObservations,
        d,
        expectationsTimeout,
        contradictionBound,
        silenceBound,
        gateControllerFix);
  }

  public HealthThresholds withBounds(Duration contradiction, Duration silence) {
    return new HealthThresholds(
        overCreationRatio,
        overCreationObservations,
        watchLagWarn,
        expectationsTimeout,
        contradiction,
        silence,
        gateControllerFix);
  }
}
