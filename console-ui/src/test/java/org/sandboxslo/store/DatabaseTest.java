package org.sandboxslo.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.Fixtures;
import org.sandboxslo.engine.sli.Scope;

/**
 * The embedded default (zonky) through {@link Database}: a restart on the same data directory keeps
 * schema and rows; the same database reached by URL (external mode) is already migrated; a bad URL
 * fails the open with the cause.
 */
class DatabaseTest {
  static Vertx vertx;

  @BeforeAll
  static void vertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void close() throws Exception {
    get(vertx.close());
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void embeddedRestartKeepsRowsAndExternalModeReusesTheSchema(@TempDir Path tmp) throws Exception {
    ConsoleConfig embedded =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.db.data-dir", tmp.resolve("pg").toString(),
                "sloconsole.db.work-dir", Path.of("target", "embedded-pg").toString()));
    Instant at = Instant.parse("2026-11-29T07:00:00Z");
    List<HistoryPoint> expected = List.of(new HistoryPoint(at, 0.75));

    Database first = get(Database.open(vertx, embedded.database()));
    try {
      assertEquals(69, get(first.store().write(Fixtures.snapshot(at, 0.75, Fixtures.PYTHON_POOL))));
      ConsoleConfig external =
          ConsoleConfig.fromMap(
              Map.of(
                  "sloconsole.db.url",
                  "jdbc:postgresql://localhost:" + first.embedded().port() + "/postgres",
                  "sloconsole.db.user",
                  "postgres"));
      Database byUrl = get(Database.open(vertx, external.database()));
      try {
        assertNull(byUrl.embedded());
        assertEquals(69L, get(byUrl.store().count()));
      } finally {
        get(byUrl.close());
      }
    } finally {
      get(first.close());
    }
    assertTrue(Files.exists(tmp.resolve("pg").resolve("PG_VERSION")));

    Database again = get(Database.open(vertx, embedded.database()));
    try {
      assertEquals(69L, get(again.store().count()));
      assertEquals(
          expected,
          get(
              again
                  .store()
                  .history(
                      Scope.TEMPLATE, "demo", "python-runtime", "warm_hit_ratio", "5m", at, at)));
    } finally {
      get(again.close());
    }
  }

  @Test
  void unreachableDatabaseFailsTheOpen() {
    ConsoleConfig nowhere =
        ConsoleConfig.fromMap(Map.of("sloconsole.db.url", "jdbc:postgresql://127.0.0.1:1/slo"));
    ExecutionException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class, () -> get(Database.open(vertx, nowhere.database())));
    assertTrue(
        e.getCause().getClass().getName().startsWith("org.flywaydb"),
        e.getCause().getClass().getName() + ": " + e.getCause().getMessage());
  }
}
