package org.sandboxslo.store;

/**
 * The database could not be reached or did not answer in time (connection refused or closed, a
 * connect, pool or statement timeout, a server shutting down or starting up). The message is one
 * line without host names or addresses, fit for an HTTP 503 body. Carries no stack trace.
 */
public final class StoreUnavailableException extends RuntimeException {
  /**
   * @param reason what happened, e.g. {@code connection refused}
   */
  public StoreUnavailableException(String reason) {
    super("database unavailable: " + reason, null, false, false);
  }
}
