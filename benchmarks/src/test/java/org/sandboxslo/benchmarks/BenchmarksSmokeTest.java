package org.sandboxslo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.sli.SliKey;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;

/**
 * The benchmark fixtures and harnesses on tiny inputs (surefire runs this; JMH runs only through
 * {@code benchmarks/run}).
 */
class BenchmarksSmokeTest {
  @Test
  void theFleetStreamCountsAsDesigned() {
    // 2 templates × 3 members; claims 0..99 at 10/s: claim c goes to template c % 2, is cold when
    // c % 10 == 0 (0, 10, ..., 90: all even → tpl-0). tpl-0: 50 claims, 10 cold, 40 warm;
    // tpl-1: 50 warm
    Fleet fleet = new Fleet(2, 3);
    FleetEngine e = fleet.engine();
    assertEquals(6, fleet.sandboxes());
    for (FleetEvent ev : fleet.claims(0, 100, 10)) {
      e.apply(ev);
    }
    List<SliSnapshot> tpls = e.snapshot(Fleet.T0.plusSeconds(60)).templates();
    WindowSlis t0 = hour(tpls, "tpl-0");
    WindowSlis t1 = hour(tpls, "tpl-1");
    assertEquals(40, t0.warmLaunches());
    assertEquals(10, t0.coldLaunches());
    assertEquals(50, t1.warmLaunches());
    assertEquals(0, t1.coldLaunches());
    // warm latency 150 + c % 300 ms: tpl-1's claims are odd c = 1..99 → 151..249 ms, median
    // (rank 25) c = 49 → 199 ms, reported as the middle of its sketch range [198.656, 199.68) ms
    assertEquals(Duration.ofNanos(199_168_000), t1.claimToReadyWarm().p50());
  }

  private static WindowSlis hour(List<SliSnapshot> tpls, String name) {
    return tpls.stream()
        .filter(s -> s.key().equals(SliKey.template(Fleet.NAMESPACE, name)))
        .findFirst()
        .orElseThrow()
        .windows()
        .stream()
        .filter(w -> w.window().equals(Duration.ofHours(1)))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void engineQuantilesAreWithinOnePercentOfExact() {
    // the accuracy goal on 20,000 warm + 20,000 cold log-normal samples (seed 1); the
    // histogram_quantile column over upstream's buckets is far off for the all-launch p95
    List<AccuracyReport.Row> rows = AccuracyReport.measure(1, 20_000);
    assertEquals(9, rows.size());
    for (AccuracyReport.Row r : rows) {
      assertTrue(Math.abs(r.engineError()) < 0.01, r.toString());
    }
    AccuracyReport.Row allP95 =
        rows.stream()
            .filter(r -> r.population().equals("all") && r.quantile() == 0.95)
            .findFirst()
            .orElseThrow();
    assertTrue(allP95.histogramQuantileError() > 0.10, allP95.toString());
  }

  @Test
  void exactNearestRankAndCumulativeBuckets() {
    // ranks: ceil(0.5 × 4) = 2 → 20; ceil(0.95 × 4) = 4 → 40
    long[] sorted = {10, 20, 30, 40};
    assertEquals(20, AccuracyReport.exactNearestRank(sorted, 0.5));
    assertEquals(40, AccuracyReport.exactNearestRank(sorted, 0.95));
    // 100 ms and 250 ms land in le=100 and le=250 (a sample equal to a bound counts in it)
    var b = AccuracyReport.cumulative(new long[] {100_000_000L, 250_000_000L, 300_000_000L});
    assertEquals(1, b.get(0).count()); // le 100
    assertEquals(2, b.get(1).count()); // le 250
    assertEquals(3, b.get(2).count()); // le 500
  }

  @Test
  void medianOfForkMeans() {
    assertEquals(2.0, BenchmarkSet.median(List.of(1.0, 2.0, 3.0)));
    assertEquals(2.5, BenchmarkSet.median(List.of(1.0, 2.0, 3.0, 4.0)));
  }
}
