package org.sandboxslo.console.remediation;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.store.RemediationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembled remediation service: {@link PlanService} (the plan API, called with the {@link
 * Caller} the console's sign-in resolved) and the {@link PlanExecutor} verticle, sharing one audit
 * writer and the bounded worker pool {@value #WORKER_POOL} for blocking fabric8 calls. {@link
 * RemediationRoutes} receives this object by constructor; nothing is registered globally.
 */
public final class Remediation {
  private static final Logger LOG = LoggerFactory.getLogger(Remediation.class);

  /** Name of the worker pool for blocking Kubernetes calls. */
  public static final String WORKER_POOL = "sloconsole-remediation";

  private final Vertx vertx;
  private final RemediationConfig config;
  private final PlanService plans;
  private final String executorDeployment;
  private final WorkerExecutor worker;
  private final RemediationAudit audit;
  private final PlanListeners listeners;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private Remediation(
      Vertx vertx,
      RemediationConfig config,
      PlanService plans,
      String executorDeployment,
      WorkerExecutor worker,
      RemediationAudit audit,
      PlanListeners listeners) {
    this.vertx = vertx;
    this.audit = audit;
    this.listeners = listeners;
    this.config = config;
    this.plans = plans;
    this.executorDeployment = executorDeployment;
    this.worker = worker;
  }

  /**
   * Assembles the parts and deploys the executor, which resumes every plan in state {@code
   * executing}.
   *
   * @param client the cluster the plans change (blocking calls, only on the worker pool)
   * @return the running service; a failed Future when the store cannot be read (nothing is left
   *     running)
   */
  public static Future<Remediation> start(
      Vertx vertx,
      RemediationConfig config,
      RemediationStore store,
      KubernetesClient client,
      RemediationFleet fleet,
      Clock clock) {
    return start(vertx, config, store, client, fleet, clock, Leadership.ALWAYS);
  }

  /**
   * As above for one of several replicas on one database: any replica accepts plan, approve,
   * execute and cancel requests (they are rows); only the {@link Leadership leader} executes steps
   * ({@link PlanExecutor}), and the audit names it {@code executor@<identity>}.
   */
  public static Future<Remediation> start(
      Vertx vertx,
      RemediationConfig config,
      RemediationStore store,
      KubernetesClient client,
      RemediationFleet fleet,
      Clock clock,
      Leadership leadership) {
    return start(
        vertx,
        config,
        store,
        client,
        fleet,
        clock,
        leadership,
        io.opentelemetry.api.OpenTelemetry.noop());
  }

  /**
   * As above, tracing plans and steps through {@code otel} ({@link PlanTracing}: span {@code
   * remediation.plan} with a child {@code remediation.step} per step).
   */
  public static Future<Remediation> start(
      Vertx vertx,
      RemediationConfig config,
      RemediationStore store,
      KubernetesClient client,
      RemediationFleet fleet,
      Clock clock,
      Leadership leadership,
      io.opentelemetry.api.OpenTelemetry otel) {
    Objects.requireNonNull(leadership, "leadership");
    Objects.requireNonNull(otel, "otel");
    Objects.requireNonNull(vertx, "vertx");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(fleet, "fleet");
    Objects.requireNonNull(clock, "clock");
    LOG.info("remediation configuration:\n{}", config.describe());
    WorkerExecutor worker = vertx.createSharedWorkerExecutor(WORKER_POOL, config.workers());
    RemediationAudit audit =
        new RemediationAudit(store, clock, leadership.identity(), new PlanTracing(otel));
    PlanListeners listeners = new PlanListeners();
    PlanSteps steps =
        new PlanSteps(
            vertx,
            store,
            audit,
            new ClusterOps(client),
            fleet,
            worker,
            config.executor(),
            config.pollInterval(),
            listeners);
    PlanExecutor executor =
        new PlanExecutor(store, audit, steps, config.pollInterval(), config.executor(), leadership);
    PlanService plans = new PlanService(config, store, audit, fleet, executor, listeners);
    return vertx
        .deployVerticle(executor)
        .map(id -> new Remediation(vertx, config, plans, id, worker, audit, listeners))
        .recover(e -> worker.close().transform(x -> Future.failedFuture(e)));
  }

  /** The plan API. */
  public PlanService plans() {
    return plans;
  }

  public RemediationConfig config() {
    return config;
  }

  /**
   * Registers a listener of plan starts and ends (e.g. silences while a plan executes).
   *
   * @return removes the listener again
   */
  public Runnable addListener(PlanListener listener) {
    return listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Appends a row to the audit trail ({@code remediation_audit}), stamped by the service clock; for
   * doors other than the plan API (chat, silences) that audit in the same trail.
   *
   * @param actor console user, or a door-specific actor such as {@code slack:U123}
   * @param what e.g. {@code chat.approve}, {@code silence.create}
   * @param planIdOrNull the plan concerned, or null
   * @param object what was acted on (and through which door), or null
   * @param why the reason or command text, or null
   * @param result {@code ok...}, {@code refused: ...}, {@code failed: ...}
   * @return the row's sequence number; fails when the row cannot be written
   */
  public Future<Long> audit(
      String actor, String what, String planIdOrNull, String object, String why, String result) {
    return audit.append(actor, what, planIdOrNull, null, object, why, result);
  }

  /** False once {@link #stop()} was called (the routes then answer 503). */
  public boolean running() {
    return !stopped.get();
  }

  /** Undeploys the executor (a step in flight completes) and closes the worker pool. Idempotent. */
  public Future<Void> stop() {
    if (!stopped.compareAndSet(false, true)) {
      return Future.succeededFuture();
    }
    return vertx.undeploy(executorDeployment).eventually(worker::close);
  }
}
