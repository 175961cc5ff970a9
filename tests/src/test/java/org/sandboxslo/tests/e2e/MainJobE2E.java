package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.demo.DemoApp;

/**
 * The main job end to end on embedded defaults: embedded API server + controller-lite + a 70 s load
 * profile + collector + engine + console + embedded PostgreSQL. The informers are forced to re-list
 * in the middle of the run. Then the API's SLIs are checked against the load profile's ground-truth
 * file: warm/cold counts and warm-hit ratio exact, claim-to-ready p95 within 1 %.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MainJobE2E {
  @TempDir static Path dir;
  DemoApp app;
  Path groundTruth;
  long duplicatesAfterRelist;

  @BeforeAll
  void runTheLoad() throws Exception {
    groundTruth = dir.resolve("ground-truth.jsonl");
    Map<String, String> settings = Demo.settings(dir);
    settings.put("sloconsole.store.snapshot-interval", "2s");
    settings.put("sloconsole.load.profile", "constant");
    settings.put("sloconsole.load.rate", "3");
    settings.put("sloconsole.load.duration", "70s");
    settings.put("sloconsole.load.env-fraction", "0.1");
    settings.put("sloconsole.load.hold", "20s");
    settings.put("sloconsole.load.repeat", "false");
    settings.put("sloconsole.load.ground-truth", groundTruth.toString());
    app =
        DemoApp.start(
            settings,
            List.of(),
            Map.of(),
            line -> {
              throw new AssertionError("unexpected apply error: " + line);
            });
    Demo.awaitReady(app);
    // mid-run: force every informer to re-list (the mock never sends 410 Gone)
    await()
        .atMost(Duration.ofSeconds(150))
        .until(() -> app.load().current() != null && app.load().current().summary().ready() >= 60);
    app.collector().relist();
    await().atMost(Duration.ofSeconds(60)).until(() -> app.collector().hasSynced());
    duplicatesAfterRelist =
        app.engine()
            .call(e -> e.duplicatesIgnored())
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertTrue(
        app.load().current().awaitDone(Duration.ofSeconds(120)), "load profile did not finish");
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  String api(String path) {
    return Demo.api(app, path);
  }

  String mgmt(String path) {
    return Demo.mgmt(app, path);
  }

  static JsonNode template(JsonNode items, String ref) {
    for (JsonNode t : items) {
      if (ref.equals(t.get("namespace").asText() + "/" + t.get("name").asText())) {
        return t;
      }
    }
    throw new AssertionError("template " + ref + " not listed in " + items);
  }

  @Test
  void slisMatchTheGroundTruthAfterARelist() throws Exception {
    Map<String, GroundTruthFile.PerTemplate> truth = GroundTruthFile.read(groundTruth);
    long claims = truth.values().stream().mapToLong(t -> t.warm + t.cold).sum();
    assertTrue(claims >= 150, "expected ~210 Ready claims in the ground truth, got " + claims);
    assertEquals(app.load().current().summary().ready(), claims);
    assertTrue(duplicatesAfterRelist > 0, "the relist replayed no object");
    // every counted claim has reached the engine once the API totals add up
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              JsonNode items = Http.get(api("/api/v1/templates")).json().get("items");
              for (Map.Entry<String, GroundTruthFile.PerTemplate> e : truth.entrySet()) {
                JsonNode h = template(items, e.getKey()).get("windows").get("1h");
                assertEquals(
                    e.getValue().warm, h.get("warmLaunches").asLong(), e.getKey() + " warm");
                assertEquals(
                    e.getValue().cold, h.get("coldLaunches").asLong(), e.getKey() + " cold");
              }
            });
    JsonNode items = Http.get(api("/api/v1/templates")).json().get("items");
    for (Map.Entry<String, GroundTruthFile.PerTemplate> e : truth.entrySet()) {
      GroundTruthFile.PerTemplate gt = e.getValue();
      JsonNode t = template(items, e.getKey());
      JsonNode h = t.get("windows").get("1h");
      assertEquals(
          (double) gt.warm / (gt.warm + gt.cold),
          h.get("warmHitRatio").asDouble(),
          0.0,
          e.getKey() + " warm-hit");
      assertEquals(gt.warm, t.get("totals").get("warmLaunches").asLong());
      assertEquals(gt.cold, t.get("totals").get("coldLaunches").asLong());
      within1Percent(
          GroundTruthFile.quantileSeconds(gt.allMs, 0.95),
          h.get("claimToReadySeconds").get("all"),
          e.getKey() + " all");
      within1Percent(
          GroundTruthFile.quantileSeconds(gt.warmMs, 0.95),
          h.get("claimToReadySeconds").get("warm"),
          e.getKey() + " warm");
      within1Percent(
          GroundTruthFile.quantileSeconds(gt.coldMs, 0.95),
          h.get("claimToReadySeconds").get("cold"),
          e.getKey() + " cold");
    }
    // the demo's replicas: 0 pool serves every claim cold; env claims go cold on data-notebook
    assertEquals(0, truth.get("demo/gpu-trainer").warm);
    assertTrue(truth.get("demo/data-notebook").cold > 0);
    assertTrue(truth.get("demo/python-runtime").warm > 0);
  }

  private static void within1Percent(Double expected, JsonNode summary, String what) {
    if (expected == null) {
      assertTrue(summary == null || summary.isNull(), what + ": expected no data, got " + summary);
      return;
    }
    assertNotNull(summary, what);
    assertFalse(summary.isNull(), what + ": no data but the ground truth has samples");
    double p95 = summary.get("p95").asDouble();
    assertEquals(
        expected, p95, expected * 0.01, what + " p95 " + p95 + " vs ground truth " + expected);
  }

  @Test
  void everyTemplateHasEverySliAndPoolsAreListed() {
    JsonNode body = Http.get(api("/api/v1/templates")).json();
    assertTrue(body.get("synced").asBoolean());
    JsonNode items = body.get("items");
    for (String ref :
        List.of(
            "demo/python-runtime",
            "demo/node-runtime",
            "demo/data-notebook",
            "demo/gpu-trainer",
            "demo/legacy-tools")) {
      JsonNode t = template(items, ref);
      assertTrue(t.get("exists").asBoolean());
      for (String f :
          List.of(
              "replicas",
              "readyFraction",
              "readyFractionCurrentTemplate",
              "staleMembers",
              "members")) {
        assertTrue(t.get("pool").has(f), ref + " pool." + f);
      }
      for (String w : List.of("5m", "1h")) {
        JsonNode win = t.get("windows").get(w);
        for (String f :
            List.of("warmHitRatio", "claimToReadySeconds", "coldStartSeconds", "resume")) {
          assertTrue(win.has(f), ref + " " + w + "." + f);
        }
      }
    }
    // replicas > 0 pools refilled members: cold-start (refill) p95 has data, from 1 s object
    // timestamps
    JsonNode py = template(items, "demo/python-runtime");
    assertTrue(py.get("windows").get("1h").get("coldStartSeconds").get("count").asLong() > 0);
    assertEquals(
        "no data",
        py.get("windows").get("1h").get("resume").get("errorRatio").isNull() ? "no data" : "x");
    JsonNode one = Http.get(api("/api/v1/templates/demo/python-runtime")).json();
    assertEquals("python-runtime", one.get("name").asText());
    assertEquals(404, Http.get(api("/api/v1/templates/demo/nope")).status());
    JsonNode pools = Http.get(api("/api/v1/pools")).json().get("items");
    assertEquals(5, pools.size());
  }

  @Test
  void metricsServeTheSlisAndTheDerivedPoolAndResumeSeries() {
    String m = Http.get(mgmt("/metrics")).body();
    assertTrue(
        m.contains(
            "agent_sandbox_warmpool_size{namespace=\"demo\",sandbox_status=\"ready\",sandbox_template=\"python-runtime\",warmpool_name=\"python-runtime-pool\"}"),
        m);
    assertTrue(
        m.contains(
            "sandbox_slo_warm_hit_ratio{namespace=\"demo\",sandbox_template=\"python-runtime\",window=\"1h\"}"));
    assertTrue(m.contains("sandbox_slo_claim_launches_total{"));
    assertTrue(m.contains("sandbox_slo_eligible_claim_launches_total{"));
    assertTrue(
        m.contains(
            "sandbox_slo_claim_to_ready_seconds_bucket{launch_type=\"warm\",namespace=\"demo\",sandbox_template=\"python-runtime\",le=\"+Inf\"}"),
        m);
    assertTrue(m.contains("sandbox_slo_claim_to_ready_quantile_seconds{"));
    assertTrue(
        m.contains(
            "sandbox_slo_refill_stalled{namespace=\"demo\",sandbox_template=\"python-runtime\",warmpool_name=\"python-runtime-pool\"} 0"),
        m);
    assertTrue(m.contains("# HELP agent_sandbox_resume_total"));
    assertTrue(m.contains("sandbox_slo_informer_synced{kind=\"SandboxClaim\"} 1"));
    assertFalse(m.contains("NaN"));
    assertEquals(200, Http.get(mgmt("/healthz")).status());
    assertEquals(200, Http.get(mgmt("/readyz")).status());
  }

  @Test
  void envClaimsAreDiagnosedAsSilentColdStartsNotAsASmallPool() {
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              JsonNode items =
                  Http.get(api("/api/v1/findings?kind=SilentColdStart")).json().get("items");
              assertEquals(1, items.size(), items.toString());
              JsonNode f = items.get(0);
              assertEquals("SandboxTemplate demo/data-notebook", f.get("subject").asText());
              assertEquals("info", f.get("severity").asText());
              assertEquals("open", f.get("state").asText());
              assertEquals("runbooks/SandboxForcedColdStarts.md", f.get("runbook").asText());
              assertEquals("None", f.get("proposals").get(0).get("action").asText());
            });
    JsonNode bad = Http.get(api("/api/v1/findings?kind=Nope")).json();
    assertEquals("kind", bad.get("field").asText());
    assertEquals(400, Http.get(api("/api/v1/findings?state=sometimes")).status());
  }

  @Test
  void historyRowsArePresentInPostgres() throws Exception {
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              Long rows =
                  app.storage().store().count().toCompletionStage().toCompletableFuture().get();
              return rows != null && rows > 0;
            });
    JsonNode h =
        Http.get(api("/api/v1/templates/demo/python-runtime/history?sli=warm_hit_ratio&window=1h"))
            .json();
    assertTrue(h.get("points").size() > 0, h.toString());
    boolean someValue = false;
    for (JsonNode p : h.get("points")) {
      someValue |= !p.get("value").isNull();
    }
    assertTrue(someValue, "every stored warm-hit point is null: " + h);
    assertTrue(Files.size(groundTruth) > 0);
  }
}
