package org.sandboxslo.controller.pool;

/**
 * {@code SandboxWarmPool.status} as written by the controller.
 *
 * @param replicas active members (not deleting), &gt;= 0
 * @param readyReplicas members with Ready=True, &gt;= 0
 * @param selector {@code agents.x-k8s.io/warm-pool-sandbox=<NameHash(pool)>}
 * @param observedGeneration the pool's {@code metadata.generation}
 */
public record PoolStatus(
    int replicas, int readyReplicas, String selector, long observedGeneration) {
  public PoolStatus {
    if (replicas < 0 || readyReplicas < 0) {
      throw new IllegalArgumentException(
          "replicas must be >= 0, got " + replicas + "/" + readyReplicas);
    }
  }
}
