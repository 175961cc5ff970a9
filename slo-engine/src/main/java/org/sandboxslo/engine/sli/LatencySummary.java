package org.sandboxslo.engine.sli;

import java.time.Duration;
import java.util.Objects;

/**
 * Quantiles of a latency distribution from an HdrHistogram sketch (2 significant digits, i.e. at
 * most 1 % relative error; values recorded in microseconds). Only built when {@code count > 0}: an
 * empty window is represented by a {@code null} summary, never by zeros.
 *
 * @param count samples, ≥ 1
 * @param p50 median
 * @param p95 95th percentile
 * @param p99 99th percentile
 * @param max largest sample (within sketch precision)
 */
public record LatencySummary(long count, Duration p50, Duration p95, Duration p99, Duration max) {
  public LatencySummary {
    if (count < 1) {
      throw new IllegalArgumentException("count must be >= 1, got " + count);
    }
    Objects.requireNonNull(p50, "p50");
    Objects.requireNonNull(p95, "p95");
    Objects.requireNonNull(p99, "p99");
    Objects.requireNonNull(max, "max");
  }
}
