package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.api.SnapshotJson;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;

/** The console reads what the real engine produces (an empty, synced fleet). */
class EngineSnapshotTest {
  @Test
  void emptySyncedFleetFromTheEngine() {
    FleetEngine engine = new FleetEngine(EngineConfig.defaults());
    for (Kind k : Kind.values()) {
      engine.apply(new FleetEvent.Synced(k, Fixtures.AT));
    }
    Fixtures.TestSources sources = new Fixtures.TestSources();
    sources.snapshot = engine.snapshot(Fixtures.AT);
    assertEquals(
        "{\"at\":\"2026-11-29T08:00:00Z\",\"synced\":true,\"items\":[]}",
        SnapshotJson.templates(sources.snapshot).encode());
    PrometheusRegistry registry = new PrometheusRegistry();
    ConsoleMetrics.register(registry, sources);
    assertEquals(
        List.of(
            "sandbox_slo_informer_synced{kind=\"Sandbox\"} 1.0",
            "sandbox_slo_informer_synced{kind=\"SandboxClaim\"} 1.0",
            "sandbox_slo_informer_synced{kind=\"SandboxTemplate\"} 1.0",
            "sandbox_slo_informer_synced{kind=\"SandboxWarmPool\"} 1.0"),
        ConsoleMetricsTest.samples(
            ConsoleMetricsTest.scrape(registry), "sandbox_slo_informer_synced"));
  }
}
