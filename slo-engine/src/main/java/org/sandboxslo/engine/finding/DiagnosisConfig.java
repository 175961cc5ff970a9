package org.sandboxslo.engine.finding;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Thresholds of the diagnoses.
 *
 * @param staleWarnAfter stale members for this long after a template change raise the ticket (alert
 *     {@code WarmPoolStaleMembers}); default 15m (C03)
 * @param rolloutMaxUnavailableFraction paced Recreate deletes at most max(1, floor(f × replicas))
 *     members at a time; default 0.34 (C03)
 * @param expiredRetainedWarnCount more retained expired claims than this per namespace is a
 *     finding; default 5 (C09)
 * @param finishedWithoutLifecycleWarnAfter claims without lifecycle finished longer than this are
 *     never-expiring; default 24h (C09)
 * @param refillStallAfter a pool below replicas that created no member for this long is stalled;
 *     default 60s
 * @param allowedRuntimeClasses runtimeClassName values accepted as isolation; default gvisor, kata,
 *     kata-qemu, kata-clh, kata-fc
 * @param controllerVersion the agent-sandbox controller version when known (e.g. v0.4.2), else
 *     null; versions before v0.5.0 copy reserved pod-template labels to Pods (#894)
 * @param health thresholds of the over-creation, watch-lag, unserved-claim and informer-health
 *     diagnoses (issue 8 part A)
 */
public record DiagnosisConfig(
    Duration staleWarnAfter,
    double rolloutMaxUnavailableFraction,
    int expiredRetainedWarnCount,
    Duration finishedWithoutLifecycleWarnAfter,
    Duration refillStallAfter,
    List<String> allowedRuntimeClasses,
    String controllerVersion,
    org.sandboxslo.engine.finding.HealthThresholds health) {
  /** With the default {@link org.sandboxslo.engine.finding.HealthThresholds}. */
  public DiagnosisConfig(
      Duration staleWarnAfter,
      double rolloutMaxUnavailableFraction,
      int expiredRetainedWarnCount,
      Duration finishedWithoutLifecycleWarnAfter,
      Duration refillStallAfter,
      List<String> allowedRuntimeClasses,
      String controllerVersion) {
    this(
        staleWarnAfter,
        rolloutMaxUnavailableFraction,
        expiredRetainedWarnCount,
        finishedWithoutLifecycleWarnAfter,
        refillStallAfter,
        allowedRuntimeClasses,
        controllerVersion,
        org.sandboxslo.engine.finding.HealthThresholds.defaults());
  }

  public DiagnosisConfig {
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(staleWarnAfter, "staleWarnAfter");
    Objects.requireNonNull(finishedWithoutLifecycleWarnAfter, "finishedWithoutLifecycleWarnAfter");
    Objects.requireNonNull(refillStallAfter, "refillStallAfter");
    if (!(rolloutMaxUnavailableFraction > 0 && rolloutMaxUnavailableFraction <= 1)) {
      throw new IllegalArgumentException(
          "rollout max unavailable fraction must be in (0, 1], got "
              + rolloutMaxUnavailableFraction);
    }
    if (expiredRetainedWarnCount < 0) {
      throw new IllegalArgumentException(
          "expired retained warn count must be >= 0, got " + expiredRetainedWarnCount);
    }
    allowedRuntimeClasses = List.copyOf(allowedRuntimeClasses);
  }

  public static DiagnosisConfig defaults() {
    return new DiagnosisConfig(
        Duration.ofMinutes(15),
        0.34,
        5,
        Duration.ofHours(24),
        Duration.ofSeconds(60),
        List.of("gvisor", "kata", "kata-qemu", "kata-clh", "kata-fc"),
        null);
  }

  public DiagnosisConfig withStaleWarnAfter(Duration d) {
    return new DiagnosisConfig(
        d,
        rolloutMaxUnavailableFraction,
        expiredRetainedWarnCount,
        finishedWithoutLifecycleWarnAfter,
        refillStallAfter,
        allowedRuntimeClasses,
        controllerVersion,
        health);
  }

  public DiagnosisConfig withRolloutMaxUnavailableFraction(double f) {
    return new DiagnosisConfig(
        staleWarnAfter,
        f,
        expiredRetainedWarnCount,
        finishedWithoutLifecycleWarnAfter,
        refillStallAfter,
        allowedRuntimeClasses,
        controllerVersion,
        health);
  }

  public DiagnosisConfig withExpiredRetainedWarnCount(int n) {
    return new DiagnosisConfig(
        staleWarnAfter,
        rolloutMaxUnavailableFraction,
        n,
        finishedWithoutLifecycleWarnAfter,
        refillStallAfter,
        allowedRuntimeClasses,
        controllerVersion,
        health);
  }

  public DiagnosisConfig withFinishedWithoutLifecycleWarnAfter(Duration d) {
    return new DiagnosisConfig(
        staleWarnAfter,
        rolloutMaxUnavailableFraction,
        expiredRetainedWarnCount,
        d,
        refillStallAfter,
        allowedRuntimeClasses,
        controllerVersion,
        health);
  }

  public DiagnosisConfig withControllerVersion(String v) {
    return new DiagnosisConfig(
        staleWarnAfter,
        rolloutMaxUnavailableFraction,
        expiredRetainedWarnCount,
        finishedWithoutLifecycleWarnAfter,
        refillStallAfter,
        allowedRuntimeClasses,
        v,
        health);
  }

  public DiagnosisConfig withHealth(org.sandboxslo.engine.finding.HealthThresholds h) {
    return new DiagnosisConfig(
        staleWarnAfter,
        rolloutMaxUnavailableFraction,
        expiredRetainedWarnCount,
        finishedWithoutLifecycleWarnAfter,
        refillStallAfter,
        allowedRuntimeClasses,
        controllerVersion,
        h);
  }
}
