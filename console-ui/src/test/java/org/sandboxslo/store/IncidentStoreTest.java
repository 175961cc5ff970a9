package org.sandboxslo.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Incidents (Alertmanager episodes) against a real embedded PostgreSQL, kept across pools. */
class IncidentStoreTest {
  static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");

  @TempDir static Path tmp;
  static EmbeddedDatabase db;
  static Vertx vertx;
  static SliStore pool;

  @BeforeAll
  static void start() {
    db = EmbeddedDatabase.start(tmp.resolve("pg"), Path.of("target", "embedded-pg"));
    Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, "");
    vertx = Vertx.vertx();
    pool = SliStore.connect(vertx, db.connectOptions(), 2);
  }

  @AfterAll
  static void stop() throws Exception {
    get(pool.close());
    get(vertx.close());
    db.close();
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static IncidentRow alert(String fp, String status, Instant starts, Instant ends, Instant at) {
    return alert("demo", fp, status, starts, ends, at);
  }

  static IncidentRow alert(
      String ns, String fp, String status, Instant starts, Instant ends, Instant at) {
    return IncidentRow.of(
        fp,
        status,
        new JsonObject()
            .put("alertname", "SandboxWarmHitRatioLow")
            .put("severity", "page")
            .put("exported_namespace", ns)
            .put("sandbox_template", "python-runtime")
            .put("slo", "warm-hit-demo-python-runtime"),
        new JsonObject().put("summary", "warm-hit below 95 %"),
        starts,
        ends,
        "http://prometheus/graph",
        "console",
        at);
  }

  @Test
  void episodesAreUpsertedByFingerprintAndStartAndSurviveANewPool() throws Exception {
    IncidentStore store = new IncidentStore(pool.pool());
    // fp-1 fires at T0, is redelivered at +60 s, resolves at +300 s (ends +290 s)
    assertEquals(
        1, get(store.record(List.of(alert("fp-1", "firing", T0, null, T0.plusSeconds(5))))));
    // an identical redelivery changes nothing, not even last_received_at
    assertEquals(
        0, get(store.record(List.of(alert("fp-1", "firing", T0, null, T0.plusSeconds(60))))));
    get(
        store.record(
            List.of(
                alert("fp-1", "resolved", T0, T0.plusSeconds(290), T0.plusSeconds(300)),
                // the same alert fires again later: a new episode
                alert("fp-1", "firing", T0.plusSeconds(900), null, T0.plusSeconds(905)))));
    // a firing alert's endsAt (Alertmanager's future estimate) is not an end
    get(
        store.record(
            List.of(
                alert(
                    "fp-2",
                    "firing",
                    T0.plusSeconds(100),
                    T0.plusSeconds(9999),
                    T0.plusSeconds(101)))));

    // a new pool on the same database: what a restarted console sees
    SliStore other = SliStore.connect(vertx, db.connectOptions(), 1);
    try {
      List<IncidentRow> all =
          get(new IncidentStore(other.pool()).list(null, "demo", null, null, 10));
      assertEquals(3, all.size());
      // newest first by start: fp-1@+900, fp-2@+100, fp-1@T0
      assertEquals(T0.plusSeconds(900), all.get(0).startsAt());
      assertEquals("fp-2", all.get(1).fingerprint());
      IncidentRow first = all.get(2);
      assertEquals("resolved", first.status());
      assertEquals(T0.plusSeconds(290), first.endsAt());
      // first delivery + the resolved one; the identical redelivery did not count
      assertEquals(2, first.notifications());
      assertEquals(T0.plusSeconds(5), first.firstReceivedAt());
      assertEquals(T0.plusSeconds(300), first.lastReceivedAt());
      assertEquals("demo", first.namespace()); // from exported_namespace
      assertEquals("python-runtime", first.sandboxTemplate());
      assertEquals("warm-hit-demo-python-runtime", first.slo());
      assertEquals("page", first.severity());
      assertEquals("warm-hit below 95 %", first.annotations().getString("summary"));
      // fired 290 s
      assertEquals(Duration.ofSeconds(290), first.duration(T0.plusSeconds(5000)));
      assertNull(all.get(1).endsAt());
      // still firing: duration until now = 1000 − 100 s
      assertEquals(Duration.ofSeconds(900), all.get(1).duration(T0.plusSeconds(1000)));

      IncidentStore s = new IncidentStore(other.pool());
      assertEquals(2, get(s.list("firing", "demo", null, null, 10)).size());
      assertEquals(1, get(s.list("resolved", "demo", "python-runtime", null, 10)).size());
      assertEquals(0, get(s.list(null, "demo", "go-runtime", null, 10)).size());
      // since +295 s: fp-1@T0 ended at +290 s and is left out; firing ones stay
      assertEquals(2, get(s.list(null, "demo", null, T0.plusSeconds(295), 10)).size());
      assertEquals(1, get(s.list(null, "demo", null, null, 1)).size());
    } finally {
      get(other.close());
    }
  }

  @Test
  void pagesFollowStartThenFingerprintAndDoNotShiftWhenNewEpisodesArrive() throws Exception {
    IncidentStore store = new IncidentStore(pool.pool());
    Instant t = Instant.parse("2026-12-01T00:00:00Z");
    // five episodes: pg-a and pg-b start together at t+30, then t+20, t+10, t
    get(
        store.record(
            List.of(
                alert("paging", "pg-b", "firing", t.plusSeconds(30), null, t.plusSeconds(31)),
                alert("paging", "pg-a", "firing", t.plusSeconds(30), null, t.plusSeconds(31)),
                alert("paging", "pg-c", "firing", t.plusSeconds(20), null, t.plusSeconds(21)),
                alert("paging", "pg-d", "firing", t.plusSeconds(10), null, t.plusSeconds(11)),
                alert("paging", "pg-e", "firing", t, null, t.plusSeconds(1)))));
    Instant since = t.minusSeconds(1);
    List<IncidentRow> page1 = get(store.list(null, "paging", null, since, 2, null));
    assertEquals(List.of("pg-a", "pg-b"), page1.stream().map(IncidentRow::fingerprint).toList());
    // a newer episode arrives between the pages; page 2 still continues after pg-b
    get(
        store.record(
            List.of(
                alert("paging", "pg-f", "firing", t.plusSeconds(40), null, t.plusSeconds(41)))));
    List<IncidentRow> page2 =
        get(store.list(null, "paging", null, since, 2, IncidentStore.Cursor.after(page1.get(1))));
    assertEquals(List.of("pg-c", "pg-d"), page2.stream().map(IncidentRow::fingerprint).toList());
    List<IncidentRow> page3 =
        get(store.list(null, "paging", null, since, 2, IncidentStore.Cursor.after(page2.get(1))));
    assertEquals(List.of("pg-e"), page3.stream().map(IncidentRow::fingerprint).toList());
  }
}
