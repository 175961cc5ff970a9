package org.sandboxslo.controller.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.engine.upstream.NameHash;

/**
 * The pure warm-pool decision (upstream {@code sandboxwarmpool_controller.go}, reference §c):
 *
 * <ol>
 *   <li>Not-Ready members older than the readiness grace period are deleted; under {@code Recreate}
 *       every unclaimed stale member (semantic blueprint digest differs from the template) is
 *       deleted in the same pass. A pass that deletes does not create.
 *   <li>Expectations gate: while issued creates/deletes are unobserved (and younger than the
 *       timeout), nothing is created and no excess is deleted; requeue at the fallback interval or
 *       at expiry, whichever is first.
 *   <li>Creates while active + terminating &lt; replicas, at most {@code maxBatchSize} per pass and
 *       at most the refill tokens available; excess deletes prefer not-Ready, then newest.
 * </ol>
 *
 * Reserved members (being adopted by a claim) are never deleted.
 *
 * @param maxBatchSize max creates/deletes per pass, &gt;= 1
 * @param readinessGracePeriod not-Ready members older than this are replaced
 * @param expectationsTimeout expectations older than this stop gating
 * @param expectationsRequeue fallback requeue while gated
 */
public record PoolDecision(
    int maxBatchSize,
    Duration readinessGracePeriod,
    Duration expectationsTimeout,
    Duration expectationsRequeue) {

  /** Requeue while the template is missing. */
  public static final Duration TEMPLATE_MISSING_REQUEUE = Duration.ofSeconds(10);

  public PoolDecision {
    if (maxBatchSize < 1) {
      throw new IllegalArgumentException("max batch size must be >= 1, got " + maxBatchSize);
    }
    Objects.requireNonNull(readinessGracePeriod, "readinessGracePeriod");
    Objects.requireNonNull(expectationsTimeout, "expectationsTimeout");
    Objects.requireNonNull(expectationsRequeue, "expectationsRequeue");
  }

  /** The selector the pool status advertises (scale subresource). */
  public static String selector(String poolName) {
    return Labels.WARM_POOL_SANDBOX + "=" + NameHash.of(poolName);
  }

  /** Decides one pass. Never throws for a well-formed input. */
  public PoolPlan decide(PoolInput in) {
    List<Member> active = in.members().stream().filter(m -> !m.deleting()).toList();
    int ready = (int) active.stream().filter(Member::ready).count();
    PoolStatus status =
        new PoolStatus(active.size(), ready, selector(in.pool().name()), in.generation());
    PoolStatus statusChange = status.equals(in.currentStatus()) ? null : status;

    List<PoolPlan.Delete> deletes = new ArrayList<>();
    for (Member m : active) {
      if (m.reserved()) {
        continue;
      }
      if (!m.ready()
          && m.created() != null
          && !in.now().isBefore(m.created().plus(readinessGracePeriod))) {
        deletes.add(new PoolPlan.Delete(m, PoolPlan.DeleteReason.NOT_READY_PAST_GRACE));
      } else if (in.strategy() == UpdateStrategy.RECREATE
          && in.templateDigest() != null
          && !in.templateDigest().equals(m.blueprintDigest())) {
        deletes.add(new PoolPlan.Delete(m, PoolPlan.DeleteReason.STALE));
      }
    }
    if (!deletes.isEmpty()) {
      return new PoolPlan(0, deletes, statusChange, expectationsRequeue, null);
    }
    if (in.templateDigest() == null) {
      return new PoolPlan(
          0, List.of(), statusChange, TEMPLATE_MISSING_REQUEUE, "template not found");
    }
    if (!in.expectations().satisfied(in.now(), expectationsTimeout)) {
      Duration untilExpiry =
          Duration.between(in.now(), in.expectations().since().plus(expectationsTimeout));
      Duration requeue =
          untilExpiry.compareTo(expectationsRequeue) < 0 ? untilExpiry : expectationsRequeue;
      return new PoolPlan(
          0,
          List.of(),
          statusChange,
          requeue,
          "Skipping sandbox creation: waiting for in-flight creates/deletes to be observed");
    }
    int deficit = in.replicas() - active.size() - in.terminating();
    if (deficit > 0) {
      int n = Math.min(deficit, maxBatchSize);
      Duration requeue = null;
      String blocked = null;
      if (in.refillRate() > 0 && in.tokens() < n) {
        int allowed = (int) Math.floor(in.tokens());
        double missing = allowed + 1 - in.tokens(); // until the next whole token
        requeue = Duration.ofNanos((long) Math.ceil(missing / in.refillRate() * 1e9));
        blocked = allowed == 0 ? "refill rate limit" : null;
        n = allowed;
      }
      return new PoolPlan(n, List.of(), statusChange, requeue, blocked);
    }
    if (deficit < 0 && active.size() > in.replicas()) {
      int excess = Math.min(active.size() - in.replicas(), maxBatchSize);
      List<Member> order =
          active.stream()
              .filter(m -> !m.reserved())
              .sorted(
                  Comparator.comparing(Member::ready)
                      .thenComparing(
                          Member::created, Comparator.nullsLast(Comparator.reverseOrder())))
              .toList();
      for (int i = 0; i < excess && i < order.size(); i++) {
        deletes.add(new PoolPlan.Delete(order.get(i), PoolPlan.DeleteReason.EXCESS));
      }
      return new PoolPlan(0, deletes, statusChange, null, null);
    }
    return new PoolPlan(0, List.of(), statusChange, null, null);
  }
}
