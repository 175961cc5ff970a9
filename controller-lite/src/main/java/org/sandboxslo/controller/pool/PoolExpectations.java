package org.sandboxslo.controller.pool;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Mutable, thread-safe per-pool expectations: creates are counted, deletes tracked by uid. The
 * informer callbacks report observations; the pool reconciler reads a {@link ExpectationsView}.
 */
public final class PoolExpectations {
  private int pendingCreates;
  private final Set<String> pendingDeletes = new HashSet<>();
  private Instant since;

  /** Records creates/deletes about to be issued. */
  public synchronized void expect(int creates, Collection<String> deleteUids, Instant now) {
    if (creates < 0) {
      throw new IllegalArgumentException("creates must be >= 0, got " + creates);
    }
    if (creates == 0 && deleteUids.isEmpty()) {
      return;
    }
    pendingCreates += creates;
    pendingDeletes.addAll(deleteUids);
    since = now;
  }

  /** A create was observed by the informer (or failed and will never be observed). */
  public synchronized void creationObserved() {
    if (pendingCreates > 0) {
      pendingCreates--;
    }
    clearIfDone();
  }

  /** A delete of {@code uid} was observed (or failed). */
  public synchronized void deletionObserved(String uid) {
    pendingDeletes.remove(uid);
    clearIfDone();
  }

  private void clearIfDone() {
    if (pendingCreates == 0 && pendingDeletes.isEmpty()) {
      since = null;
    }
  }

  /** The current snapshot. */
  public synchronized ExpectationsView view() {
    return new ExpectationsView(pendingCreates, pendingDeletes.size(), since);
  }
}
