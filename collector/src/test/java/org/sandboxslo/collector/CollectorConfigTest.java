package org.sandboxslo.collector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CollectorConfigTest {
  @Test
  void defaultsWatchAllNamespacesAndRelistEveryFiveMinutes() {
    CollectorConfig d = CollectorConfig.defaults();
    assertEquals(List.of(), d.namespaces());
    assertTrue(d.allNamespaces());
    assertEquals(Duration.ofMinutes(5), d.resyncPeriod());
    assertEquals(d, CollectorConfig.fromMap(Map.of("sloconsole.engine.windows", "5m")));
  }

  @Test
  void parsesNamespacesAndPeriod() {
    CollectorConfig c =
        CollectorConfig.fromMap(
            Map.of(
                CollectorConfig.NAMESPACES, " team-b, team-a ,,team-b",
                CollectorConfig.RESYNC_PERIOD, "30s"));
    assertEquals(List.of("team-a", "team-b"), c.namespaces());
    assertEquals(Duration.ofSeconds(30), c.resyncPeriod());
    assertEquals(
        Duration.ZERO,
        CollectorConfig.fromMap(Map.of(CollectorConfig.RESYNC_PERIOD, "0s")).resyncPeriod());
  }

  static Stream<Arguments> bad() {
    return Stream.of(
        Arguments.of(
            Map.of("sloconsole.collector.namespace", "a"),
            "unknown configuration key sloconsole.collector.namespace; known:"
                + " [sloconsole.collector.controller-deployment,"
                + " sloconsole.collector.controller-poll-interval,"
                + " sloconsole.collector.gone-recreate-after, sloconsole.collector.namespaces,"
                + " sloconsole.collector.resync-period]"),
        Arguments.of(
            Map.of(CollectorConfig.CONTROLLER_DEPLOYMENT, "Sandbox_Ops/asc"),
            "sloconsole.collector.controller-deployment: 'Sandbox_Ops' is not a valid namespace"
                + " name (DNS-1123 label)"),
        Arguments.of(
            Map.of(CollectorConfig.GONE_RECREATE_AFTER, "0"),
            "sloconsole.collector.gone-recreate-after must be >= 1, got 0"),
        Arguments.of(
            Map.of(CollectorConfig.GONE_RECREATE_AFTER, "often"),
            "sloconsole.collector.gone-recreate-after: expected an integer >= 1, got 'often'"),
        Arguments.of(
            Map.of(CollectorConfig.NAMESPACES, "Team_A"),
            "sloconsole.collector.namespaces: 'Team_A' is not a valid namespace name (DNS-1123 label)"),
        Arguments.of(
            Map.of(CollectorConfig.RESYNC_PERIOD, "soon"),
            "sloconsole.collector.resync-period: expected a duration like 30s, 5m, 1h, got 'soon'"));
  }

  @ParameterizedTest
  @MethodSource("bad")
  void rejectsBadInputWithTheKeyInTheMessage(Map<String, String> map, String message) {
    assertEquals(
        message,
        assertThrows(IllegalArgumentException.class, () -> CollectorConfig.fromMap(map))
            .getMessage());
  }

  @Test
  void negativePeriodIsRejected() {
    assertEquals(
        "sloconsole.collector.resync-period must be >= 0, got PT-1S",
        assertThrows(
                IllegalArgumentException.class,
                () -> new CollectorConfig(List.of(), Duration.ofSeconds(-1)))
            .getMessage());
  }
}
