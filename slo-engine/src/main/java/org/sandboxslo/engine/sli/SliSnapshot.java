package org.sandboxslo.engine.sli;

import java.util.List;
import java.util.Objects;

/**
 * All SLIs of one subject at one instant.
 *
 * @param key the subject
 * @param exists the subject object exists (a template referenced by a pool may be missing); always
 *     true for namespaces
 * @param related pool names (template scope), the template name (pool scope) or template names
 *     (namespace scope); sorted
 * @param pool the pool gauge, summed over related pools
 * @param windows one entry per configured window, in configured order
 * @param totals cumulative counts since start
 */
public record SliSnapshot(
    SliKey key,
    boolean exists,
    List<String> related,
    PoolGauge pool,
    List<WindowSlis> windows,
    Totals totals) {
  public SliSnapshot {
    Objects.requireNonNull(key, "key");
    related = List.copyOf(related);
    windows = List.copyOf(windows);
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(totals, "totals");
  }
}
