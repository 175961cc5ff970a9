package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleConfigTest {
  @Test
  void defaults() {
    ConsoleConfig c = ConsoleConfig.defaults();
    assertEquals("127.0.0.1", c.httpHost());
    assertEquals(8080, c.httpPort());
    assertEquals(8081, c.managementPort());
    assertEquals(Duration.ofSeconds(1), c.streamInterval());
    assertEquals(Duration.ofSeconds(10), c.snapshotInterval());
    assertEquals("", c.dbUrl());
    assertTrue(c.embeddedDatabase());
    assertEquals("postgres", c.dbUser());
    assertEquals(Path.of("./.sandbox-slo/pg"), c.dbDataDir());
    assertEquals("http://127.0.0.1:8080", c.externalUrl().base().toString());
  }

  @Test
  void externalUrlIsTheBaseOfConsoleLinksAndIsChecked() {
    ConsoleConfig c =
        ConsoleConfig.fromMap(
            Map.of("sloconsole.http.external-url", "https://slo.example.com/console/"));
    assertEquals(
        "https://slo.example.com/console/templates/team-a/tpl-py",
        c.externalUrl().template("team-a", "tpl-py"));
    assertTrue(
        c.describe().contains("sloconsole.http.external-url=https://slo.example.com/console"),
        c.describe());
    assertEquals(
        "sloconsole.http.external-url: expected an absolute http(s) URL like"
            + " https://sandbox-slo.example.com (scheme must be http or https), got 'localhost:8080'",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ConsoleConfig.fromMap(Map.of("sloconsole.http.external-url", "localhost:8080")))
            .getMessage());
  }

  @Test
  void parsesTypedValuesAndIgnoresOtherPrefixes() {
    ConsoleConfig c =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.http.port", "0",
                "sloconsole.http.host", "0.0.0.0",
                "sloconsole.management.port", "9090",
                "sloconsole.store.snapshot-interval", "30s",
                "sloconsole.http.stream-interval", "500ms",
                "sloconsole.db.url", "jdbc:postgresql://db:5432/slo",
                "sloconsole.db.user", "slo",
                "sloconsole.db.password", "hunter2",
                "sloconsole.db.data-dir", "/var/lib/slo",
                "sloconsole.engine.windows", "5m,1h"));
    assertEquals(0, c.httpPort());
    assertEquals("0.0.0.0", c.httpHost());
    assertEquals(9090, c.managementPort());
    assertEquals(Duration.ofSeconds(30), c.snapshotInterval());
    assertEquals(Duration.ofMillis(500), c.streamInterval());
    assertFalse(c.embeddedDatabase());
    assertEquals("hunter2", c.dbPassword());
    assertEquals(Path.of("/var/lib/slo"), c.dbDataDir());
  }

  @Test
  void masksThePassword() {
    ConsoleConfig c = ConsoleConfig.fromMap(Map.of("sloconsole.db.password", "hunter2"));
    assertFalse(c.toString().contains("hunter2"), c.toString());
    assertFalse(c.describe().contains("hunter2"), c.describe());
    assertTrue(c.describe().contains("sloconsole.db.password=******"), c.describe());
    assertTrue(c.toString().contains("dbPassword=******"), c.toString());
  }

  @Test
  void originsAndRequestLimitsAreCheckedAndNormalized() {
    ConsoleConfig c =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.http.external-url", "HTTPS://Console.Example.com:443/ui/",
                "sloconsole.http.allowed-origins",
                    "http://ops.example.com:8080, https://b.example"));
    // default ports dropped, host lower-cased, path removed
    assertEquals(
        java.util.List.of(
            "http://ops.example.com:8080", "https://b.example", "https://console.example.com"),
        c.trustedOrigins());
    assertEquals(java.time.Duration.ofSeconds(30), c.requestTimeout());
    assertEquals(64, c.maxStreamClients());
    assertEquals(
        "sloconsole.http.allowed-origins: expected scheme://host[:port] without a path, got"
            + " 'https://b.example/path'",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ConsoleConfig.fromMap(
                        Map.of("sloconsole.http.allowed-origins", "https://b.example/path")))
            .getMessage());
    assertEquals(
        "sloconsole.http.request-timeout: expected 1s..10m, got 1h",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.http.request-timeout", "1h")))
            .getMessage());
  }

  @Test
  void rejectsUnknownKeysAndBadValuesNamingTheKey() {
    assertEquals(
        "unknown configuration key sloconsole.http.prot; known: [sloconsole.db.connect-timeout,"
            + " sloconsole.db.data-dir, sloconsole.db.password, sloconsole.db.probe-interval,"
            + " sloconsole.db.statement-timeout, sloconsole.db.url, sloconsole.db.user,"
            + " sloconsole.db.work-dir, sloconsole.http.allowed-origins,"
            + " sloconsole.http.external-url, sloconsole.http.host,"
            + " sloconsole.http.idempotency-ttl, sloconsole.http.max-stream-clients,"
            + " sloconsole.http.port, sloconsole.http.request-timeout,"
            + " sloconsole.http.stream-interval, sloconsole.management.port,"
            + " sloconsole.store.backfill-max-snapshots, sloconsole.store.retention,"
            + " sloconsole.store.snapshot-interval]",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.http.prot", "1")))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.db.pasword", "x")))
            .getMessage()
            .startsWith("unknown configuration key sloconsole.db.pasword;"));
    assertEquals(
        "sloconsole.http.port: expected an integer 0..65535, got 'http'",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.http.port", "http")))
            .getMessage());
    assertEquals(
        "sloconsole.management.port: expected an integer 0..65535, got '70000'",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.management.port", "70000")))
            .getMessage());
    assertEquals(
        "sloconsole.store.snapshot-interval: expected a duration like 30s, 5m, 1h, got 'often'",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.store.snapshot-interval", "often")))
            .getMessage());
    assertEquals(
        "sloconsole.store.snapshot-interval: must be > 0, got PT0S",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.store.snapshot-interval", "0s")))
            .getMessage());
    assertEquals(
        "sloconsole.db.url: expected jdbc:postgresql://host:port/database or empty, got"
            + " 'mysql://x'",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.db.url", "mysql://x")))
            .getMessage());
    assertEquals(
        "sloconsole.db.statement-timeout: must be within 100ms..10m, got PT0.05S",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.db.statement-timeout", "50ms")))
            .getMessage());
    assertEquals(
        "sloconsole.store.backfill-max-snapshots: expected an integer 1..100000, got 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleConfig.fromMap(Map.of("sloconsole.store.backfill-max-snapshots", "0")))
            .getMessage());
  }

  @Test
  void databaseTimeoutsReachTheStoreConfig() {
    ConsoleConfig c =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.db.statement-timeout", "2s",
                "sloconsole.db.connect-timeout", "750ms",
                "sloconsole.db.probe-interval", "250ms"));
    assertEquals(Duration.ofSeconds(2), c.database().statementTimeout());
    assertEquals(Duration.ofMillis(750), c.database().connectTimeout());
    assertEquals(Duration.ofMillis(250), c.database().probeInterval());
    assertEquals(360, c.backfillMaxSnapshots());
    assertTrue(c.describe().contains("sloconsole.db.statement-timeout=2s"), c.describe());
  }

  @Test
  void externalUrlChatAndAlertmanagerKeys() {
    ConsoleConfig d = ConsoleConfig.defaults();
    assertFalse(d.chatops().enabled());
    assertEquals(java.util.Set.of("hooks.slack.com"), d.chatops().responseUrlHosts());
    assertEquals(Duration.ofHours(24), d.alertmanager().maxSilence());
    assertEquals(null, d.alertmanager().url());
    ConsoleConfig c =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.http.external-url", "https://slo.example.com/console/",
                "sloconsole.chatops.slack.signing-secret", "s3cret-value",
                "sloconsole.chatops.slack.users", "U04ABCD:alice,W05EFGH:bob",
                "sloconsole.alertmanager.url", "http://alertmanager:9093/",
                "sloconsole.alertmanager.max-silence", "2h",
                "sloconsole.alertmanager.webhook-token", "t"));
    assertEquals("https://slo.example.com/console", c.externalUrl().base().toString());
    assertTrue(c.chatops().enabled());
    assertEquals(Map.of("U04ABCD", "alice", "W05EFGH", "bob"), c.chatops().users());
    assertEquals("http://alertmanager:9093", c.alertmanager().url().toString());
    assertEquals(Duration.ofHours(2), c.alertmanager().maxSilence());
    assertFalse(c.describe().contains("s3cret-value"), c.describe());
    assertFalse(c.toString().contains("s3cret-value"), c.toString());
    assertTrue(c.describe().contains("sloconsole.chatops.slack.signing-secret=******"));
    for (Map.Entry<String, String> bad :
        Map.of(
                "sloconsole.http.external-url", "slo.example.com",
                "sloconsole.chatops.slack.users", "alice:U123",
                "sloconsole.chatops.slack.secret", "x",
                "sloconsole.alertmanager.max-silence", "0s",
                "sloconsole.alertmanager.url", "alertmanager:9093",
                "sloconsole.alertmanager.token", "x")
            .entrySet()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> ConsoleConfig.fromMap(Map.of(bad.getKey(), bad.getValue())));
      assertTrue(e.getMessage().contains(bad.getKey()), e.getMessage());
    }
  }
}
