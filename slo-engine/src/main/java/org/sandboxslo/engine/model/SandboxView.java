package org.sandboxslo.engine.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A {@code Sandbox} (agents.x-k8s.io/v1beta1), trimmed.
 *
 * @param ref namespace/name
 * @param uid metadata.uid
 * @param resourceVersion metadata.resourceVersion
 * @param createdAt metadata.creationTimestamp (server time, 1 s resolution); may be null
 * @param owner the controller ownerReference, or null (a bare Sandbox)
 * @param launchType label {@code agents.x-k8s.io/launch-type}: {@code warm}, {@code cold} or null
 * @param createdBy label {@code agents.x-k8s.io/created-by}, or null
 * @param templateName annotation {@code agents.x-k8s.io/sandbox-template-ref}, or null
 * @param warmPoolHash label {@code agents.x-k8s.io/warm-pool-sandbox} (NameHash of the pool), or
 *     null
 * @param claimUid label {@code agents.x-k8s.io/claim-uid}, or null
 * @param blueprintDigest semantic digest of spec (pod spec after secure defaults, volume claim
 *     templates, service)
 * @param operatingMode spec.operatingMode, {@code Running} (default) or {@code Suspended}
 * @param ready the {@code Ready} condition, or null
 * @param suspended the {@code Suspended} condition, or null
 * @param podScheduled the {@code PodScheduled} condition, or null
 * @param shutdownTime spec.shutdownTime, or null
 * @param deleting metadata.deletionTimestamp is set
 * @param templateHashLabel label {@code agents.x-k8s.io/sandbox-template-hash} (upstream's
 *     blueprint hash, a staleness hint only), or null
 * @param images container images of spec.podTemplate.spec, for evidence
 * @param blueprint canonical blueprint ({@link
 *     org.sandboxslo.engine.upstream.Blueprints#canonical}), shared between members with the same
 *     digest; may be null when not kept
 * @param reservedKeys reserved {@code agents.x-k8s.io/*} keys on metadata and pod template
 *     metadata; empty when none
 */
public record SandboxView(
    ObjectRef ref,
    String uid,
    String resourceVersion,
    Instant createdAt,
    OwnerView owner,
    String launchType,
    String createdBy,
    String templateName,
    String warmPoolHash,
    String claimUid,
    String blueprintDigest,
    String operatingMode,
    ConditionView ready,
    ConditionView suspended,
    ConditionView podScheduled,
    Instant shutdownTime,
    boolean deleting,
    String templateHashLabel,
    java.util.List<String> images,
    java.util.Map<String, Object> blueprint,
    java.util.List<ReservedKey> reservedKeys)
    implements ObjectView {
  /** Without hash label, images, blueprint and reserved keys. */
  public SandboxView(
      ObjectRef ref,
      String uid,
      String resourceVersion,
      Instant createdAt,
      OwnerView owner,
      String launchType,
      String createdBy,
      String templateName,
      String warmPoolHash,
      String claimUid,
      String blueprintDigest,
      String operatingMode,
      ConditionView ready,
      ConditionView suspended,
      ConditionView podScheduled,
      Instant shutdownTime,
      boolean deleting) {
    this(
        ref,
        uid,
        resourceVersion,
        createdAt,
        owner,
        launchType,
        createdBy,
        templateName,
        warmPoolHash,
        claimUid,
        blueprintDigest,
        operatingMode,
        ready,
        suspended,
        podScheduled,
        shutdownTime,
        deleting,
        null,
        java.util.List.of(),
        null,
        java.util.List.of());
  }

  public SandboxView {
    Objects.requireNonNull(ref, "ref");
    images = images == null ? java.util.List.of() : java.util.List.copyOf(images);
    reservedKeys = reservedKeys == null ? java.util.List.of() : java.util.List.copyOf(reservedKeys);
    operatingMode = operatingMode == null ? "Running" : operatingMode;
  }

  public boolean isReady() {
    return ready != null && ready.isTrue();
  }

  /** Owned (controller ownerReference) by the given pool. */
  public boolean ownedByPool(String poolName) {
    return owner != null && "SandboxWarmPool".equals(owner.kind()) && owner.name().equals(poolName);
  }

  @Override
  public Kind kind() {
    return Kind.SANDBOX;
  }
}
