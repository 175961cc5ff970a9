package org.sandboxslo.engine.model;

import java.time.Instant;
import java.util.Objects;

/**
 * What the collector hands to the engine. A closed set; every variant carries {@code receivedAt},
 * the console's clock when the watch event arrived.
 */
public sealed interface FleetEvent {
  Instant receivedAt();

  /**
   * An object was added or modified (or re-listed). Idempotent: the engine ignores a view whose UID
   * and resourceVersion it has already applied.
   *
   * @param view the compact object
   * @param serverTime the newest server timestamp the object carries (creation, condition
   *     transitions, RFC3339Nano annotations), for watch lag; may be null
   * @param receivedAt console clock at arrival
   * @param listed delivered by an informer's (re-)list rather than by its watch: the object's age
   *     is not watch lag, and its change may have happened any time while nothing watched
   */
  record Upserted(ObjectView view, Instant serverTime, Instant receivedAt, boolean listed)
      implements FleetEvent {
    public Upserted {
      Objects.requireNonNull(view, "view");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /** A watch delivery (not flagged as listed; see the engine's initial-list rule). */
    public Upserted(ObjectView view, Instant serverTime, Instant receivedAt) {
      this(view, serverTime, receivedAt, false);
    }
  }

  /**
   * An object was deleted.
   *
   * @param kind its kind
   * @param ref namespace/name
   * @param uid metadata.uid
   * @param receivedAt console clock at arrival
   * @param finalStateUnknown the informer missed the delete and inferred it from a re-list (a
   *     tombstone): the object's last state is unknown, so it is not counted as claimed, expired,
   *     drained or unserved
   */
  record Deleted(
      Kind kind, ObjectRef ref, String uid, Instant receivedAt, boolean finalStateUnknown)
      implements FleetEvent {
    public Deleted {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /** A delete seen by the watch (final state known). */
    public Deleted(Kind kind, ObjectRef ref, String uid, Instant receivedAt) {
      this(kind, ref, uid, receivedAt, false);
    }
  }

  /**
   * The informer of a kind reported {@code hasSynced} (initial list done).
   *
   * @param kind the kind
   * @param receivedAt console clock
   */
  record Synced(Kind kind, Instant receivedAt) implements FleetEvent {
    public Synced {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }
}
