package org.sandboxslo.controller.pool;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * Everything the pool decision needs, read from the informer caches.
 *
 * @param pool the pool
 * @param generation pool {@code metadata.generation}
 * @param replicas {@code spec.replicas} (default 1), &gt;= 0
 * @param templateDigest {@code Blueprints.digest} of the template spec; null when the template
 *     ({@code spec.sandboxTemplateRef.name}) does not exist
 * @param strategy {@code spec.updateStrategy.type}
 * @param members current members (copied)
 * @param terminating members already being deleted (deletionTimestamp set), &gt;= 0
 * @param expectations in-flight creates/deletes
 * @param tokens refill tokens available (+infinity when unpaced)
 * @param refillRate current max refill rate, sandboxes/s, 0 = unpaced
 * @param currentStatus the status now on the pool; null when none
 * @param now the time of the decision
 */
public record PoolInput(
    ObjectRef pool,
    long generation,
    int replicas,
    String templateDigest,
    UpdateStrategy strategy,
    List<Member> members,
    int terminating,
    ExpectationsView expectations,
    double tokens,
    double refillRate,
    PoolStatus currentStatus,
    Instant now) {
  public PoolInput {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(expectations, "expectations");
    Objects.requireNonNull(now, "now");
    if (replicas < 0) {
      throw new IllegalArgumentException(
          "pool " + pool + ": spec.replicas must be >= 0, got " + replicas);
    }
    members = List.copyOf(members);
  }
}
