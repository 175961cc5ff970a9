package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.Objects;

/**
 * Writes the budget history of every registered SLO ({@link SloHistory#persist}) every {@code
 * sloconsole.slo.persist-interval}, and once more when undeployed (undeploy it before closing the
 * store). A failed write WARNs and is retried on the next tick; it never fails the undeploy.
 */
public final class SloPersistenceVerticle extends VerticleBase {
  private final SloRegistry registry;
  private final SloHistory history;
  private long timer = -1;

  public SloPersistenceVerticle(SloRegistry registry, SloHistory history) {
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
   * @return buckets written; fails when the store cannot be written
   */
  public Future<Integer> persistNow() {
    return history.persist(registry.registered().values(), registry.settings().period());
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return persistNow().recover(e -> Future.succeededFuture(0));
  }
}
