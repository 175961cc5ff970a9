package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * <p>All scheduling state is touched only on this verticle's context; {@link #schedule} may be
 * called from any thread.
 */
public final class PlanExecutor extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(PlanExecutor.class);

  private final RemediationStore store;
  private final RemediationAudit audit;
  private final PlanSteps steps;
  private final Duration pollInterval;
  private final Set<String> running = new HashSet<>();

  /** Last failure logged per plan, so a retried step warns once per distinct cause. */
  private final Map<String, String> lastWarning = new HashMap<>();

  private boolean stopped;

  PlanExecutor(
      RemediationStore store, RemediationAudit audit, PlanSteps steps, Duration pollInterval) {
    this.store = Objects.requireNonNull(store, "store");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.steps = Objects.requireNonNull(steps, "steps");
    this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
  }

  /** Resumes every {@code executing} plan; fails when the store cannot be read. */
  @Override
  public Future<?> start() {
    return store
        .plans(PlanState.EXECUTING.wireName())
        .onSuccess(plans -> plans.forEach(this::resume));
  }

  private void resume(PlanRow p) {
    LOG.info("resuming plan {} ({} {})", p.id(), p.action(), p.subject());
    audit
        .append(
            RemediationAudit.EXECUTOR, "plan.resume", p.id(), null, null, "console restarted", "ok")
        .onComplete(x -> scheduleHere(p.id()));
  }

  @Override
  public Future<?> stop() {
    stopped = true;
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
    if (stopped) {
      running.remove(id);
      return;
    }
    store
        .plan(id)
        .compose(
            p ->
                p == null || PlanState.of(p.state()) != PlanState.EXECUTING
                    ? Future.succeededFuture(false)
                    : steps.step(p))
        .onComplete(
            ar -> {
              if (ar.succeeded() && !ar.result()) {
                running.remove(id);
                lastWarning.remove(id);
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

  private void warnOnce(String id, String why) {
    if (!why.equals(lastWarning.put(id, why))) {
      MDC.put("plan", id);
      LOG.warn(
          "plan {}: step not done, retrying every {} ms: {}", id, pollInterval.toMillis(), why);
      MDC.remove("plan");
    }
  }
}
