package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PacedStep;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.remediation.RecreatePlan;
import org.sandboxslo.engine.remediation.RemediationPlanner;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;
import org.sandboxslo.store.StoreErrors;

/**
 * One step of an executing plan, as one flat compose chain: PacedRecreate asks {@link
 * RemediationPlanner#next} for the next batch against the live pool; the other actions run their
 * listed steps ({@link StepOp}) in order.
 *
 * <ul>
 *   <li>Every change is preceded by an audit row {@code step.before} (result {@code intent}) and
 *       followed by {@code step.after} (its result, or {@code error: ...} when the change failed);
 *       a {@code step.after} whose change was sent is retried until the database takes it, and on
 *       resume a {@code step.before} left without its {@code step.after} is closed ({@link
 *       #reconcile}).
 *   <li>The plan's state is re-read just before a change, so a cancelled plan changes nothing more;
 *       a cancel this process has received ({@link #requestCancel}) stops it even while the
 *       database cannot confirm the cancel yet; a plan is marked finished only if it is still
 *       {@code executing} then (a cancelled plan never becomes {@code succeeded}); its subject pool
 *       is re-read before each step, and a pool that is gone fails the plan (never read as "0
 *       Ready").
 *   <li>Steps are idempotent: a pool that already exists with the same spec is success; a delete
 *       re-checks its object first.
 *   <li>A wait (for Ready members, or for replacements during a paced Recreate) longer than {@link
 *       ExecutorConfig#waitTimeout} fails the plan.
 * </ul>
 *
 * Blocking Kubernetes calls run on the worker pool given to the constructor; engine reads go
 * through {@link RemediationFleet#pool} (a Future, no worker blocked).
 */
final class PlanSteps {
  private final Vertx vertx;
  private final RemediationStore store;
  private final RemediationAudit audit;
  private final ClusterOps ops;
  private final RemediationFleet fleet;
  private final WorkerExecutor worker;
  private final ExecutorConfig config;
  private final Duration poll;
  private final PlanListeners listeners;

  /** Plans whose cancel this process received and has not yet seen stored. */
  private final Set<String> cancelRequested = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * @param worker the bounded pool for blocking fabric8 calls ({@code sloconsole-remediation})
   * @param poll the executor tick (first wait of a {@code step.after} retry)
   * @param listeners told when a plan ends here (succeeded or failed)
   */
  PlanSteps(
      Vertx vertx,
      RemediationStore store,
      RemediationAudit audit,
      ClusterOps ops,
      RemediationFleet fleet,
      WorkerExecutor worker,
      ExecutorConfig config,
      Duration poll,
      PlanListeners listeners) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.listeners = Objects.requireNonNull(listeners, "listeners");
    this.store = Objects.requireNonNull(store, "store");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.ops = Objects.requireNonNull(ops, "ops");
    this.fleet = Objects.requireNonNull(fleet, "fleet");
    this.worker = Objects.requireNonNull(worker, "worker");
    this.config = Objects.requireNonNull(config, "config");
    this.poll = Objects.requireNonNull(poll, "poll");
  }

  /**
   * Runs one step of {@code p} (which is {@code executing}), after re-reading its subject pool.
   *
   * @return true while more steps remain, false once the plan is finished (succeeded or failed); a
   *     failed Future when the step could not be done (the executor retries it, or fails the plan
   *     for a {@link StepFailure#permanent} cause)
   */
  Future<Boolean> step(PlanRow p) {
    PlanAction action = PlanAction.of(p.action());
    return subjectExists(action, p.subject())
        .compose(
            exists -> {
              if (!exists) {
                return finish(
                    p,
                    PlanState.FAILED,
                    "SandboxWarmPool "
                        + p.subject()
                        + " no longer exists; nothing more was changed");
              }
              return action == PlanAction.PACED_RECREATE ? pacedStep(p) : listedStep(p);
            });
  }

  /** Whether the subject pool exists; true for actions whose subject is not a pool. */
  private Future<Boolean> subjectExists(PlanAction action, String subject) {
    return switch (action) {
      case PACED_RECREATE, SET_UPDATE_STRATEGY, SCALE_POOL, SHARD_POOL ->
          worker.executeBlocking(() -> ops.poolExists(ObjectRef.parse(subject)));
      case SET_REFILL_PACING, DELETE_EXPIRED_CLAIMS -> Future.succeededFuture(true);
    };
  }

  /**
   * Fails an executing plan with {@code reason} (audited {@code plan.done}).
   *
   * @return completes once stored; fails when the store cannot be written (the caller retries)
   */
  Future<Void> fail(String id, String reason) {
    return store
        .plan(id)
        .compose(
            p ->
                p == null || PlanState.of(p.state()) != PlanState.EXECUTING
                    ? Future.succeededFuture()
                    : finish(p, PlanState.FAILED, reason).mapEmpty());
  }

  /**
   * Closes every {@code step.before} of {@code p} that has no {@code step.after} (the console
   * stopped between the two) with a {@code step.after} whose result says the outcome is unknown;
   * the step itself is re-checked and retried by the next tick.
   *
   * @return the number of rows written; fails when the store cannot be read or written
   */
  Future<Integer> reconcile(PlanRow p) {
    return store
        .audit(p.id(), audit.executor(), null)
        .compose(
            rows -> {
              Map<String, Integer> open = new LinkedHashMap<>();
              Map<String, AuditEntry> last = new HashMap<>();
              for (AuditEntry e : rows) {
                String key = e.step() + " " + e.object();
                if (e.what().equals("step.before")) {
                  open.merge(key, 1, Integer::sum);
                  last.put(key, e);
                } else if (e.what().equals("step.after")) {
                  open.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
                }
              }
              Future<Integer> chain = Future.succeededFuture(0);
              for (String key : open.keySet()) {
                AuditEntry b = last.get(key);
                chain =
                    chain.compose(
                        n ->
                            audit
                                .append(
                                    audit.executor(),
                                    "step.after",
                                    p.id(),
                                    b.step(),
                                    b.object(),
                                    b.why(),
                                    "unknown: the console stopped between step.before and"
                                        + " step.after; the step is re-checked before it is"
                                        + " retried")
                                .map(x -> n + 1));
              }
              return chain;
            });
  }

  /**
   * Appends a {@code step.after} whose change has been sent: retried with backoff until the
   * database takes it (the change happened, its result must be audited).
   */
  private Future<Long> after(
      String planId, int step, String object, String why, String result, int attempt) {
    return audit
        .append(audit.executor(), "step.after", planId, step, object, why, result)
        .recover(
            e ->
                StoreErrors.unavailable(e).isEmpty()
                    ? Future.failedFuture(e)
                    : vertx
                        .timer(
                            config.outageBackoff(poll, attempt).toMillis(), TimeUnit.MILLISECONDS)
                        .compose(t -> after(planId, step, object, why, result, attempt + 1)));
  }

  /**
   * Runs a blocking change on the worker; when it throws, audits {@code step.after} {@code error:
   * <message>} and fails with the cause.
   */
  private Future<String> change(
      String planId, int step, String object, String why, Callable<String> work) {
    return worker
        .executeBlocking(work)
        .recover(
            e ->
                after(planId, step, object, why, "error: " + oneLine(e), 1)
                    .transform(x -> Future.failedFuture(e)));
  }

  static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /**
   * Records that the plan waits ({@code waiting}, and {@code waitingSince} at the first wait) and
   * fails it when it has waited longer than {@link ExecutorConfig#waitTimeout}.
   */
  private Future<Boolean> waitOrFail(PlanRow p, JsonObject progress, String waiting) {
    Instant now = audit.now();
    String since = progress.getString("waitingSince");
    Instant started = since == null ? now : Instant.parse(since);
    Duration waited = Duration.between(started, now);
    if (waited.compareTo(config.waitTimeout()) > 0) {
      return finish(
          p,
          PlanState.FAILED,
          "waited "
              + Durations.format(waited.truncatedTo(ChronoUnit.SECONDS))
              + " (limit "
              + Durations.format(config.waitTimeout())
              + "): "
              + waiting);
    }
    return store
        .progress(
            p.id(),
            progress.put("waiting", waiting).put("waitingSince", started.toString()),
            audit.now())
        .map(true);
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
    return engineStale(plan.pool())
        .compose(stale -> worker.executeBlocking(() -> ops.livePool(plan.pool(), stale)))
        .compose(
            live -> {
              if (live == null) {
                return finish(
                    p, PlanState.FAILED, "SandboxWarmPool " + plan.pool() + " no longer exists");
              }
              observe(progress, live, plan);
              int surge = p.dryRun().getInteger("surge", 0);
              boolean surged = progress.getBoolean("surged", false);
              PacedStep next = RemediationPlanner.next(live, plan, deleted, surge, surged);
              if (next instanceof PacedStep.Scale sc) {
                progress.remove("waitingSince");
                return scalePool(p, plan, sc, progress).map(true);
              }
              if (next instanceof PacedStep.Delete d) {
                progress.remove("waitingSince");
                int stepNo = progress.getInteger("batchesDone", 0) + 1;
                return deleteBatch(p, plan, d.names(), stepNo, progress).map(true);
              }
              if (next instanceof PacedStep.Wait w) {
                return waitOrFail(p, progress, w.reason());
              }
              List<String> skipped = ((PacedStep.Done) next).skipped();
              progress.remove("waiting");
              progress.remove("waitingSince");
              return store
                  .progress(p.id(), progress, audit.now())
                  .compose(
                      x ->
                          finish(
                              p,
                              PlanState.SUCCEEDED,
                              summary(plan, deleted.size(), progress, skipped)));
            });
  }

  private static String summary(
      RecreatePlan plan, int deleted, JsonObject progress, List<String> skipped) {
    return "deleted "
        + deleted
        + " stale members"
        + (skipped.isEmpty()
            ? ""
            : "; skipped " + String.join(", ", skipped) + " (claimed, gone or no longer stale)")
        + "; minimum Ready during the rollout "
        + progress.getInteger("minReady")
        + " of "
        + plan.replicas()
        + " (floor "
        + plan.floorReady()
        + ")";
  }

  /**
   * A surge (canaries first) or its restore: sets the pool's spec.replicas, audited before and
   * after. Audit step 0 is the surge, step {@code batches + 1} the restore.
   */
  private Future<Void> scalePool(
      PlanRow p, RecreatePlan plan, PacedStep.Scale sc, JsonObject progress) {
    boolean surge = sc.replicas() > plan.replicas();
    int stepNo = surge ? 0 : plan.batches().size() + 1;
    String object = "SandboxWarmPool " + plan.pool();
    return canContinue(p.id())
        .compose(
            x ->
                audit.append(
                    audit.executor(), "step.before", p.id(), stepNo, object, sc.reason(), "intent"))
        .compose(
            x ->
                change(
                    p.id(),
                    stepNo,
                    object,
                    sc.reason(),
                    () -> {
                      ops.patchPoolSpec(
                          plan.pool(), new JsonObject().put("replicas", sc.replicas()));
                      return "ok: spec.replicas " + sc.replicas();
                    }))
        .compose(result -> after(p.id(), stepNo, object, sc.reason(), result, 1))
        .compose(
            x ->
                store.progress(
                    p.id(),
                    progress
                        .put("surged", surge)
                        .put("waiting", surge ? "surged; waiting for canaries" : "restored"),
                    audit.now()));
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
                audit.now()));
  }

  private Future<Void> deleteMember(
      PlanRow p, ObjectRef pool, String name, int stepNo, JsonObject progress) {
    String object = "Sandbox " + pool.namespace() + "/" + name;
    return canContinue(p.id())
        .compose(
            x ->
                audit.append(
                    audit.executor(),
                    "step.before",
                    p.id(),
                    stepNo,
                    object,
                    "delete stale member: " + p.reason(),
                    "intent"))
        .compose(x -> engineStale(pool))
        .compose(
            stale ->
                change(
                    p.id(),
                    stepNo,
                    object,
                    "delete stale member",
                    () -> ops.deleteStaleMember(pool, name, stale)))
        .compose(
            result -> after(p.id(), stepNo, object, "delete stale member", result, 1).map(result))
        .compose(
            result -> {
              progress.put("deleted", progress.getJsonArray("deleted", new JsonArray()).add(name));
              if (!result.equals("ok")) {
                progress.put(
                    "skipped", progress.getJsonArray("skipped", new JsonArray()).add(name));
              }
              return store.progress(p.id(), progress, audit.now());
            });
  }

  /** The members the engine reports stale (empty when the engine does not know the pool). */
  private Future<Set<String>> engineStale(ObjectRef pool) {
    return fleet.pool(pool).map(s -> s == null ? Set.of() : Set.copyOf(s.staleUnclaimed()));
  }

  /** Records a received cancel of plan {@code id}: no change of it starts from now on. */
  void requestCancel(String id) {
    cancelRequested.add(id);
  }

  /** Whether a cancel of {@code id} was received and not yet stored. */
  boolean cancelRequested(String id) {
    return cancelRequested.contains(id);
  }

  /** Forgets the cancel request of a plan that is no longer executing. */
  void forgetCancel(String id) {
    cancelRequested.remove(id);
  }

  /**
   * Fails when the plan is no longer executing (cancelled), or its cancel was received: the change
   * is not made.
   */
  private Future<Void> canContinue(String id) {
    if (cancelRequested.contains(id)) {
      return Future.failedFuture(
          new CancelReceived("plan " + id + " was cancelled; step not started"));
    }
    return store
        .plan(id)
        .compose(
            p ->
                p != null && PlanState.of(p.state()) == PlanState.EXECUTING
                    ? Future.succeededFuture()
                    : Future.failedFuture(
                        "plan " + id + " is no longer executing; step not started"));
  }

  private Future<Boolean> listedStep(PlanRow p) {
    JsonArray steps = p.dryRun().getJsonArray("steps");
    JsonObject progress = p.progress().copy();
    int i = progress.getInteger("next", 0);
    if (i >= steps.size()) {
      return finish(p, PlanState.SUCCEEDED, steps.size() + " steps done");
    }
    JsonObject s = steps.getJsonObject(i);
    StepOp op = StepOp.of(s.getString("op"));
    return op == StepOp.WAIT_POOL_READY ? waitStep(p, s, i, progress) : changeStep(p, s, op, i);
  }

  /**
   * A {@code wait-pool-ready} step: polls, changes nothing. A pool that does not exist fails the
   * plan (it is never read as "0 Ready"); so does a wait longer than the wait timeout.
   */
  private Future<Boolean> waitStep(PlanRow p, JsonObject s, int i, JsonObject progress) {
    int n = s.getInteger("n");
    String object = s.getJsonArray("objects").getString(0);
    ObjectRef pool = ObjectRef.parse(object.substring(object.indexOf(' ') + 1));
    int min = s.getInteger("minReady");
    return worker
        .executeBlocking(() -> ops.readyMembers(pool))
        .compose(
            ready -> {
              if (ready < 0) {
                return finish(
                    p,
                    PlanState.FAILED,
                    object + " does not exist (step " + n + " waits for " + min + " Ready)");
              }
              if (ready < min) {
                return waitOrFail(p, progress, object + ": " + ready + " of " + min + " Ready");
              }
              progress.remove("waitingSince");
              return audit
                  .append(
                      audit.executor(),
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
                              audit.now()))
                  .map(true);
            });
  }

  /**
   * A step that changes an object: re-check, audit before, change on the worker, audit after. A
   * step whose {@code step.after} row exists already (the replica that applied it stopped before it
   * stored the progress, e.g. a leader failover) is not applied again: the progress moves on.
   */
  private Future<Boolean> changeStep(PlanRow p, JsonObject s, StepOp op, int i) {
    int n = s.getInteger("n");
    JsonObject progress = p.progress().copy();
    return alreadyApplied(p.id(), n)
        .compose(
            done ->
                done
                    ? store.progress(p.id(), progress.put("next", i + 1), audit.now()).map(true)
                    : applyStep(p, s, op, i));
  }

  /**
   * True when the audit holds a {@code step.after} row of an applied change ({@code ok…} or {@code
   * skipped…}; not {@code error…} nor {@code unknown…}) for step {@code n} of plan {@code id}.
   */
  private Future<Boolean> alreadyApplied(String id, int n) {
    return store
        .audit(id, null, null)
        .map(
            rows ->
                rows.stream()
                    .anyMatch(
                        r ->
                            "step.after".equals(r.what())
                                && r.step() != null
                                && r.step() == n
                                && r.result() != null
                                && !r.result().startsWith("error")
                                && !r.result().startsWith("unknown")));
  }

  private Future<Boolean> applyStep(PlanRow p, JsonObject s, StepOp op, int i) {
    int n = s.getInteger("n");
    String object = s.getJsonArray("objects").getString(0);
    JsonObject progress = p.progress().copy();
    return canContinue(p.id())
        .compose(
            x ->
                audit.append(
                    audit.executor(),
                    "step.before",
                    p.id(),
                    n,
                    object,
                    s.getString("description"),
                    "intent"))
        .compose(
            x ->
                change(
                    p.id(),
                    n,
                    object,
                    s.getString("description"),
                    () -> {
                      audit.tracing().continueTrace(p.id(), n, ops.annotations(object));
                      return apply(op, s);
                    }))
        .compose(
            result -> after(p.id(), n, object, s.getString("description"), result, 1).map(result))
        .compose(
            result ->
                op == StepOp.PATCH_DEPLOYMENT_ARGS && !result.equals("ok")
                    // only executable against a real Deployment: the plan fails instead of
                    // pretending
                    ? finish(p, PlanState.FAILED, result)
                    : store.progress(p.id(), progress.put("next", i + 1), audit.now()).map(true));
  }

  /** Applies one listed step (blocking: runs on the worker). */
  private String apply(StepOp op, JsonObject s) {
    String object = s.getJsonArray("objects").getString(0);
    String ref = object.substring(object.indexOf(' ') + 1);
    return switch (op) {
      case PATCH_POOL -> {
        ops.patchPoolSpec(ObjectRef.parse(ref), s.getJsonObject("patch"));
        yield "ok";
      }
      case CREATE_POOL ->
          ops.createPool(ObjectRef.parse(ref), s.getString("template"), s.getInteger("replicas"));
      case DELETE_CLAIM -> ops.deleteExpiredClaim(ObjectRef.parse(ref));
      case SET_REFILL_RATE -> {
        fleet.setMaxRefillRate(s.getDouble("maxRefillRate"));
        yield "ok";
      }
      case PATCH_DEPLOYMENT_ARGS ->
          ops.setRefillRateArg(ObjectRef.parse(ref), s.getDouble("maxRefillRate"));
      case DELETE_MEMBERS, WAIT_POOL_READY ->
          throw new IllegalStateException(op + " is not a listed change step");
    };
  }

  /** Tells the plan listeners that {@code p}, cancelled by this executor, has ended. */
  void cancelled(PlanRow p) {
    listeners.finished(p, PlanState.CANCELLED);
  }

  /**
   * Moves {@code p} from {@code executing} to {@code state}, then audits {@code plan.done}; a plan
   * that was cancelled meanwhile (by a request, or a cancel this process received) stays cancelled
   * and gets no {@code plan.done}.
   */
  private Future<Boolean> finish(PlanRow p, PlanState state, String result) {
    if (cancelRequested.contains(p.id())) {
      return Future.failedFuture(
          new CancelReceived("plan " + p.id() + " was cancelled; not marked " + state));
    }
    return store
        .transition(
            p.id(),
            PlanState.EXECUTING.wireName(),
            state.wireName(),
            null,
            null,
            result,
            audit.now())
        .compose(
            moved ->
                !moved
                    ? Future.succeededFuture()
                    : audit
                        .append(
                            audit.executor(),
                            "plan.done",
                            p.id(),
                            null,
                            p.action() + " " + p.subject(),
                            p.reason(),
                            state.wireName() + ": " + result)
                        .onSuccess(x -> listeners.finished(p, state))
                        .mapEmpty())
        .map(false);
  }
}
