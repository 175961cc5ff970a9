package org.sandboxslo.engine.sli;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.model.Kind;

/**
 * Everything the engine knows at {@code at}: SLIs per template, pool and namespace, informer sync
 * state and watch lag.
 *
 * @param at the snapshot time (the injected clock)
 * @param templates one per template seen or referenced, sorted by namespace/name
 * @param pools one per pool, sorted
 * @param namespaces one per namespace with a template or pool, sorted
 * @param synced per kind, whether its informer has reported an initial sync
 * @param watchLag per kind, the lag (receive time − newest server time on the object) of the last
 *     event that carried a new server time, and the largest in the last 5 minutes
 */
public record FleetSnapshot(
    Instant at,
    List<SliSnapshot> templates,
    List<SliSnapshot> pools,
    List<SliSnapshot> namespaces,
    Map<Kind, Boolean> synced,
    Map<Kind, WatchLag> watchLag) {
  public FleetSnapshot {
    templates = List.copyOf(templates);
    pools = List.copyOf(pools);
    namespaces = List.copyOf(namespaces);
    synced = Map.copyOf(synced);
    watchLag = Map.copyOf(watchLag);
  }

  /** True when every kind's informer has synced. */
  public boolean allSynced() {
    for (Kind k : Kind.values()) {
      if (!Boolean.TRUE.equals(synced.get(k))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Watch lag of one kind.
   *
   * @param last lag of the last event that carried a newer server time
   * @param max5m largest lag seen in the last 5 minutes
   */
  public record WatchLag(Duration last, Duration max5m) {}
}
