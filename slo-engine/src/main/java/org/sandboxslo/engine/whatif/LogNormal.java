package org.sandboxslo.engine.whatif;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A latency distribution given as the observed p50 and p95, modelled log-normal: μ = ln p50, σ =
 * (ln p95 − ln p50) / 1.6449 (the standard normal's 95th percentile). When p95 = p50 it is that
 * constant.
 *
 * @param p50 median, &gt; 0
 * @param p95 95th percentile, ≥ p50
 */
public record LogNormal(Duration p50, Duration p95) {
  static final double Z95 = 1.6448536269514722;

  public LogNormal {
    Objects.requireNonNull(p50, "p50");
    Objects.requireNonNull(p95, "p95");
    if (p50.isZero() || p50.isNegative()) {
      throw new IllegalArgumentException("p50 must be > 0, got " + p50);
    }
    if (p95.compareTo(p50) < 0) {
      throw new IllegalArgumentException("p95 must be >= p50 (" + p50 + "), got " + p95);
    }
  }

  /** The constant {@code d}. */
  public static LogNormal constant(Duration d) {
    return new LogNormal(d, d);
  }

  /** σ of the underlying normal (0 for a constant). */
  double sigma() {
    return (Math.log(p95.toNanos()) - Math.log(p50.toNanos())) / Z95;
  }

  /** One draw, in nanoseconds. */
  long sampleNanos(SplittableRandom rnd) {
    double sigma = sigma();
    if (sigma == 0) {
      return p50.toNanos();
    }
    return Math.round(Math.exp(Math.log(p50.toNanos()) + sigma * gaussian(rnd)));
  }

  /** Box–Muller: one standard normal draw. */
  private static double gaussian(SplittableRandom rnd) {
    double u1 = 1 - rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
