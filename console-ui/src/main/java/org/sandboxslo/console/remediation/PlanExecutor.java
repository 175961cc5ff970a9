package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The executor verticle: a timer per executing plan (every {@code
 * sloconsole.remediation.poll-interval}) reads the plan from PostgreSQL and, while it is still
 * {@code executing}, runs its next step ({@link PlanSteps}). A failed step WARNs once per distinct
 * cause and is retried on the next tick. On start it resumes every stored {@code executing} plan
 * (audited {@code plan.resume}); on undeploy no further step is scheduled (a step in flight
 * completes).
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
  private final Leadership leadership;
  private final Set<String> running = new HashSet<>();

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
      Leadership leadership) {
    this.leadership = Objects.requireNonNull(leadership, "leadership");
    this.store = Objects.requireNonNull(store, "store");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.steps = Objects.requireNonNull(steps, "steps");
    this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
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
                  scheduleHere(p.id());
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
        .onComplete(x -> scheduleHere(p.id()));
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
    context.runOnContext(v -> scheduleHere(id));
  }

  private void scheduleHere(String id) {
    if (stopped || !running.add(id)) {
      return;
    }
    vertx.setTimer(pollInterval.toMillis(), t -> tick(id));
  }

  private void again(String id) {
    running.remove(id);
    scheduleHere(id);
  }

  private void tick(String id) {
    if (stopped || !leadership.isLeader()) {
      // another replica leads: the plan stays executing in the store and the leader runs it
      running.remove(id);
      audit.tracing().planEnded(id, "handed over", false);
      return;
    }
    store
        .plan(id)
        .compose(
            p ->
                p == null || PlanState.of(p.state()) != PlanState.EXECUTING
                    ? Future.succeededFuture(false)
                    : traced(p).step(p))
        .onComplete(
            ar -> {
              if (ar.succeeded() && !ar.result()) {
                running.remove(id);
                lastWarning.remove(id);
                endPlanSpan(id);
                return;
              }
              if (ar.failed()) {
                warnOnce(id, String.valueOf(ar.cause().getMessage()));
              } else {
                lastWarning.remove(id);
              }
              again(id);
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

  private void warnOnce(String id, String why) {
    if (!why.equals(lastWarning.put(id, why))) {
      MDC.put("plan", id);
      LOG.warn(
          "plan {}: step not done, retrying every {} ms: {}", id, pollInterval.toMillis(), why);
      MDC.remove("plan");
    }
  }
}
