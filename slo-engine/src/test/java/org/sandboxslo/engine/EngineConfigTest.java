package org.sandboxslo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.time.Durations;

class EngineConfigTest {
  @Test
  void parsesKeysAndRejectsUnknownOnes() {
    EngineConfig c =
        EngineConfig.fromMap(
            Map.of(
                "sloconsole.engine.windows",
                "1m, 30m",
                "sloconsole.engine.bucket-width",
                "5s",
                "other.key",
                "x"));
    assertEquals(List.of(Duration.ofMinutes(1), Duration.ofMinutes(30)), c.windows());
    assertEquals(Duration.ofSeconds(5), c.bucketWidth());
    assertEquals(Duration.ofMinutes(2), c.resumeTimeout());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EngineConfig.fromMap(Map.of("sloconsole.engine.windowz", "5m")));
    assertEquals(
        true, e.getMessage().startsWith("unknown configuration key sloconsole.engine.windowz"));
    assertEquals(
        "sloconsole.engine.bucket-width: expected a duration like 30s, 5m, 1h, got 'soon'",
        assertThrows(
                IllegalArgumentException.class,
                () -> EngineConfig.fromMap(Map.of("sloconsole.engine.bucket-width", "soon")))
            .getMessage());
    assertEquals(
        "window PT25S must be a multiple of the bucket width PT10S",
        assertThrows(
                IllegalArgumentException.class,
                () -> EngineConfig.fromMap(Map.of("sloconsole.engine.windows", "25s")))
            .getMessage());
    assertEquals(
        "window must be > 0, got PT0S",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new EngineConfig(
                        List.of(Duration.ZERO), Duration.ofSeconds(10), Duration.ofMinutes(1)))
            .getMessage());
  }

  @Test
  void rolloutProgressDeadlineIsAnEngineKeyReadIntoTheDiagnosisSettings() {
    Map<String, String> m = Map.of("sloconsole.engine.rollout-progress-deadline", "90s");
    EngineConfig.fromMap(m); // a known key under the prefix
    assertEquals(
        Duration.ofSeconds(90),
        org.sandboxslo.engine.diagnosis.DiagnosisSettings.fromMap(m).progressDeadline());
    assertEquals(
        Duration.ofMinutes(10),
        org.sandboxslo.engine.diagnosis.DiagnosisSettings.fromMap(Map.of()).progressDeadline());
    assertEquals(
        "sloconsole.engine.rollout-progress-deadline must be > 0, got 0s",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    org.sandboxslo.engine.diagnosis.DiagnosisSettings.fromMap(
                        Map.of("sloconsole.engine.rollout-progress-deadline", "0s")))
            .getMessage());
  }

  @Test
  void formatsDurations() {
    assertEquals("5m", Durations.format(Duration.ofMinutes(5)));
    assertEquals("1h", Durations.format(Duration.ofHours(1)));
    assertEquals("28d", Durations.format(Duration.ofDays(28)));
    assertEquals("90s", Durations.format(Duration.ofSeconds(90)));
    assertEquals("250ms", Durations.format(Duration.ofMillis(250)));
  }
}
