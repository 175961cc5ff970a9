package org.sandboxslo.engine.inspect;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * One SandboxClaim as the claims page shows it.
 *
 * @param claim namespace/name
 * @param uid metadata.uid, may be null
 * @param createdAt metadata.creationTimestamp, may be null
 * @param firstSeen controller-first-observed-at, else creationTimestamp; may be null
 * @param readyAt first Ready time, null when never Ready
 * @param warmPool spec.warmPoolRef.name, may be null
 * @param template the template resolved through the pool (or the assigned Sandbox), null when
 *     unknown
 * @param createdBy label {@code agents.x-k8s.io/created-by}, {@code unknown} when absent
 * @param sandbox the assigned Sandbox's name, null before one is assigned
 * @param launchType {@code warm}, {@code cold}, or null before the claim is Ready
 * @param claimToReady readyAt − firstSeen, null when not Ready or no first-seen time
 * @param coldStartCause why a cold launch was cold, null for warm or not-yet-Ready claims
 * @param outcome see {@link ClaimOutcome}
 * @param reason the Ready condition's reason (e.g. {@code EnvVarsInjectionRejected}), may be null
 */
public record ClaimDetail(
    ObjectRef claim,
    String uid,
    Instant createdAt,
    Instant firstSeen,
    Instant readyAt,
    String warmPool,
    String template,
    String createdBy,
    String sandbox,
    String launchType,
    Duration claimToReady,
    ColdStartCause coldStartCause,
    ClaimOutcome outcome,
    String reason) {
  public ClaimDetail {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(outcome, "outcome");
    createdBy = createdBy == null ? "unknown" : createdBy;
  }
}
