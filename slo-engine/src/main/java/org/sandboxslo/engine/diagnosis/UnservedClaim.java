package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.Objects;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * A SandboxClaim that was never served: it never became Ready.
 *
 * @param claim namespace/name of the claim
 * @param uid metadata.uid
 * @param warmPool spec.warmPoolRef.name, may be null
 * @param template the pool's spec.sandboxTemplateRef.name when the pool was known, else null
 * @param outcome how it ended (or, for {@link Outcome#REJECTED}, why it waits)
 * @param reason the claim's last Ready reason (e.g. {@code EnvVarsInjectionRejected}, {@code
 *     TemplateNotFound}, {@code ClaimExpired}), or {@code none} when it had no Ready condition
 * @param message the last Ready message, may be null
 * @param firstSeen controller-first-observed-at, else creationTimestamp; may be null
 * @param endedAt when the outcome was reached: the rejection's lastTransitionTime (else receive
 *     time), the expiry, or the delete's receive time
 * @param terminal true when the claim can no longer be served (rejected with a terminal reason,
 *     expired, deleted); false for a claim that waits with a blocking reason ({@code
 *     TemplateNotFound}, {@code WarmPoolNotFound}) and may still be served
 */
public record UnservedClaim(
    ObjectRef claim,
    String uid,
    String warmPool,
    String template,
    Outcome outcome,
    String reason,
    String message,
    Instant firstSeen,
    Instant endedAt,
    boolean terminal) {
  public UnservedClaim {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(endedAt, "endedAt");
  }

  /** How an unserved claim ended. */
  public enum Outcome {
    /** Ready=False with a rejection reason (EnvVarsInjectionRejected, TemplateNotFound, ...). */
    REJECTED,
    /** Expired (Ready=False/ClaimExpired, or deleted at or after spec.lifecycle.shutdownTime). */
    EXPIRED_UNSERVED,
    /** Deleted (final state known) before it was ever Ready. */
    DELETED_BEFORE_READY
  }
}
