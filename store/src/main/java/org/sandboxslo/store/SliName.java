package org.sandboxslo.store;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.sandboxslo.engine.sli.LatencySummary;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.WindowSlis;

/**
 * The SLIs the store keeps, by their wire name (column {@code sli}, query parameter {@code sli}).
 * Windowed SLIs are stored once per configured window ({@code sli_window} = {@code 5m}, {@code 1h},
 * ...); pool-state SLIs are point-in-time and stored with window {@link #NOW_WINDOW}. Values are in
 * base units; {@code null} is "no data".
 *
 * <ul>
 *   <li>{@code warm_hit_ratio}: warm / (warm + cold) launches, 0..1
 *   <li>{@code warm_launches}, {@code cold_launches}: claims that became Ready in the window
 *   <li>{@code claim_to_ready_p50_seconds}, {@code _p95_}, {@code _p99_}: claim first seen → Ready,
 *       all launch types
 *   <li>{@code claim_to_ready_warm_p95_seconds}, {@code claim_to_ready_cold_p95_seconds}: the same
 *       by launch type
 *   <li>{@code cold_start_p95_seconds}: pool member created → member Ready (refill)
 *   <li>{@code resume_error_ratio}: failed resumes / resumes ended, 0..1
 *   <li>{@code pool_ready_fraction}: status.readyReplicas / spec.replicas (upstream view, window
 *       {@code now})
 *   <li>{@code pool_ready_fraction_current_template}: Ready members on the current template /
 *       spec.replicas (window {@code now})
 *   <li>{@code stale_members}: unclaimed members on an outdated template (window {@code now})
 * </ul>
 */
public enum SliName {
  WARM_HIT_RATIO("warm_hit_ratio", WindowSlis::warmHitRatio, null),
  WARM_LAUNCHES("warm_launches", w -> (double) w.warmLaunches(), null),
  COLD_LAUNCHES("cold_launches", w -> (double) w.coldLaunches(), null),
  CLAIM_TO_READY_P50_SECONDS(
      "claim_to_ready_p50_seconds", w -> seconds(w.claimToReady(), LatencySummary::p50), null),
  CLAIM_TO_READY_P95_SECONDS(
      "claim_to_ready_p95_seconds", w -> seconds(w.claimToReady(), LatencySummary::p95), null),
  CLAIM_TO_READY_P99_SECONDS(
      "claim_to_ready_p99_seconds", w -> seconds(w.claimToReady(), LatencySummary::p99), null),
  CLAIM_TO_READY_WARM_P95_SECONDS(
      "claim_to_ready_warm_p95_seconds",
      w -> seconds(w.claimToReadyWarm(), LatencySummary::p95),
      null),
  CLAIM_TO_READY_COLD_P95_SECONDS(
      "claim_to_ready_cold_p95_seconds",
      w -> seconds(w.claimToReadyCold(), LatencySummary::p95),
      null),
  COLD_START_P95_SECONDS(
      "cold_start_p95_seconds", w -> seconds(w.coldStart(), LatencySummary::p95), null),
  RESUME_ERROR_RATIO("resume_error_ratio", WindowSlis::resumeErrorRatio, null),
  POOL_READY_FRACTION("pool_ready_fraction", null, PoolGauge::readyFraction),
  POOL_READY_FRACTION_CURRENT_TEMPLATE(
      "pool_ready_fraction_current_template", null, PoolGauge::readyFractionCurrentTemplate),
  STALE_MEMBERS("stale_members", null, p -> (double) p.staleMembers());

  /** The {@code sli_window} value of pool-state SLIs. */
  public static final String NOW_WINDOW = "now";

  private final String wireName;
  private final Function<WindowSlis, Double> ofWindow;
  private final Function<PoolGauge, Double> ofPool;

  SliName(
      String wireName, Function<WindowSlis, Double> ofWindow, Function<PoolGauge, Double> ofPool) {
    this.wireName = wireName;
    this.ofWindow = ofWindow;
    this.ofPool = ofPool;
  }

  /** The stored and queried name, e.g. {@code warm_hit_ratio}. */
  public String wireName() {
    return wireName;
  }

  /** True for point-in-time pool SLIs, stored with window {@code now}. */
  public boolean poolState() {
    return ofPool != null;
  }

  /**
   * The value of a windowed SLI; {@code null} for no data.
   *
   * @throws IllegalStateException for a pool-state SLI
   */
  public Double value(WindowSlis w) {
    if (ofWindow == null) {
      throw new IllegalStateException(wireName + " is a pool-state SLI");
    }
    return finiteOrNull(ofWindow.apply(w));
  }

  /**
   * The value of a pool-state SLI; {@code null} for no data.
   *
   * @throws IllegalStateException for a windowed SLI
   */
  public Double value(PoolGauge p) {
    if (ofPool == null) {
      throw new IllegalStateException(wireName + " is a windowed SLI");
    }
    return finiteOrNull(ofPool.apply(p));
  }

  /** Finds an SLI by wire name; empty when unknown. */
  public static Optional<SliName> byWireName(String name) {
    return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst();
  }

  /** All wire names, in declaration order. */
  public static List<String> wireNames() {
    return Arrays.stream(values()).map(SliName::wireName).toList();
  }

  /**
   * A duration as seconds with microsecond precision (sub-microsecond parts are truncated), e.g.
   * {@code PT0.15S} → {@code 0.15}.
   */
  public static double seconds(Duration d) {
    long micros = d.getSeconds() * 1_000_000L + d.getNano() / 1_000;
    return micros / 1e6;
  }

  private static Double seconds(LatencySummary s, Function<LatencySummary, Duration> q) {
    return s == null ? null : seconds(q.apply(s));
  }

  private static Double finiteOrNull(Double v) {
    return v == null || !Double.isFinite(v) ? null : v;
  }
}
