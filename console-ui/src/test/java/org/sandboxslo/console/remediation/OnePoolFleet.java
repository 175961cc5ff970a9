package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import java.util.List;
import java.util.function.DoubleConsumer;
import java.util.function.IntSupplier;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;

/**
 * The engine's view for plan tests: one pool (namespace/name) of template node-runtime with
 * OnReplenish and no members listed, its replicas read at each call; every other pool is unknown;
 * no findings; controller-lite runs in the process and its refill knob goes to {@code
 * setMaxRefillRate}.
 */
final class OnePoolFleet implements RemediationFleet {
  private final String pool;
  private final IntSupplier replicas;
  private final DoubleConsumer setMaxRefillRate;

  OnePoolFleet(String pool, IntSupplier replicas, DoubleConsumer setMaxRefillRate) {
    this.pool = pool;
    this.replicas = replicas;
    this.setMaxRefillRate = setMaxRefillRate;
  }

  @Override
  public Future<PoolState> pool(ObjectRef ref) {
    return Future.succeededFuture(
        ref.toString().equals(pool)
            ? new PoolState(ref, "node-runtime", replicas.getAsInt(), "OnReplenish", List.of())
            : null);
  }

  @Override
  public List<FindingState> findings() {
    return List.of();
  }

  @Override
  public boolean controllerLite() {
    return true;
  }

  @Override
  public void setMaxRefillRate(double perSecond) {
    setMaxRefillRate.accept(perSecond);
  }
}
