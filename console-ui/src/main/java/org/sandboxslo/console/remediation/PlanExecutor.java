package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;
import org.sandboxslo.store.StoreErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The executor verticle: a timer per executing plan reads the plan from PostgreSQL and, while it is
 * still {@code executing}, runs its next step ({@link PlanSteps}), then ticks again after {@code
 * sloconsole.remediation.poll-interval}.
 *
 * <ul>
 *   <li>A failed step is retried after a backoff (the poll interval doubled per failure in a row,
 *       at most {@link ExecutorConfig#retryBackoffMax}); after {@link ExecutorConfig#stepAttempts}
 *       failures in a row, or at once for a {@link StepFailure#permanent} cause, the plan fails
 *       with the cause as its reason.
 *   <li>While the database is unavailable or refuses the executor's own statements no step starts
 *       (the plan cannot be read, nor its {@code step.before} written); these failures back off (at
 *       most {@link ExecutorConfig#OUTAGE_BACKOFF_MAX}) but are not counted.
 *   <li>A cancel received by this process ({@link #requestCancel}, from {@link PlanService#cancel})
 *       stops the plan before its next step at once, even while the database cannot confirm it; the
 *       executor then stores the cancel ({@code executing → cancelled}, audited {@code plan.cancel}
 *       by the caller), retrying until the database takes it, so a cancel is never lost and a
 *       cancelled plan never finishes.
 *   <li>On start it resumes every stored {@code executing} plan (audited {@code plan.resume}) and
 *       closes a {@code step.before} left without {@code step.after} ({@link PlanSteps#reconcile});
 *       on undeploy no further step is scheduled (a step in flight completes).
 * </ul>
 *
 * <p>A WARN is logged once per distinct cause.
 *
 * <p>With several replicas on one database only the {@link Leadership leader} runs steps: a replica
 * that does not lead lets its plans stay {@code executing} in the store and stops ticking them
 * before the next step. When it gains the leadership it resumes every {@code executing} plan
 * (audited {@code plan.resume}, why {@code leadership gained}), and while it leads it looks for
 * {@code executing} plans it does not tick yet every {@value #SCAN_POLLS} poll intervals (a plan
 * another replica's API moved to {@code executing}). A step interrupted by a failover is completed
 * from its audit rows ({@link PlanSteps}), so no step is applied twice.
 *
 * <p>All scheduling state is touched only on this verticle's context; {@link #schedule} may be
 * called from any thread.
 */
public final class PlanExecutor extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(PlanExecutor.class);

  private final RemediationStore store;
  private final RemediationAudit audit;
  private final PlanSteps steps;
  private final Duration pollInterval;
  private final ExecutorConfig config;
  private final Set<String> running = new HashSet<>();

  /** The last row read of each plan this executor runs (any thread may read it). */
  private final Map<String, PlanRow> executing = new java.util.concurrent.ConcurrentHashMap<>();

  /** Received cancels not yet stored: plan id → the user who cancelled. */
  private final Map<String, String> cancels = new java.util.concurrent.ConcurrentHashMap<>();

  /** Received cancels whose state change is stored and whose audit row is not yet. */
  private final Set<String> cancelMoved = new HashSet<>();

  /** Step failures in a row per plan (database outages excluded). */
  private final Map<String, Integer> failures = new HashMap<>();

  /** Database failures in a row per plan, for the backoff only. */
  private final Map<String, Integer> outages = new HashMap<>();

  private final Leadership leadership;

  /** Under an election the leader scans for {@code executing} plans every this many polls. */
  static final int SCAN_POLLS = 4;

  private long scanTimer = -1;

  /** Last failure logged per plan, so a retried step warns once per distinct cause. */
  private final Map<String, String> lastWarning = new HashMap<>();

  private boolean stopped;

  PlanExecutor(
      RemediationStore store,
      RemediationAudit audit,
      PlanSteps steps,
      Duration pollInterval,
      ExecutorConfig config,
      Leadership leadership) {
    this.leadership = Objects.requireNonNull(leadership, "leadership");
    this.store = Objects.requireNonNull(store, "store");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.steps = Objects.requireNonNull(steps, "steps");
    this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * Resumes every {@code executing} plan when this replica leads; fails when the store cannot be
   * read.
   */
  @Override
  public Future<?> start() {
    if (leadership.elected()) {
      leadership.onChange(
          leader -> {
            if (leader) {
              context.runOnContext(v -> resumeExecuting("leadership gained"));
            }
          });
      scanTimer =
          vertx.setPeriodic(pollInterval.toMillis() * SCAN_POLLS, t -> resumeExecuting(null));
    }
    return resumeExecuting("console restarted");
  }

  /**
   * Schedules every {@code executing} plan that does not tick here yet (leader only); audits {@code
   * plan.resume} with {@code why} unless it is null (a periodic scan).
   */
  private Future<Void> resumeExecuting(String why) {
    if (stopped || !leadership.isLeader()) {
      return Future.succeededFuture();
    }
    return store
        .plans(PlanState.EXECUTING.wireName())
        .map(
            plans -> {
              for (PlanRow p : plans) {
                if (running.contains(p.id())) {
                  continue;
                }
                if (why == null) {
                  scheduleHere(p.id(), pollInterval);
                } else {
                  resume(p, why);
                }
              }
              return null;
            });
  }

  private void resume(PlanRow p, String why) {
    LOG.info("resuming plan {} ({} {}): {}", p.id(), p.action(), p.subject(), why);
    audit
        .append(audit.executor(), "plan.resume", p.id(), null, null, why, "ok")
        .compose(x -> steps.reconcile(p))
        .onSuccess(
            n -> {
              if (n > 0) {
                LOG.warn("plan {}: {} step(s) had no step.after; closed as unknown", p.id(), n);
              }
            })
        .onComplete(x -> scheduleHere(p.id(), pollInterval));
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    vertx.cancelTimer(scanTimer);
    running.forEach(id -> audit.tracing().planEnded(id, "handed over", false));
    return Future.succeededFuture();
  }

  /**
   * Starts ticking plan {@code id} unless it already ticks. Safe from any thread: the work is moved
   * onto this verticle's context.
   *
   * @throws IllegalStateException before the verticle is deployed
   */
  void schedule(String id) {
    if (context == null) {
      throw new IllegalStateException("the plan executor is not deployed");
    }
    context.runOnContext(v -> scheduleHere(id, pollInterval));
  }

  private void scheduleHere(String id, Duration after) {
    if (stopped || !running.add(id)) {
      return;
    }
    vertx.setTimer(after.toMillis(), t -> tick(id));
  }

  private void again(String id, Duration after) {
    running.remove(id);
    scheduleHere(id, after);
  }

  /**
   * The plan {@code id} as last read while this executor runs it, or null when it does not run it.
   * Safe from any thread.
   */
  PlanRow executing(String id) {
    return executing.get(id);
  }

  /**
   * Records a cancel of plan {@code id} by {@code user}: no step of it starts from now on, and the
   * executor stores the cancel unless the caller's request does first. Safe from any thread; does
   * nothing for a plan this executor does not run.
   */
  void requestCancel(String id, String user) {
    if (executing.containsKey(id)) {
      cancels.putIfAbsent(id, user);
      steps.requestCancel(id);
    }
  }

  private void done(String id) {
    running.remove(id);
    executing.remove(id);
    cancels.remove(id);
    cancelMoved.remove(id);
    steps.forgetCancel(id);
    failures.remove(id);
    outages.remove(id);
    lastWarning.remove(id);
    endPlanSpan(id);
  }

  private void tick(String id) {
    if (stopped || !leadership.isLeader()) {
      // another replica leads: the plan stays executing in the store and the leader runs it
      running.remove(id);
      audit.tracing().planEnded(id, "handed over", false);
      return;
    }
    if (cancels.containsKey(id)) {
      storeCancel(id);
      return;
    }
    store
        .plan(id)
        .compose(
            p -> {
              if (p == null || PlanState.of(p.state()) != PlanState.EXECUTING) {
                return Future.succeededFuture(false);
              }
              executing.put(id, p);
              return traced(p).step(p);
            })
        .onComplete(
            ar -> {
              if (ar.failed() && ar.cause() instanceof CancelReceived) {
                storeCancel(id);
                return;
              }
              if (ar.succeeded()) {
                if (!ar.result()) {
                  done(id);
                } else {
                  failures.remove(id);
                  outages.remove(id);
                  lastWarning.remove(id);
                  again(id, pollInterval);
                }
                return;
              }
              failed(id, ar.cause());
            });
  }

  /** Opens the plan's span on its first step here. */
  private PlanSteps traced(PlanRow p) {
    audit.tracing().planStarted(p.id(), p.action(), p.subject());
    return steps;
  }

  /** Ends the plan's span with its stored state and result ({@code succeeded: 3 steps done}). */
  private void endPlanSpan(String id) {
    store
        .plan(id)
        .onComplete(
            ar -> {
              PlanRow p = ar.succeeded() ? ar.result() : null;
              String state = p == null ? "unknown" : p.state();
              String result = p == null || p.result() == null ? "" : ": " + p.result();
              audit
                  .tracing()
                  .planEnded(id, state + result, PlanState.FAILED.wireName().equals(state));
            });
  }

  /**
   * Stores a received cancel: {@code executing → cancelled} with {@code cancelled by <user>} and an
   * audit row {@code plan.cancel} by that user; nothing when the plan is no longer executing (the
   * request stored it first, or it had finished). Retried with the outage backoff while the
   * database is unavailable.
   */
  private void storeCancel(String id) {
    String user = cancels.get(id);
    PlanRow p = executing.get(id);
    String object = p == null ? null : p.action() + " " + p.subject();
    // once the state change is stored, a retry (the audit row failed) writes only the audit row
    Future<Boolean> stateMoved =
        cancelMoved.contains(id)
            ? Future.succeededFuture(true)
            : store
                .transition(
                    id,
                    PlanState.EXECUTING.wireName(),
                    PlanState.CANCELLED.wireName(),
                    null,
                    null,
                    "cancelled by " + user,
                    audit.now())
                .onSuccess(
                    moved -> {
                      if (moved) {
                        cancelMoved.add(id);
                      }
                    });
    stateMoved
        .compose(
            moved ->
                !moved
                    ? Future.succeededFuture()
                    : audit
                        .append(
                            user,
                            "plan.cancel",
                            id,
                            null,
                            object,
                            p == null ? null : p.reason(),
                            "ok")
                        .onSuccess(
                            x -> {
                              if (p != null) {
                                steps.cancelled(p); // plan silences expired, channel told
                              }
                            })
                        .mapEmpty())
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                done(id);
                return;
              }
              int n = outages.merge(id, 1, Integer::sum);
              Duration wait = config.outageBackoff(pollInterval, n);
              warnOnce(
                  id,
                  "the received cancel is not stored yet: " + PlanSteps.oneLine(ar.cause()),
                  wait);
              again(id, wait);
            });
  }

  private void failed(String id, Throwable cause) {
    String why = PlanSteps.oneLine(cause);
    if (StoreErrors.fromDatabase(cause)) {
      // the executor's own reads and audit writes failed, not the step: nothing started
      int n = outages.merge(id, 1, Integer::sum);
      Duration wait = config.outageBackoff(pollInterval, n);
      Optional<String> down = StoreErrors.unavailable(cause);
      warnOnce(
          id,
          "no step starts while the database "
              + (down.isPresent() ? "is unavailable (" + down.get() + ")" : "refuses: " + why),
          wait);
      again(id, wait);
      return;
    }
    outages.remove(id);
    int n = failures.merge(id, 1, Integer::sum);
    if (StepFailure.permanent(cause) || n >= config.stepAttempts()) {
      String reason =
          StepFailure.permanent(cause)
              ? why
              : "the step failed " + n + " times in a row; last: " + why;
      MDC.put("plan", id);
      LOG.warn("plan {} failed: {}", id, reason);
      MDC.remove("plan");
      steps
          .fail(id, reason)
          .onComplete(
              ar -> {
                if (ar.succeeded()) {
                  done(id);
                } else {
                  // the failure could not be stored yet (database): try again
                  again(id, config.outageBackoff(pollInterval, n));
                }
              });
      return;
    }
    Duration wait = config.backoff(pollInterval, n);
    warnOnce(id, "step failed (" + n + " of " + config.stepAttempts() + "): " + why, wait);
    again(id, wait);
  }

  private void warnOnce(String id, String why, Duration wait) {
    if (!why.equals(lastWarning.put(id, why))) {
      MDC.put("plan", id);
      LOG.warn("plan {}: {}; retrying in {} ms", id, why, wait.toMillis());
      MDC.remove("plan");
    }
  }
}
