package org.sandboxslo.engine.remediation;

import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * A {@code SandboxWarmPool} and its Sandboxes at one instant, the input of the planner and of each
 * paced step. Built from the engine's view (planning) or from the Kubernetes API (right before each
 * step).
 *
 * @param pool namespace/name of the pool
 * @param templateName spec.sandboxTemplateRef.name
 * @param replicas spec.replicas, ≥ 0
 * @param updateStrategy spec.updateStrategy.type ({@code OnReplenish} or {@code Recreate})
 * @param members the pool's members (controller ownerReference → the pool, not deleting) and the
 *     Sandboxes adopted from it by claims ({@link PoolMember#claim()} set); sorted by name
 */
public record PoolState(
    ObjectRef pool,
    String templateName,
    int replicas,
    String updateStrategy,
    List<PoolMember> members) {
  public PoolState {
    Objects.requireNonNull(pool, "pool");
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
    }
    members = members.stream().sorted(java.util.Comparator.comparing(PoolMember::name)).toList();
  }

  /** Members owned by the pool. */
  public List<PoolMember> unclaimed() {
    return members.stream().filter(PoolMember::unclaimed).toList();
  }

  /** Pool-owned members with Ready=True (any template): what keeps the pool serving. */
  public int readyUnclaimed() {
    return (int) members.stream().filter(m -> m.unclaimed() && m.ready()).count();
  }

  /** Pool-owned Ready members built from the current template. */
  public int readyCurrentTemplate() {
    return (int) members.stream().filter(m -> m.unclaimed() && m.ready() && !m.stale()).count();
  }

  /** Pool-owned stale members, by name. */
  public List<String> staleUnclaimed() {
    return members.stream().filter(m -> m.unclaimed() && m.stale()).map(PoolMember::name).toList();
  }

  /** The member of that name, or null. */
  public PoolMember member(String name) {
    for (PoolMember m : members) {
      if (m.name().equals(name)) {
        return m;
      }
    }
    return null;
  }
}
