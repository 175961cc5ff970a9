package org.sandboxslo.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleServer;
import org.sandboxslo.console.Fixtures;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.Scope;

/**
 * SliStore, Migrations, the history route and the store timer against a real embedded PostgreSQL
 * (one per class).
 */
class SliStoreTest {
  static final Instant T0 = Fixtures.AT;
  static final Instant T1 = T0.plusSeconds(10);
  static final PoolGauge DRAINED = new PoolGauge(8, 8, 4, 0.5, 8, 4, 2, 0.25, 2, 4);

  @TempDir static Path tmp;
  static EmbeddedDatabase db;
  static Vertx vertx;
  static SliStore store;
  static int appliedFirst;
  static int appliedAgain;

  @BeforeAll
  static void start() {
    db = EmbeddedDatabase.start(tmp.resolve("pg"), Path.of("target", "embedded-pg"));
    appliedFirst = Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, "");
    appliedAgain = Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, "");
    vertx = Vertx.vertx();
    store = SliStore.connect(vertx, db.connectOptions(), 4);
  }

  @AfterAll
  static void stop() throws Exception {
    get(store.close());
    get(vertx.close());
    db.close();
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static List<HistoryPoint> history(Scope scope, String name, String sli, String window)
      throws Exception {
    return get(
        store.history(scope, "demo", name, sli, window, T0.minusSeconds(60), T1.plusSeconds(60)));
  }

  static List<HistoryPoint> points(Double v0, Double v1) {
    return Arrays.asList(new HistoryPoint(T0, v0), new HistoryPoint(T1, v1));
  }

  @Test
  void migrationIsAppliedOnceAndRendersIndexedBindMarkers() throws Exception {
    long migrations;
    java.net.URI dir = SliStoreTest.class.getResource("/db/migration").toURI();
    // a directory in the IDE, inside store's jar in a reactor `verify`
    try (java.nio.file.FileSystem jar =
            dir.getScheme().equals("jar")
                ? java.nio.file.FileSystems.newFileSystem(dir, Map.of())
                : null;
        var files = java.nio.file.Files.list(java.nio.file.Path.of(dir))) {
      migrations = files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
    }
    assertTrue(migrations >= 1);
    assertEquals(migrations, appliedFirst);
    assertEquals(0, appliedAgain);
    assertEquals(
        "insert into \"sli_snapshot\" (\"at\", \"scope\", \"namespace\", \"name\", \"sli_window\","
            + " \"sli\", \"value\") values (cast($1 as timestamp(6) with time zone), $2, $3, $4,"
            + " $5, $6, cast($7 as double precision))",
        SliStoreInternals.insertSql());
  }

  @Test
  void writesTwoSnapshotsAndReadsExactHistoryWithNulls() throws Exception {
    long before = get(store.count());
    // 2 templates + 1 pool, each 2 windows x 10 windowed SLIs + 3 pool-state SLIs
    assertEquals(69, get(store.write(Fixtures.snapshot(T0, 0.8333, Fixtures.PYTHON_POOL))));
    assertEquals(69, get(store.write(Fixtures.snapshot(T1, 0.9, DRAINED))));
    assertEquals(before + 138, get(store.count()));

    assertEquals(
        points(0.8333, 0.9), history(Scope.TEMPLATE, "python-runtime", "warm_hit_ratio", "5m"));
    assertEquals(
        points(0.95, 0.95), history(Scope.TEMPLATE, "python-runtime", "warm_hit_ratio", "1h"));
    assertEquals(
        points(10.0, 10.0), history(Scope.TEMPLATE, "python-runtime", "warm_launches", "5m"));
    assertEquals(
        points(0.15, 0.15),
        history(Scope.TEMPLATE, "python-runtime", "claim_to_ready_p50_seconds", "5m"));
    assertEquals(
        points(3.4, 3.4),
        history(Scope.TEMPLATE, "python-runtime", "claim_to_ready_cold_p95_seconds", "5m"));
    assertEquals(
        points(31.0, 31.0),
        history(Scope.TEMPLATE, "python-runtime", "cold_start_p95_seconds", "5m"));
    // no data is stored as NULL and read back as null
    assertEquals(
        points(null, null),
        history(Scope.TEMPLATE, "python-runtime", "claim_to_ready_warm_p95_seconds", "1h"));
    assertEquals(
        points(null, null), history(Scope.TEMPLATE, "python-runtime", "resume_error_ratio", "5m"));
    assertEquals(
        points(0.25, 0.25), history(Scope.TEMPLATE, "python-runtime", "resume_error_ratio", "1h"));
    assertEquals(points(null, null), history(Scope.TEMPLATE, "go-runtime", "warm_hit_ratio", "5m"));
    assertEquals(
        points(null, null), history(Scope.TEMPLATE, "go-runtime", "pool_ready_fraction", "now"));
    // pool-state SLIs, window "now"
    assertEquals(
        points(0.875, 0.5),
        history(Scope.POOL, "python-runtime-pool", "pool_ready_fraction", "now"));
    assertEquals(
        points(0.875, 0.25),
        history(Scope.POOL, "python-runtime-pool", "pool_ready_fraction_current_template", "now"));
    assertEquals(
        points(0.0, 2.0), history(Scope.POOL, "python-runtime-pool", "stale_members", "now"));
    // the range is inclusive and restricts
    assertEquals(
        List.of(new HistoryPoint(T1, 0.9)),
        get(
            store.history(
                Scope.TEMPLATE, "demo", "python-runtime", "warm_hit_ratio", "5m", T1, T1)));
    assertEquals(
        List.of(),
        get(store.history(Scope.POOL, "demo", "python-runtime", "warm_hit_ratio", "5m", T0, T1)));
  }

  @Test
  void retentionPrunesOldRowsInBoundedBatches() throws Exception {
    // three snapshots 40, 39 and 38 days before T0: 69 rows each (as above), 207 in all
    Instant d40 = T0.minus(Duration.ofDays(40));
    Instant d39 = T0.minus(Duration.ofDays(39));
    Instant d38 = T0.minus(Duration.ofDays(38));
    for (Instant at : List.of(d40, d39, d38)) {
      assertEquals(69, get(store.write(Fixtures.snapshot(at, 0.5, Fixtures.PYTHON_POOL))));
    }
    long before = get(store.count());
    // older than d38: the first two snapshots, 2 x 69 = 138 rows; 2 batches of 50 stop at 100
    assertEquals(100L, get(store.prune(d38, 50, 2)));
    // the next call takes the remaining 38 (a short batch ends it)
    assertEquals(38L, get(store.prune(d38, 50, 2)));
    assertEquals(0L, get(store.prune(d38, 50, 2)));
    assertEquals(before - 138, get(store.count()));
    // the d38 snapshot is kept and still readable
    assertEquals(
        List.of(new HistoryPoint(d38, 0.5)),
        get(
            store.history(
                Scope.TEMPLATE, "demo", "python-runtime", "warm_hit_ratio", "5m", d40, d38)));
    assertEquals(69L, get(store.prune(d38.plusSeconds(1), 1000, 1)));
    assertEquals(before - 207, get(store.count()));
  }

  @Test
  void historyRouteAndStoreTimerUseTheStore() throws Exception {
    Instant at = Instant.parse("2026-11-29T09:00:00Z");
    Fixtures.TestSources sources = new Fixtures.TestSources();
    sources.snapshot = Fixtures.snapshot(at, 0.5, Fixtures.PYTHON_POOL);
    sources.ready = true;
    ConsoleConfig config =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.http.port", "0",
                "sloconsole.management.port", "0",
                "sloconsole.store.snapshot-interval", "100ms"));
    ConsoleServer server =
        get(ConsoleServer.start(vertx, config, sources, store, new PrometheusRegistry()));
    try {
      await().atMost(Duration.ofSeconds(60)).until(() -> at.equals(server.writer().lastWritten()));
      assertEquals(69, server.writer().rowsWritten());
      assertEquals(0, server.writer().failures());

      WebClient client = WebClient.create(vertx);
      HttpResponse<Buffer> r =
          get(
              client
                  .get(
                      server.httpPort(),
                      "127.0.0.1",
                      "/api/v1/templates/demo/python-runtime/history?sli=warm_hit_ratio"
                          + "&from=2026-11-29T08:59:00Z&to=1795942800")
                  .send());
      assertEquals(200, r.statusCode(), r.bodyAsString());
      assertEquals(
          "{\"namespace\":\"demo\",\"name\":\"python-runtime\",\"sli\":\"warm_hit_ratio\","
              + "\"window\":\"5m\",\"from\":\"2026-11-29T08:59:00Z\",\"to\":\"2026-11-29T09:00:00Z\","
              + "\"points\":[{\"at\":\"2026-11-29T09:00:00Z\",\"value\":0.5}]}",
          r.bodyAsString());
      HttpResponse<Buffer> pool =
          get(
              client
                  .get(
                      server.httpPort(),
                      "127.0.0.1",
                      "/api/v1/pools/demo/python-runtime-pool/history?sli=stale_members"
                          + "&from=1795942800&to=1795942800")
                  .send());
      assertEquals(
          "{\"namespace\":\"demo\",\"name\":\"python-runtime-pool\",\"sli\":\"stale_members\","
              + "\"window\":\"now\",\"from\":\"2026-11-29T09:00:00Z\",\"to\":\"2026-11-29T09:00:00Z\","
              + "\"points\":[{\"at\":\"2026-11-29T09:00:00Z\",\"value\":0.0}]}",
          pool.bodyAsString());
      HttpResponse<Buffer> go =
          get(
              client
                  .get(
                      server.httpPort(),
                      "127.0.0.1",
                      "/api/v1/templates/demo/go-runtime/history?sli=warm_hit_ratio&window=1h"
                          + "&from=1795942800&to=1795942800")
                  .send());
      assertEquals(
          "{\"namespace\":\"demo\",\"name\":\"go-runtime\",\"sli\":\"warm_hit_ratio\","
              + "\"window\":\"1h\",\"from\":\"2026-11-29T09:00:00Z\",\"to\":\"2026-11-29T09:00:00Z\","
              + "\"points\":[{\"at\":\"2026-11-29T09:00:00Z\",\"value\":null}]}",
          go.bodyAsString());
      HttpResponse<Buffer> status =
          get(client.get(server.httpPort(), "127.0.0.1", "/api/v1/status").send());
      long rows = get(store.count());
      assertEquals(
          rows, status.bodyAsJsonObject().getJsonObject("store").getLong("rows").longValue());
      assertNull(status.bodyAsJsonObject().getJsonObject("store").getValue("error"));
    } finally {
      get(server.stop());
    }
  }
}
