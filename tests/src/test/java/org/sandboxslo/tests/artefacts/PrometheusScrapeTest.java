package org.sandboxslo.tests.artefacts;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads {@code alerts/sandbox-sli.rules.yml} into a real Prometheus that scrapes two fake targets
 * the way alerts/README.md tells users to: the controller with default {@code honor_labels} (its
 * {@code namespace} label becomes {@code exported_namespace}) and the console with {@code
 * honor_labels: true}. Asserts that the recorded warm-hit series of both views carry the claim's
 * namespace ({@code team-a}), not the target's.
 */
class PrometheusScrapeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void recordedSeriesCarryTheObjectNamespaceInBothViews(@TempDir Path tmp) throws Exception {
    ExternalTool prometheus = ExternalTool.require("prometheus", "apt-get install prometheus");
    AtomicInteger controllerScrapes = new AtomicInteger();
    AtomicInteger consoleScrapes = new AtomicInteger();
    HttpServer targets = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    serve(targets, "/controller", controllerScrapes, PrometheusScrapeTest::controllerText);
    serve(targets, "/console", consoleScrapes, PrometheusScrapeTest::consoleText);
    targets.start();
    int targetPort = targets.getAddress().getPort();
    int port = freePort();
    Path config = tmp.resolve("prometheus.yml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "global: {scrape_interval: 1s, evaluation_interval: 1s}",
            "rule_files: ['" + Artefacts.alertsDir().resolve("sandbox-sli.rules.yml") + "']",
            "scrape_configs:",
            "  - job_name: agent-sandbox-controller",
            "    metrics_path: /controller",
            "    static_configs: [{targets: ['127.0.0.1:"
                + targetPort
                + "'],"
                + " labels: {namespace: agent-sandbox-system}}]",
            "  - job_name: sandbox-slo-console",
            "    honor_labels: true",
            "    metrics_path: /console",
            "    static_configs: [{targets: ['127.0.0.1:"
                + targetPort
                + "'],"
                + " labels: {namespace: sandbox-slo}}]",
            ""));
    Process process =
        new ProcessBuilder(
                prometheus.executable().toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + tmp.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--web.external-url=http://127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("prometheus.log").toFile())
            .start();
    HttpClient http = HttpClient.newHttpClient();
    try {
      String q = "sandbox:warm_hit_ratio:rate5m";
      JsonNode result =
          await("recorded " + q + " for both views")
              .atMost(Duration.ofSeconds(60))
              .pollInterval(Duration.ofMillis(500))
              .ignoreExceptions()
              .until(() -> query(http, port, q), r -> r.size() == 2);
      for (JsonNode sample : result) {
        JsonNode metric = sample.path("metric");
        String view = metric.path("view").asText();
        assertEquals("team-a", metric.path("namespace").asText(), view + ": " + sample);
        assertFalse(metric.has("exported_namespace"), view + ": " + sample);
        assertEquals("tpl-py", metric.path("sandbox_template").asText(), view + ": " + sample);
        // 3 warm and 1 cold claim per scrape in both fake targets.
        assertEquals(0.75, sample.path("value").get(1).asDouble(), 1e-9, view + ": " + sample);
      }
      JsonNode raw = query(http, port, "agent_sandbox_claim_creation_total");
      assertEquals("team-a", raw.get(0).path("metric").path("exported_namespace").asText());
      assertEquals("agent-sandbox-system", raw.get(0).path("metric").path("namespace").asText());
    } catch (RuntimeException | AssertionError e) {
      throw new AssertionError(
          e.getMessage() + "\nprometheus log:\n" + Artefacts.read(tmp.resolve("prometheus.log")),
          e);
    } finally {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      targets.stop(0);
    }
  }

  private static String controllerText(int n) {
    String labels =
        "created_by=\"python-client\",namespace=\"team-a\",sandbox_template=\"tpl-py\","
            + "warmpool_name=\"pool-py\",";
    return "# TYPE agent_sandbox_claim_creation_total counter\n"
        + "agent_sandbox_claim_creation_total{"
        + labels
        + "launch_type=\"warm\",pod_condition=\"ready\"} "
        + (3 * n)
        + "\n"
        + "agent_sandbox_claim_creation_total{"
        + labels
        + "launch_type=\"cold\",pod_condition=\"not_ready\"} "
        + n
        + "\n";
  }

  private static String consoleText(int n) {
    String labels = "namespace=\"team-a\",sandbox_template=\"tpl-py\",";
    return "# TYPE sandbox_slo_claim_launches_total counter\n"
        + "sandbox_slo_claim_launches_total{"
        + labels
        + "launch_type=\"warm\"} "
        + (3 * n)
        + "\n"
        + "sandbox_slo_claim_launches_total{"
        + labels
        + "launch_type=\"cold\"} "
        + n
        + "\n";
  }

  private static void serve(
      HttpServer server, String path, AtomicInteger scrapes, IntFunction<String> body) {
    server.createContext(
        path,
        exchange -> {
          byte[] bytes = body.apply(scrapes.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
          exchange.sendResponseHeaders(200, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
  }

  private static JsonNode query(HttpClient http, int port, String promql)
      throws IOException, InterruptedException {
    URI uri =
        URI.create(
            "http://127.0.0.1:"
                + port
                + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    HttpResponse<String> response =
        http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    JsonNode body = JSON.readTree(response.body());
    if (!"success".equals(body.path("status").asText())) {
      throw new IllegalStateException(promql + " -> " + response.body());
    }
    return body.path("data").path("result");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
