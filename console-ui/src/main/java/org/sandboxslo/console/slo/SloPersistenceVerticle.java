package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.Objects;
import org.sandboxslo.console.leader.Leadership;

/**
 * Writes the budget history of every registered SLO ({@link SloHistory#persist}) every {@code
 * sloconsole.slo.persist-interval}, and once more when undeployed (undeploy it before closing the
 * store). A failed write WARNs and is retried on the next tick; it never fails the undeploy. With
 * several replicas on one database only the {@link Leadership leader} writes: a replica that does
 * not lead writes nothing (its budgets are still evaluated in memory for reads), and one that gains
 * the leadership writes from its next tick on.
 */
public final class SloPersistenceVerticle extends VerticleBase {
  private final SloRegistry registry;
  private final SloHistory history;
  private final Leadership leadership;
  private long timer = -1;

  public SloPersistenceVerticle(SloRegistry registry, SloHistory history) {
    this(registry, history, Leadership.ALWAYS);
  }

  /**
   * @param leadership writes only while this process leads
   */
  public SloPersistenceVerticle(SloRegistry registry, SloHistory history, Leadership leadership) {
    this.leadership = Objects.requireNonNull(leadership, "leadership");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.history = Objects.requireNonNull(history, "history");
  }

  @Override
  public Future<?> start() {
    timer = vertx.setPeriodic(registry.settings().persistInterval().toMillis(), id -> persistNow());
    return Future.succeededFuture();
  }

  /**
   * Writes the changed buckets now.
   *
   * @return buckets written (0 on a replica that does not lead); fails when the store cannot be
   *     written
   */
  public Future<Integer> persistNow() {
    if (!leadership.isLeader()) {
      return Future.succeededFuture(0);
    }
    return history.persist(registry.registered().values(), registry.settings().period());
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return persistNow().recover(e -> Future.succeededFuture(0));
  }
}
