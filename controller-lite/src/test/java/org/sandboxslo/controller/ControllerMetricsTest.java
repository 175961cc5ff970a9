package org.sandboxslo.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.scrape.Sample;

/** controller-lite's /metrics carries the upstream names, labels and buckets (reference §d). */
class ControllerMetricsTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-09-01T12:00:00Z"), ZoneOffset.UTC);

  @Test
  void upstreamNamesLabelsAndBuckets() throws Exception {
    try (ControllerMetrics m = new ControllerMetrics(CLOCK)) {
      m.claimCreated("team-a", "tpl-py", "warm", "pool-py", true, "python-client");
      m.claimCreated("team-a", "tpl-py", "cold", "pool-py", false, null);
      m.claimReady("warm", "tpl-py", Duration.ofMillis(320));
      String url = m.serve("127.0.0.1", 0);
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url)).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      List<Sample> samples = PromText.parse(r.body());

      Sample warm =
          find(samples, "agent_sandbox_claim_creation_total", Map.of("launch_type", "warm"));
      assertEquals(
          Map.of(
              "namespace",
              "team-a",
              "sandbox_template",
              "tpl-py",
              "launch_type",
              "warm",
              "warmpool_name",
              "pool-py",
              "pod_condition",
              "ready",
              "created_by",
              "python-client"),
          warm.labels());
      assertEquals(1.0, warm.value());
      Sample cold =
          find(samples, "agent_sandbox_claim_creation_total", Map.of("launch_type", "cold"));
      assertEquals("not_ready", cold.labels().get("pod_condition"));
      assertEquals("unknown", cold.labels().get("created_by"));

      List<Double> les = new ArrayList<>();
      for (Sample s : samples) {
        if (s.name().equals("agent_sandbox_claim_controller_startup_latency_ms_bucket")) {
          assertEquals(
              new TreeSet<>(List.of("launch_type", "sandbox_template", "le")),
              new TreeSet<>(s.labels().keySet()));
          String le = s.labels().get("le");
          les.add(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le));
        }
      }
      List<Double> expected = new ArrayList<>(ControllerMetrics.LATENCY_BUCKETS_MS);
      expected.add(Double.POSITIVE_INFINITY);
      assertEquals(
          List.of(
              100.0,
              250.0,
              500.0,
              750.0,
              1000.0,
              1250.0,
              1500.0,
              2000.0,
              2500.0,
              5000.0,
              10000.0,
              30000.0,
              60000.0,
              120000.0,
              240000.0,
              Double.POSITIVE_INFINITY),
          les);
      assertEquals(
          0.0,
          find(
                  samples,
                  "agent_sandbox_claim_controller_startup_latency_ms_bucket",
                  Map.of("le", "250.0"))
              .value());
      assertEquals(
          1.0,
          find(
                  samples,
                  "agent_sandbox_claim_controller_startup_latency_ms_bucket",
                  Map.of("le", "500.0"))
              .value());
      assertEquals(
          320.0,
          find(samples, "agent_sandbox_claim_controller_startup_latency_ms_sum", Map.of()).value(),
          1e-9);
      assertEquals(1788264000.0, find(samples, "process_start_time_seconds", Map.of()).value());
      assertTrue(r.body().contains("# TYPE agent_sandbox_claim_creation_total counter"), r.body());
    }
  }

  private static Sample find(List<Sample> samples, String name, Map<String, String> labels) {
    for (Sample s : samples) {
      if (s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())) {
        return s;
      }
    }
    throw new AssertionError("no " + name + " " + labels + " in " + samples);
  }
}
