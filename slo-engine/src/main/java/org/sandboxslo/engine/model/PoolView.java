package org.sandboxslo.engine.model;

import java.util.Objects;

/**
 * A {@code SandboxWarmPool} (extensions.agents.x-k8s.io/v1beta1).
 *
 * @param ref namespace/name
 * @param uid metadata.uid
 * @param resourceVersion metadata.resourceVersion
 * @param generation metadata.generation
 * @param templateName spec.sandboxTemplateRef.name (same namespace)
 * @param replicas spec.replicas, default 1, ≥ 0
 * @param updateStrategy spec.updateStrategy.type: {@code OnReplenish} (default, also for unknown
 *     values) or {@code Recreate}
 * @param statusReplicas status.replicas, null when the controller has written no status yet
 * @param statusReadyReplicas status.readyReplicas, null when absent
 */
public record PoolView(
    ObjectRef ref,
    String uid,
    String resourceVersion,
    long generation,
    String templateName,
    int replicas,
    String updateStrategy,
    Integer statusReplicas,
    Integer statusReadyReplicas)
    implements ObjectView {
  public PoolView {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(templateName, "templateName");
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
    }
    updateStrategy = "Recreate".equals(updateStrategy) ? "Recreate" : "OnReplenish";
  }

  @Override
  public Kind kind() {
    return Kind.SANDBOX_WARM_POOL;
  }
}
