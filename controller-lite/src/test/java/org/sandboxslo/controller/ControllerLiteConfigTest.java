package org.sandboxslo.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sandboxslo.controller.node.LatencyDistribution;

class ControllerLiteConfigTest {
  @Test
  void defaultsMatchUpstreamFlags() {
    ControllerLiteConfig d = ControllerLiteConfig.fromMap(Map.of("other.key", "x"));
    assertEquals(ControllerLiteConfig.defaults(), d);
    assertEquals(300, d.maxBatchSize());
    assertEquals(0.0, d.maxRefillRate());
    assertEquals(Duration.ofMinutes(5), d.readinessGracePeriod());
    assertEquals(Duration.ofMinutes(5), d.expectationsTimeout());
    assertEquals(Duration.ofSeconds(30), d.expectationsRequeue());
    assertEquals(
        new LatencyDistribution(Duration.ofSeconds(3), Duration.ofSeconds(8)), d.coldStart());
    assertEquals(
        new LatencyDistribution(Duration.ofMillis(150), Duration.ofMillis(400)), d.warmAdoption());
  }

  @Test
  void parsesTypedValues() {
    ControllerLiteConfig c =
        ControllerLiteConfig.fromMap(
            Map.of(
                ControllerLiteConfig.MAX_REFILL_RATE, "12.5",
                ControllerLiteConfig.COLD_START_P50, "50ms",
                ControllerLiteConfig.COLD_START_P95, "PT0.1S",
                ControllerLiteConfig.RESUME_FAILURE_PROBABILITY, "0.25"));
    assertEquals(12.5, c.maxRefillRate());
    assertEquals(Duration.ofMillis(50), c.coldStart().p50());
    assertEquals(Duration.ofMillis(100), c.coldStart().p95());
    assertEquals(0.25, c.resumeFailureProbability());
  }

  @Test
  void rejectsUnknownKeysAndBadValuesWithExactMessages() {
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> ControllerLiteConfig.fromMap(Map.of("sloconsole.controller.max-batch", "3")));
    assertEquals(
        true,
        unknown
            .getMessage()
            .startsWith("unknown configuration key sloconsole.controller.max-batch; known: ["));
    assertEquals(
        "sloconsole.controller.max-batch-size: expected an integer, got 'lots'",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ControllerLiteConfig.fromMap(
                        Map.of(ControllerLiteConfig.MAX_BATCH_SIZE, "lots")))
            .getMessage());
    assertEquals(
        "sloconsole.controller: max refill rate must be >= 0, got -1.0",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ControllerLiteConfig.fromMap(
                        Map.of(ControllerLiteConfig.MAX_REFILL_RATE, "-1")))
            .getMessage());
    assertEquals(
        "sloconsole.controller: p95 must be >= p50, got p50=PT3S p95=PT1S",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ControllerLiteConfig.fromMap(Map.of(ControllerLiteConfig.COLD_START_P95, "1s")))
            .getMessage());
  }

  @Test
  void logNormalSamplesHitTheConfiguredQuantiles() {
    LatencyDistribution d = new LatencyDistribution(Duration.ofSeconds(3), Duration.ofSeconds(8));
    Random r = new Random(7);
    int n = 20_000;
    long[] ms = new long[n];
    for (int i = 0; i < n; i++) {
      ms[i] = d.sample(r).toMillis();
    }
    java.util.Arrays.sort(ms);
    assertEquals(3000, ms[n / 2], 150);
    assertEquals(8000, ms[(int) (n * 0.95)], 400);
    assertEquals(Duration.ZERO, new LatencyDistribution(Duration.ZERO, Duration.ZERO).sample(r));
  }
}
