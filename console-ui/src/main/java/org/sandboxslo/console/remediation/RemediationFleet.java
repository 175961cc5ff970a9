package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import java.util.List;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;

/** What plans read from the engine, and the controller-lite knob. */
public interface RemediationFleet {
  /**
   * The engine's view of a pool (e.g. {@code EngineLoop.call(e -> e.poolState(ref))}), delivered on
   * the caller's Vert.x context; null inside the Future when the pool is unknown. Never blocks.
   */
  Future<PoolState> pool(ObjectRef pool);

  /** Open and recently closed findings (the latest published list; never blocks). */
  List<FindingState> findings();

  /** Whether controller-lite runs in this process (SetRefillPacing is then a live knob). */
  boolean controllerLite();

  /**
   * Sets controller-lite's per-pool max refill rate. Called on the remediation worker pool.
   *
   * @throws IllegalStateException without controller-lite
   */
  void setMaxRefillRate(double perSecond);
}
