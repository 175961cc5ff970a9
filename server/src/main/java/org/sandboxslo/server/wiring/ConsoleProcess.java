package org.sandboxslo.server.wiring;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.sandboxslo.collector.CollectorConfig;
import org.sandboxslo.collector.ControllerObjectsCollector;
import org.sandboxslo.collector.IngestError;
import org.sandboxslo.collector.PodCollector;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleServer;
import org.sandboxslo.console.ConsoleServices;
import org.sandboxslo.console.api.IdempotencyKeys;
import org.sandboxslo.console.auth.AuthConfig;
import org.sandboxslo.console.auth.ConsoleAuth;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.console.remediation.RemediationConfig;
import org.sandboxslo.console.slo.SloSettings;
import org.sandboxslo.console.slo.SloSubsystem;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.diagnosis.DiagnosisSettings;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.server.leader.LeaderConfig;
import org.sandboxslo.server.leader.LeaderElection;
import org.sandboxslo.server.otel.OtlpConfig;
import org.sandboxslo.server.otel.OtlpExport;
import org.sandboxslo.server.record.TimelineRecorder;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.IdempotencyStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembled console process: collector, engine, store, console HTTP server, SLO service and
 * remediation, observing the cluster behind one client. {@link #watch} is production's watch mode;
 * the demo ({@code demo/}) starts it with a {@link LocalController}. Keys under {@code
 * sloconsole.app.}: {@code refresh-interval} (engine snapshot, default 1s), {@code record} (raw
 * watch events to a timeline file). Next to the four kinds' informers it runs the label-selected
 * Pod informer ({@link PodCollector}) and the periodic read of the controller Deployment and the
 * CRDs ({@link ControllerObjectsCollector}); findings get {@code sloconsole.engine.*} diagnosis
 * settings (e.g. {@code rollout-progress-deadline}).
 */
public final class ConsoleProcess implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConsoleProcess.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  /** How often the engine loop recomputes findings. */
  private static final Duration FINDINGS_EVERY = Duration.ofSeconds(5);

  /** The {@code sloconsole.app.*} keys this process knows. */
  public static final Set<String> APP_KEYS =
      Set.of("sloconsole.app.refresh-interval", "sloconsole.app.record");

  private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
  private KubernetesClient client;
  private LocalController local;
  private SandboxCollector collector;
  private PodCollector pods;
  private ControllerObjectsCollector controllerObjects;
  private EngineLoop engine;
  private Vertx vertx;
  private Database storage;
  private ConsoleServer console;
  private Remediation remediation;
  private SloSubsystem slo;
  private final Map<String, String> settings;
  private PrometheusRegistry registry = PrometheusRegistry.defaultRegistry;
  private Leadership leadership = Leadership.ALWAYS;

  private ConsoleProcess(Map<String, String> settings) {
    this.settings = Map.copyOf(settings);
  }

  /**
   * Watches a real cluster (no embedded API server, no controller-lite, no load).
   *
   * @param client a client for the cluster (kubeconfig or in-cluster); closed with the process
   * @throws IllegalArgumentException for bad configuration; IllegalStateException when a part
   *     cannot start (everything started is closed again)
   */
  public static ConsoleProcess watch(Map<String, String> settings, KubernetesClient client) {
    return start(settings, Set.of(), client, null);
  }

  /**
   * Starts the console observing the cluster behind {@code client}.
   *
   * @param settings merged configuration
   * @param extraAppKeys further {@code sloconsole.app.*} keys the caller validates itself
   * @param client closed with the process
   * @param localOrNull a controller in this process (the demo), or null
   */
  public static ConsoleProcess start(
      Map<String, String> settings,
      Set<String> extraAppKeys,
      KubernetesClient client,
      LocalController localOrNull) {
    return start(settings, extraAppKeys, client, localOrNull, PrometheusRegistry.defaultRegistry);
  }

  /**
   * As above with the registry {@code /metrics} serves (the default registry in production; a fresh
   * one per process when several run in one JVM, as in the leader-election test).
   */
  public static ConsoleProcess start(
      Map<String, String> settings,
      Set<String> extraAppKeys,
      KubernetesClient client,
      LocalController localOrNull,
      PrometheusRegistry registry) {
    ConsoleProcess p = new ConsoleProcess(settings);
    p.registry = registry;
    try {
      Configs c = Configs.of(settings, extraAppKeys);
      p.client = p.keep(client);
      p.local = localOrNull;
      p.startObserving(c);
      return p;
    } catch (RuntimeException e) {
      p.close();
      throw e;
    }
  }

  private void startObserving(Configs c) {
    Clock clock = Clock.systemUTC();
    FleetEngine fleet = new FleetEngine(c.engine());
    engine =
        keep(
            new EngineLoop(
                fleet,
                clock,
                c.refresh(),
                this::ingestErrors,
                DiagnosisConfig.defaults(),
                c.diagnosis(),
                FINDINGS_EVERY));
    collector = keep(new SandboxCollector(client, c.collector(), engine.sink(), clock));
    String record = settings.get("sloconsole.app.record");
    if (record != null && !record.isBlank()) {
      collector.record(keep(new TimelineRecorder(Path.of(record))));
    }
    collector.start();
    // evidence outside the four kinds: the Pods of Sandboxes, the controller's flags, the CRDs
    pods = keep(new PodCollector(client, c.collector(), engine.sink(), clock));
    pods.start();
    controllerObjects =
        keep(new ControllerObjectsCollector(client, c.collector(), engine.sink(), clock));
    controllerObjects.start();
    vertx = Vertx.vertx();
    closeables.push(() -> await(vertx.close()));
    storage = await(Database.open(vertx, c.console().database()));
    closeables.push(() -> await(storage.close()));
    if (c.leader().enabled()) {
      // closed after remediation and SLO history have stopped (closeables is a stack), so the
      // next leader cannot start a step this process is still applying
      leadership = keep(LeaderElection.start(client, c.leader(), registry));
    }
    // closed after remediation (the stack again), so the last spans are flushed
    io.opentelemetry.api.OpenTelemetry otel =
        c.otlp().enabled()
            ? keep(OtlpExport.start(c.otlp(), registry, leadership.identity())).openTelemetry()
            : io.opentelemetry.api.OpenTelemetry.noop();
    Remediation rem =
        RemediationWiring.start(vertx, settings, client, engine, local, storage, leadership, otel);
    closeables.push(() -> await(rem.stop()));
    remediation = rem;
    SloSubsystem slos = SloWiring.start(vertx, settings, engine, storage, local, leadership);
    closeables.push(() -> await(slos.stop()));
    slo = slos;
    // one sign-in for the whole console: static tokens (the remediation config's, demo tokens
    // included), JWT against a JWKS, or proxy headers with the shared secret
    AuthConfig authConfig =
        AuthConfig.fromMap(settings, rem.config().tokens(), local != null, RemediationConfig.KEYS);
    if (local != null && authConfig.webhookToken().isEmpty()) {
      String token = RemediationConfig.randomToken();
      authConfig = authConfig.withWebhookToken(token);
      System.out.println("Alertmanager webhook demo token (Bearer): " + token);
    }
    ConsoleAuth auth = await(ConsoleAuth.start(vertx, authConfig));
    closeables.push(auth::stop);
    // JVM memory, GC, threads and class loading next to the console's own metrics (once per
    // registry)
    JvmMetrics.builder().register(registry);
    // the console mounts the services it was given; it is stopped first, before them
    console =
        await(
            ConsoleServer.start(
                vertx,
                c.console(),
                engine,
                storage.store(),
                registry,
                ConsoleServices.of(slos, rem, auth)
                    .withIdempotency(
                        IdempotencyKeys.of(
                            new IdempotencyStore(storage.pool(), storage.failureBound())))
                    .withDatabase(storage::status),
                leadership));
    closeables.push(() -> await(console.stop()));
  }

  private Map<String, Long> ingestErrors() {
    SandboxCollector col = collector;
    Map<String, Long> out = new LinkedHashMap<>();
    if (col != null) {
      for (Map.Entry<IngestError, Long> e : col.ingestErrors().entrySet()) {
        out.put(e.getKey().kind().kindName() + "/" + e.getKey().reason(), e.getValue());
      }
    }
    PodCollector p = pods;
    if (p != null) {
      p.ingestErrors().forEach((reason, n) -> out.put("Pod/" + reason, n));
    }
    ControllerObjectsCollector o = controllerObjects;
    if (o != null) {
      o.ingestErrors().forEach((reason, n) -> out.put("ControllerObjects/" + reason, n));
    }
    return out;
  }

  private <T extends AutoCloseable> T keep(T c) {
    closeables.push(c);
    return c;
  }

  public static <T> T await(Future<T> f) {
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

  public KubernetesClient client() {
    return client;
  }

  public SandboxCollector collector() {
    return collector;
  }

  public EngineLoop engine() {
    return engine;
  }

  /** The remediation service (plans, approvals, execution, audit). */
  public Remediation remediation() {
    return remediation;
  }

  /** The SLO service (registry, budget history, controller view). */
  public SloSubsystem slo() {
    return slo;
  }

  /** Who leads among the replicas ({@link Leadership#ALWAYS} without an election). */
  public Leadership leadership() {
    return leadership;
  }

  public Database storage() {
    return storage;
  }

  public Map<String, String> settings() {
    return settings;
  }

  @Override
  public synchronized void close() {
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
      DiagnosisSettings diagnosis,
      CollectorConfig collector,
      ConsoleConfig console,
      Duration refresh,
      LeaderConfig leader,
      OtlpConfig otlp) {
    static Configs of(Map<String, String> s, Set<String> extraAppKeys) {
      Set<String> known = new TreeSet<>(APP_KEYS);
      known.addAll(extraAppKeys);
      for (String k : s.keySet()) {
        if (k.startsWith("sloconsole.app.") && !known.contains(k)) {
          throw new IllegalArgumentException(
              "unknown configuration key " + k + "; known: " + String.join(", ", known));
        }
      }
      RemediationConfig.fromMap(s);
      AuthConfig.fromMap(s, Map.of(), false, RemediationConfig.KEYS);
      SloSettings.fromMap(s);
      return new Configs(
          EngineConfig.fromMap(s),
          DiagnosisSettings.fromMap(s),
          CollectorConfig.fromMap(s),
          ConsoleConfig.fromMap(s),
          Durations.parse(
              "sloconsole.app.refresh-interval",
              s.getOrDefault("sloconsole.app.refresh-interval", "1s")),
          LeaderConfig.fromMap(s, System.getenv()),
          OtlpConfig.fromMap(s));
    }
  }
}
