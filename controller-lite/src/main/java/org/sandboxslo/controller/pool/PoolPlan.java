package org.sandboxslo.controller.pool;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What one pool pass should do; applied by {@code PoolExecutor}.
 *
 * @param creates members to create (in slow-start batches 1, 2, 4, ...), &gt;= 0
 * @param deletes members to delete, with the reason of each
 * @param status the status to write; null when unchanged
 * @param requeueAfter when to look again; null for "on the next event"
 * @param blocked why creates/deletes were held back (for logs), or null
 */
public record PoolPlan(
    int creates, List<Delete> deletes, PoolStatus status, Duration requeueAfter, String blocked) {
  public PoolPlan {
    if (creates < 0) {
      throw new IllegalArgumentException("creates must be >= 0, got " + creates);
    }
    deletes = List.copyOf(deletes);
  }

  /** Why a member is deleted. */
  public enum DeleteReason {
    /** Not Ready for longer than the readiness grace period. */
    NOT_READY_PAST_GRACE,
    /** Blueprint differs from the template under {@code Recreate}. */
    STALE,
    /** More members than {@code spec.replicas}. */
    EXCESS
  }

  /**
   * One member to delete.
   *
   * @param member the member
   * @param reason why
   */
  public record Delete(Member member, DeleteReason reason) {
    public Delete {
      Objects.requireNonNull(member, "member");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
