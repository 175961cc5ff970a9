package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The demo's incident scenario is diagnosed while it happens: a template change under OnReplenish
 * becomes StalePoolMembers, suspended sandboxes produce resume SLIs, Retain claims are counted as
 * retained-expired.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IncidentsE2E {
  @TempDir static Path dir;
  DemoApp app;

  @BeforeAll
  void start() {
    Map<String, String> s = Demo.settings(dir);
    s.put("sloconsole.load.profile", "constant");
    s.put("sloconsole.load.rate", "1");
    s.put("sloconsole.load.duration", "5m");
    s.put("sloconsole.load.hold", "60s");
    s.put("sloconsole.load.ground-truth", dir.resolve("gt.jsonl").toString());
    s.put("sloconsole.controller.cold-start-p50", "300ms");
    s.put("sloconsole.controller.cold-start-p95", "800ms");
    s.put("sloconsole.controller.resume-p50", "300ms");
    s.put("sloconsole.controller.resume-p95", "600ms");
    s.put("sloconsole.app.scenario", "incidents");
    s.put("sloconsole.app.scenario-start", "10s");
    app = DemoApp.start(s, List.of(), Map.of(), e -> {});
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
  void incidentsAreDiagnosedWhileTheyHappen() {
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              JsonNode stale =
                  Http.get(api("/api/v1/findings?kind=StalePoolMembers")).json().get("items");
              assertEquals(1, stale.size(), stale.toString());
              assertEquals(
                  "SandboxWarmPool demo/legacy-tools-pool", stale.get(0).get("subject").asText());
              assertEquals(
                  "PacedRecreate", stale.get(0).get("proposals").get(0).get("action").asText());
            });
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              long attempts = 0;
              for (JsonNode t : Http.get(api("/api/v1/templates")).json().get("items")) {
                attempts += t.get("windows").get("5m").get("resume").get("attempts").asLong();
              }
              assertTrue(attempts >= 1, "no resume ended yet");
              String m = Http.get(Demo.mgmt(app, "/metrics")).body();
              assertTrue(
                  m.contains(
                      "sandbox_slo_expired_claims{kind=\"retained_expired\",namespace=\"demo\"}"),
                  "no retained claims yet");
              assertTrue(
                  m.contains("agent_sandbox_resume_total{namespace=\"demo\",result=\"success\""),
                  m);
            });
    assertTrue(
        app.incidents().log().stream().anyMatch(l -> l.contains("legacy-tools image")),
        app.incidents().log().toString());
  }
}
