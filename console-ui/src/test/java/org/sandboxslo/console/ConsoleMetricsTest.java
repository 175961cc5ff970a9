package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.sli.PoolGauge;

class ConsoleMetricsTest {
  static String scrape(PrometheusRegistry registry) {
    return ExpositionFormats.init()
        .getPrometheusTextFormatWriter()
        .toDebugString(registry.scrape());
  }

  static List<String> samples(String text, String metric) {
    return Arrays.stream(text.split("\n")).filter(l -> l.startsWith(metric + "{")).toList();
  }

  private static String scrapeOf(Fixtures.TestSources sources) {
    PrometheusRegistry registry = new PrometheusRegistry();
    ConsoleMetrics.register(registry, sources);
    return scrape(registry);
  }

  @Test
  void exportsExactSamplesForAHandBuiltSnapshot() {
    Fixtures.TestSources sources = new Fixtures.TestSources();
    sources.snapshot = Fixtures.snapshot();
    sources.ingestErrors.put("SandboxClaim/bad-annotation", 3L);
    String text = scrapeOf(sources);

    assertEquals(
        List.of(
            "agent_sandbox_warmpool_size{namespace=\"demo\",sandbox_status=\"not_ready\","
                + "sandbox_template=\"python-runtime\",warmpool_name=\"python-runtime-pool\"} 1.0",
            "agent_sandbox_warmpool_size{namespace=\"demo\",sandbox_status=\"ready\","
                + "sandbox_template=\"python-runtime\",warmpool_name=\"python-runtime-pool\"} 7.0",
            "agent_sandbox_warmpool_size{namespace=\"demo\",sandbox_status=\"stale\","
                + "sandbox_template=\"python-runtime\",warmpool_name=\"python-runtime-pool\"} 0.0"),
        samples(text, "agent_sandbox_warmpool_size"));
    assertEquals(
        List.of(
            "agent_sandbox_warmpool_replicas{namespace=\"demo\",sandbox_template=\"python-runtime\","
                + "warmpool_name=\"python-runtime-pool\"} 8.0"),
        samples(text, "agent_sandbox_warmpool_replicas"));
    assertTrue(
        text.contains(
            "agent_sandbox_resume_total{namespace=\"demo\",result=\"timeout\","
                + "sandbox_template=\"python-runtime\"} 2.0\n"),
        text);
    assertTrue(
        text.contains(
            "agent_sandbox_resume_total{namespace=\"demo\",result=\"error\","
                + "sandbox_template=\"python-runtime\"} 1.0\n"),
        text);
    assertTrue(text.contains("# TYPE agent_sandbox_resume_total counter\n"), text);
    // go-runtime has no launch in any window: no warm-hit sample at all, never NaN
    assertEquals(
        List.of(
            "sandbox_slo_warm_hit_ratio{namespace=\"demo\",sandbox_template=\"python-runtime\","
                + "window=\"1h\"} 0.95",
            "sandbox_slo_warm_hit_ratio{namespace=\"demo\",sandbox_template=\"python-runtime\","
                + "window=\"5m\"} 0.8333"),
        samples(text, "sandbox_slo_warm_hit_ratio"));
    // 5m: all/warm/cold x 3 quantiles; 1h: only "all" (warm and cold summaries are null)
    List<String> c2r = samples(text, "sandbox_slo_claim_to_ready_quantile_seconds");
    assertEquals(12, c2r.size(), String.join("\n", c2r));
    assertTrue(
        c2r.contains(
            "sandbox_slo_claim_to_ready_quantile_seconds{launch_type=\"cold\",namespace=\"demo\","
                + "quantile=\"0.95\",sandbox_template=\"python-runtime\",window=\"5m\"} 3.4"),
        String.join("\n", c2r));
    assertTrue(
        c2r.contains(
            "sandbox_slo_claim_to_ready_quantile_seconds{launch_type=\"all\",namespace=\"demo\","
                + "quantile=\"0.5\",sandbox_template=\"python-runtime\",window=\"5m\"} 0.15"),
        String.join("\n", c2r));
    assertEquals(
        List.of(
            "sandbox_slo_claim_launches_total{launch_type=\"cold\",namespace=\"demo\","
                + "sandbox_template=\"go-runtime\"} 0.0",
            "sandbox_slo_claim_launches_total{launch_type=\"cold\",namespace=\"demo\","
                + "sandbox_template=\"python-runtime\"} 8.0",
            "sandbox_slo_claim_launches_total{launch_type=\"warm\",namespace=\"demo\","
                + "sandbox_template=\"go-runtime\"} 0.0",
            "sandbox_slo_claim_launches_total{launch_type=\"warm\",namespace=\"demo\","
                + "sandbox_template=\"python-runtime\"} 40.0"),
        samples(text, "sandbox_slo_claim_launches_total"));
    assertEquals(
        List.of(
            "sandbox_slo_pool_ready_ratio{namespace=\"demo\",sandbox_template=\"python-runtime\","
                + "view=\"current_template\",warmpool_name=\"python-runtime-pool\"} 0.875",
            "sandbox_slo_pool_ready_ratio{namespace=\"demo\",sandbox_template=\"python-runtime\","
                + "view=\"upstream\",warmpool_name=\"python-runtime-pool\"} 0.875"),
        samples(text, "sandbox_slo_pool_ready_ratio"));
    assertEquals(
        List.of(
            "sandbox_slo_cold_start_seconds{namespace=\"demo\",quantile=\"0.5\","
                + "sandbox_template=\"python-runtime\",window=\"5m\"} 20.0",
            "sandbox_slo_cold_start_seconds{namespace=\"demo\",quantile=\"0.95\","
                + "sandbox_template=\"python-runtime\",window=\"5m\"} 31.0",
            "sandbox_slo_cold_start_seconds{namespace=\"demo\",quantile=\"0.99\","
                + "sandbox_template=\"python-runtime\",window=\"5m\"} 33.0"),
        samples(text, "sandbox_slo_cold_start_seconds"));
    assertEquals(
        List.of(
            "sandbox_slo_stale_members{namespace=\"demo\",sandbox_template=\"python-runtime\","
                + "warmpool_name=\"python-runtime-pool\"} 0.0"),
        samples(text, "sandbox_slo_stale_members"));
    assertEquals(
        List.of(
            "sandbox_slo_informer_synced{kind=\"Sandbox\"} 1.0",
            "sandbox_slo_informer_synced{kind=\"SandboxClaim\"} 0.0",
            "sandbox_slo_informer_synced{kind=\"SandboxTemplate\"} 1.0",
            "sandbox_slo_informer_synced{kind=\"SandboxWarmPool\"} 1.0"),
        samples(text, "sandbox_slo_informer_synced"));
    assertEquals(
        List.of("sandbox_slo_watch_lag_seconds{kind=\"Sandbox\"} 0.2"),
        samples(text, "sandbox_slo_watch_lag_seconds"));
    assertEquals(
        List.of(
            "sandbox_slo_ingest_errors_total{kind=\"SandboxClaim\",reason=\"bad-annotation\"} 3.0"),
        samples(text, "sandbox_slo_ingest_errors_total"));
    assertFalse(text.contains("NaN"), text);
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String name = line.split(" ")[2];
        assertTrue(text.contains("# HELP " + name + " "), "no help text for " + name);
      }
    }
  }

  @Test
  void poolSizeIsAPartitionOfTheMembers() {
    // 9 members: 7 Ready (5 on the current template, 2 stale), 2 not Ready (1 of them stale)
    PoolGauge pool = new PoolGauge(10, 9, 7, 0.7, 9, 7, 5, 0.5, 3, 2);
    Fixtures.TestSources sources = new Fixtures.TestSources();
    sources.snapshot = Fixtures.snapshot(Fixtures.AT, 0.8333, pool);
    String text = scrapeOf(sources);
    List<String> size = samples(text, "agent_sandbox_warmpool_size");
    assertEquals(3, size.size(), text);
    assertTrue(
        size.get(0).contains("sandbox_status=\"not_ready\"") && size.get(0).endsWith("} 1.0"));
    assertTrue(size.get(1).contains("sandbox_status=\"ready\"") && size.get(1).endsWith("} 5.0"));
    assertTrue(size.get(2).contains("sandbox_status=\"stale\"") && size.get(2).endsWith("} 3.0"));
  }

  @Test
  void beforeTheFirstSnapshotOnlyIngestErrorsAreExported() {
    Fixtures.TestSources sources = new Fixtures.TestSources();
    sources.ingestErrors.put("Sandbox/missing-owner", 1L);
    String text = scrapeOf(sources);
    assertEquals(
        List.of("sandbox_slo_ingest_errors_total{kind=\"Sandbox\",reason=\"missing-owner\"} 1.0"),
        Arrays.stream(text.split("\n")).filter(l -> !l.startsWith("#")).toList());
  }

  @Test
  void openMetricsCarriesUnitsAndUnregisterRemovesEverything() {
    PrometheusRegistry registry = new PrometheusRegistry();
    Fixtures.TestSources sources = new Fixtures.TestSources();
    sources.snapshot = Fixtures.snapshot();
    ConsoleMetrics metrics = ConsoleMetrics.register(registry, sources);
    String om =
        ExpositionFormats.init().getOpenMetricsTextFormatWriter().toDebugString(registry.scrape());
    assertTrue(om.contains("# UNIT sandbox_slo_claim_to_ready_quantile_seconds seconds\n"), om);
    assertTrue(om.contains("# UNIT sandbox_slo_warm_hit_ratio ratio\n"), om);
    assertTrue(om.endsWith("# EOF\n"), om);
    assertThrows(IllegalArgumentException.class, () -> ConsoleMetrics.register(registry, sources));
    metrics.unregister();
    assertEquals("", scrape(registry));
  }
}
