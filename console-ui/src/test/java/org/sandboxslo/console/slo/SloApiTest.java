package org.sandboxslo.console.slo;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.TemplateView;

/** The SLO API on a real console with the embedded PostgreSQL. */
class SloApiTest {
  static final String OBJECTIVE_REASON =
      "objective must be > 0 and < 100; 100 leaves no error budget and an infinite burn rate";

  static JsonObject input(String name) throws Exception {
    return new JsonObject(
        Files.readString(Path.of(System.getProperty("shared.dir"), "cases", "inputs", name)));
  }

  /** Feeds the engine template team-a/tpl-py (generation 1, one image), seen now. */
  static void upsertTemplateTeamATplPy(SloHarness h) {
    h.loop
        .sink()
        .accept(
            new FleetEvent.Upserted(
                new TemplateView(
                    new ObjectRef("team-a", "tpl-py"),
                    "uid-t",
                    "1",
                    1,
                    "digest",
                    null,
                    null,
                    List.of("img:1")),
                null,
                Instant.now()));
  }

  @Test
  void c12ObjectiveHundredIs400WithTheExactBodyAndNinetyFiveIs201(@TempDir Path tmp)
      throws Exception {
    try (SloHarness h = new SloHarness(tmp.resolve("pg"), Map.of())) {
      HttpResponse<Buffer> bad = h.post("/api/v1/slos", input("C12-slo-objective-100.json"));
      assertEquals(400, bad.statusCode());
      assertEquals(
          new JsonObject()
              .put("error", "bad request")
              .put("field", "objective")
              .put("reason", OBJECTIVE_REASON),
          bad.bodyAsJsonObject());

      // the same valid definition as text/plain is refused before it is read; a JSON array is 400
      HttpResponse<Buffer> text =
          h.post("/api/v1/slos", "text/plain", input("C12-slo-objective-95.json").encode());
      assertEquals(415, text.statusCode());
      assertEquals("Content-Type", text.bodyAsJsonObject().getString("field"));
      HttpResponse<Buffer> array = h.post("/api/v1/slos", "application/json", "[]");
      assertEquals(400, array.statusCode());
      assertEquals(
          new JsonObject()
              .put("error", "bad request")
              .put("field", "body")
              .put("reason", "expected a JSON object (an SLO definition), got an array"),
          array.bodyAsJsonObject());
      assertEquals(0, h.get("/api/v1/slos").bodyAsJsonObject().getJsonArray("items").size());

      HttpResponse<Buffer> ok = h.post("/api/v1/slos", input("C12-slo-objective-95.json"));
      assertEquals(201, ok.statusCode(), ok.bodyAsString());
      assertEquals("/api/v1/slos/warm-hit-tpl-py", ok.getHeader("Location"));
      JsonObject slo = h.get("/api/v1/slos/warm-hit-tpl-py").bodyAsJsonObject();
      assertEquals(95.0, slo.getDouble("objective"));
      assertEquals("user", slo.getString("origin"));
      assertEquals("30d", slo.getString("period"));
      assertEquals(
          new JsonObject().put("namespace", "team-a").put("sandboxTemplate", "tpl-py"),
          slo.getJsonObject("selector"));
      assertEquals("no data", slo.getString("status"));
      assertNull(slo.getValue("sliNow"));
      assertNull(slo.getValue("budgetRemaining"));
      assertTrue(slo.getBoolean("insufficientData"));
      JsonObject fast = slo.getJsonArray("tiers").getJsonObject(0);
      assertEquals("fast", fast.getString("tier"));
      assertEquals(14.4, fast.getDouble("factor"));
      assertEquals("1h", fast.getJsonObject("long").getString("window"));
      assertEquals("5m", fast.getJsonObject("short").getString("window"));
      assertEquals(false, fast.getBoolean("firing"));
      assertEquals(new JsonArray(), slo.getJsonArray("firingTiers"));

      assertEquals(1, h.get("/api/v1/slos").bodyAsJsonObject().getJsonArray("items").size());
      assertEquals(204, h.delete("/api/v1/slos/warm-hit-tpl-py").statusCode());
      HttpResponse<Buffer> gone = h.get("/api/v1/slos/warm-hit-tpl-py");
      assertEquals(404, gone.statusCode());
      assertEquals("id", gone.bodyAsJsonObject().getString("field"));
    }
  }

  @Test
  void defaultsPerTemplateAreOverridableByAUserSloOfTheSameName(@TempDir Path tmp)
      throws Exception {
    try (SloHarness h = new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.period", "1h"))) {
      upsertTemplateTeamATplPy(h);
      await().atMost(Duration.ofSeconds(20)).until(() -> names(h).size() == 4);
      assertEquals(
          List.of(
              "claim-ready-team-a-tpl-py",
              "pool-ready-team-a-tpl-py",
              "resume-success-team-a-tpl-py",
              "warm-hit-team-a-tpl-py"),
          names(h));
      JsonObject warm = h.get("/api/v1/slos/warm-hit-team-a-tpl-py").bodyAsJsonObject();
      assertEquals("default", warm.getString("origin"));
      assertEquals(95.0, warm.getDouble("objective"));
      assertEquals("1h", warm.getString("period"));
      assertEquals(true, warm.getBoolean("eligibleOnly"));
      JsonObject ready = h.get("/api/v1/slos/claim-ready-team-a-tpl-py").bodyAsJsonObject();
      assertEquals("1s", ready.getString("latencyThreshold"));
      assertEquals(
          0.2,
          h.get("/api/v1/slos/pool-ready-team-a-tpl-py")
              .bodyAsJsonObject()
              .getDouble("readyFloor"));
      assertEquals(
          99.5,
          h.get("/api/v1/slos/resume-success-team-a-tpl-py")
              .bodyAsJsonObject()
              .getDouble("objective"));
      assertEquals(409, h.delete("/api/v1/slos/warm-hit-team-a-tpl-py").statusCode());

      JsonObject user =
          new JsonObject()
              .put("name", "warm-hit-team-a-tpl-py")
              .put("sli", "warm_hit_ratio")
              .put("objective", 90)
              .put(
                  "selector",
                  new JsonObject().put("namespace", "team-a").put("sandboxTemplate", "tpl-py"));
      assertEquals(201, h.post("/api/v1/slos", user).statusCode());
      JsonObject over = h.get("/api/v1/slos/warm-hit-team-a-tpl-py").bodyAsJsonObject();
      assertEquals("user", over.getString("origin"));
      assertEquals(90.0, over.getDouble("objective"));
      assertEquals(4, names(h).size());
      assertEquals(204, h.delete("/api/v1/slos/warm-hit-team-a-tpl-py").statusCode());
      JsonObject back = h.get("/api/v1/slos/warm-hit-team-a-tpl-py").bodyAsJsonObject();
      assertEquals("default", back.getString("origin"));
      assertEquals(95.0, back.getDouble("objective"));
    }
  }

  @Test
  void deletingAUserOverrideBringsTheDefaultBackWithItsOwnBudgetHistory(@TempDir Path tmp)
      throws Exception {
    String name = "warm-hit-team-a-tpl-py";
    Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
    Map<String, String> cfg = Map.of("sloconsole.slo.period", "1h");
    try (SloHarness h = new SloHarness(tmp.resolve("pg"), cfg)) {
      upsertTemplateTeamATplPy(h);
      await().atMost(Duration.ofSeconds(20)).until(() -> names(h).contains(name));
      // the default's history: 80 good of 100 valid half an hour ago, stored
      SloHarness.get(
          h.loop.call(
              e -> {
                e.ledger(name).record(now.minus(Duration.ofMinutes(30)), 80, 100);
                return null;
              }));
      assertTrue(SloHarness.get(h.slo.persistNow()) > 0);

      JsonObject user =
          new JsonObject()
              .put("name", name)
              .put("sli", "warm_hit_ratio")
              .put("objective", 90)
              .put("window", "1h")
              .put(
                  "selector",
                  new JsonObject().put("namespace", "team-a").put("sandboxTemplate", "tpl-py"));
      assertEquals(201, h.post("/api/v1/slos", user).statusCode());
      JsonObject over = h.get("/api/v1/slos/" + name).bodyAsJsonObject();
      assertEquals("user", over.getString("origin"));
      // the override starts from its own (empty) history, not the default's
      assertEquals(0, over.getLong("valid"));
      SloHarness.get(
          h.loop.call(
              e -> {
                // now: the incremental persist writes buckets changed since its last run
                e.ledger(name).record(Instant.now(), 10, 10);
                return null;
              }));
      assertTrue(SloHarness.get(h.slo.persistNow()) > 0);
      assertEquals(10, h.get("/api/v1/slos/" + name).bodyAsJsonObject().getLong("valid"));

      assertEquals(204, h.delete("/api/v1/slos/" + name).statusCode());
      JsonObject back = h.get("/api/v1/slos/" + name).bodyAsJsonObject();
      assertEquals("default", back.getString("origin"));
      // 80 / 100 from the store: the default's history survived, the override's is gone
      assertEquals(80, back.getLong("good"));
      assertEquals(100, back.getLong("valid"));
      assertTrue(SloHarness.get(h.slo.persistNow()) >= 0);
    }
    // and after a restart the default still finds its history (re-fed from the store)
    try (SloHarness h = new SloHarness(tmp.resolve("pg"), cfg)) {
      upsertTemplateTeamATplPy(h);
      await().atMost(Duration.ofSeconds(20)).until(() -> names(h).contains(name));
      JsonObject again = h.get("/api/v1/slos/" + name).bodyAsJsonObject();
      assertEquals("default", again.getString("origin"));
      assertEquals(80, again.getLong("good"));
      assertEquals(100, again.getLong("valid"));
    }
  }

  @Test
  void budgetHistoryAndExclusionsSurviveARestartAndAnExclusionRefundsTheBudget(@TempDir Path tmp)
      throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
    JsonObject def =
        new JsonObject()
            .put("name", "w")
            .put("sli", "warm_hit_ratio")
            .put("objective", 95)
            .put("window", "1d");
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      assertEquals(201, h.post("/api/v1/slos", def).statusCode());
      // 80 good + 20 bad two hours ago (a maintenance window), 100 good half an hour ago
      SloHarness.get(
          h.loop.call(
              e -> {
                e.ledger("w").record(now.minus(Duration.ofHours(2)), 80, 100);
                e.ledger("w").record(now.minus(Duration.ofMinutes(30)), 100, 100);
                return null;
              }));
      JsonObject before = h.get("/api/v1/slos/w").bodyAsJsonObject();
      assertEquals(180, before.getLong("good"));
      assertEquals(200, before.getLong("valid"));
      assertEquals(2.0, before.getDouble("budgetConsumed"), 1e-9); // 20 bad / (200 × 0.05)
      assertEquals("exhausted", before.getString("status"));

      JsonObject x =
          new JsonObject()
              .put("from", now.minus(Duration.ofHours(3)).toString())
              .put("to", now.minus(Duration.ofHours(1)).toString())
              .put("reason", "node pool upgrade")
              .put("author", "alice");
      HttpResponse<Buffer> created = h.post("/api/v1/slos/w/exclusions", x);
      assertEquals(201, created.statusCode(), created.bodyAsString());
      assertEquals("alice", created.bodyAsJsonObject().getString("author"));
      JsonObject after = h.get("/api/v1/slos/w").bodyAsJsonObject();
      assertEquals(100, after.getLong("good"));
      assertEquals(100, after.getLong("valid"));
      assertEquals(0.0, after.getDouble("budgetConsumed"), 1e-9);
      assertEquals(1.0, after.getDouble("budgetRemaining"), 1e-9);
      assertEquals("ok", after.getString("status"));
      assertEquals(
          "node pool upgrade",
          after.getJsonArray("exclusions").getJsonObject(0).getString("reason"));

      HttpResponse<Buffer> badX =
          h.post(
              "/api/v1/slos/w/exclusions",
              new JsonObject()
                  .put("from", "yesterday")
                  .put("to", now.toString())
                  .put("reason", "x")
                  .put("author", "bob"));
      assertEquals(400, badX.statusCode());
      assertEquals("from", badX.bodyAsJsonObject().getString("field"));

      assertTrue(SloHarness.get(h.slo.persistNow()) > 0);
    }
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      JsonObject again = h.get("/api/v1/slos/w").bodyAsJsonObject();
      assertEquals("user", again.getString("origin"));
      assertEquals(100, again.getLong("good"));
      assertEquals(100, again.getLong("valid"));
      assertEquals(1, again.getJsonArray("exclusions").size());
      assertEquals("alice", again.getJsonArray("exclusions").getJsonObject(0).getString("author"));
      // without the exclusion the restored history would count the bad bucket again
      assertEquals(1, (int) SloHarness.get(h.loop.call(e -> e.ledger("w").exclusions().size())));
      long validNoExclusions =
          SloHarness.get(
              h.loop.call(
                  e -> {
                    long v = 0;
                    for (var b : e.ledger("w").buckets(null)) {
                      v += b.resolution().equals("coarse") ? b.valid() : 0;
                    }
                    return v;
                  }));
      assertEquals(200, validNoExclusions);
    }
  }

  private static List<String> names(SloHarness h) throws Exception {
    List<String> out = new ArrayList<>();
    for (Object o : h.get("/api/v1/slos").bodyAsJsonObject().getJsonArray("items")) {
      out.add(((JsonObject) o).getString("id"));
    }
    return out;
  }
}
