package org.sandboxslo.console.remediation;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Shareable;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PacedStep;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.remediation.RecreatePlan;
import org.sandboxslo.engine.remediation.RemediationPlanner;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Plan → approve → execute of typed remediations, audited in PostgreSQL.
 *
 * <ul>
 *   <li>Plans are dry runs ({@link RemediationPlans}) stored in {@code remediation_plan} with state
 *       {@code planned}; approval needs a role that {@code sloconsole.auth.approver-roles} allows
 *       for the action (default {@code approver}) in the subject's namespace and, for destructive
 *       actions under {@code sloconsole.auth.two-person}, a user other than the planner; execution
 *       needs role {@code operator} and an approved plan.
 *   <li>Execution is idempotent: the move {@code approved → executing} is one conditional UPDATE,
 *       so a duplicated or retried execute gets 409 and does nothing. It is paced (PacedRecreate
 *       decides each batch with {@link RemediationPlanner#next}), cancellable (the state is read
 *       before every step) and resumes after a restart ({@link #start} continues {@code executing}
 *       plans from their stored progress).
 *   <li>Every change is preceded by an audit row ({@code step.before}, result {@code intent}) and
 *       followed by one ({@code step.after}); when the first write fails, the change is not made
 *       and the step is retried on the next tick.
 *   <li>Blocking Kubernetes and engine calls run on the named worker pool {@code
 *       sloconsole-remediation}; each step is one flat compose chain.
 * </ul>
 *
 * The instance is {@link Shareable}: {@link #start} registers it in the Vert.x local map {@code
 * sloconsole.remediation} where {@link RemediationRoutes} finds it.
 */
public final class RemediationService implements Shareable {
  private static final Logger LOG = LoggerFactory.getLogger(RemediationService.class);

  /** Name of the worker pool for blocking Kubernetes calls. */
  public static final String WORKER_POOL = "sloconsole-remediation";

  static final String LOCAL_MAP = "sloconsole.remediation";
  static final String EXECUTOR = "executor";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Vertx vertx;
  private final RemediationConfig config;
  private final RemediationStore store;
  private final ClusterOps ops;
  private final RemediationFleet fleet;
  private final Clock clock;
  private final WorkerExecutor worker;
  private final Set<String> running = ConcurrentHashMap.newKeySet();

  /** Last failure logged per plan, so a retried step warns once per distinct cause. */
  private final java.util.Map<String, String> lastWarning = new ConcurrentHashMap<>();

  private volatile boolean stopped;
  private final Leadership leadership;

  /** Who the audit names as executing steps: {@code executor}, or {@code executor@<identity>}. */
  private final String executor;

  private RemediationService(
      Vertx vertx,
      RemediationConfig config,
      RemediationStore store,
      KubernetesClient client,
      RemediationFleet fleet,
      Clock clock,
      Leadership leadership) {
    this.vertx = vertx;
    this.leadership = leadership;
    this.executor =
        leadership.identity() == null ? EXECUTOR : EXECUTOR + "@" + leadership.identity();
    this.config = config;
    this.store = store;
    this.ops = new ClusterOps(client);
    this.fleet = fleet;
    this.clock = clock;
    this.worker = vertx.createSharedWorkerExecutor(WORKER_POOL, config.workers());
  }

  /**
   * Starts the service, registers it for {@link RemediationRoutes} and resumes every plan in state
   * {@code executing}.
   *
   * @return the service; a failed Future when the store cannot be read
   */
  public static Future<RemediationService> start(
      Vertx vertx,
      RemediationConfig config,
      RemediationStore store,
      KubernetesClient client,
      RemediationFleet fleet,
      Clock clock) {
    return start(vertx, config, store, client, fleet, clock, Leadership.ALWAYS);
  }

  /**
   * As above for one of several replicas on one database: only the {@link Leadership leader}
   * executes steps. Any replica accepts plan, approve, execute and cancel requests (they are rows);
   * the leader resumes every executing plan when it gains the leadership and looks for new ones
   * every 4 poll intervals; a replica that loses it stops before its next step.
   */
  public static Future<RemediationService> start(
      Vertx vertx,
      RemediationConfig config,
      RemediationStore store,
      KubernetesClient client,
      RemediationFleet fleet,
      Clock clock,
      Leadership leadership) {
    RemediationService s =
        new RemediationService(
            Objects.requireNonNull(vertx, "vertx"),
            Objects.requireNonNull(config, "config"),
            Objects.requireNonNull(store, "store"),
            Objects.requireNonNull(client, "client"),
            Objects.requireNonNull(fleet, "fleet"),
            Objects.requireNonNull(clock, "clock"),
            Objects.requireNonNull(leadership, "leadership"));
    LOG.info("remediation configuration:\n{}", config.describe());
    vertx.sharedData().getLocalMap(LOCAL_MAP).put("service", s);
    if (leadership.elected()) {
      leadership.onChange(
          leader -> {
            if (leader) {
              vertx.runOnContext(x -> s.resumeExecuting("leadership gained"));
            }
          });
      s.leaderScan =
          vertx.setPeriodic(config.pollInterval().toMillis() * 4, t -> s.resumeExecuting(null));
    }
    return s.resumeExecuting("console restarted").map(s);
  }

  private long leaderScan = -1;

  /**
   * Schedules every plan in state {@code executing} that this process does not run yet (leader
   * only); audits {@code plan.resume} with {@code why} unless null.
   */
  private Future<Void> resumeExecuting(String why) {
    if (stopped || !leadership.isLeader()) {
      return Future.succeededFuture();
    }
    return store
        .plans("executing")
        .map(
            plans -> {
              for (PlanRow p : plans) {
                if (running.contains(p.id())) {
                  continue;
                }
                if (why == null) {
                  schedule(p.id());
                  continue;
                }
                LOG.info("resuming plan {} ({} {}): {}", p.id(), p.action(), p.subject(), why);
                audit(executor, "plan.resume", p.id(), null, null, why, "ok")
                    .onComplete(x -> schedule(p.id()));
              }
              return null;
            });
  }

  /** The service started on this Vert.x instance, or null. */
  public static RemediationService lookup(Vertx vertx) {
    return (RemediationService) vertx.sharedData().getLocalMap(LOCAL_MAP).get("service");
  }

  /** Stops scheduling steps (a step in flight completes) and unregisters. */
  public Future<Void> stop() {
    stopped = true;
    vertx.cancelTimer(leaderScan);
    vertx.sharedData().getLocalMap(LOCAL_MAP).remove("service");
    return worker.close();
  }

  public RemediationConfig config() {
    return config;
  }

  // ---- identity

  /**
   * The caller of a request from its {@code Authorization} header.
   *
   * @throws ApiException 401 when the header is missing, not {@code Bearer}, or the token unknown
   */
  public Caller authenticate(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      throw new ApiException(
          401,
          "unauthorized",
          "Authorization",
          "missing bearer token (Authorization: Bearer <token>)");
    }
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new ApiException(
          401, "unauthorized", "Authorization", "expected Authorization: Bearer <token>");
    }
    Caller c = config.tokens().get(authorization.substring(7).trim());
    if (c == null) {
      throw new ApiException(401, "unauthorized", "Authorization", "unknown token");
    }
    return c;
  }

  static void require(Caller c, String role, String namespace) {
    if (!c.has(role, namespace)) {
      throw new ApiException(
          403,
          "forbidden",
          "role",
          "user "
              + c.user()
              + " lacks role "
              + role
              + (namespace == null ? " (cluster-wide)" : " for namespace " + namespace));
    }
  }

  private Instant now() {
    return clock.instant();
  }

  private Future<Long> audit(
      String actor,
      String what,
      String planId,
      Integer step,
      String object,
      String why,
      String result) {
    return store.append(new AuditEntry(0, now(), actor, what, planId, step, object, why, result));
  }

  private <T> Future<T> refuse(Caller c, String what, PlanRow p, ApiException e) {
    return audit(
            c.user(),
            what,
            p.id(),
            null,
            null,
            p.reason(),
            "refused: " + e.status() + " " + e.getMessage())
        .transform(x -> Future.failedFuture(e));
  }

  // ---- API operations

  /**
   * Creates a plan (dry run) from {@code {"action","subject","params"?,"reason"}}.
   *
   * @return the stored plan; fails with 400 (field named), 403 (role operator)
   */
  public Future<PlanRow> create(Caller c, JsonObject body) {
    Object action = body.getValue("action");
    Object subject = body.getValue("subject");
    Object params = body.getValue("params", new JsonObject());
    Object reason = body.getValue("reason");
    if (!(action instanceof String a) || !PlanRow.ACTIONS.contains(a)) {
      return Future.failedFuture(
          ApiException.badRequest(
              "action",
              "unknown action "
                  + (action == null ? "(missing)" : "'" + action + "'")
                  + "; actions: "
                  + String.join(", ", PlanRow.ACTIONS)));
    }
    if (!(subject instanceof String s) || s.isBlank()) {
      return Future.failedFuture(ApiException.badRequest("subject", "expected a non-empty string"));
    }
    if (!(params instanceof JsonObject ps)) {
      return Future.failedFuture(ApiException.badRequest("params", "expected an object"));
    }
    if (!(reason instanceof String r) || r.isBlank()) {
      return Future.failedFuture(
          ApiException.badRequest("reason", "expected a non-empty string: why this change"));
    }
    try {
      require(c, "operator", RemediationPlans.namespaceOf(a, s));
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    String id = "p-" + HexFormat.of().formatHex(bytes());
    return worker
        .executeBlocking(
            () -> RemediationPlans.dryRun(a, s, ps, fleet, config.maxUnavailableFraction()))
        .map(
            dry ->
                new PlanRow(
                    id,
                    a,
                    s,
                    ps,
                    r,
                    "planned",
                    c.user(),
                    null,
                    null,
                    null,
                    dry,
                    new JsonObject(),
                    null,
                    now(),
                    now()))
        .compose(p -> store.insert(p).map(p))
        .compose(p -> audit(c.user(), "plan.create", id, null, a + " " + s, r, "ok").map(p));
  }

  private static byte[] bytes() {
    byte[] b = new byte[6];
    RANDOM.nextBytes(b);
    return b;
  }

  private Future<PlanRow> found(String id) {
    return store
        .plan(id)
        .compose(
            p ->
                p == null
                    ? Future.failedFuture(
                        ApiException.notFound("id", "no plan " + id + " is known"))
                    : Future.succeededFuture(p));
  }

  /** A plan (role viewer). */
  public Future<PlanRow> plan(Caller c, String id) {
    return found(id)
        .map(
            p -> {
              require(c, "viewer", RemediationPlans.namespaceOf(p.action(), p.subject()));
              return p;
            });
  }

  /** The plans the caller may view, newest first. */
  public Future<List<PlanRow>> plans(Caller c) {
    return store
        .plans(null)
        .map(
            ps ->
                ps.stream()
                    .filter(
                        p -> c.has("viewer", RemediationPlans.namespaceOf(p.action(), p.subject())))
                    .toList());
  }

  /** Audit rows (role viewer, unscoped or admin: everything). */
  public Future<List<AuditEntry>> audit(Caller c, String planId, String actor, Instant since) {
    return store
        .audit(planId, actor, since)
        .map(
            rows -> {
              if (planId == null) {
                require(c, "viewer", null);
              }
              return rows;
            })
        .compose(rows -> planId == null ? Future.succeededFuture(rows) : plan(c, planId).map(rows));
  }

  /**
   * Approves a planned plan.
   *
   * @return the plan, now {@code approved}; fails with 404, 403 (role approver for the namespace;
   *     two-person rule) or 409 (not in state planned)
   */
  public Future<PlanRow> approve(Caller c, String id) {
    return found(id)
        .compose(
            p -> {
              String ns = RemediationPlans.namespaceOf(p.action(), p.subject());
              List<String> allowed = config.approversOf(p.action());
              if (allowed.stream().noneMatch(role -> c.has(role, ns))) {
                return refuse(
                    c,
                    "plan.approve",
                    p,
                    new ApiException(
                        403,
                        "forbidden",
                        "role",
                        "user "
                            + c.user()
                            + " lacks role "
                            + String.join(" or ", allowed)
                            + (ns == null ? " (cluster-wide)" : " for namespace " + ns)
                            + ", which approving "
                            + p.action()
                            + " requires"));
              }
              if (config.twoPerson()
                  && p.dryRun().getBoolean("destructive", false)
                  && c.user().equals(p.plannedBy())) {
                return refuse(
                    c,
                    "plan.approve",
                    p,
                    new ApiException(
                        403,
                        "forbidden",
                        "approver",
                        "two-person rule: "
                            + p.action()
                            + " is destructive and was planned by "
                            + p.plannedBy()
                            + "; another approver must approve it"));
              }
              if (!p.state().equals("planned")) {
                return refuse(
                    c,
                    "plan.approve",
                    p,
                    new ApiException(
                        409,
                        "conflict",
                        "state",
                        "plan "
                            + id
                            + " is "
                            + p.state()
                            + ", only a planned plan can be approved"));
              }
              return audit(
                      c.user(),
                      "plan.approve",
                      id,
                      null,
                      p.action() + " " + p.subject(),
                      p.reason(),
                      "intent")
                  .compose(
                      x ->
                          store.transition(
                              id, "planned", "approved", "approved_by", c.user(), null, now()))
                  .compose(
                      ok ->
                          ok
                              ? audit(
                                  c.user(),
                                  "plan.approve",
                                  id,
                                  null,
                                  p.action() + " " + p.subject(),
                                  p.reason(),
                                  "ok")
                              : refuse(
                                  c,
                                  "plan.approve",
                                  p,
                                  new ApiException(
                                      409,
                                      "conflict",
                                      "state",
                                      "plan "
                                          + id
                                          + " changed state concurrently; nothing was approved")))
                  .compose(x -> found(id));
            });
  }

  /**
   * Starts executing an approved plan.
   *
   * @param idempotencyKey the request's {@code Idempotency-Key}, or null
   * @return the plan, now {@code executing}; fails with 404, 403 (role operator) or 409 (not
   *     approved; already executing or finished — nothing is done twice)
   */
  public Future<PlanRow> execute(Caller c, String id, String idempotencyKey) {
    return found(id)
        .compose(
            p -> {
              String ns = RemediationPlans.namespaceOf(p.action(), p.subject());
              if (!c.has("operator", ns)) {
                return refuse(
                    c,
                    "plan.execute",
                    p,
                    new ApiException(
                        403,
                        "forbidden",
                        "role",
                        "user "
                            + c.user()
                            + " lacks role operator"
                            + (ns == null ? " (cluster-wide)" : " for namespace " + ns)));
              }
              if (p.state().equals("planned")) {
                return refuse(
                    c,
                    "plan.execute",
                    p,
                    new ApiException(
                        409,
                        "conflict",
                        "state",
                        "plan "
                            + id
                            + " is not approved; an approver must approve it before it can be executed"));
              }
              if (!p.state().equals("approved")) {
                boolean sameKey =
                    idempotencyKey != null && idempotencyKey.equals(p.idempotencyKey());
                return refuse(
                    c,
                    "plan.execute",
                    p,
                    new ApiException(
                        409,
                        "conflict",
                        "state",
                        "plan "
                            + id
                            + " is already "
                            + p.state()
                            + (p.executedBy() == null ? "" : " (started by " + p.executedBy() + ")")
                            + (sameKey
                                ? "; Idempotency-Key " + idempotencyKey + " was already used"
                                : "")
                            + "; nothing was done twice"));
              }
              return audit(
                      c.user(),
                      "plan.execute",
                      id,
                      null,
                      p.action() + " " + p.subject(),
                      p.reason(),
                      "intent")
                  .compose(
                      x ->
                          store.transition(
                              id, "approved", "executing", "executed_by", c.user(), null, now()))
                  .compose(
                      ok ->
                          ok
                              ? Future.succeededFuture()
                              : refuse(
                                  c,
                                  "plan.execute",
                                  p,
                                  new ApiException(
                                      409,
                                      "conflict",
                                      "state",
                                      "plan "
                                          + id
                                          + " is already executing; nothing was done twice")))
                  .compose(
                      x ->
                          idempotencyKey == null
                              ? Future.succeededFuture()
                              : store.transition(
                                  id,
                                  "executing",
                                  "executing",
                                  "idempotency_key",
                                  idempotencyKey,
                                  null,
                                  now()))
                  .compose(
                      x ->
                          audit(
                              c.user(),
                              "plan.execute",
                              id,
                              null,
                              p.action() + " " + p.subject(),
                              p.reason(),
                              "ok"))
                  .onSuccess(x -> schedule(id))
                  .compose(x -> found(id));
            });
  }

  /**
   * Cancels a plan that has not finished; an executing plan stops before its next step.
   *
   * @return the plan, now {@code cancelled}; fails with 404, 403 (operator or approver) or 409
   */
  public Future<PlanRow> cancel(Caller c, String id) {
    return found(id)
        .compose(
            p -> {
              String ns = RemediationPlans.namespaceOf(p.action(), p.subject());
              if (!c.has("operator", ns) && !c.has("approver", ns)) {
                return refuse(
                    c,
                    "plan.cancel",
                    p,
                    new ApiException(
                        403,
                        "forbidden",
                        "role",
                        "user "
                            + c.user()
                            + " lacks role operator or approver"
                            + (ns == null ? "" : " for namespace " + ns)));
              }
              if (!List.of("planned", "approved", "executing").contains(p.state())) {
                return refuse(
                    c,
                    "plan.cancel",
                    p,
                    new ApiException(
                        409, "conflict", "state", "plan " + id + " is already " + p.state()));
              }
              return store
                  .transition(
                      id, p.state(), "cancelled", null, null, "cancelled by " + c.user(), now())
                  .compose(
                      ok ->
                          ok
                              ? audit(
                                  c.user(),
                                  "plan.cancel",
                                  id,
                                  null,
                                  p.action() + " " + p.subject(),
                                  p.reason(),
                                  "ok")
                              : refuse(
                                  c,
                                  "plan.cancel",
                                  p,
                                  new ApiException(
                                      409,
                                      "conflict",
                                      "state",
                                      "plan " + id + " changed state concurrently; try again")))
                  .compose(x -> found(id));
            });
  }

  // ---- executor

  private void schedule(String id) {
    if (stopped || !running.add(id)) {
      return;
    }
    vertx.setTimer(config.pollInterval().toMillis(), t -> tick(id));
  }

  private void again(String id) {
    running.remove(id);
    schedule(id);
  }

  private void tick(String id) {
    if (stopped || !leadership.isLeader()) {
      // another replica leads: the plan stays executing in the store and the leader runs it
      running.remove(id);
      return;
    }
    store
        .plan(id)
        .compose(
            p ->
                p == null || !p.state().equals("executing")
                    ? Future.succeededFuture(false)
                    : step(p))
        .onComplete(
            ar -> {
              if (ar.succeeded() && !ar.result()) {
                running.remove(id);
                return;
              }
              if (ar.failed()) {
                String why = String.valueOf(ar.cause().getMessage());
                if (!why.equals(lastWarning.put(id, why))) {
                  MDC.put("plan", id);
                  LOG.warn(
                      "plan {}: step not done, retrying every {} ms: {}",
                      id,
                      config.pollInterval().toMillis(),
                      why);
                  MDC.remove("plan");
                }
              } else {
                lastWarning.remove(id);
              }
              again(id);
            });
  }

  /** One step of an executing plan; true while more remain. */
  private Future<Boolean> step(PlanRow p) {
    return p.action().equals("PacedRecreate") ? pacedStep(p) : listedStep(p);
  }

  private static RecreatePlan recreatePlan(PlanRow p) {
    JsonObject d = p.dryRun();
    List<List<String>> batches = new ArrayList<>();
    for (Object b : d.getJsonArray("batches")) {
      List<String> names = new ArrayList<>();
      ((JsonArray) b).forEach(n -> names.add((String) n));
      batches.add(names);
    }
    return new RecreatePlan(
        ObjectRef.parse(p.subject()),
        d.getInteger("replicas"),
        d.getInteger("maxUnavailable"),
        d.getInteger("floorReady"),
        batches,
        List.of(),
        0,
        0,
        0);
  }

  private Future<Boolean> pacedStep(PlanRow p) {
    RecreatePlan plan = recreatePlan(p);
    JsonObject progress = p.progress().copy();
    Set<String> deleted = new HashSet<>();
    progress.getJsonArray("deleted", new JsonArray()).forEach(n -> deleted.add((String) n));
    return worker
        .executeBlocking(() -> ops.livePool(plan.pool(), engineStale(plan.pool())))
        .compose(
            live -> {
              if (live == null) {
                return finish(p, "failed", "SandboxWarmPool " + plan.pool() + " no longer exists");
              }
              observe(progress, live, plan);
              PacedStep next = RemediationPlanner.next(live, plan, deleted);
              if (next instanceof PacedStep.Delete d) {
                int stepNo = progress.getInteger("batchesDone", 0) + 1;
                return deleteBatch(p, plan, d.names(), stepNo, progress).map(true);
              }
              if (next instanceof PacedStep.Wait w) {
                return store.progress(p.id(), progress.put("waiting", w.reason()), now()).map(true);
              }
              List<String> skipped = ((PacedStep.Done) next).skipped();
              progress.remove("waiting");
              return store
                  .progress(p.id(), progress, now())
                  .compose(
                      x ->
                          finish(
                              p,
                              "succeeded",
                              "deleted "
                                  + deleted.size()
                                  + " stale members"
                                  + (skipped.isEmpty()
                                      ? ""
                                      : "; skipped "
                                          + String.join(", ", skipped)
                                          + " (claimed, gone or no longer stale)")
                                  + "; minimum Ready during the rollout "
                                  + progress.getInteger("minReady")
                                  + " of "
                                  + plan.replicas()
                                  + " (floor "
                                  + plan.floorReady()
                                  + ")"));
            });
  }

  /** Records the lowest Ready count and current-template Ready count seen while executing. */
  private static void observe(JsonObject progress, PoolState live, RecreatePlan plan) {
    int ready = live.readyUnclaimed();
    progress.put("minReady", Math.min(progress.getInteger("minReady", Integer.MAX_VALUE), ready));
    progress.put("lastReady", ready);
    progress.put("lastReadyCurrentTemplate", live.readyCurrentTemplate());
    progress.put("lastStale", live.staleUnclaimed().size());
    progress.put("floorReady", plan.floorReady());
  }

  private Future<Void> deleteBatch(
      PlanRow p, RecreatePlan plan, List<String> names, int stepNo, JsonObject progress) {
    Future<Void> chain = Future.succeededFuture();
    for (String name : names) {
      chain = chain.compose(v -> deleteMember(p, plan.pool(), name, stepNo, progress));
    }
    return chain.compose(
        v ->
            store.progress(
                p.id(),
                progress
                    .put("batchesDone", stepNo)
                    .put("waiting", "batch " + stepNo + " deleted; waiting for replacements"),
                now()));
  }

  private Future<Void> deleteMember(
      PlanRow p, ObjectRef pool, String name, int stepNo, JsonObject progress) {
    String object = "Sandbox " + pool.namespace() + "/" + name;
    return canContinue(p.id())
        .compose(
            x ->
                audit(
                    executor,
                    "step.before",
                    p.id(),
                    stepNo,
                    object,
                    "delete stale member: " + p.reason(),
                    "intent"))
        .compose(
            x -> worker.executeBlocking(() -> ops.deleteStaleMember(pool, name, engineStale(pool))))
        .compose(
            result ->
                audit(executor, "step.after", p.id(), stepNo, object, "delete stale member", result)
                    .map(result))
        .compose(
            result -> {
              progress.put("deleted", progress.getJsonArray("deleted", new JsonArray()).add(name));
              if (!result.equals("ok")) {
                progress.put(
                    "skipped", progress.getJsonArray("skipped", new JsonArray()).add(name));
              }
              return store.progress(p.id(), progress, now());
            });
  }

  /** The members the engine reports stale (blocking: asks the engine thread). */
  private Set<String> engineStale(ObjectRef pool) {
    PoolState s = fleet.pool(pool);
    return s == null ? Set.of() : Set.copyOf(s.staleUnclaimed());
  }

  /** Fails when the plan is no longer executing (cancelled): the change is not made. */
  private Future<Void> canContinue(String id) {
    return store
        .plan(id)
        .compose(
            p ->
                p != null && p.state().equals("executing")
                    ? Future.succeededFuture()
                    : Future.failedFuture(
                        "plan " + id + " is no longer executing; step not started"));
  }

  private Future<Boolean> listedStep(PlanRow p) {
    JsonArray steps = p.dryRun().getJsonArray("steps");
    JsonObject progress = p.progress().copy();
    int i = progress.getInteger("next", 0);
    if (i >= steps.size()) {
      return finish(p, "succeeded", steps.size() + " steps done");
    }
    JsonObject s = steps.getJsonObject(i);
    int n = s.getInteger("n");
    String object = s.getJsonArray("objects").getString(0);
    if (s.getString("op").equals("wait-pool-ready")) {
      ObjectRef pool = ObjectRef.parse(object.substring(object.indexOf(' ') + 1));
      int min = s.getInteger("minReady");
      return worker
          .executeBlocking(() -> ops.readyMembers(pool))
          .compose(
              ready ->
                  ready >= min
                      ? audit(
                              executor,
                              "step.after",
                              p.id(),
                              n,
                              object,
                              s.getString("description"),
                              "ok: " + ready + " Ready")
                          .compose(
                              x ->
                                  store.progress(
                                      p.id(),
                                      progress.put("next", i + 1).put("waiting", null),
                                      now()))
                          .map(true)
                      : store
                          .progress(
                              p.id(),
                              progress.put(
                                  "waiting",
                                  object + ": " + Math.max(0, ready) + " of " + min + " Ready"),
                              now())
                          .map(true));
    }
    return canContinue(p.id())
        .compose(
            x ->
                audit(
                    executor,
                    "step.before",
                    p.id(),
                    n,
                    object,
                    s.getString("description"),
                    "intent"))
        .compose(x -> worker.executeBlocking(() -> apply(s, p)))
        .compose(
            result ->
                audit(executor, "step.after", p.id(), n, object, s.getString("description"), result)
                    .map(result))
        .compose(
            result ->
                s.getString("op").equals("patch-deployment-args") && !result.equals("ok")
                    // only executable against a real Deployment: the plan fails instead of
                    // pretending
                    ? finish(p, "failed", result)
                    : store.progress(p.id(), progress.put("next", i + 1), now()).map(true));
  }

  /** Applies one listed step (blocking). */
  private String apply(JsonObject s, PlanRow p) {
    String object = s.getJsonArray("objects").getString(0);
    String ref = object.substring(object.indexOf(' ') + 1);
    switch (s.getString("op")) {
      case "patch-pool" -> ops.patchPoolSpec(ObjectRef.parse(ref), s.getJsonObject("patch"));
      case "create-pool" ->
          ops.createPool(ObjectRef.parse(ref), s.getString("template"), s.getInteger("replicas"));
      case "delete-claim" -> {
        return ops.deleteExpiredClaim(ObjectRef.parse(ref));
      }
      case "set-refill-rate" -> fleet.setMaxRefillRate(s.getDouble("maxRefillRate"));
      case "patch-deployment-args" -> {
        return ops.setRefillRateArg(ObjectRef.parse(ref), s.getDouble("maxRefillRate"));
      }
      default ->
          throw new IllegalStateException(
              "unknown step op " + s.getString("op") + " in plan " + p.id());
    }
    return "ok";
  }

  private Future<Boolean> finish(PlanRow p, String state, String result) {
    return audit(
            executor,
            "plan.done",
            p.id(),
            null,
            p.action() + " " + p.subject(),
            p.reason(),
            state + ": " + result)
        .compose(x -> store.transition(p.id(), "executing", state, null, null, result, now()))
        .map(false);
  }
}
