package org.sandboxslo.console.remediation;

/**
 * A step or the end of a plan was not started because this process received a cancel of the plan
 * ({@link PlanExecutor#requestCancel}) that the database has not confirmed yet; the executor then
 * stores the cancel itself. Neither a step failure nor a retry. Carries no stack trace.
 */
final class CancelReceived extends RuntimeException {
  CancelReceived(String reason) {
    super(reason, null, false, false);
  }
}
