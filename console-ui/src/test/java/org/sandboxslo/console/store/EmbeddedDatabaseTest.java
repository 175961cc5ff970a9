package org.sandboxslo.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.LatencySummary;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.Scope;
import org.sandboxslo.engine.sli.SliKey;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.Totals;
import org.sandboxslo.engine.sli.WindowSlis;

/** A restart on the same data directory keeps the schema and the rows. */
class EmbeddedDatabaseTest {
  static final Path WORK_DIR = Path.of("target", "embedded-pg");
  static Vertx vertx;

  @BeforeAll
  static void vertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void close() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static FleetSnapshot oneTemplate(Instant at, Double warmHit) {
    WindowSlis w =
        new WindowSlis(
            Duration.ofMinutes(5),
            9,
            1,
            warmHit,
            new LatencySummary(
                10,
                Duration.ofMillis(100),
                Duration.ofMillis(900),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1)),
            null,
            null,
            null,
            0,
            0,
            null,
            null);
    SliSnapshot t =
        new SliSnapshot(
            SliKey.template("restart", "t"),
            true,
            List.of(),
            new PoolGauge(0, null, null, null, 0, 0, 0, null, 0, 0),
            List.of(w),
            Totals.ZERO);
    return new FleetSnapshot(at, List.of(t), List.of(), List.of(), Map.of(), Map.of());
  }

  @Test
  void restartKeepsSchemaAndRows(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("pg");
    Instant at = Instant.parse("2026-11-29T07:00:00Z");
    try (EmbeddedDatabase db = EmbeddedDatabase.start(data, WORK_DIR)) {
      assertEquals(1, Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, ""));
      SliStore store = SliStore.connect(vertx, db.connectOptions(), 2);
      // 10 windowed SLIs for the one window + 3 pool-state SLIs
      assertEquals(13, await(store.write(oneTemplate(at, 0.9))));
      await(store.close());
    }
    try (EmbeddedDatabase db = EmbeddedDatabase.start(data, WORK_DIR)) {
      assertEquals(0, Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, ""));
      SliStore store = SliStore.connect(vertx, db.connectOptions(), 2);
      assertEquals(13L, await(store.count()));
      assertEquals(
          List.of(new HistoryPoint(at, 0.9)),
          await(
              store.history(
                  Scope.TEMPLATE,
                  "restart",
                  "t",
                  "warm_hit_ratio",
                  "5m",
                  at.minusSeconds(1),
                  at.plusSeconds(1))));
      await(store.close());
    }
  }
}
