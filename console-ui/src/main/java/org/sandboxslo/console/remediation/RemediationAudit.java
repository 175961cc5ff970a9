package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;

/**
 * Writes rows of the append-only {@code remediation_audit} table, stamped with the console clock.
 * Shared by the plan API ({@link PlanService}) and the executor ({@link PlanSteps}).
 */
final class RemediationAudit {
  /** The actor of rows written by the executor. */
  static final String EXECUTOR = "executor";

  private final RemediationStore store;
  private final Clock clock;
  private final String executor;
  private final PlanTracing tracing;

  RemediationAudit(RemediationStore store, Clock clock) {
    this(store, clock, null, new PlanTracing(io.opentelemetry.api.OpenTelemetry.noop()));
  }

  /**
   * @param identityOrNull this replica's identity in a leader election; the executor's rows then
   *     name {@code executor@<identity>}, so the audit shows which replica applied each step
   * @param tracing opens a step span at the executor's {@code step.before} row and ends it at its
   *     {@code step.after} row
   */
  RemediationAudit(
      RemediationStore store, Clock clock, String identityOrNull, PlanTracing tracing) {
    this.tracing = Objects.requireNonNull(tracing, "tracing");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.executor = identityOrNull == null ? EXECUTOR : EXECUTOR + "@" + identityOrNull;
  }

  PlanTracing tracing() {
    return tracing;
  }

  /** The actor of rows this process's executor writes: {@code executor[@identity]}. */
  String executor() {
    return executor;
  }

  Instant now() {
    return clock.instant();
  }

  /**
   * Appends one row.
   *
   * @param step the step number, or null for a plan-level row
   * @param object the object changed ({@code Kind ns/name}), or null
   * @return the row's sequence number; fails when the row cannot be written
   */
  Future<Long> append(
      String actor,
      String what,
      String planId,
      Integer step,
      String object,
      String why,
      String result) {
    if (actor.equals(executor) && step != null) {
      if (what.equals("step.before")) {
        tracing.stepStarted(planId, step, object);
      } else if (what.equals("step.after")) {
        tracing.stepEnded(planId, step, result);
      }
    }
    return store.append(new AuditEntry(0, now(), actor, what, planId, step, object, why, result));
  }

  /** Audits a refused request ({@code refused: <status> <message>}) and fails with {@code e}. */
  <T> Future<T> refuse(Caller c, String what, PlanRow p, ApiException e) {
    return append(
            c.user(),
            what,
            p.id(),
            null,
            null,
            p.reason(),
            "refused: " + e.status() + " " + e.getMessage())
        .transform(x -> Future.failedFuture(e));
  }
}
