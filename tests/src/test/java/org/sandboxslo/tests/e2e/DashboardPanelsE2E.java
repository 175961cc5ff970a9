package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.demo.DemoApp;

/**
 * Every Grafana panel query returns data: a real Prometheus scrapes the demo console and
 * controller-lite (the upstream metric names), loads every rules file under {@code alerts/}
 * (hand-written and generated), and each panel's PromQL — with the dashboard variables set to "all"
 * — must return a non-empty result once the demo incidents have run for a while.
 */
class DashboardPanelsE2E {
  @TempDir static Path dir;

  static Path repo() {
    Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("dashboards"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("no dashboards/ above " + System.getProperty("user.dir"));
    }
    return p;
  }

  /** dashboard file → panel title → expr, with the variables set to match everything. */
  static Map<String, String> panelQueries(Path dashboards) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(dashboards)) {
      for (Path f : files.filter(x -> x.toString().endsWith(".json")).sorted().toList()) {
        collect(f.getFileName().toString(), Http.JSON.readTree(f.toFile()).path("panels"), out);
      }
    }
    return out;
  }

  static void collect(String file, JsonNode panels, Map<String, String> out) {
    for (JsonNode p : panels) {
      collect(file, p.path("panels"), out);
      int i = 0;
      for (JsonNode t : p.path("targets")) {
        String expr = t.path("expr").asText("");
        if (!expr.isBlank()) {
          out.put(
              file + " / " + p.path("title").asText() + " #" + (i++),
              expr.replace("$__rate_interval", "1m")
                  .replaceAll("\\$\\{?(namespace|template|pool|slo)\\}?", ".*"));
        }
      }
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void everyPanelReturnsData() throws Exception {
    Path prometheus = Path.of("/usr/bin/prometheus");
    Assumptions.assumeTrue(
        Files.isExecutable(prometheus) || System.getenv("CI") != null, "needs /usr/bin/prometheus");
    Path repo = repo();
    Map<String, String> queries = panelQueries(repo.resolve("dashboards"));
    assertTrue(
        queries.size() >= 40,
        "expected the dashboards' ~48 panel queries, found " + queries.size());
    List<String> rules = new ArrayList<>();
    try (Stream<Path> s = Files.walk(repo.resolve("alerts"))) {
      s.filter(p -> p.toString().endsWith(".rules.yml")).forEach(p -> rules.add("'" + p + "'"));
    }

    Map<String, String> settings = Demo.settings(dir);
    settings.put("sloconsole.load.profile", "constant");
    settings.put("sloconsole.load.rate", "2");
    settings.put("sloconsole.load.duration", "10m");
    settings.put("sloconsole.load.env-fraction", "0.2");
    settings.put("sloconsole.load.hold", "20s");
    settings.put("sloconsole.load.ground-truth", dir.resolve("gt.jsonl").toString());
    settings.put("sloconsole.controller.cold-start-p50", "500ms");
    settings.put("sloconsole.controller.cold-start-p95", "1500ms");
    settings.put("sloconsole.controller.resume-p50", "300ms");
    settings.put("sloconsole.controller.resume-p95", "800ms");
    settings.put("sloconsole.controller.resume-failure-probability", "0.3");
    settings.put("sloconsole.app.scenario", "incidents");
    settings.put("sloconsole.app.scenario-start", "5s");
    try (DemoApp app = DemoApp.start(settings, List.of(), Map.of(), e -> {})) {
      Demo.awaitReady(app);
      URI controller = URI.create(app.controller().metrics().url());
      int port = freePort();
      Path config = dir.resolve("prometheus.yml");
      Files.writeString(
          config,
          String.join(
              "\n",
              "global: {scrape_interval: 2s, evaluation_interval: 2s}",
              "rule_files: [" + String.join(", ", rules) + "]",
              "scrape_configs:",
              "  - job_name: sandbox-slo-console",
              "    honor_labels: true",
              "    static_configs: [{targets: ['127.0.0.1:" + app.managementPort() + "']}]",
              "  - job_name: agent-sandbox-controller",
              "    metrics_path: " + controller.getPath(),
              "    static_configs: [{targets: ['"
                  + controller.getHost()
                  + ":"
                  + controller.getPort()
                  + "']}]",
              ""));
      Process prom =
          new ProcessBuilder(
                  prometheus.toString(),
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + dir.resolve("tsdb"),
                  "--web.listen-address=127.0.0.1:" + port,
                  "--web.external-url=http://127.0.0.1:" + port)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("prometheus.log").toFile())
              .start();
      try {
        String base = "http://127.0.0.1:" + port;
        await()
            .atMost(Duration.ofSeconds(60))
            .ignoreExceptions()
            .until(
                () -> {
                  JsonNode t =
                      Http.get(base + "/api/v1/targets").json().path("data").path("activeTargets");
                  long up = 0;
                  for (JsonNode x : t) {
                    up += "up".equals(x.path("health").asText()) ? 1 : 0;
                  }
                  return up == 2;
                });
        Map<String, String> missing = new TreeMap<>(queries);
        try {
          await()
              .atMost(Duration.ofMinutes(5))
              .pollInterval(Duration.ofSeconds(5))
              .until(
                  () -> {
                    missing.entrySet().removeIf(e -> hasData(base, e.getValue()));
                    return missing.isEmpty();
                  });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
          StringBuilder sb = new StringBuilder("panels without data after 5 minutes:\n");
          missing.forEach((k, v) -> sb.append("  ").append(k).append(": ").append(v).append('\n'));
          throw new AssertionError(sb.toString());
        }
      } catch (AssertionError | org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError(
            e.getMessage() + "\nprometheus log (tail):\n" + tail(dir.resolve("prometheus.log")), e);
      } finally {
        prom.destroy();
        prom.waitFor();
      }
    }
  }

  static String tail(Path log) throws IOException {
    List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }

  static boolean hasData(String base, String expr) {
    Http.Response r =
        Http.get(base + "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
    if (r.status() != 200) {
      throw new AssertionError("query failed (" + r.status() + "): " + expr + "\n" + r.body());
    }
    JsonNode result = r.json().path("data").path("result");
    return result.isArray() ? result.size() > 0 : !result.isMissingNode();
  }
}
