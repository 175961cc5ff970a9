package org.sandboxslo.engine.remediation;

import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * A paced Recreate of a pool's stale members: which members are deleted in which batch, and the
 * predicted effect on the pool's SLIs. Upstream {@code Recreate} deletes every stale member in one
 * pass (agent-sandbox#426); this plan deletes at most {@code maxUnavailable} at a time and waits
 * for the replacements.
 *
 * @param pool namespace/name of the pool
 * @param replicas spec.replicas when planned
 * @param maxUnavailable members deleted per batch, max(1, floor(fraction × replicas)), ≥ 1
 * @param floorReady the pool keeps at least this many Ready members throughout (replicas −
 *     maxUnavailable, not below 0)
 * @param batches the stale unclaimed members to delete, batch by batch, each of at most
 *     maxUnavailable names; empty when nothing is stale
 * @param untouched Sandboxes adopted from the pool by claims ({@code name (claim c)}), never
 *     deleted
 * @param staleBefore stale unclaimed members when planned (predicted after: 0)
 * @param readyBefore Ready pool-owned members when planned
 * @param readyCurrentTemplateBefore Ready pool-owned members on the current template when planned
 *     (predicted after: replicas)
 */
public record RecreatePlan(
    ObjectRef pool,
    int replicas,
    int maxUnavailable,
    int floorReady,
    List<List<String>> batches,
    List<String> untouched,
    int staleBefore,
    int readyBefore,
    int readyCurrentTemplateBefore) {
  public RecreatePlan {
    Objects.requireNonNull(pool, "pool");
    if (maxUnavailable < 1) {
      throw new IllegalArgumentException("maxUnavailable must be >= 1, got " + maxUnavailable);
    }
    batches = batches.stream().map(List::copyOf).toList();
    for (List<String> b : batches) {
      if (b.isEmpty() || b.size() > maxUnavailable) {
        throw new IllegalArgumentException(
            "batch size must be 1.." + maxUnavailable + ", got " + b.size());
      }
    }
    untouched = List.copyOf(untouched);
  }

  /** Every member the plan deletes, in order. */
  public List<String> targets() {
    return batches.stream().flatMap(List::stream).toList();
  }

  /** The floor as a fraction of replicas (1.0 for an empty pool). */
  public double floorFraction() {
    return replicas == 0 ? 1.0 : (double) floorReady / replicas;
  }
}
