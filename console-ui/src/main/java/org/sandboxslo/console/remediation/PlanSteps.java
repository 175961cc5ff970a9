package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PacedStep;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.remediation.RecreatePlan;
import org.sandboxslo.engine.remediation.RemediationPlanner;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;

/**
 * One step of an executing plan, as one flat compose chain: PacedRecreate asks {@link
 * RemediationPlanner#next} for the next batch against the live pool; the other actions run their
 * listed steps ({@link StepOp}) in order. Every change is preceded by an audit row {@code
 * step.before} (result {@code intent}) and followed by {@code step.after}; the plan's state is
 * re-read just before a change, so a cancelled plan changes nothing more. Blocking Kubernetes calls
 * run on the worker pool given to the constructor; engine reads go through {@link
 * RemediationFleet#pool} (a Future, no worker blocked).
 */
final class PlanSteps {
  private final RemediationStore store;
  private final RemediationAudit audit;
  private final ClusterOps ops;
  private final RemediationFleet fleet;
  private final WorkerExecutor worker;
  private final PlanListeners listeners;

  /**
   * @param worker the bounded pool for blocking fabric8 calls ({@code sloconsole-remediation})
   * @param listeners told when a plan ends here (succeeded or failed)
   */
  PlanSteps(
      RemediationStore store,
      RemediationAudit audit,
      ClusterOps ops,
      RemediationFleet fleet,
      WorkerExecutor worker,
      PlanListeners listeners) {
    this.listeners = Objects.requireNonNull(listeners, "listeners");
    this.store = Objects.requireNonNull(store, "store");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.ops = Objects.requireNonNull(ops, "ops");
    this.fleet = Objects.requireNonNull(fleet, "fleet");
    this.worker = Objects.requireNonNull(worker, "worker");
  }

  /**
   * Runs one step of {@code p} (which is {@code executing}).
   *
   * @return true while more steps remain, false once the plan is finished; a failed Future when the
   *     step could not be done (it is retried on the next tick)
   */
  Future<Boolean> step(PlanRow p) {
    return PlanAction.of(p.action()) == PlanAction.PACED_RECREATE ? pacedStep(p) : listedStep(p);
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
                return scalePool(p, plan, sc, progress).map(true);
              }
              if (next instanceof PacedStep.Delete d) {
                int stepNo = progress.getInteger("batchesDone", 0) + 1;
                return deleteBatch(p, plan, d.names(), stepNo, progress).map(true);
              }
              if (next instanceof PacedStep.Wait w) {
                return store
                    .progress(p.id(), progress.put("waiting", w.reason()), audit.now())
                    .map(true);
              }
              List<String> skipped = ((PacedStep.Done) next).skipped();
              progress.remove("waiting");
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
                    RemediationAudit.EXECUTOR,
                    "step.before",
                    p.id(),
                    stepNo,
                    object,
                    sc.reason(),
                    "intent"))
        .compose(
            x ->
                worker.executeBlocking(
                    () -> {
                      ops.patchPoolSpec(
                          plan.pool(), new JsonObject().put("replicas", sc.replicas()));
                      return "ok: spec.replicas " + sc.replicas();
                    }))
        .compose(
            result ->
                audit.append(
                    RemediationAudit.EXECUTOR,
                    "step.after",
                    p.id(),
                    stepNo,
                    object,
                    sc.reason(),
                    result))
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
                    RemediationAudit.EXECUTOR,
                    "step.before",
                    p.id(),
                    stepNo,
                    object,
                    "delete stale member: " + p.reason(),
                    "intent"))
        .compose(x -> engineStale(pool))
        .compose(stale -> worker.executeBlocking(() -> ops.deleteStaleMember(pool, name, stale)))
        .compose(
            result ->
                audit
                    .append(
                        RemediationAudit.EXECUTOR,
                        "step.after",
                        p.id(),
                        stepNo,
                        object,
                        "delete stale member",
                        result)
                    .map(result))
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

  /** Fails when the plan is no longer executing (cancelled): the change is not made. */
  private Future<Void> canContinue(String id) {
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

  /** A {@code wait-pool-ready} step: polls, changes nothing. */
  private Future<Boolean> waitStep(PlanRow p, JsonObject s, int i, JsonObject progress) {
    int n = s.getInteger("n");
    String object = s.getJsonArray("objects").getString(0);
    ObjectRef pool = ObjectRef.parse(object.substring(object.indexOf(' ') + 1));
    int min = s.getInteger("minReady");
    return worker
        .executeBlocking(() -> ops.readyMembers(pool))
        .compose(
            ready ->
                ready >= min
                    ? audit
                        .append(
                            RemediationAudit.EXECUTOR,
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
                        .map(true)
                    : store
                        .progress(
                            p.id(),
                            progress.put(
                                "waiting",
                                object + ": " + Math.max(0, ready) + " of " + min + " Ready"),
                            audit.now())
                        .map(true));
  }

  /** A step that changes an object: re-check, audit before, change on the worker, audit after. */
  private Future<Boolean> changeStep(PlanRow p, JsonObject s, StepOp op, int i) {
    int n = s.getInteger("n");
    String object = s.getJsonArray("objects").getString(0);
    JsonObject progress = p.progress().copy();
    return canContinue(p.id())
        .compose(
            x ->
                audit.append(
                    RemediationAudit.EXECUTOR,
                    "step.before",
                    p.id(),
                    n,
                    object,
                    s.getString("description"),
                    "intent"))
        .compose(x -> worker.executeBlocking(() -> apply(op, s)))
        .compose(
            result ->
                audit
                    .append(
                        RemediationAudit.EXECUTOR,
                        "step.after",
                        p.id(),
                        n,
                        object,
                        s.getString("description"),
                        result)
                    .map(result))
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
      case CREATE_POOL -> {
        ops.createPool(ObjectRef.parse(ref), s.getString("template"), s.getInteger("replicas"));
        yield "ok";
      }
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

  private Future<Boolean> finish(PlanRow p, PlanState state, String result) {
    return audit
        .append(
            RemediationAudit.EXECUTOR,
            "plan.done",
            p.id(),
            null,
            p.action() + " " + p.subject(),
            p.reason(),
            state.wireName() + ": " + result)
        .compose(
            x ->
                store.transition(
                    p.id(),
                    PlanState.EXECUTING.wireName(),
                    state.wireName(),
                    null,
                    null,
                    result,
                    audit.now()))
        .onSuccess(
            moved -> {
              if (moved) {
                listeners.finished(p, state);
              }
            })
        .map(false);
  }
}
