package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Tells a database that is unavailable (retry later: HTTP 503) from a statement the database
 * refused (a bug or bad data). Walks the cause chain of vertx-pg-client failures:
 *
 * <ul>
 *   <li>SQLSTATE class {@code 08} (connection exception), {@code 57P01..57P03} (shutting down,
 *       crashed, starting up), {@code 57014} (statement timeout), {@code 55P03} (lock timeout),
 *       {@code 53300} (too many connections)
 *   <li>a closed connection, a refused or reset TCP connection, a connect timeout, no pooled
 *       connection within the connect timeout, the client-side deadline
 * </ul>
 */
public final class StoreErrors {
  /** The message of vertx-sql-client's failure when no pooled connection came in time. */
  static final String POOL_TIMEOUT = "Timeout waiting for connection";

  private StoreErrors() {}

  /**
   * Why the database is unavailable, as a short phrase without host names; empty when {@code t} is
   * not an availability failure (or null).
   */
  public static Optional<String> unavailable(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof StoreUnavailableException s) {
        return Optional.of(s.getMessage().substring("database unavailable: ".length()));
      }
      if (c instanceof DatabaseException d && d.getSqlState() != null) {
        String state = d.getSqlState();
        if (state.startsWith("08")) {
          return Optional.of("connection failed (SQLSTATE " + state + ")");
        }
        switch (state) {
          case "57P01", "57P02" -> {
            return Optional.of("the server is shutting down");
          }
          case "57P03" -> {
            return Optional.of("the server is starting up");
          }
          case "57014" -> {
            return Optional.of("statement timeout");
          }
          case "55P03" -> {
            return Optional.of("lock timeout");
          }
          case "53300" -> {
            return Optional.of("too many connections");
          }
          default -> {
            // a refused statement: not an availability problem
          }
        }
      }
      if (c instanceof VertxException && POOL_TIMEOUT.equals(c.getMessage())) {
        return Optional.of("no connection within the connect timeout");
      }
      if (c instanceof ClosedConnectionException) {
        return Optional.of("connection closed");
      }
      if (c instanceof ConnectException) {
        return Optional.of("connection refused");
      }
      if (c instanceof TimeoutException) {
        return Optional.of("timed out");
      }
      if (c instanceof IOException) {
        return Optional.of("connection lost");
      }
    }
    return Optional.empty();
  }

  /**
   * Whether {@code t} comes from the database rather than from the work around it: unavailable (see
   * {@link #unavailable}) or a statement the database refused (any {@link DatabaseException} in the
   * cause chain, e.g. a failing trigger).
   */
  public static boolean fromDatabase(Throwable t) {
    if (unavailable(t).isPresent()) {
      return true;
    }
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof DatabaseException) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code f} with a client-side deadline, and with an availability failure replaced by a {@link
   * StoreUnavailableException} (other failures unchanged). The deadline bounds the wait on a frozen
   * server, which keeps the TCP connection open and never answers; the statement itself may still
   * run when the server resumes (it is bounded there by {@code statement_timeout}).
   *
   * @param deadline how long to wait at most, &gt; 0
   */
  public static <T> Future<T> guard(Future<T> f, Duration deadline) {
    return f.timeout(deadline.toMillis(), TimeUnit.MILLISECONDS)
        .recover(
            e ->
                Future.failedFuture(
                    unavailable(e).<Throwable>map(StoreUnavailableException::new).orElse(e)));
  }
}
