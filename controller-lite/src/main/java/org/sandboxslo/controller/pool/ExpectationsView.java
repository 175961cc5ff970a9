package org.sandboxslo.controller.pool;

import java.time.Duration;
import java.time.Instant;

/**
 * A snapshot of a pool's in-flight expectations (upstream {@code warmpool_expectations.go}).
 *
 * @param pendingCreates creates issued but not yet seen by the informer, &gt;= 0
 * @param pendingDeletes deletes (by uid) issued but not yet seen, &gt;= 0
 * @param since when the current expectations were set; null when none are pending
 */
public record ExpectationsView(int pendingCreates, int pendingDeletes, Instant since) {
  public static final ExpectationsView NONE = new ExpectationsView(0, 0, null);

  public ExpectationsView {
    if (pendingCreates < 0 || pendingDeletes < 0) {
      throw new IllegalArgumentException(
          "pending counts must be >= 0, got creates="
              + pendingCreates
              + " deletes="
              + pendingDeletes);
    }
    if ((pendingCreates > 0 || pendingDeletes > 0) && since == null) {
      throw new IllegalArgumentException("pending expectations need a 'since' time");
    }
  }

  /** True when nothing is pending, or the pending expectations are older than {@code timeout}. */
  public boolean satisfied(Instant now, Duration timeout) {
    if (pendingCreates == 0 && pendingDeletes == 0) {
      return true;
    }
    return !now.isBefore(since.plus(timeout));
  }
}
