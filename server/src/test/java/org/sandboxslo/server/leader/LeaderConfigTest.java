package org.sandboxslo.server.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeaderConfigTest {
  @Test
  void defaultsAndPodNameIdentity() {
    LeaderConfig c =
        LeaderConfig.fromMap(Map.of(), Map.of("HOSTNAME", "sandbox-slo-console-7d9-x2"));
    assertFalse(c.enabled());
    assertEquals("sandbox-slo-console", c.leaseName());
    assertNull(c.leaseNamespace());
    assertEquals("sandbox-slo-console-7d9-x2", c.identity());
    assertEquals(Duration.ofSeconds(15), c.leaseDuration());
    assertEquals(Duration.ofSeconds(10), c.renewDeadline());
    assertEquals(Duration.ofSeconds(2), c.retryPeriod());
  }

  @Test
  void withoutHostnameTheIdentityIsHostAndPid() {
    String id = LeaderConfig.fromMap(Map.of(), Map.of()).identity();
    assertTrue(id.endsWith("-" + ProcessHandle.current().pid()), id);
  }

  @Test
  void explicitKeys() {
    LeaderConfig c =
        LeaderConfig.fromMap(
            Map.of(
                "sloconsole.leader.enabled", "true",
                "sloconsole.leader.lease-name", "console-a",
                "sloconsole.leader.lease-namespace", "ops",
                "sloconsole.leader.identity", "replica-1",
                "sloconsole.leader.lease-duration", "4s",
                "sloconsole.leader.renew-deadline", "3s",
                "sloconsole.leader.retry-period", "500ms"),
            Map.of("HOSTNAME", "ignored"));
    assertEquals(
        new LeaderConfig(
            true,
            "console-a",
            "ops",
            "replica-1",
            Duration.ofSeconds(4),
            Duration.ofSeconds(3),
            Duration.ofMillis(500)),
        c);
  }

  @Test
  void badValuesNameTheKey() {
    assertEquals(
        "sloconsole.leader: expected lease-duration > renew-deadline > retry-period, got 10s, 10s, 2s",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    LeaderConfig.fromMap(
                        Map.of("sloconsole.leader.lease-duration", "10s"), Map.of("HOSTNAME", "h")))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> LeaderConfig.fromMap(Map.of("sloconsole.leader.lease", "x"), Map.of()))
            .getMessage()
            .startsWith("unknown configuration key sloconsole.leader.lease;"));
    assertEquals(
        "sloconsole.leader.enabled: expected true or false, got 'yes'",
        assertThrows(
                IllegalArgumentException.class,
                () -> LeaderConfig.fromMap(Map.of("sloconsole.leader.enabled", "yes"), Map.of()))
            .getMessage());
  }
}
