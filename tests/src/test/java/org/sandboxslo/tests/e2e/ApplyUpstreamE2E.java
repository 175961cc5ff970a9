package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.demo.DemoApp;
import org.sandboxslo.demo.DemoMain;

/**
 * The demo with {@code --apply} of the real upstream manifests (../shared/upstream/agent-sandbox):
 * the OLM samples, the python client's template + warm pool (with their ${VAR} placeholders set)
 * and the aider example. Their templates appear with SLIs; the sample claims are served warm. A
 * file of bad documents gives one-line errors and loses nothing else.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApplyUpstreamE2E {
  static final Path UPSTREAM =
      Path.of(System.getProperty("shared.dir"), "upstream", "agent-sandbox");
  @TempDir static Path dir;
  DemoApp app;
  final List<String> applyErrors = new ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(
        bad,
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxClaim
        metadata: {name: no-pool, namespace: default}
        spec: {}
        ---
        apiVersion: example.com/v1
        kind: Frobnicator
        metadata: {name: f, namespace: default}
        ---
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxWarmPool
        metadata: {name: extra-pool, namespace: default}
        spec: {replicas: 1, sandboxTemplateRef: {name: example-template}}
        """);
    Map<String, String> settings = Demo.settings(dir);
    settings.put("sloconsole.load.enabled", "false");
    settings.put("sloconsole.controller.cold-start-p50", "200ms");
    settings.put("sloconsole.controller.cold-start-p95", "500ms");
    Path py = UPSTREAM.resolve("clients/python/agentic-sandbox-client");
    app =
        DemoApp.start(
            settings,
            List.of(
                UPSTREAM.resolve("olm/config/samples"),
                py.resolve("python-sandbox-template.yaml"),
                py.resolve("python-sandbox-warmpool.yaml"),
                UPSTREAM.resolve("examples/aider-sandbox"),
                bad),
            Map.of(
                "SANDBOX_TEMPLATE_NAME",
                "python-sandbox-template",
                "SANDBOX_WARMPOOL_NAME",
                "python-sdk-warmpool",
                "SANDBOX_NAMESPACE",
                "default"),
            applyErrors::add);
    Demo.awaitReady(app);
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

  @Test
  void upstreamTemplatesAppearWithTheirSlis() {
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              JsonNode items = Http.get(api("/api/v1/templates")).json().get("items");
              JsonNode example = MainJobE2E.template(items, "default/example-template");
              assertEquals(List.of("example-warmpool", "extra-pool"), names(example.get("pools")));
              // the sample claim example-claim is served by example-warmpool: warm when its member
              // was
              // Ready first, cold when the claim won the race with the pool's first member (applied
              // together)
              JsonNode h = example.get("windows").get("1h");
              assertEquals(
                  1, h.get("warmLaunches").asLong() + h.get("coldLaunches").asLong(), h.toString());
              assertEquals(
                  (double) h.get("warmLaunches").asLong(), h.get("warmHitRatio").asDouble());
              JsonNode ah =
                  MainJobE2E.template(items, "default/aider-browser-template")
                      .get("windows")
                      .get("1h");
              assertEquals(
                  1,
                  ah.get("warmLaunches").asLong() + ah.get("coldLaunches").asLong(),
                  ah.toString());
              JsonNode python = MainJobE2E.template(items, "default/python-sandbox-template");
              assertEquals(List.of("python-sdk-warmpool"), names(python.get("pools")));
              assertEquals(0, python.get("pool").get("replicas").asInt());
              assertTrue(
                  python.get("pool").get("readyFraction").isNull(),
                  "replicas: 0 has no ready fraction");
              assertTrue(
                  python.get("windows").get("5m").get("warmHitRatio").isNull(),
                  "no claims: no data");
              // the demo templates are still there
              MainJobE2E.template(items, "demo/python-runtime");
            });
  }

  private static List<String> names(JsonNode arr) {
    List<String> out = new ArrayList<>();
    arr.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void badDocumentsGiveOneLineErrorsAndLoseNothing() {
    assertEquals(2, applyErrors.size(), applyErrors.toString());
    assertTrue(
        applyErrors.get(0).contains("SandboxClaim default/no-pool: spec.warmPoolRef.name: missing"),
        applyErrors.get(0));
    assertTrue(applyErrors.get(1).contains("unknown kind 'Frobnicator'"), applyErrors.get(1));
    for (String e : applyErrors) {
      assertTrue(e.startsWith("file " + dir.resolve("bad.yaml")), e);
      assertTrue(!e.contains("\n") && !e.contains("Exception"), e);
    }
    // the good document of the same file was applied
    JsonNode pools = Http.get(api("/api/v1/pools")).json().get("items");
    boolean found = false;
    for (JsonNode p : pools) {
      found |= p.get("name").asText().equals("extra-pool");
    }
    assertTrue(found, pools.toString());
  }

  @Test
  void cliRejectsBadInputInOneLine() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        DemoMain.run(
            new PrintWriter(out),
            new PrintWriter(err),
            "demo",
            "--apply",
            dir.resolve("missing.yaml").toString());
    assertEquals(2, code);
    assertEquals(
        "sandbox-slo: --apply " + dir.resolve("missing.yaml") + ": no such file or directory\n",
        err.toString());
    err.getBuffer().setLength(0);
    assertEquals(
        2,
        DemoMain.run(
            new PrintWriter(out), new PrintWriter(err), "demo", "--set", "sloconsole.http.prot=1"));
    assertTrue(
        err.toString().startsWith("sandbox-slo: unknown configuration key sloconsole.http.prot"),
        err.toString());
    assertEquals(1, err.toString().split("\n").length);
    err.getBuffer().setLength(0);
    assertEquals(
        2,
        DemoMain.run(
            new PrintWriter(out), new PrintWriter(err), "demo", "--set", "sloconsole.bogus.x=1"));
    assertTrue(
        err.toString()
            .startsWith("sandbox-slo: --set: unknown configuration key sloconsole.bogus.x"),
        err.toString());
    err.getBuffer().setLength(0);
    assertEquals(
        2, DemoMain.run(new PrintWriter(out), new PrintWriter(err), "demo", "--frobnicate"));
    assertTrue(
        err.toString().startsWith("sandbox-slo: Unknown option: '--frobnicate'"), err.toString());
  }
}
