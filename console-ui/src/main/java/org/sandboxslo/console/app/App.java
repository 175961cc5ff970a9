package org.sandboxslo.console.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.CollectorConfig;
import org.sandboxslo.collector.IngestError;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.collector.manifest.ApplyReport;
import org.sandboxslo.collector.manifest.ManifestApplier;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleServer;
import org.sandboxslo.console.ConsoleStorage;
import org.sandboxslo.controller.ControllerLite;
import org.sandboxslo.controller.ControllerLiteConfig;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.engine.Durations;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembled service. {@link #demo} runs everything on embedded defaults: an embedded Kubernetes
 * API server (fabric8 mock, CRUD mode) with the agent-sandbox CRDs and demo manifests,
 * controller-lite, a load profile with a ground-truth file, the collector, the engine, the console
 * and an embedded PostgreSQL. {@link #watch} watches a real cluster through the given client. Keys
 * under {@code sloconsole.app.}: {@code refresh-interval} (engine snapshot, default 1s), {@code
 * api-port} (embedded API server, default 0 = free port), {@code kubeconfig} (written for the
 * embedded API server, default {@code ./.sandbox-slo/kubeconfig}).
 */
public final class App implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(App.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
  private EmbeddedApiServer apiServer;
  private Path kubeconfig;
  private KubernetesClient client;
  private ControllerLite controller;
  private SandboxCollector collector;
  private EngineLoop engine;
  private Vertx vertx;
  private ConsoleStorage storage;
  private ConsoleServer console;
  private LoadRunner load;
  private IncidentScenario incidents;
  private org.sandboxslo.console.remediation.RemediationService remediation;
  private final Map<String, String> settings;

  private App(Map<String, String> settings) {
    this.settings = Map.copyOf(settings);
  }

  /**
   * Starts the demo on embedded defaults.
   *
   * @param settings merged configuration ({@link Settings#merge})
   * @param apply extra manifests ({@code --apply}), files or directories
   * @param vars values for {@code ${VAR}} placeholders in them
   * @param applyErrors receives one line per manifest error; the demo keeps running
   * @throws IllegalArgumentException for bad configuration; IllegalStateException when a part
   *     cannot start (everything started is closed again)
   */
  public static App demo(
      Map<String, String> given,
      List<Path> apply,
      Map<String, String> vars,
      Consumer<String> applyErrors) {
    Map<String, String> settings = new java.util.HashMap<>(given);
    // the embedded mock API server can stall for 30 s when a watch is closed mid-send, and a
    // periodic re-list closes every watch: off by default in the demo (collector/DESIGN.md)
    settings.putIfAbsent(CollectorConfig.RESYNC_PERIOD, "0s");
    App app = new App(settings);
    try {
      Configs c = Configs.of(settings);
      LoadSettings loadSettings = LoadSettings.fromMap(settings);
      int apiPort = Integer.parseInt(settings.getOrDefault("sloconsole.app.api-port", "0"));
      app.apiServer = app.keep(EmbeddedApiServer.start(apiPort));
      app.kubeconfig =
          app.apiServer.writeKubeconfig(
              Path.of(
                  settings.getOrDefault("sloconsole.app.kubeconfig", "./.sandbox-slo/kubeconfig")));
      app.client = app.keep(app.apiServer.client());
      DemoManifests.apply(app.client);
      ManifestApplier applier = new ManifestApplier();
      for (Path p : apply) {
        ApplyReport r = applier.apply(app.client, p, vars);
        // ManifestApplier logs what it applied and skipped
        r.errors().forEach(applyErrors);
      }
      app.controller = app.keep(new ControllerLite(app.client, c.controller()));
      app.controller.start();
      app.startObserving(c);
      if (loadSettings.enabled()) {
        app.load = app.keep(new LoadRunner(app.client, loadSettings));
        app.load.start();
      }
      String scenario = settings.getOrDefault("sloconsole.app.scenario", "none");
      if (scenario.equals("incidents")) {
        app.incidents = app.keep(new IncidentScenario(app.client, app.controller));
        app.incidents.start(
            Durations.parse(
                "sloconsole.app.scenario-start",
                settings.getOrDefault("sloconsole.app.scenario-start", "90s")));
      }
      return app;
    } catch (RuntimeException e) {
      app.close();
      throw e;
    }
  }

  /**
   * Watches a real cluster (no embedded API server, no controller-lite, no load).
   *
   * @param client a client for the cluster (kubeconfig or in-cluster); closed with the app
   */
  public static App watch(Map<String, String> settings, KubernetesClient client) {
    App app = new App(settings);
    try {
      Configs c = Configs.of(settings);
      app.client = app.keep(client);
      app.startObserving(c);
      return app;
    } catch (RuntimeException e) {
      app.close();
      throw e;
    }
  }

  private void startObserving(Configs c) {
    Clock clock = Clock.systemUTC();
    FleetEngine fleet = new FleetEngine(c.engine());
    engine = keep(new EngineLoop(fleet, clock, c.refresh(), this::ingestErrors));
    collector = keep(new SandboxCollector(client, c.collector(), engine.sink(), clock));
    String record = settings.get("sloconsole.app.record");
    if (record != null && !record.isBlank()) {
      collector.record(keep(new TimelineRecorder(Path.of(record))));
    }
    collector.start();
    vertx = Vertx.vertx();
    closeables.push(() -> await(vertx.close()));
    storage = await(ConsoleStorage.open(vertx, c.console()));
    closeables.push(() -> await(storage.close()));
    RemediationWiring.Started rem =
        RemediationWiring.start(vertx, settings, client, engine, controller, storage, c.console());
    closeables.push(() -> await(rem.service().stop().eventually(() -> rem.pool().close())));
    remediation = rem.service();
    console =
        await(
            ConsoleServer.start(
                vertx, c.console(), engine, storage.store(), PrometheusRegistry.defaultRegistry));
    closeables.push(() -> await(console.stop()));
    closeables.push(
        org.sandboxslo.console.slo.SloWiring.start(
            vertx, settings, engine, storage, c.console(), controller));
  }

  private Map<String, Long> ingestErrors() {
    SandboxCollector col = collector;
    Map<String, Long> out = new LinkedHashMap<>();
    if (col != null) {
      for (Map.Entry<IngestError, Long> e : col.ingestErrors().entrySet()) {
        out.put(e.getKey().kind().kindName() + "/" + e.getKey().reason(), e.getValue());
      }
    }
    return out;
  }

  private <T extends AutoCloseable> T keep(T c) {
    closeables.push(c);
    return c;
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage()
          .toCompletableFuture()
          .get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw new IllegalStateException(c.getMessage() == null ? c.toString() : c.getMessage(), c);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    } catch (TimeoutException e) {
      throw new IllegalStateException("did not start within " + START_TIMEOUT.toSeconds() + " s");
    }
  }

  public int httpPort() {
    return console.httpPort();
  }

  public int managementPort() {
    return console.managementPort();
  }

  /** The embedded API server's URL, or null in watch mode. */
  public String apiServerUrl() {
    return apiServer == null ? null : apiServer.url();
  }

  /** The kubeconfig written for the embedded API server (absolute), or null in watch mode. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  public KubernetesClient client() {
    return client;
  }

  public SandboxCollector collector() {
    return collector;
  }

  public EngineLoop engine() {
    return engine;
  }

  public ControllerLite controller() {
    return controller;
  }

  /** The demo incidents, or null when not enabled. */
  public IncidentScenario incidents() {
    return incidents;
  }

  /** The demo load, or null when disabled or in watch mode. */
  public LoadRunner load() {
    return load;
  }

  /** The remediation service (plans, approvals, execution, audit). */
  public org.sandboxslo.console.remediation.RemediationService remediation() {
    return remediation;
  }

  public ConsoleStorage storage() {
    return storage;
  }

  public Map<String, String> settings() {
    return settings;
  }

  @Override
  public synchronized void close() {
    // The fabric8 mock stalls its event loop for up to 30 s when a client closes a watch while the
    // server is still sending on it (collector/DESIGN.md). Stop creating claims, then stop the
    // embedded API server first, so the informers' watches end with the server instead.
    if (apiServer != null) {
      for (AutoCloseable c :
          List.<AutoCloseable>of(
              incidents == null ? () -> {} : incidents,
              load == null ? () -> {} : load,
              apiServer)) {
        closeables.remove(c);
        closeQuietly(c);
      }
      apiServer = null;
    }
    while (!closeables.isEmpty()) {
      closeQuietly(closeables.pop());
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      LOG.warn("while stopping {}: {}", c.getClass().getSimpleName(), e.toString());
    }
  }

  /** Every module's config, validated together so a bad key fails before anything starts. */
  record Configs(
      EngineConfig engine,
      CollectorConfig collector,
      ControllerLiteConfig controller,
      ConsoleConfig console,
      Duration refresh) {
    static Configs of(Map<String, String> s) {
      for (String k : s.keySet()) {
        if (k.startsWith("sloconsole.app.")
            && !List.of(
                    "sloconsole.app.refresh-interval",
                    "sloconsole.app.api-port",
                    "sloconsole.app.scenario",
                    "sloconsole.app.scenario-start",
                    "sloconsole.app.record",
                    "sloconsole.app.kubeconfig")
                .contains(k)) {
          throw new IllegalArgumentException(
              "unknown configuration key "
                  + k
                  + "; known: sloconsole.app.refresh-interval, sloconsole.app.api-port, sloconsole.app.scenario,"
                  + " sloconsole.app.scenario-start, sloconsole.app.record, sloconsole.app.kubeconfig");
        }
      }
      String scenario = s.getOrDefault("sloconsole.app.scenario", "none");
      if (!List.of("none", "incidents").contains(scenario)) {
        throw new IllegalArgumentException(
            "sloconsole.app.scenario: expected none or incidents, got '" + scenario + "'");
      }
      String port = s.getOrDefault("sloconsole.app.api-port", "0");
      if (!port.matches("\\d{1,5}") || Integer.parseInt(port) > 65535) {
        throw new IllegalArgumentException(
            "sloconsole.app.api-port: expected an integer 0..65535, got '" + port + "'");
      }
      LoadSettings.fromMap(s);
      org.sandboxslo.console.remediation.RemediationConfig.fromMap(s);
      org.sandboxslo.console.slo.SloSettings.fromMap(s);
      return new Configs(
          EngineConfig.fromMap(s),
          CollectorConfig.fromMap(s),
          ControllerLiteConfig.fromMap(s),
          ConsoleConfig.fromMap(s),
          Durations.parse(
              "sloconsole.app.refresh-interval",
              s.getOrDefault("sloconsole.app.refresh-interval", "1s")));
    }
  }
}
