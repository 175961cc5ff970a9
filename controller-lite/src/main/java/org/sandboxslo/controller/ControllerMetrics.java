package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.upstream.Labels;

/**
 * The upstream agent-sandbox controller's own metrics (reference §d; internal/metrics/metrics.go),
 * same names, labels and buckets, so the console's controller view and the alert rules can be
 * tested against controller-lite:
 *
 * <ul>
 *   <li>{@code agent_sandbox_claim_creation_total} counter {@code namespace, sandbox_template,
 *       launch_type (warm|cold), warmpool_name (pool name at adoption; spec.warmPoolRef.name at
 *       cold create), pod_condition (ready|not_ready; cold always not_ready), created_by}: +1 at
 *       adoption or cold create
 *   <li>{@code agent_sandbox_claim_controller_startup_latency_ms} histogram, buckets {@code
 *       100,250,500,750,1000,1250,1500,2000,2500,5000,10000,30000,60000,120000,240000} ms, labels
 *       {@code launch_type, sandbox_template}: controller first-observed → claim first Ready,
 *       recorded once per claim
 *   <li>{@code agent_sandboxes} gauge from the informer cache at scrape time, labels {@code
 *       namespace, ready_condition (true|false), expired (false), launch_type (warm|cold),
 *       sandbox_template (fallback unknown), owned_by (SandboxClaim|SandboxWarmPool|None),
 *       created_by}
 *   <li>{@code process_start_time_seconds}: when this metrics instance (the controller) started, so
 *       a new controller instance looks like a restart (C14)
 * </ul>
 *
 * Departure: the exposition writes {@code le="100.0"} where Go writes {@code le="100"} (Prometheus
 * 2.x compares le as strings only in matchers; quantiles are unaffected).
 */
public final class ControllerMetrics implements AutoCloseable {
  /** Upstream latency buckets (A), in ms. */
  public static final List<Double> LATENCY_BUCKETS_MS =
      List.of(
          100.0, 250.0, 500.0, 750.0, 1000.0, 1250.0, 1500.0, 2000.0, 2500.0, 5000.0, 10000.0,
          30000.0, 60000.0, 120000.0, 240000.0);

  private final PrometheusRegistry registry;
  private final Counter claimCreation;
  private final Histogram startupLatency;
  private final GaugeWithCallback sandboxes;
  private final Gauge processStart;
  private volatile Fleet fleet;
  private HTTPServer server;
  private String host;

  /** Registers the metrics on a fresh registry, start time from {@code clock}. */
  public ControllerMetrics(Clock clock) {
    this.registry = new PrometheusRegistry();
    this.claimCreation =
        Counter.builder()
            .name("agent_sandbox_claim_creation_total")
            .help(
                "Total number of SandboxClaims created, labeled by namespace, sandbox template, launch type, warmpool name, pod condition, and created_by.")
            .labelNames(
                "namespace",
                "sandbox_template",
                "launch_type",
                "warmpool_name",
                "pod_condition",
                "created_by")
            .register(registry);
    this.startupLatency =
        Histogram.builder()
            .name("agent_sandbox_claim_controller_startup_latency_ms")
            .help(
                "End-to-end latency from the controller first observing a SandboxClaim to the claim becoming Ready, in milliseconds.")
            .labelNames("launch_type", "sandbox_template")
            .classicUpperBounds(
                LATENCY_BUCKETS_MS.stream().mapToDouble(Double::doubleValue).toArray())
            .classicOnly()
            .register(registry);
    this.sandboxes =
        GaugeWithCallback.builder()
            .name("agent_sandboxes")
            .help(
                "Number of sandboxes, labeled by namespace, ready condition, expired, launch type, sandbox template, owner kind, and created_by.")
            .labelNames(
                "namespace",
                "ready_condition",
                "expired",
                "launch_type",
                "sandbox_template",
                "owned_by",
                "created_by")
            .callback(cb -> sandboxCounts().forEach((k, v) -> cb.call(v, k.toArray(new String[0]))))
            .register(registry);
    this.processStart =
        Gauge.builder()
            .name("process_start_time_seconds")
            .help("Start time of the process since unix epoch in seconds.")
            .register(registry);
    processStart.set(clock.millis() / 1000.0);
  }

  void attach(Fleet f) {
    this.fleet = f;
  }

  /** The registry (tests read it directly). */
  public PrometheusRegistry registry() {
    return registry;
  }

  void claimCreated(
      String ns,
      String template,
      String launchType,
      String pool,
      boolean podReady,
      String createdBy) {
    claimCreation
        .labelValues(
            ns,
            orUnknown(template, "__unknown__"),
            launchType,
            pool == null || pool.isEmpty() ? "none" : pool,
            podReady ? "ready" : "not_ready",
            orUnknown(createdBy, "unknown"))
        .inc();
  }

  void claimReady(String launchType, String template, Duration latency) {
    if (latency == null || latency.isNegative()) {
      return;
    }
    String lt = "warm".equals(launchType) || "cold".equals(launchType) ? launchType : "unknown";
    startupLatency
        .labelValues(lt, orUnknown(template, "__unknown__"))
        .observe(latency.toNanos() / 1e6);
  }

  private Map<List<String>, Double> sandboxCounts() {
    Map<List<String>, Double> out = new HashMap<>();
    Fleet f = fleet;
    SharedIndexInformer<GenericKubernetesResource> inf =
        f == null ? null : f.informers.get(Kind.SANDBOX);
    if (inf == null) {
      return out;
    }
    for (GenericKubernetesResource s : inf.getStore().list()) {
      OwnerReference o = Resources.controllerOwner(s);
      String owner = o == null ? "None" : o.getKind();
      String lt = Resources.label(s, Labels.LAUNCH_TYPE);
      if (!"warm".equals(lt) && !"cold".equals(lt)) {
        lt = "SandboxWarmPool".equals(owner) ? "warm" : "cold";
      }
      List<String> key =
          List.of(
              s.getMetadata().getNamespace(),
              Resources.isTrue(s, "Ready") ? "true" : "false",
              "false",
              lt,
              orUnknown(Resources.annotation(s, Labels.SANDBOX_TEMPLATE_REF), "unknown"),
              owner,
              orUnknown(Resources.label(s, Labels.CREATED_BY), "unknown"));
      out.merge(key, 1.0, Double::sum);
    }
    return out;
  }

  private static String orUnknown(String s, String dflt) {
    return s == null || s.isEmpty() ? dflt : s;
  }

  /** The metrics in the Prometheus text format (0.0.4). */
  public String scrapeText() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    try {
      PrometheusTextFormatWriter.create().write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * Serves {@code GET /metrics} on {@code host:port} (0 = a free port) with client_java's exporter
   * HTTP server (Prometheus text or OpenMetrics, by {@code Accept}).
   *
   * @return the URL, e.g. {@code http://127.0.0.1:41234/metrics}
   * @throws UncheckedIOException when the port cannot be bound
   */
  public synchronized String serve(String host, int port) {
    Objects.requireNonNull(host, "host");
    if (server != null) {
      return url();
    }
    try {
      server = HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "controller-lite /metrics on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    this.host = host;
    return url();
  }

  /** The served URL, or null when not serving. */
  public synchronized String url() {
    return server == null ? null : "http://" + host + ":" + server.getPort() + "/metrics";
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
