package org.sandboxslo.console.remediation;

import java.util.List;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;

/**
 * What plans read from the engine, and the controller-lite knob. Methods may block (the engine
 * thread is asked); call them on the remediation worker pool.
 */
public interface RemediationFleet {
  /** The engine's view of a pool, or null when unknown. */
  PoolState pool(ObjectRef pool);

  /** Open and recently closed findings. */
  List<FindingState> findings();

  /** Whether controller-lite runs in this process (SetRefillPacing is then a live knob). */
  boolean controllerLite();

  /**
   * Sets controller-lite's per-pool max refill rate.
   *
   * @throws IllegalStateException without controller-lite
   */
  void setMaxRefillRate(double perSecond);
}
