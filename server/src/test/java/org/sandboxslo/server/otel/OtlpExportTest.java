package org.sandboxslo.server.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OTLP/HTTP export against a receiver in the test (a JDK HTTP server that keeps each request
 * body and decodes it with the OTLP protobuf classes): spans arrive with their attributes and the
 * resource, and the Prometheus registry arrives as OTLP metrics with the values put into it.
 */
class OtlpExportTest {
  HttpServer receiver;
  final List<byte[]> traces = new CopyOnWriteArrayList<>();
  final List<byte[]> metrics = new CopyOnWriteArrayList<>();
  final List<String> contentTypes = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startReceiver() throws Exception {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/v1/traces", ex -> keep(ex, traces));
    receiver.createContext("/v1/metrics", ex -> keep(ex, metrics));
    receiver.start();
  }

  private void keep(com.sun.net.httpserver.HttpExchange ex, List<byte[]> into)
      throws java.io.IOException {
    try (InputStream in = ex.getRequestBody()) {
      into.add(in.readAllBytes());
    }
    contentTypes.add(ex.getRequestHeaders().getFirst("Content-Type"));
    ex.getResponseHeaders().add("Content-Type", "application/x-protobuf");
    ex.sendResponseHeaders(200, -1);
    ex.close();
  }

  @AfterEach
  void stopReceiver() {
    receiver.stop(0);
  }

  OtlpConfig config() {
    return OtlpConfig.fromMap(
        Map.of(
            OtlpConfig.ENDPOINT,
            "http://127.0.0.1:" + receiver.getAddress().getPort() + "/",
            // only the explicit flush exports in this test
            OtlpConfig.METRICS_INTERVAL,
            "1h",
            OtlpConfig.SERVICE_NAME,
            "slo-console-test"));
  }

  static Map<String, String> strings(List<KeyValue> kvs) {
    return kvs.stream()
        .filter(kv -> kv.getValue().hasStringValue())
        .collect(Collectors.toMap(KeyValue::getKey, kv -> kv.getValue().getStringValue()));
  }

  @Test
  void spansArriveWithTheirAttributesAndTheResource() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    try (OtlpExport export = OtlpExport.start(config(), registry, "replica-a")) {
      Span plan =
          export
              .openTelemetry()
              .getTracer("test")
              .spanBuilder("remediation.plan")
              .setAttribute("plan", "p-1")
              .setAttribute("action", "DeleteExpiredClaims")
              .setAttribute(
                  AttributeKey.stringArrayKey("objects"), List.of("SandboxClaim team-c/claim-1"))
              .startSpan();
      plan.setAttribute("result", "succeeded: 1 steps done");
      plan.end();
      export.flush();
    }
    assertFalse(traces.isEmpty());
    assertTrue(contentTypes.contains("application/x-protobuf"), contentTypes.toString());
    List<ResourceSpans> rs =
        ExportTraceServiceRequest.parseFrom(traces.get(0)).getResourceSpansList();
    assertEquals(1, rs.size());
    Map<String, String> resource = strings(rs.get(0).getResource().getAttributesList());
    assertEquals("slo-console-test", resource.get("service.name"));
    assertEquals("replica-a", resource.get("service.instance.id"));
    var span = rs.get(0).getScopeSpans(0).getSpans(0);
    assertEquals("remediation.plan", span.getName());
    Map<String, String> a = strings(span.getAttributesList());
    assertEquals("p-1", a.get("plan"));
    assertEquals("DeleteExpiredClaims", a.get("action"));
    assertEquals("succeeded: 1 steps done", a.get("result"));
    assertEquals(
        List.of("SandboxClaim team-c/claim-1"),
        span.getAttributesList().stream()
            .filter(kv -> kv.getKey().equals("objects"))
            .findFirst()
            .orElseThrow()
            .getValue()
            .getArrayValue()
            .getValuesList()
            .stream()
            .map(v -> v.getStringValue())
            .toList());
  }

  @Test
  void thePrometheusRegistryArrivesAsOtlpMetrics() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    Counter plans =
        Counter.builder()
            .name("test_plans_total")
            .help("plans executed")
            .labelNames("action")
            .register(registry);
    plans.labelValues("ScalePool").inc();
    plans.labelValues("ScalePool").inc(2);
    plans.labelValues("PacedRecreate").inc();
    Gauge ratio =
        Gauge.builder().name("test_warm_hit_ratio").help("warm hits / claims").register(registry);
    ratio.set(0.75);
    Histogram latency =
        Histogram.builder()
            .name("test_claim_to_ready_seconds")
            .help("claim-to-ready")
            .classicUpperBounds(0.1, 1.0)
            .register(registry);
    for (double v : new double[] {0.05, 0.5, 0.7, 2.0}) {
      latency.observe(v);
    }
    try (OtlpExport export = OtlpExport.start(config(), registry, null)) {
      export.flush();
    }
    assertFalse(metrics.isEmpty());
    Map<String, Metric> byName =
        ExportMetricsServiceRequest.parseFrom(metrics.get(0))
            .getResourceMetrics(0)
            .getScopeMetrics(0)
            .getMetricsList()
            .stream()
            .collect(Collectors.toMap(Metric::getName, m -> m));

    // counter: a monotonic cumulative sum named without _total; ScalePool = 1 + 2 = 3
    Metric counter = byName.get("test_plans");
    assertTrue(counter.hasSum());
    assertTrue(counter.getSum().getIsMonotonic());
    Map<String, Double> perAction =
        counter.getSum().getDataPointsList().stream()
            .collect(
                Collectors.toMap(
                    p -> strings(p.getAttributesList()).get("action"),
                    NumberDataPoint::getAsDouble));
    assertEquals(Map.of("ScalePool", 3.0, "PacedRecreate", 1.0), perAction);
    assertEquals("plans executed", counter.getDescription());

    assertEquals(0.75, byName.get("test_warm_hit_ratio").getGauge().getDataPoints(0).getAsDouble());

    // histogram: 0.05 in (-inf,0.1], 0.5 and 0.7 in (0.1,1], 2.0 in (1,+inf); sum 3.25
    var h = byName.get("test_claim_to_ready_seconds").getHistogram().getDataPoints(0);
    assertEquals(List.of(0.1, 1.0), h.getExplicitBoundsList());
    assertEquals(List.of(1L, 2L, 1L), h.getBucketCountsList());
    assertEquals(4, h.getCount());
    assertEquals(3.25, h.getSum(), 1e-9);
  }

  @Test
  void configIsCheckedAndOffByDefault() {
    assertFalse(OtlpConfig.fromMap(Map.of()).enabled());
    assertEquals(
        "sloconsole.otlp.endpoint: expected http(s)://host:port, got 'otel:4318'",
        assertThrows(
                IllegalArgumentException.class,
                () -> OtlpConfig.fromMap(Map.of(OtlpConfig.ENDPOINT, "otel:4318")))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> OtlpConfig.fromMap(Map.of("sloconsole.otlp.endpiont", "http://x:4318")))
            .getMessage()
            .startsWith("unknown configuration key sloconsole.otlp.endpiont"));
    assertEquals(
        "http://otel:4318",
        OtlpConfig.fromMap(Map.of(OtlpConfig.ENDPOINT, "http://otel:4318/")).endpoint().toString());
  }
}
