package org.sandboxslo.store;

import java.time.Instant;
import java.util.Objects;

/**
 * The database as the health probe last saw it.
 *
 * @param up whether the last probe ({@code select 1}) answered
 * @param since when {@code up} last changed (the open time at first)
 * @param reason why it is down (see {@link StoreErrors#unavailable}), or {@code null} when up
 * @param restarts how often the embedded server was restarted after it died (0 for an external one)
 */
public record DatabaseStatus(boolean up, Instant since, String reason, long restarts) {
  public DatabaseStatus {
    Objects.requireNonNull(since, "since");
    if (up != (reason == null)) {
      throw new IllegalArgumentException("a reason is given exactly when the database is down");
    }
    if (restarts < 0) {
      throw new IllegalArgumentException("restarts must be >= 0, got " + restarts);
    }
  }
}
