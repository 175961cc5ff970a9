package org.sandboxslo.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One stored SLI value.
 *
 * @param at the snapshot time the value was computed for
 * @param value the SLI value in its base unit (ratio, count or seconds, see {@link SliName});
 *     {@code null} means "no data" in that window, never NaN
 */
public record HistoryPoint(Instant at, Double value) {
  public HistoryPoint {
    Objects.requireNonNull(at, "at");
    if (value != null && !Double.isFinite(value)) {
      throw new IllegalArgumentException("value must be finite or null, got " + value);
    }
  }
}
