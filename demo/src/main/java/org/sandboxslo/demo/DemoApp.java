package org.sandboxslo.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.CollectorConfig;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.controller.ControllerLite;
import org.sandboxslo.controller.ControllerLiteConfig;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.demo.manifest.ApplyReport;
import org.sandboxslo.demo.manifest.ManifestApplier;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.server.wiring.ConsoleProcess;
import org.sandboxslo.server.wiring.LocalController;
import org.sandboxslo.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo on embedded defaults: an embedded Kubernetes API server (fabric8 mock, completed for
 * real clients) with the agent-sandbox CRDs and demo manifests, controller-lite, a load profile
 * with a ground-truth file, optionally the incident scenario, and the console process observing it
 * all with an embedded PostgreSQL. Keys under {@code sloconsole.app.}: {@code api-port} (embedded
 * API server, default 0 = a free port), {@code scenario} ({@code none} or {@code incidents}),
 * {@code scenario-start} (default 90s).
 */
public final class DemoApp implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DemoApp.class);

  /** The {@code sloconsole.app.*} keys the demo adds to the console's. */
  public static final Set<String> DEMO_APP_KEYS =
      Set.of(
          "sloconsole.app.api-port",
          "sloconsole.app.scenario",
          "sloconsole.app.scenario-start",
          "sloconsole.app.kubeconfig");

  private final Map<String, String> settings;
  private EmbeddedApiServer apiServer;
  private Path kubeconfig;
  private ControllerLite controller;
  private ConsoleProcess console;
  private LoadRunner load;
  private IncidentScenario incidents;

  private DemoApp(Map<String, String> settings) {
    this.settings = Map.copyOf(settings);
  }

  /**
   * Starts the demo.
   *
   * @param given merged configuration
   * @param apply extra manifests ({@code --apply}), files or directories
   * @param vars values for {@code ${VAR}} placeholders in them
   * @param applyErrors receives one line per manifest error; the demo keeps running
   * @throws IllegalArgumentException for bad configuration; IllegalStateException when a part
   *     cannot start (everything started is closed again)
   */
  public static DemoApp start(
      Map<String, String> given,
      List<Path> apply,
      Map<String, String> vars,
      Consumer<String> applyErrors) {
    Map<String, String> settings = new HashMap<>(given);
    // the embedded mock API server can stall for 30 s when a watch is closed mid-send, and a
    // periodic re-list closes every watch: off by default in the demo (collector/DESIGN.md)
    settings.putIfAbsent(CollectorConfig.RESYNC_PERIOD, "0s");
    DemoApp app = new DemoApp(settings);
    try {
      String scenario = validate(settings);
      LoadSettings loadSettings = LoadSettings.fromMap(settings);
      ControllerLiteConfig controllerConfig = ControllerLiteConfig.fromMap(settings);
      int apiPort = Integer.parseInt(settings.getOrDefault("sloconsole.app.api-port", "0"));
      app.apiServer = EmbeddedApiServer.start(apiPort);
      app.kubeconfig =
          app.apiServer.writeKubeconfig(
              Path.of(
                  settings.getOrDefault("sloconsole.app.kubeconfig", "./.sandbox-slo/kubeconfig")));
      KubernetesClient client = app.apiServer.client();
      DemoManifests.apply(client);
      ManifestApplier applier = new ManifestApplier();
      for (Path p : apply) {
        ApplyReport r = applier.apply(client, p, vars);
        // ManifestApplier logs what it applied and skipped
        r.errors().forEach(applyErrors);
      }
      app.controller = new ControllerLite(client, controllerConfig);
      app.controller.start();
      ControllerLite c = app.controller;
      LocalController local =
          new LocalController() {
            @Override
            public String serveMetrics(String host, int port) {
              return c.metrics().serve(host, port);
            }

            @Override
            public void setMaxRefillRate(double perSecond) {
              c.setMaxRefillRate(perSecond);
            }
          };
      app.console = ConsoleProcess.start(settings, DEMO_APP_KEYS, client, local);
      if (loadSettings.enabled()) {
        app.load = new LoadRunner(client, loadSettings);
        app.load.start();
      }
      if (scenario.equals("incidents")) {
        app.incidents = new IncidentScenario(client, app.controller);
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

  private static String validate(Map<String, String> s) {
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
    return scenario;
  }

  /** Banner lines after the console's: the embedded API server and the ground truth. */
  public List<String> bannerLines() {
    List<String> lines = new ArrayList<>();
    lines.add(
        "  kubernetes  " + apiServer.url() + "  (embedded API server with the agent-sandbox CRDs)");
    if (load != null) {
      lines.add("  load        ground truth in " + LoadSettings.fromMap(settings).groundTruth(1));
    }
    return lines;
  }

  public int httpPort() {
    return console.httpPort();
  }

  public int managementPort() {
    return console.managementPort();
  }

  /** The kubeconfig written for the embedded API server (absolute path). */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The embedded API server's URL. */
  public String apiServerUrl() {
    return apiServer.url();
  }

  public KubernetesClient client() {
    return console.client();
  }

  public SandboxCollector collector() {
    return console.collector();
  }

  public EngineLoop engine() {
    return console.engine();
  }

  public ControllerLite controller() {
    return controller;
  }

  /** The console process (collector, engine, store, HTTP). */
  public ConsoleProcess console() {
    return console;
  }

  /** The demo incidents, or null when not enabled. */
  public IncidentScenario incidents() {
    return incidents;
  }

  /** The demo load, or null when disabled. */
  public LoadRunner load() {
    return load;
  }

  /** The remediation service (plans, approvals, execution, audit). */
  public Remediation remediation() {
    return console.remediation();
  }

  public Database storage() {
    return console.storage();
  }

  public Map<String, String> settings() {
    return settings;
  }

  @Override
  public synchronized void close() {
    // The fabric8 mock stalls its event loop for up to 30 s when a client closes a watch while the
    // server is still sending on it (collector/DESIGN.md). Stop creating claims, then stop the
    // embedded API server first, so the informers' watches end with the server instead.
    closeQuietly(incidents);
    closeQuietly(load);
    closeQuietly(apiServer);
    closeQuietly(console);
    closeQuietly(controller);
    incidents = null;
    load = null;
    apiServer = null;
    console = null;
    controller = null;
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      LOG.warn("while stopping {}: {}", c.getClass().getSimpleName(), e.toString());
    }
  }
}
