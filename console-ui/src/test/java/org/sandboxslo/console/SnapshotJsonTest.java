package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.api.SnapshotJson;
import org.sandboxslo.engine.sli.FleetSnapshot;

class SnapshotJsonTest {
  private static final String PYTHON_POOL =
      "{\"replicas\":8,\"statusReplicas\":8,\"statusReadyReplicas\":7,\"readyFraction\":0.875,"
          + "\"members\":8,\"readyMembers\":7,\"readyCurrentMembers\":7,"
          + "\"readyFractionCurrentTemplate\":0.875,\"staleMembers\":0,\"notReadyMembers\":1}";
  private static final String PYTHON_WINDOWS =
      "{\"5m\":{\"warmLaunches\":10,\"coldLaunches\":2,\"warmHitRatio\":0.8333,"
          + "\"claimToReadySeconds\":{"
          + "\"all\":{\"count\":12,\"p50\":0.15,\"p95\":3.1,\"p99\":3.4,\"max\":3.5},"
          + "\"warm\":{\"count\":10,\"p50\":0.12,\"p95\":0.2,\"p99\":0.25,\"max\":0.3},"
          + "\"cold\":{\"count\":2,\"p50\":3.1,\"p95\":3.4,\"p99\":3.4,\"max\":3.5}},"
          + "\"coldStartSeconds\":{\"count\":5,\"p50\":20.0,\"p95\":31.0,\"p99\":33.0,\"max\":33.0},"
          + "\"resume\":{\"attempts\":0,\"errors\":0,\"errorRatio\":null,\"latencySeconds\":null}},"
          + "\"1h\":{\"warmLaunches\":38,\"coldLaunches\":2,\"warmHitRatio\":0.95,"
          + "\"claimToReadySeconds\":{"
          + "\"all\":{\"count\":40,\"p50\":0.14,\"p95\":3.0,\"p99\":3.4,\"max\":3.5},"
          + "\"warm\":null,\"cold\":null},"
          + "\"coldStartSeconds\":null,"
          + "\"resume\":{\"attempts\":4,\"errors\":1,\"errorRatio\":0.25,"
          + "\"latencySeconds\":{\"count\":3,\"p50\":1.5,\"p95\":2.0,\"p99\":2.0,\"max\":2.0}}}}";
  private static final String PYTHON_TOTALS =
      "{\"warmLaunches\":40,\"coldLaunches\":8,\"resumeSuccess\":3,\"resumeError\":1,"
          + "\"resumeTimeout\":2}";
  private static final String EMPTY_WINDOW =
      "{\"warmLaunches\":0,\"coldLaunches\":0,\"warmHitRatio\":null,"
          + "\"claimToReadySeconds\":{\"all\":null,\"warm\":null,\"cold\":null},"
          + "\"coldStartSeconds\":null,"
          + "\"resume\":{\"attempts\":0,\"errors\":0,\"errorRatio\":null,\"latencySeconds\":null}}";

  @Test
  void templatesListIsExact() {
    FleetSnapshot s = Fixtures.snapshot();
    String expected =
        "{\"at\":\"2026-11-29T08:00:00Z\",\"synced\":false,\"items\":["
            + "{\"namespace\":\"demo\",\"name\":\"go-runtime\",\"exists\":false,\"pools\":[],"
            + "\"pool\":{\"replicas\":0,\"statusReplicas\":null,\"statusReadyReplicas\":null,"
            + "\"readyFraction\":null,\"members\":0,\"readyMembers\":0,\"readyCurrentMembers\":0,"
            + "\"readyFractionCurrentTemplate\":null,\"staleMembers\":0,\"notReadyMembers\":0},"
            + "\"windows\":{\"5m\":"
            + EMPTY_WINDOW
            + ",\"1h\":"
            + EMPTY_WINDOW
            + "},"
            + "\"totals\":{\"warmLaunches\":0,\"coldLaunches\":0,\"resumeSuccess\":0,"
            + "\"resumeError\":0,\"resumeTimeout\":0}},"
            + "{\"namespace\":\"demo\",\"name\":\"python-runtime\",\"exists\":true,"
            + "\"pools\":[\"python-runtime-pool\"],\"pool\":"
            + PYTHON_POOL
            + ",\"windows\":"
            + PYTHON_WINDOWS
            + ",\"totals\":"
            + PYTHON_TOTALS
            + "}]}";
    String actual = SnapshotJson.templates(s).encode();
    assertEquals(expected, actual);
    assertFalse(actual.contains("NaN"), actual);
  }

  @Test
  void poolAndNamespaceItemsAreExact() {
    FleetSnapshot s = Fixtures.snapshot();
    assertEquals(
        "{\"namespace\":\"demo\",\"name\":\"python-runtime-pool\",\"template\":\"python-runtime\","
            + "\"exists\":true,\"pool\":"
            + PYTHON_POOL
            + ",\"windows\":"
            + PYTHON_WINDOWS
            + ",\"totals\":"
            + PYTHON_TOTALS
            + "}",
        SnapshotJson.item(s.pools().get(0)).encode());
    assertEquals(
        "{\"namespace\":\"demo\",\"templates\":[\"go-runtime\",\"python-runtime\"],\"pool\":"
            + PYTHON_POOL
            + ",\"windows\":"
            + PYTHON_WINDOWS
            + ",\"totals\":"
            + PYTHON_TOTALS
            + "}",
        SnapshotJson.item(s.namespaces().get(0)).encode());
  }

  @Test
  void informersListEveryKindWithNullsForUnknownLag() {
    assertEquals(
        "{\"at\":\"2026-11-29T08:00:00Z\","
            + "\"synced\":{\"Sandbox\":true,\"SandboxTemplate\":true,\"SandboxWarmPool\":true,"
            + "\"SandboxClaim\":false},"
            + "\"watchLagSeconds\":{\"Sandbox\":{\"last\":0.2,\"max5m\":1.5},"
            + "\"SandboxTemplate\":null,\"SandboxWarmPool\":null,\"SandboxClaim\":null}}",
        SnapshotJson.informers(Fixtures.snapshot()).encode());
    assertEquals(
        "{\"at\":null,"
            + "\"synced\":{\"Sandbox\":false,\"SandboxTemplate\":false,\"SandboxWarmPool\":false,"
            + "\"SandboxClaim\":false},"
            + "\"watchLagSeconds\":{\"Sandbox\":null,\"SandboxTemplate\":null,"
            + "\"SandboxWarmPool\":null,\"SandboxClaim\":null}}",
        SnapshotJson.informers(null).encode());
  }

  @Test
  void secondsKeepMicrosecondsAndTruncateBelow() {
    assertEquals(0.000001, SnapshotJson.seconds(Duration.ofNanos(1_999)));
    assertEquals(1.234567, SnapshotJson.seconds(Duration.ofNanos(1_234_567_890)));
    assertEquals(0.0, SnapshotJson.seconds(Duration.ZERO));
  }
}
