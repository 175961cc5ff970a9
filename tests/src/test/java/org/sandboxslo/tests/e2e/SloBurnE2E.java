package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.console.slo.RuleGenerator;
import org.sandboxslo.controller.load.LoadProfile;
import org.sandboxslo.controller.load.LoadProfileConfig;
import org.sandboxslo.demo.DemoApp;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloDefinitions;

/**
 * Done-means 2 of the SLO issue: the demo console with a short SLO period, a real Prometheus
 * scraping its management port with the generated rules of that SLO. Switching the load to claims
 * that set {@code env} (they always cold-start) makes Prometheus fire the fast-burn alert and
 * {@code /api/v1/slos/{id}} show the fast tier firing; returning to normal resolves it. The SLO
 * counts all claims ({@code eligibleOnly: false}): by default the warm-hit SLO counts eligible
 * claims only (C05), which env claims are not.
 */
class SloBurnE2E {
  static final String SLO_OWNER_TOKEN = "slo-owner-token-0123456789";

  static final String SLO = "notebook-warm-hit";
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void envClaimsFireTheFastBurnAlertAndNormalLoadResolvesIt(@TempDir Path dir) throws Exception {
    Path prometheus = Path.of("/usr/bin/prometheus");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isExecutable(prometheus), "needs /usr/bin/prometheus");
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("sloconsole.http.port", "0");
    settings.put("sloconsole.management.port", "0");
    settings.put("sloconsole.db.data-dir", dir.resolve("pg").toString());
    settings.put("sloconsole.db.work-dir", dir.resolve("pg-bin").toString());
    settings.put("sloconsole.load.enabled", "false");
    settings.put("sloconsole.slo.defaults", "false");
    // SLO writes need a signed-in slo-owner
    settings.put("sloconsole.auth.tokens", "olivia:" + SLO_OWNER_TOKEN + ":slo-owner");
    // quick refill, so calm load never finds the pool empty even on a loaded CI machine
    settings.put("sloconsole.controller.cold-start-p50", "500ms");
    settings.put("sloconsole.controller.cold-start-p95", "1500ms");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", SLO);
    body.put("sli", "warm_hit_ratio");
    body.put("selector", Map.of("namespace", "demo", "sandboxTemplate", "data-notebook"));
    body.put("objective", 95);
    body.put("window", "12h"); // fast tier 60s/5s x14.4, medium 6m/30s x6
    body.put("eligibleOnly", false);
    body.put("minEvents", 3);
    SloDefinition def = SloDefinitions.parse(body).definition();
    Path rules = dir.resolve(SLO + ".rules.yml");
    Files.writeString(rules, RuleGenerator.rules(def));

    try (DemoApp app =
        DemoApp.start(
            settings,
            List.of(),
            Map.of(),
            line -> {
              throw new AssertionError("unexpected apply error: " + line);
            })) {
      String console = "http://127.0.0.1:" + app.httpPort();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> Http.get(console + "/readyz").status() == 200);
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> Http.get(console + "/api/v1/templates/demo/data-notebook").status() == 200);
      HttpResponse<String> created =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(console + "/api/v1/slos"))
                  .header("Content-Type", "application/json")
                  .header("Authorization", "Bearer " + SLO_OWNER_TOKEN)
                  .POST(HttpRequest.BodyPublishers.ofString(Http.JSON.writeValueAsString(body)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(201, created.statusCode(), created.body());

      int port = freePort();
      Path config = dir.resolve("prometheus.yml");
      Files.writeString(
          config,
          String.join(
              "\n",
              "global: {scrape_interval: 1s, evaluation_interval: 1s}",
              "rule_files: ['" + rules + "']",
              "scrape_configs:",
              "  - job_name: sandbox-slo-console",
              "    honor_labels: true",
              "    static_configs: [{targets: ['127.0.0.1:" + app.managementPort() + "']}]",
              ""));
      Process prom =
          new ProcessBuilder(
                  prometheus.toString(),
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + dir.resolve("tsdb"),
                  "--web.listen-address=127.0.0.1:" + port)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("prometheus.log").toFile())
              .start();
      ObjectRef notebook = new ObjectRef("demo", "data-notebook-pool");
      LoadProfileConfig load =
          new LoadProfileConfig(
              List.of(
                  new LoadProfileConfig.Phase("calm", Duration.ofSeconds(40), 0.5, 0),
                  new LoadProfileConfig.Phase("env", Duration.ofSeconds(150), 2, 1.0),
                  new LoadProfileConfig.Phase("calm-again", Duration.ofSeconds(150), 0.5, 0)),
              List.of(new LoadProfileConfig.Target(notebook, 1)),
              notebook,
              Duration.ofSeconds(5),
              "python-client",
              7);
      // start the calm phase on a full pool: cold starts while it fills would burn the budget
      await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptions()
          .until(
              () ->
                  Http.get(console + "/api/v1/pools/demo/data-notebook-pool")
                          .json()
                          .path("pool")
                          .path("readyFractionCurrentTemplate")
                          .asDouble()
                      == 1.0);
      try (LoadProfile profile =
          new LoadProfile(app.client(), load, dir.resolve("ground-truth.jsonl"))) {
        profile.start();
        long t0 = System.nanoTime();
        Duration calmAgainAt =
            load.phases().get(0).duration().plus(load.phases().get(1).duration());
        // calm: the SLO has traffic, nothing fires
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(
                () -> query(port, "slo:sli_error:ratio_rate1m{slo=\"" + SLO + "\"}").size() == 1);
        assertTrue(firingFast(port).isEmpty(), "fast burn fired during calm load");

        // env claims: every claim cold-starts -> the fast tier fires in Prometheus and the console
        JsonNode alert =
            await("fast-burn alert firing in Prometheus")
                .atMost(Duration.ofSeconds(150))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> firingFast(port), a -> !a.isEmpty())
                .get(0);
        double firedAfter =
            (System.nanoTime() - t0) / 1e9 - load.phases().get(0).duration().toSeconds();
        assertEquals("page", alert.path("labels").path("severity").asText());
        assertEquals("data-notebook", alert.path("labels").path("sandbox_template").asText());
        assertEquals("demo", alert.path("labels").path("namespace").asText());
        JsonNode slo =
            await("console shows the fast tier firing")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(
                    () -> Http.get(console + "/api/v1/slos/" + SLO).json(),
                    j -> contains(j.path("firingTiers"), "fast"));
        // a 12h budget is spent by minutes of cold starts: burning, or already exhausted
        assertTrue(
            List.of("burning", "exhausted").contains(slo.path("status").asText()), slo.toString());
        JsonNode fast = slo.path("tiers").get(0);
        assertEquals("fast", fast.path("tier").asText());
        assertTrue(fast.path("long").path("burnRate").asDouble() >= 14.4, fast.toString());

        // back to normal: the short window clears, the alert resolves in both places
        await("fast-burn alert resolved in Prometheus")
            .atMost(Duration.ofSeconds(240))
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(
                () -> System.nanoTime() - t0 > calmAgainAt.toNanos() && firingFast(port).isEmpty());
        double resolvedAfter = (System.nanoTime() - t0) / 1e9 - calmAgainAt.toSeconds();
        await("console fast tier quiet")
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () ->
                    !contains(
                        Http.get(console + "/api/v1/slos/" + SLO).json().path("firingTiers"),
                        "fast"));

        // the controller-reported view (controller-lite's /metrics, scraped every 15 s) agrees
        JsonNode tpl = Http.get(console + "/api/v1/templates/demo/data-notebook").json();
        JsonNode cv = tpl.path("controllerView");
        assertTrue(cv.path("scrapes").asInt() >= 2, tpl.toString());
        double consoleWarm = tpl.path("windows").path("1h").path("warmHitRatio").asDouble();
        assertTrue(
            Math.abs(cv.path("warmHitRatio").asDouble() - consoleWarm) < 0.1,
            "console " + consoleWarm + " vs " + cv);
        System.out.printf(
            "SloBurnE2E: fast burn fired %.0f s after env claims started, resolved %.0f s after normal load"
                + " returned; warm-hit console %.3f / controller %.3f (partial %s)%n",
            firedAfter,
            resolvedAfter,
            consoleWarm,
            cv.path("warmHitRatio").asDouble(),
            cv.path("partial").asBoolean());
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(
            e.getMessage()
                + "\nprometheus log:\n"
                + Files.readString(dir.resolve("prometheus.log")),
            e);
      } finally {
        prom.destroy();
        if (!prom.waitFor(10, TimeUnit.SECONDS)) {
          prom.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
  }

  private static List<JsonNode> firingFast(int port) throws Exception {
    JsonNode alerts = get(port, "/api/v1/alerts").path("data").path("alerts");
    List<JsonNode> out = new java.util.ArrayList<>();
    for (JsonNode a : alerts) {
      if (SLO.equals(a.path("labels").path("slo").asText())
          && "fast".equals(a.path("labels").path("slo_tier").asText())
          && "firing".equals(a.path("state").asText())) {
        out.add(a);
      }
    }
    return out;
  }

  private static JsonNode query(int port, String q) throws Exception {
    return get(port, "/api/v1/query?query=" + URLEncoder.encode(q, StandardCharsets.UTF_8))
        .path("data")
        .path("result");
  }

  private static JsonNode get(int port, String path) throws Exception {
    return Http.get("http://127.0.0.1:" + port + path).json();
  }

  private static boolean contains(JsonNode array, String s) {
    for (JsonNode n : array) {
      if (s.equals(n.asText())) {
        return true;
      }
    }
    return false;
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
