package org.sandboxslo.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import org.sandboxslo.console.Fixtures;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.Scope;
import org.sandboxslo.store.SliSeriesStore.Bucket;

/** Several SLIs of one subject, downsampled, against a real embedded PostgreSQL. */
class SliSeriesStoreTest {
  static final Instant T0 = Fixtures.AT; // 08:00:00Z, a multiple of 60 s
  static final PoolGauge HALF = new PoolGauge(8, 8, 4, 0.5, 8, 4, 4, 0.5, 0, 4);

  @TempDir static Path tmp;
  static EmbeddedDatabase db;
  static Vertx vertx;
  static SliStore writer;
  static SliSeriesStore series;

  @BeforeAll
  static void start() throws Exception {
    db = EmbeddedDatabase.start(tmp.resolve("pg"), Path.of("target", "embedded-pg"));
    Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, "");
    vertx = Vertx.vertx();
    writer = SliStore.connect(vertx, db.connectOptions(), 2);
    series = new SliSeriesStore(writer.pool());
    // warm-hit 5m of demo/python-runtime: 0.5, 1.0, 0.75 in the first minute, 0.25 in the second
    get(writer.write(Fixtures.snapshot(T0, 0.5, Fixtures.PYTHON_POOL)));
    get(writer.write(Fixtures.snapshot(T0.plusSeconds(10), 1.0, Fixtures.PYTHON_POOL)));
    get(writer.write(Fixtures.snapshot(T0.plusSeconds(20), 0.75, HALF)));
    get(writer.write(Fixtures.snapshot(T0.plusSeconds(70), 0.25, HALF)));
  }

  @AfterAll
  static void stop() throws Exception {
    get(writer.close());
    get(vertx.close());
    db.close();
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static Map<String, List<Bucket>> query(String name, Duration step) throws Exception {
    return get(
        series.series(
            Scope.TEMPLATE,
            "demo",
            name,
            List.of("warm_hit_ratio", "claim_to_ready_p95_seconds"),
            "5m",
            List.of("pool_ready_fraction", "stale_members"),
            T0,
            T0.plusSeconds(120),
            step));
  }

  @Test
  void bucketsHoldMeanMinAndMaxOfEachSeries() throws Exception {
    Map<String, List<Bucket>> s = query("python-runtime", Duration.ofMinutes(1));
    assertEquals(
        List.of(
            "warm_hit_ratio", "claim_to_ready_p95_seconds", "pool_ready_fraction", "stale_members"),
        List.copyOf(s.keySet()));
    // first minute: mean (0.5 + 1.0 + 0.75) / 3 = 0.75, min 0.5, max 1.0; second: 0.25
    assertEquals(
        List.of(new Bucket(T0, 0.75, 0.5, 1.0), new Bucket(T0.plusSeconds(60), 0.25, 0.25, 0.25)),
        s.get("warm_hit_ratio"));
    // pool-state (window now): 0.875, 0.875, 0.5 → mean 2.25 / 3 = 0.75; then 0.5
    assertEquals(
        List.of(new Bucket(T0, 0.75, 0.5, 0.875), new Bucket(T0.plusSeconds(60), 0.5, 0.5, 0.5)),
        s.get("pool_ready_fraction"));
    // one bucket per stored row at a 10 s step
    assertEquals(4, query("python-runtime", Duration.ofSeconds(10)).get("warm_hit_ratio").size());
  }

  @Test
  void noDataStaysNullAndUnknownSubjectsAreEmpty() throws Exception {
    // demo/go-runtime is stored with NULL warm-hit: buckets exist, their values are null (no data)
    List<Bucket> go = query("go-runtime", Duration.ofMinutes(1)).get("warm_hit_ratio");
    assertEquals(
        List.of(new Bucket(T0, null, null, null), new Bucket(T0.plusSeconds(60), null, null, null)),
        go);
    assertEquals(List.of(), query("nobody", Duration.ofMinutes(1)).get("warm_hit_ratio"));
    assertThrows(IllegalArgumentException.class, () -> query("python-runtime", Duration.ZERO));
  }
}
