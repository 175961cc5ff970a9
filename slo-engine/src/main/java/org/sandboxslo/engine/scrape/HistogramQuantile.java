package org.sandboxslo.engine.scrape;

import java.util.List;
import java.util.Objects;

/**
 * Prometheus' {@code histogram_quantile} on cumulative bucket counts (usually bucket deltas over a
 * window): linear interpolation inside the bucket that holds the rank; the lowest bucket
 * interpolates from 0.
 */
public final class HistogramQuantile {
  private HistogramQuantile() {}

  /**
   * One cumulative bucket.
   *
   * @param le upper bound; {@code Double.POSITIVE_INFINITY} for {@code +Inf}
   * @param count cumulative count ≤ le
   */
  public record Bucket(double le, double count) {}

  /**
   * A quantile estimate.
   *
   * @param value the estimate in the buckets' unit
   * @param lowerBound true when the rank fell into {@code +Inf}: the true value is greater than
   *     {@code value} (the highest finite bound), shown as "&gt; value"
   */
  public record Estimate(double value, boolean lowerBound) {}

  /**
   * @param q quantile in [0, 1]
   * @param buckets sorted by {@code le}, last one {@code +Inf}
   * @return null when the total count is 0 (no data)
   * @throws IllegalArgumentException for q outside [0,1] or buckets without a final {@code +Inf}
   */
  public static Estimate of(double q, List<Bucket> buckets) {
    Objects.requireNonNull(buckets, "buckets");
    if (q < 0 || q > 1 || Double.isNaN(q)) {
      throw new IllegalArgumentException("quantile must be in [0, 1], got " + q);
    }
    if (buckets.isEmpty() || buckets.get(buckets.size() - 1).le() != Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("buckets must end with +Inf");
    }
    double total = buckets.get(buckets.size() - 1).count();
    if (total <= 0) {
      return null;
    }
    double rank = q * total;
    int i = 0;
    while (i < buckets.size() - 1 && buckets.get(i).count() < rank) {
      i++;
    }
    if (i == buckets.size() - 1) {
      double highestFinite = buckets.size() >= 2 ? buckets.get(buckets.size() - 2).le() : 0;
      return new Estimate(highestFinite, true);
    }
    double upper = buckets.get(i).le();
    double lower = i == 0 ? 0 : buckets.get(i - 1).le();
    double countBelow = i == 0 ? 0 : buckets.get(i - 1).count();
    double inBucket = buckets.get(i).count() - countBelow;
    if (inBucket <= 0) {
      return new Estimate(upper, false);
    }
    return new Estimate(lower + (upper - lower) * ((rank - countBelow) / inBucket), false);
  }
}
