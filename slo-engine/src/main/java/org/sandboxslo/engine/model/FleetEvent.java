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
   */
  record Upserted(ObjectView view, Instant serverTime, Instant receivedAt) implements FleetEvent {
    public Upserted {
      Objects.requireNonNull(view, "view");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  /**
   * An object was deleted.
   *
   * @param kind its kind
   * @param ref namespace/name
   * @param uid metadata.uid
   * @param receivedAt console clock at arrival
   */
  record Deleted(Kind kind, ObjectRef ref, String uid, Instant receivedAt) implements FleetEvent {
    public Deleted {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(receivedAt, "receivedAt");
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
