package org.sandboxslo.console.remediation;

import org.sandboxslo.store.PlanRow;

/**
 * Told when a plan starts executing and when it ends, e.g. to silence the alerts a plan is expected
 * to trip while it runs. Called on a Vert.x context: implementations must not block and should
 * return at once (start asynchronous work and log its failure themselves); an exception is logged
 * and ignored.
 */
public interface PlanListener {
  /** {@code plan} is now {@code executing} (after an execute; not again when resumed). */
  default void executing(PlanRow plan) {}

  /**
   * {@code plan} has ended.
   *
   * @param plan the plan as it was just before it ended
   * @param state {@code succeeded}, {@code failed} or {@code cancelled}
   */
  default void finished(PlanRow plan, PlanState state) {}
}
