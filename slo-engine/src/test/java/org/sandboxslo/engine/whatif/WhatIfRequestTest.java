package org.sandboxslo.engine.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WhatIfRequestTest {
  @Test
  void proposedKeysDefaultToTheCurrentOnes() {
    WhatIfRequest r =
        WhatIfRequest.parse(
            Map.of(
                "seed", 9,
                "demand", Map.of("shape", "steady", "claimsPerSecond", 40, "duration", "1h"),
                "current",
                    Map.of(
                        "pools", 1,
                        "replicas", 450,
                        "refillRatePerPool", 70,
                        "coldStartP50", "45s",
                        "watchLag", 0.25),
                "proposed", Map.of("pools", 4, "refillRatePerPool", "10")));
    assertEquals(9, r.seed());
    assertEquals(new DemandProfile.Steady(40, Duration.ofHours(1)), r.demand());
    assertEquals(1, r.current().pools());
    assertEquals(LogNormal.constant(Duration.ofSeconds(45)), r.current().coldStart());
    assertEquals(Duration.ofMillis(250), r.current().watchLag()); // 0.25 s
    assertEquals(
        new LogNormal(Duration.ofMillis(150), Duration.ofMillis(400)), r.current().warmAdoption());
    assertEquals(4, r.proposed().pools());
    assertEquals(450, r.proposed().replicas()); // from current
    assertEquals(10.0, r.proposed().refillRatePerPool());
    assertEquals(r.current().coldStart(), r.proposed().coldStart());
  }

  @Test
  void recordedOffsetsAsDurationsOrSeconds() {
    WhatIfRequest r =
        WhatIfRequest.parse(
            Map.of(
                "demand",
                Map.of("shape", "recorded", "offsets", List.of("500ms", 2, "1m"), "duration", "2m"),
                "current",
                Map.of("pools", 1, "replicas", 2, "coldStartP50", "3s")));
    assertEquals(
        List.of(Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofMinutes(1)),
        ((DemandProfile.Recorded) r.demand()).offsets());
    assertEquals(1, r.seed()); // default
  }

  @Test
  void eachBadFieldIsNamed() {
    Map<String, Object> demand = Map.of("shape", "steady", "claimsPerSecond", 5, "duration", "1m");
    Map<String, Object> current = Map.of("pools", 1, "replicas", 3, "coldStartP50", "3s");
    assertBad("current", "missing", Map.of("demand", demand));
    assertBad(
        "demand.claimsPerSecond",
        "claimsPerSecond must be > 0, got 0.0",
        Map.of(
            "demand",
            Map.of("shape", "steady", "claimsPerSecond", 0, "duration", "1m"),
            "current",
            current));
    assertBad(
        "demand.shape",
        "expected one of steady, diurnal, bursts, recorded, got 'poisson'",
        Map.of("demand", Map.of("shape", "poisson"), "current", current));
    assertBad(
        "current.replicas",
        "expected a number, got 'many'",
        Map.of(
            "demand",
            demand,
            "current",
            Map.of("pools", 1, "replicas", "many", "coldStartP50", "3s")));
    assertBad(
        "proposed.pools",
        "pools must be >= 1, got 0",
        Map.of("demand", demand, "current", current, "proposed", Map.of("pools", 0)));
    assertBad(
        "proposed.coldStartP95",
        "p95 must be >= p50 (PT3S), got PT1S",
        Map.of("demand", demand, "current", current, "proposed", Map.of("coldStartP95", "1s")));
    assertBad(
        "current.colour",
        "unknown field; known: [coldStartP50, coldStartP95, cpuMillisPerMember, expectationsGate,"
            + " expectationsTimeout, maxBatch, memoryBytesPerMember, pendingCandidateWait, pools,"
            + " refillRatePerPool, replicas, warmAdoptionP50, warmAdoptionP95, watchLag]",
        Map.of(
            "demand",
            demand,
            "current",
            Map.of("pools", 1, "replicas", 3, "coldStartP50", "3s", "colour", "red")));
    assertBad(
        "current.watchLag",
        "expected a duration like 500ms, 45s, 1h (or seconds), got 'soon'",
        Map.of(
            "demand",
            demand,
            "current",
            Map.of("pools", 1, "replicas", 3, "coldStartP50", "3s", "watchLag", "soon")));
  }

  private static void assertBad(String field, String reason, Map<String, ?> body) {
    WhatIfRequest.BadField e =
        assertThrows(WhatIfRequest.BadField.class, () -> WhatIfRequest.parse(body));
    assertEquals(field, e.field());
    assertEquals(reason, e.reason());
  }

  @Test
  void theTextComparisonShowsBothColumns() {
    WhatIfComparison c =
        WhatIfRequest.parse(
                Map.of(
                    "demand",
                    Map.of("shape", "bursts", "burstSize", 250, "every", "1h", "duration", "10m"),
                    "current",
                    Map.of(
                        "pools",
                        1,
                        "replicas",
                        100,
                        "coldStartP50",
                        "5s",
                        "warmAdoptionP50",
                        "100ms",
                        "warmAdoptionP95",
                        "100ms"),
                    "proposed",
                    Map.of("replicas", 250)))
            .run();
    String text = WhatIfRequest.toText(c);
    // current: 100 of 250 warm (40 %); proposed: all 250 warm
    assertEquals(
        "warm-hit ratio                     40.0 %        100.0 %",
        text.lines().filter(l -> l.startsWith("warm-hit")).findFirst().orElseThrow());
    Map<String, Object> tree = WhatIfRequest.toTree(c);
    assertEquals(250L, tree.get("claims"));
    assertEquals(0.6, (Double) ((Map<?, ?>) tree.get("delta")).get("warmHitRatio"), 1e-12);
  }
}
