package org.sandboxslo.engine.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A {@code SandboxClaim} (extensions.agents.x-k8s.io/v1beta1), trimmed.
 *
 * @param ref namespace/name
 * @param uid metadata.uid
 * @param resourceVersion metadata.resourceVersion
 * @param createdAt metadata.creationTimestamp (server time, 1 s resolution); may be null
 * @param firstObservedAt annotation {@code agents.x-k8s.io/controller-first-observed-at}
 *     (RFC3339Nano), or null
 * @param firstReadyAt annotation {@code agents.x-k8s.io/claim-first-ready-at} (RFC3339Nano), or
 *     null (also when its value is {@code unknown})
 * @param warmPoolName spec.warmPoolRef.name
 * @param sandboxName annotation {@code agents.x-k8s.io/sandbox-name} (or status.sandbox.name), or
 *     null before a sandbox is assigned
 * @param setsEnv spec.env is non-empty (forces a cold start upstream)
 * @param setsVolumeClaimTemplates spec.volumeClaimTemplates is non-empty (forces a cold start)
 * @param createdBy label {@code agents.x-k8s.io/created-by}, or null
 * @param ready the {@code Ready} condition, or null
 * @param finished the {@code Finished} condition, or null
 * @param shutdownPolicy spec.lifecycle.shutdownPolicy ({@code Delete|DeleteForeground|Retain}), or
 *     null when spec.lifecycle is absent
 * @param shutdownTime spec.lifecycle.shutdownTime, or null
 * @param ttlSecondsAfterFinished spec.lifecycle.ttlSecondsAfterFinished, or null
 */
public record ClaimView(
    ObjectRef ref,
    String uid,
    String resourceVersion,
    Instant createdAt,
    Instant firstObservedAt,
    Instant firstReadyAt,
    String warmPoolName,
    String sandboxName,
    boolean setsEnv,
    boolean setsVolumeClaimTemplates,
    String createdBy,
    ConditionView ready,
    ConditionView finished,
    String shutdownPolicy,
    Instant shutdownTime,
    Long ttlSecondsAfterFinished)
    implements ObjectView {
  public ClaimView {
    Objects.requireNonNull(ref, "ref");
  }

  public boolean isReady() {
    return ready != null && ready.isTrue();
  }

  /** Claim first seen: controller-first-observed-at, else creationTimestamp. */
  public Instant firstSeen() {
    return firstObservedAt != null ? firstObservedAt : createdAt;
  }

  /** Claim first Ready: claim-first-ready-at, else the Ready condition's transition time. */
  public Instant readyAt() {
    if (firstReadyAt != null) {
      return firstReadyAt;
    }
    return isReady() ? ready.lastTransitionTime() : null;
  }

  @Override
  public Kind kind() {
    return Kind.SANDBOX_CLAIM;
  }
}
