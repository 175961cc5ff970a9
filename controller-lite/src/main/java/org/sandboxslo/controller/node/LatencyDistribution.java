package org.sandboxslo.controller.node;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A log-normal latency distribution given by its median and 95th percentile.
 *
 * <p>{@code ln X ~ N(mu, sigma)} with {@code mu = ln p50} and {@code sigma = (ln p95 - ln p50) /
 * 1.6448536}. A zero p50 means "no delay" (every sample is {@link Duration#ZERO}).
 *
 * @param p50 median, &gt;= 0
 * @param p95 95th percentile, &gt;= p50
 */
public record LatencyDistribution(Duration p50, Duration p95) {
  private static final double Z95 = 1.6448536269514722;

  public LatencyDistribution {
    Objects.requireNonNull(p50, "p50");
    Objects.requireNonNull(p95, "p95");
    if (p50.isNegative()) {
      throw new IllegalArgumentException("p50 must be >= 0, got " + p50);
    }
    if (p95.compareTo(p50) < 0) {
      throw new IllegalArgumentException("p95 must be >= p50, got p50=" + p50 + " p95=" + p95);
    }
  }

  /** Draws one latency from {@code random}; never negative, capped at 20 x p95. */
  public Duration sample(RandomGenerator random) {
    if (p50.isZero()) {
      return Duration.ZERO;
    }
    double median = p50.toNanos();
    double sigma = p95.equals(p50) ? 0 : (Math.log(p95.toNanos()) - Math.log(median)) / Z95;
    double nanos = Math.exp(Math.log(median) + sigma * random.nextGaussian());
    nanos = Math.min(nanos, 20.0 * p95.toNanos());
    return Duration.ofNanos((long) nanos);
  }
}
