package org.sandboxslo.engine.scrape;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One sample of the Prometheus text exposition format.
 *
 * @param name metric name including suffixes such as {@code _total}, {@code _bucket}
 * @param labels label set, sorted by name (copied)
 * @param value the value; may be {@code +Inf}, {@code -Inf} or NaN as exposed
 */
public record Sample(String name, Map<String, String> labels, double value) {
  public Sample {
    Objects.requireNonNull(name, "name");
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
  }

  /** {@code name{a="1",b="2"}}: a stable series identity. */
  public String seriesId() {
    StringBuilder sb = new StringBuilder(name).append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : labels.entrySet()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      sb.append(e.getKey()).append("=\"").append(e.getValue()).append('"');
    }
    return sb.append('}').toString();
  }
}
