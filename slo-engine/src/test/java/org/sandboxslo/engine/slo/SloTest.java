package org.sandboxslo.engine.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SloTest {
  static Map<String, Object> c12(Object objective) {
    return Map.of(
        "name",
        "warm-hit-tpl-py",
        "sli",
        "warm_hit_ratio",
        "selector",
        Map.of("namespace", "team-a", "sandboxTemplate", "tpl-py"),
        "objective",
        objective,
        "window",
        "30d",
        "alerting",
        Map.of("pageBurnRates", List.of(Map.of("long", "1h", "short", "5m", "factor", 14.4))));
  }

  @Test
  void c12ObjectiveHundredIsRejectedWithFieldAndReason() {
    SloDefinitions.Parsed p = SloDefinitions.parse(c12(100));
    assertFalse(p.isValid());
    assertEquals(
        List.of(
            new FieldError(
                "objective",
                "objective must be > 0 and < 100; 100 leaves no error budget and an infinite burn rate")),
        p.errors());
  }

  @Test
  void c12ObjectiveNinetyFiveIsAccepted() {
    SloDefinitions.Parsed p = SloDefinitions.parse(c12(95));
    assertTrue(p.isValid());
    SloDefinition d = p.definition();
    assertEquals(0.05, d.errorBudget(), 1e-12);
    assertEquals(Duration.ofDays(30), d.period());
    assertEquals(
        List.of(new BurnRateTier("fast", "page", Duration.ofHours(1), Duration.ofMinutes(5), 14.4)),
        d.tiers());
    assertTrue(d.selects("team-a", "tpl-py"));
    assertFalse(d.selects("team-a", "tpl-go"));
  }

  @Test
  void everyBadFieldIsReported() {
    SloDefinitions.Parsed p =
        SloDefinitions.parse(
            Map.of(
                "name",
                "Bad_Name",
                "sli",
                "latency",
                "objective",
                "x",
                "window",
                "soon",
                "selector",
                Map.of("sandboxTemplate", "t"),
                "colour",
                "red"));
    assertEquals(
        List.of(
            new FieldError("colour", "unknown field"),
            new FieldError(
                "name",
                "must be a DNS-1123 label (lowercase letters, digits, '-', at most 63), got 'Bad_Name'"),
            new FieldError(
                "sli",
                "unknown SLI 'latency'; known: warm_hit_ratio, claim_to_ready_latency, pool_ready_fraction, resume_success_ratio"),
            new FieldError(
                "selector.namespace", "is required when selector.sandboxTemplate is set"),
            new FieldError("objective", "must be a number, got 'x'"),
            new FieldError("window", "expected a duration like 30s, 5m, 1h, got 'soon'")),
        p.errors());
  }

  @Test
  void defaultTiersScaleWithThePeriod() {
    List<BurnRateTier> thirty = BurnRateTier.defaultsFor(Duration.ofDays(30));
    assertEquals(Duration.ofHours(1), thirty.get(0).longWindow());
    assertEquals(Duration.ofMinutes(5), thirty.get(0).shortWindow());
    assertEquals(List.of(14.4, 6.0, 3.0, 1.0), thirty.stream().map(BurnRateTier::factor).toList());
    List<BurnRateTier> twoHours = BurnRateTier.defaultsFor(Duration.ofHours(2));
    // 1h × 2h/720h = 10 s; 3d × 2h/720h = 12 min
    assertEquals(Duration.ofSeconds(10), twoHours.get(0).longWindow());
    assertEquals(Duration.ofMinutes(12), twoHours.get(3).longWindow());
  }

  @Test
  void openSloMapsWhatItCanAndSaysWhatNot() {
    SloDefinitions.Parsed p =
        SloDefinitions.fromOpenSlo(
            Map.of(
                "apiVersion",
                "openslo/v1",
                "kind",
                "SLO",
                "metadata",
                Map.of("name", "warm-hit", "labels", Map.of("sandboxslo.dev/namespace", "demo")),
                "spec",
                Map.of(
                    "service",
                    "sandboxes",
                    "indicatorRef",
                    "warm_hit_ratio",
                    "budgetingMethod",
                    "Occurrences",
                    "objectives",
                    List.of(Map.of("target", 0.95)),
                    "timeWindow",
                    List.of(Map.of("duration", "28d", "isRolling", true)))));
    assertTrue(p.isValid(), p.errors().toString());
    assertEquals(95.0, p.definition().objectivePercent(), 1e-9);
    assertEquals("demo", p.definition().namespace());
    assertEquals(List.of("spec.service"), p.ignored());
    SloDefinitions.Parsed bad =
        SloDefinitions.fromOpenSlo(
            Map.of(
                "apiVersion",
                "openslo/v1",
                "kind",
                "SLO",
                "metadata",
                Map.of("name", "x"),
                "spec",
                Map.of(
                    "indicatorRef",
                    "warm_hit_ratio",
                    "objectives",
                    List.of(Map.of("target", 1.0)))));
    assertEquals(
        List.of(new FieldError("spec.objectives[0].target", SloDefinitions.OBJECTIVE_REASON)),
        bad.errors());
  }

  static final Instant T = Instant.parse("2026-09-01T02:00:00Z");

  @Test
  void c12BudgetFromSummedCountsIgnoresEmptyWindows() {
    SloLedger l = new SloLedger(SloDefinitions.parse(c12(95)).definition());
    // 02:00–02:10: no claims; 02:10–02:15: one warm claim
    l.record(T.plus(Duration.ofMinutes(12)), 1, 1);
    SloStatus s = l.evaluate(T.plus(Duration.ofMinutes(15)));
    assertEquals(1, s.valid());
    assertEquals(0.0, s.budgetConsumed());
    assertEquals(1.0, s.budgetRemaining());
    assertEquals(1.0, s.sli());
    assertEquals(SloStatus.State.OK, s.state());
    SloStatus.TierStatus fast = s.tiers().get(0);
    assertFalse(fast.firing());
    assertEquals(0.0, fast.longWindow().burnRate());
    // an empty ledger is no data, not NaN
    SloStatus empty = new SloLedger(SloDefinitions.parse(c12(95)).definition()).evaluate(T);
    assertEquals(SloStatus.State.NO_DATA, empty.state());
    assertNull(empty.sli());
    assertNull(empty.budgetRemaining());
    assertNull(empty.tiers().get(0).shortWindow().burnRate());
  }

  @Test
  void fastTierFiresOnlyWhenBothWindowsBurnAndClearsAfterRecovery() {
    SloDefinition d =
        SloDefinitions.parse(
                Map.of(
                    "name",
                    "w",
                    "sli",
                    "warm_hit_ratio",
                    "objective",
                    95,
                    "window",
                    "30d",
                    "minEvents",
                    5))
            .definition();
    SloLedger l = new SloLedger(d);
    // ten days ago: a lot of good traffic, so the budget is far from spent
    l.record(T.minus(Duration.ofDays(10)), 100_000, 100_000);
    // 55 minutes of healthy traffic: 10 claims/min, all warm
    for (int m = 0; m < 55; m++) {
      l.record(T.plus(Duration.ofMinutes(m)), 10, 10);
    }
    // 5 minutes of 100 % cold: error ratio 1.0 in the short window, 50/600 over the hour
    for (int m = 55; m < 60; m++) {
      l.record(T.plus(Duration.ofMinutes(m)), 0, 10);
    }
    SloStatus s = l.evaluate(T.plus(Duration.ofMinutes(60)).minusMillis(1));
    SloStatus.TierStatus fast = s.tiers().get(0);
    assertEquals(20.0, fast.shortWindow().burnRate(), 1e-9); // 1.0 / 0.05
    assertEquals(50.0 / 600 / 0.05, fast.longWindow().burnRate(), 1e-9); // 1.667 < 14.4
    assertFalse(fast.firing());
    // keep burning for 40 more minutes: long window error ratio climbs past 14.4 × 5 % = 72 %
    for (int m = 60; m < 100; m++) {
      l.record(T.plus(Duration.ofMinutes(m)), 0, 10);
    }
    SloStatus burning = l.evaluate(T.plus(Duration.ofMinutes(100)).minusMillis(1));
    assertTrue(burning.tiers().get(0).firing());
    assertEquals(SloStatus.State.BURNING, burning.state());
    assertTrue(burning.timeToExhaustion().compareTo(Duration.ZERO) > 0);
    // recovery: 5 healthy minutes clear the short window, so the tier stops firing
    for (int m = 100; m < 106; m++) {
      l.record(T.plus(Duration.ofMinutes(m)), 10, 10);
    }
    assertFalse(l.evaluate(T.plus(Duration.ofMinutes(106)).minusMillis(1)).tiers().get(0).firing());
  }

  @Test
  void exclusionsRemoveMaintenanceFromTheBudget() {
    SloDefinition d =
        SloDefinitions.parse(
                Map.of("name", "w", "sli", "warm_hit_ratio", "objective", 95, "window", "1d"))
            .definition();
    SloLedger l = new SloLedger(d);
    l.record(T.plus(Duration.ofHours(1)), 0, 100);
    l.record(T.plus(Duration.ofHours(3)), 100, 100);
    assertEquals(SloStatus.State.EXHAUSTED, l.evaluate(T.plus(Duration.ofHours(4))).state());
    l.exclude(
        new BudgetExclusion(
            T.plus(Duration.ofHours(1)), T.plus(Duration.ofHours(2)), "node upgrade", "alice"));
    SloStatus s = l.evaluate(T.plus(Duration.ofHours(4)));
    assertEquals(100, s.valid());
    assertEquals(1.0, s.budgetRemaining());
  }

  @Test
  void timeSliceSloCountsSlicesNotSamples() {
    SloDefinition d =
        SloDefinitions.parse(
                Map.of(
                    "name", "drain", "sli", "pool_ready_fraction", "objective", 99, "window", "1d"))
            .definition();
    SloLedger l = new SloLedger(d);
    Duration res = l.resolution();
    l.recordSlice(T, true);
    l.recordSlice(T.plusMillis(10), true); // same slice, still one valid slice
    l.recordSlice(T.plus(res), true);
    l.recordSlice(T.plus(res).plusMillis(5), false); // the second slice turns bad
    SloStatus s = l.evaluate(T.plus(res.multipliedBy(3)));
    assertEquals(2, s.valid());
    assertEquals(1, s.good());
  }
}
