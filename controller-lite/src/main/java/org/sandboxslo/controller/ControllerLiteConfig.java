package org.sandboxslo.controller;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.controller.node.LatencyDistribution;
import org.sandboxslo.engine.time.Durations;

/**
 * controller-lite policy, immutable. Built from a {@code Map<String,String>} with keys under {@code
 * sloconsole.controller.} (unknown keys under that prefix are rejected; other keys are ignored).
 * Durations accept {@code 150ms}, {@code 3s}, {@code 5m} or ISO-8601.
 *
 * @param workers reconcile worker threads, 1..64; default 4 ({@code workers})
 * @param maxBatchSize max creates/deletes per pool pass, &gt;= 1; default 300 (upstream {@code
 *     --sandbox-warm-pool-max-batch-size}) ({@code max-batch-size})
 * @param maxRefillRate per-pool token bucket in sandboxes/s, &gt;= 0, 0 = unpaced; default 0
 *     (upstream {@code --sandbox-warm-pool-max-refill-rate}) ({@code max-refill-rate})
 * @param readinessGracePeriod not-Ready members older than this are replaced; default 5m ({@code
 *     readiness-grace-period})
 * @param expectationsTimeout unobserved creates/deletes stop gating the pool after this; default 5m
 *     ({@code expectations-timeout})
 * @param expectationsRequeue fallback requeue while the gate is closed; default 30s ({@code
 *     expectations-requeue})
 * @param resyncPeriod informer resync (fail-safe full reconcile); default 30s ({@code
 *     resync-period})
 * @param coldStart simulated node: Sandbox created → Ready; default p50 3s, p95 8s ({@code
 *     cold-start-p50}, {@code cold-start-p95})
 * @param warmAdoption delay before a warm adoption completes; default p50 150ms, p95 400ms ({@code
 *     warm-adoption-p50}, {@code warm-adoption-p95})
 * @param resume Suspended → Running → Ready; default p50 2s, p95 5s ({@code resume-p50}, {@code
 *     resume-p95})
 * @param suspend pod termination on suspend (PodTerminating → PodTerminated); default p50 500ms,
 *     p95 1s ({@code suspend-p50}, {@code suspend-p95})
 * @param resumeFailureProbability probability a resume ends in Ready=False/ReconcilerError, 0..1;
 *     default 0 ({@code resume-failure-probability})
 * @param seed seed of the simulated node's random generator; default 1 ({@code seed})
 */
public record ControllerLiteConfig(
    int workers,
    int maxBatchSize,
    double maxRefillRate,
    Duration readinessGracePeriod,
    Duration expectationsTimeout,
    Duration expectationsRequeue,
    Duration resyncPeriod,
    LatencyDistribution coldStart,
    LatencyDistribution warmAdoption,
    LatencyDistribution resume,
    LatencyDistribution suspend,
    double resumeFailureProbability,
    long seed) {

  public static final String PREFIX = "sloconsole.controller.";
  public static final String WORKERS = PREFIX + "workers";
  public static final String MAX_BATCH_SIZE = PREFIX + "max-batch-size";
  public static final String MAX_REFILL_RATE = PREFIX + "max-refill-rate";
  public static final String READINESS_GRACE_PERIOD = PREFIX + "readiness-grace-period";
  public static final String EXPECTATIONS_TIMEOUT = PREFIX + "expectations-timeout";
  public static final String EXPECTATIONS_REQUEUE = PREFIX + "expectations-requeue";
  public static final String RESYNC_PERIOD = PREFIX + "resync-period";
  public static final String COLD_START_P50 = PREFIX + "cold-start-p50";
  public static final String COLD_START_P95 = PREFIX + "cold-start-p95";
  public static final String WARM_ADOPTION_P50 = PREFIX + "warm-adoption-p50";
  public static final String WARM_ADOPTION_P95 = PREFIX + "warm-adoption-p95";
  public static final String RESUME_P50 = PREFIX + "resume-p50";
  public static final String RESUME_P95 = PREFIX + "resume-p95";
  public static final String SUSPEND_P50 = PREFIX + "suspend-p50";
  public static final String SUSPEND_P95 = PREFIX + "suspend-p95";
  public static final String RESUME_FAILURE_PROBABILITY = PREFIX + "resume-failure-probability";
  public static final String SEED = PREFIX + "seed";

  /** All keys this record understands. */
  public static final Set<String> KEYS =
      Set.of(
          WORKERS,
          MAX_BATCH_SIZE,
          MAX_REFILL_RATE,
          READINESS_GRACE_PERIOD,
          EXPECTATIONS_TIMEOUT,
          EXPECTATIONS_REQUEUE,
          RESYNC_PERIOD,
          COLD_START_P50,
          COLD_START_P95,
          WARM_ADOPTION_P50,
          WARM_ADOPTION_P95,
          RESUME_P50,
          RESUME_P95,
          SUSPEND_P50,
          SUSPEND_P95,
          RESUME_FAILURE_PROBABILITY,
          SEED);

  public ControllerLiteConfig {
    if (workers < 1 || workers > 64) {
      throw new IllegalArgumentException("workers must be in 1..64, got " + workers);
    }
    if (maxBatchSize < 1) {
      throw new IllegalArgumentException("max batch size must be >= 1, got " + maxBatchSize);
    }
    if (!(maxRefillRate >= 0) || Double.isInfinite(maxRefillRate)) {
      throw new IllegalArgumentException("max refill rate must be >= 0, got " + maxRefillRate);
    }
    positive("readiness grace period", readinessGracePeriod);
    positive("expectations timeout", expectationsTimeout);
    positive("expectations requeue", expectationsRequeue);
    positive("resync period", resyncPeriod);
    Objects.requireNonNull(coldStart, "coldStart");
    Objects.requireNonNull(warmAdoption, "warmAdoption");
    Objects.requireNonNull(resume, "resume");
    Objects.requireNonNull(suspend, "suspend");
    if (!(resumeFailureProbability >= 0 && resumeFailureProbability <= 1)) {
      throw new IllegalArgumentException(
          "resume failure probability must be in 0..1, got " + resumeFailureProbability);
    }
  }

  private static void positive(String what, Duration d) {
    Objects.requireNonNull(d, what);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(what + " must be > 0, got " + d);
    }
  }

  /** Upstream defaults, node latencies p50 3s / p95 8s. */
  public static ControllerLiteConfig defaults() {
    return new ControllerLiteConfig(
        4,
        300,
        0,
        Duration.ofMinutes(5),
        Duration.ofMinutes(5),
        Duration.ofSeconds(30),
        Duration.ofSeconds(30),
        new LatencyDistribution(Duration.ofSeconds(3), Duration.ofSeconds(8)),
        new LatencyDistribution(Duration.ofMillis(150), Duration.ofMillis(400)),
        new LatencyDistribution(Duration.ofSeconds(2), Duration.ofSeconds(5)),
        new LatencyDistribution(Duration.ofMillis(500), Duration.ofSeconds(1)),
        0,
        1);
  }

  /**
   * Builds the config from {@code sloconsole.controller.*} keys over {@link #defaults()}.
   *
   * @throws IllegalArgumentException naming the key, for an unknown key under the prefix or a value
   *     that does not parse or breaks an invariant
   */
  public static ControllerLiteConfig fromMap(Map<String, String> map) {
    for (String k : map.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    ControllerLiteConfig d = defaults();
    try {
      return new ControllerLiteConfig(
          intOf(map, WORKERS, d.workers()),
          intOf(map, MAX_BATCH_SIZE, d.maxBatchSize()),
          doubleOf(map, MAX_REFILL_RATE, d.maxRefillRate()),
          durationOf(map, READINESS_GRACE_PERIOD, d.readinessGracePeriod()),
          durationOf(map, EXPECTATIONS_TIMEOUT, d.expectationsTimeout()),
          durationOf(map, EXPECTATIONS_REQUEUE, d.expectationsRequeue()),
          durationOf(map, RESYNC_PERIOD, d.resyncPeriod()),
          new LatencyDistribution(
              durationOf(map, COLD_START_P50, d.coldStart().p50()),
              durationOf(map, COLD_START_P95, d.coldStart().p95())),
          new LatencyDistribution(
              durationOf(map, WARM_ADOPTION_P50, d.warmAdoption().p50()),
              durationOf(map, WARM_ADOPTION_P95, d.warmAdoption().p95())),
          new LatencyDistribution(
              durationOf(map, RESUME_P50, d.resume().p50()),
              durationOf(map, RESUME_P95, d.resume().p95())),
          new LatencyDistribution(
              durationOf(map, SUSPEND_P50, d.suspend().p50()),
              durationOf(map, SUSPEND_P95, d.suspend().p95())),
          doubleOf(map, RESUME_FAILURE_PROBABILITY, d.resumeFailureProbability()),
          longOf(map, SEED, d.seed()));
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(PREFIX)) {
        throw e;
      }
      throw new IllegalArgumentException("sloconsole.controller: " + e.getMessage(), e);
    }
  }

  /** The config as key → value text, for the startup log (nothing here is secret). */
  public Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(WORKERS, Integer.toString(workers));
    m.put(MAX_BATCH_SIZE, Integer.toString(maxBatchSize));
    m.put(MAX_REFILL_RATE, Double.toString(maxRefillRate));
    m.put(READINESS_GRACE_PERIOD, Durations.format(readinessGracePeriod));
    m.put(EXPECTATIONS_TIMEOUT, Durations.format(expectationsTimeout));
    m.put(EXPECTATIONS_REQUEUE, Durations.format(expectationsRequeue));
    m.put(RESYNC_PERIOD, Durations.format(resyncPeriod));
    m.put(COLD_START_P50, Durations.format(coldStart.p50()));
    m.put(COLD_START_P95, Durations.format(coldStart.p95()));
    m.put(WARM_ADOPTION_P50, Durations.format(warmAdoption.p50()));
    m.put(WARM_ADOPTION_P95, Durations.format(warmAdoption.p95()));
    m.put(RESUME_P50, Durations.format(resume.p50()));
    m.put(RESUME_P95, Durations.format(resume.p95()));
    m.put(SUSPEND_P50, Durations.format(suspend.p50()));
    m.put(SUSPEND_P95, Durations.format(suspend.p95()));
    m.put(RESUME_FAILURE_PROBABILITY, Double.toString(resumeFailureProbability));
    m.put(SEED, Long.toString(seed));
    return m;
  }

  private static int intOf(Map<String, String> m, String k, int def) {
    String v = m.get(k);
    if (v == null) {
      return def;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k + ": expected an integer, got '" + v + "'");
    }
  }

  private static long longOf(Map<String, String> m, String k, long def) {
    String v = m.get(k);
    if (v == null) {
      return def;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k + ": expected an integer, got '" + v + "'");
    }
  }

  private static double doubleOf(Map<String, String> m, String k, double def) {
    String v = m.get(k);
    if (v == null) {
      return def;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k + ": expected a number, got '" + v + "'");
    }
  }

  private static Duration durationOf(Map<String, String> m, String k, Duration def) {
    String v = m.get(k);
    return v == null ? def : Durations.parse(k, v);
  }
}
