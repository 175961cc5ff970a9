package org.sandboxslo.console;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.LatencySummary;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.SliKey;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.Totals;
import org.sandboxslo.engine.sli.WindowSlis;

/** Hand-built snapshots and mutable sources shared by the tests. */
public final class Fixtures {
  public static final Instant AT = Instant.parse("2026-11-29T08:00:00Z");

  private Fixtures() {}

  public static LatencySummary latency(long count, long p50Ms, long p95Ms, long p99Ms, long maxMs) {
    return new LatencySummary(
        count,
        Duration.ofMillis(p50Ms),
        Duration.ofMillis(p95Ms),
        Duration.ofMillis(p99Ms),
        Duration.ofMillis(maxMs));
  }

  public static final PoolGauge PYTHON_POOL = new PoolGauge(8, 8, 7, 0.875, 8, 7, 7, 0.875, 0, 1);
  public static final PoolGauge EMPTY_POOL =
      new PoolGauge(0, null, null, null, 0, 0, 0, null, 0, 0);

  /** 5m: 10 warm, 2 cold, warm-hit 0.8333; 1h: same counts plus 30 warm, ratio 0.95. */
  public static List<WindowSlis> pythonWindows(double warmHit5m) {
    return List.of(
        new WindowSlis(
            Duration.ofMinutes(5),
            10,
            2,
            warmHit5m,
            latency(12, 150, 3100, 3400, 3500),
            latency(10, 120, 200, 250, 300),
            latency(2, 3100, 3400, 3400, 3500),
            latency(5, 20_000, 31_000, 33_000, 33_000),
            0,
            0,
            null,
            null),
        new WindowSlis(
            Duration.ofHours(1),
            38,
            2,
            0.95,
            latency(40, 140, 3000, 3400, 3500),
            null,
            null,
            null,
            4,
            1,
            0.25,
            latency(3, 1500, 2000, 2000, 2000)));
  }

  public static List<WindowSlis> emptyWindows() {
    return List.of(
        new WindowSlis(Duration.ofMinutes(5), 0, 0, null, null, null, null, null, 0, 0, null, null),
        new WindowSlis(Duration.ofHours(1), 0, 0, null, null, null, null, null, 0, 0, null, null));
  }

  public static FleetSnapshot snapshot() {
    return snapshot(AT, 0.8333, PYTHON_POOL);
  }

  /**
   * Templates demo/go-runtime (missing, no data) and demo/python-runtime, pool
   * demo/python-runtime-pool, namespace demo; all informers synced but SandboxClaim.
   */
  public static FleetSnapshot snapshot(Instant at, double warmHit5m, PoolGauge pool) {
    Totals totals = new Totals(40, 8, 3, 1, 2);
    SliSnapshot go =
        new SliSnapshot(
            SliKey.template("demo", "go-runtime"),
            false,
            List.of(),
            EMPTY_POOL,
            emptyWindows(),
            Totals.ZERO);
    SliSnapshot python =
        new SliSnapshot(
            SliKey.template("demo", "python-runtime"),
            true,
            List.of("python-runtime-pool"),
            pool,
            pythonWindows(warmHit5m),
            totals);
    SliSnapshot pythonPool =
        new SliSnapshot(
            SliKey.pool("demo", "python-runtime-pool"),
            true,
            List.of("python-runtime"),
            pool,
            pythonWindows(warmHit5m),
            totals);
    SliSnapshot ns =
        new SliSnapshot(
            SliKey.namespace("demo"),
            true,
            List.of("go-runtime", "python-runtime"),
            pool,
            pythonWindows(warmHit5m),
            totals);
    Map<Kind, Boolean> synced = new EnumMap<>(Kind.class);
    for (Kind k : Kind.values()) {
      synced.put(k, k != Kind.SANDBOX_CLAIM);
    }
    return new FleetSnapshot(
        at,
        List.of(go, python),
        List.of(pythonPool),
        List.of(ns),
        synced,
        Map.of(
            Kind.SANDBOX,
            new FleetSnapshot.WatchLag(Duration.ofMillis(200), Duration.ofMillis(1500))));
  }

  /** Mutable sources for tests. */
  public static final class TestSources implements ConsoleSources {
    public volatile FleetSnapshot snapshot;
    public volatile boolean ready;
    public volatile RuntimeException ingestFailure;
    public final Map<String, Long> ingestErrors = new ConcurrentHashMap<>();
    public volatile Map<Kind, org.sandboxslo.engine.diagnosis.KindLag> watchLag = Map.of();
    public volatile Map<Kind, org.sandboxslo.engine.diagnosis.InformerHealth.Suspicion>
        suspectStale = Map.of();
    public volatile List<org.sandboxslo.engine.diagnosis.UnservedClaim> unserved = List.of();
    public volatile List<org.sandboxslo.console.engine.FindingState> findings = List.of();

    @Override
    public FleetSnapshot snapshot() {
      return snapshot;
    }

    @Override
    public Map<Kind, org.sandboxslo.engine.diagnosis.KindLag> watchLag() {
      return watchLag;
    }

    @Override
    public Map<Kind, org.sandboxslo.engine.diagnosis.InformerHealth.Suspicion> suspectStale() {
      return suspectStale;
    }

    @Override
    public List<org.sandboxslo.engine.diagnosis.UnservedClaim> unservedClaims() {
      return unserved;
    }

    @Override
    public List<org.sandboxslo.console.engine.FindingState> findings() {
      return findings;
    }

    @Override
    public Map<String, Long> ingestErrors() {
      if (ingestFailure != null) {
        throw ingestFailure;
      }
      return Map.copyOf(ingestErrors);
    }

    @Override
    public boolean ready() {
      return ready;
    }
  }
}
