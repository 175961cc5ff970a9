package org.sandboxslo.engine.scrape;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The controller-reported latency of one histogram series group (metric × {@code sandbox_template}
 * × {@code launch_type}) over a window, read the way Prometheus reads it and with the honesty rules
 * of the console:
 *
 * <ul>
 *   <li>quantiles are {@code histogram_quantile} on the bucket increases ({@link
 *       HistogramQuantile}); a rank that falls into {@code +Inf} is a lower bound ({@code > 240000
 *       ms}), never a value;
 *   <li>no observation in the window is {@link Status#NO_DATA}, never 0 ms;
 *   <li>below {@link Options#minCount()} observations no quantile is given ({@link
 *       Status#BELOW_MIN_COUNT}); the good-event ratio over the threshold is the figure instead;
 *   <li>{@link #withFirstReadyClaims(long)} cross-checks the count against the claims whose first
 *       Ready fell in the window: an excess is an overcount (controllers without agent-sandbox#1114
 *       record again on every resume, with the whole suspended time included), and the corrected
 *       figures drop the excess from the highest buckets, where such re-recordings land.
 * </ul>
 *
 * @param metric histogram base name, e.g. {@code agent_sandbox_claim_controller_startup_latency_ms}
 * @param template label {@code sandbox_template}, or null for all
 * @param launchType label {@code launch_type}, or null for all
 * @param from first scrape used (observations after it count)
 * @param to last scrape used
 * @param count observations in the window (Δ of the {@code +Inf} bucket)
 * @param status which figure is the headline
 * @param quantiles one per {@link Options#quantiles()} when {@code status == QUANTILES}, else empty
 * @param good the good-event ratio over the threshold; null when {@code count == 0}
 * @param partial a counter reset fell in the window (some observations were never scraped)
 * @param overcount the cross-check result when an excess was found, else null
 * @param buckets the cumulative bucket increases (for evidence and correction)
 */
public record LatencyHistogram(
    String metric,
    String template,
    String launchType,
    Instant from,
    Instant to,
    double count,
    Status status,
    List<QuantileValue> quantiles,
    GoodEvents good,
    boolean partial,
    Overcount overcount,
    List<HistogramQuantile.Bucket> buckets) {
  public LatencyHistogram {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(status, "status");
    quantiles = List.copyOf(quantiles);
    buckets = List.copyOf(buckets);
  }

  /** Which figure a histogram window can honestly give. */
  public enum Status {
    /** No observation in the window (or fewer than two scrapes): no figure at all. */
    NO_DATA,
    /** Fewer observations than the minimum count: the good-event ratio, no quantile. */
    BELOW_MIN_COUNT,
    /** Quantiles and the good-event ratio. */
    QUANTILES
  }

  /**
   * Settings of the reading.
   *
   * @param quantiles the quantiles to give, each in (0, 1); default 0.5, 0.95, 0.99
   * @param minCount fewest observations for a quantile, ≥ 1; default 20 (the p95 rank needs 20
   *     observations to stand on one)
   * @param thresholdMs latency that makes an event good, &gt; 0; default 5000 ms (upstream's
   *     rapid-burst p99 target)
   */
  public record Options(List<Double> quantiles, int minCount, double thresholdMs) {
    public Options {
      quantiles = List.copyOf(quantiles);
      for (double q : quantiles) {
        if (!(q > 0 && q < 1)) {
          throw new IllegalArgumentException("quantile must be in (0, 1), got " + q);
        }
      }
      if (minCount < 1) {
        throw new IllegalArgumentException("min count must be >= 1, got " + minCount);
      }
      if (!(thresholdMs > 0)) {
        throw new IllegalArgumentException("threshold must be > 0 ms, got " + thresholdMs);
      }
    }

    public static Options defaults() {
      return new Options(List.of(0.5, 0.95, 0.99), 20, 5000);
    }
  }

  /**
   * One quantile.
   *
   * @param q the quantile
   * @param valueMs the estimate, or for a lower bound the highest finite bucket bound
   * @param lowerBound true when the rank fell into {@code +Inf}: the true value is greater
   */
  public record QuantileValue(double q, double valueMs, boolean lowerBound) {
    /** {@code 1250 ms} or {@code > 240000 ms}. */
    public String display() {
      return (lowerBound ? "> " : "") + ms(valueMs);
    }
  }

  /**
   * Good events: observations at or under the threshold.
   *
   * @param thresholdMs the bucket bound used: the largest finite {@code le} ≤ the configured
   *     threshold (bucket counts are exact only at bounds); 0 when no bound is that low
   * @param good observations ≤ thresholdMs
   * @param total observations
   * @param ratio good / total
   */
  public record GoodEvents(double thresholdMs, double good, double total, double ratio) {
    public String display() {
      return num(good) + "/" + num(total) + " ≤ " + ms(thresholdMs);
    }
  }

  /**
   * What a histogram count is checked against.
   *
   * <ul>
   *   <li>{@link #FIRST_READY}: claims the engine saw reach their first Ready in the window (the
   *       claim informer's view; exact);
   *   <li>{@link #CREATED}: claims the controller itself counted as created in the window ({@code
   *       agent_sandbox_claim_creation_total}, same template and launch type) — the only count a
   *       replay of scrape files alone has. A claim created before the window and Ready inside it
   *       adds to the histogram but not to the counter, so a small excess can be claims in flight
   *       at the window start.
   * </ul>
   */
  public enum Basis {
    FIRST_READY("claims first Ready"),
    CREATED("claims created");

    private final String text;

    Basis(String text) {
      this.text = text;
    }

    /** {@code claims first Ready} or {@code claims created}. */
    public String text() {
      return text;
    }
  }

  /**
   * The cross-check of the count against claims in the window.
   *
   * @param claims claims counted in the window on {@code basis}
   * @param basis what {@code claims} counts
   * @param excess count − claims, &gt; 0
   * @param corrected quantiles after dropping the excess from the highest buckets (empty when fewer
   *     than the minimum count remain)
   * @param correctedGood good events after the correction, null when nothing remains
   */
  public record Overcount(
      long claims,
      Basis basis,
      double excess,
      List<QuantileValue> corrected,
      GoodEvents correctedGood) {
    public Overcount {
      Objects.requireNonNull(basis, "basis");
      corrected = List.copyOf(corrected);
    }
  }

  /**
   * Reads a bucket delta.
   *
   * @param delta from {@link ControllerView#bucketDelta}; null means no series in the window
   */
  public static LatencyHistogram of(
      String metric,
      String template,
      String launchType,
      ControllerView.BucketDelta delta,
      Options options) {
    Objects.requireNonNull(options, "options");
    if (delta == null) {
      return new LatencyHistogram(
          metric,
          template,
          launchType,
          null,
          null,
          0,
          Status.NO_DATA,
          List.of(),
          null,
          false,
          null,
          List.of());
    }
    double count = delta.count();
    Status status =
        count <= 0
            ? Status.NO_DATA
            : count < options.minCount() ? Status.BELOW_MIN_COUNT : Status.QUANTILES;
    return new LatencyHistogram(
        metric,
        template,
        launchType,
        delta.firstScrape(),
        delta.lastScrape(),
        count,
        status,
        status == Status.QUANTILES ? quantiles(delta.buckets(), options) : List.of(),
        count <= 0 ? null : good(delta.buckets(), options.thresholdMs()),
        delta.partial(),
        null,
        delta.buckets());
  }

  /**
   * Cross-checks the count against {@code firstReadyClaims} (claims whose first Ready fell in
   * (from, to]). Returns this reading unchanged when there is no excess.
   */
  public LatencyHistogram withFirstReadyClaims(long firstReadyClaims, Options options) {
    return withClaims(firstReadyClaims, Basis.FIRST_READY, options);
  }

  /**
   * Cross-checks the count against {@code claims} counted on {@code basis} over the same window.
   * Returns this reading unchanged when there is no excess.
   *
   * @throws IllegalArgumentException when {@code claims} is negative
   */
  public LatencyHistogram withClaims(long claims, Basis basis, Options options) {
    if (claims < 0) {
      throw new IllegalArgumentException("claims must be >= 0, got " + claims);
    }
    double excess = count - claims;
    if (excess <= 0 || buckets.isEmpty()) {
      return this;
    }
    List<HistogramQuantile.Bucket> corrected = dropFromTop(buckets, excess);
    double remaining = corrected.get(corrected.size() - 1).count();
    Overcount oc =
        new Overcount(
            claims,
            basis,
            excess,
            remaining >= options.minCount() ? quantiles(corrected, options) : List.of(),
            remaining > 0 ? good(corrected, options.thresholdMs()) : null);
    return new LatencyHistogram(
        metric,
        template,
        launchType,
        from,
        to,
        count,
        status,
        quantiles,
        good,
        partial,
        oc,
        buckets);
  }

  /** The quantile q of this reading, or null when not given. */
  public QuantileValue quantile(double q) {
    for (QuantileValue v : quantiles) {
      if (v.q() == q) {
        return v;
      }
    }
    return null;
  }

  /** The headline: quantiles, the good-event ratio, or {@code no data}. */
  public String display() {
    return switch (status) {
      case NO_DATA -> "no data";
      case BELOW_MIN_COUNT -> good.display() + " (" + num(count) + " observations: no quantile)";
      case QUANTILES -> {
        List<String> parts = new ArrayList<>();
        for (QuantileValue v : quantiles) {
          parts.add("p" + num(v.q() * 100) + " " + v.display());
        }
        yield String.join(", ", parts);
      }
    };
  }

  static List<QuantileValue> quantiles(List<HistogramQuantile.Bucket> b, Options o) {
    List<QuantileValue> out = new ArrayList<>();
    for (double q : o.quantiles()) {
      HistogramQuantile.Estimate e = HistogramQuantile.of(q, b);
      if (e != null) {
        out.add(new QuantileValue(q, e.value(), e.lowerBound()));
      }
    }
    return out;
  }

  static GoodEvents good(List<HistogramQuantile.Bucket> b, double thresholdMs) {
    double total = b.get(b.size() - 1).count();
    double bound = 0;
    double good = 0;
    for (HistogramQuantile.Bucket x : b) {
      if (x.le() <= thresholdMs) {
        bound = x.le();
        good = x.count();
      }
    }
    return new GoodEvents(bound, good, total, total == 0 ? 0 : good / total);
  }

  /** Removes {@code excess} observations from the highest buckets down (cumulative in, out). */
  static List<HistogramQuantile.Bucket> dropFromTop(
      List<HistogramQuantile.Bucket> cumulative, double excess) {
    int n = cumulative.size();
    double[] per = new double[n];
    for (int i = 0; i < n; i++) {
      per[i] = cumulative.get(i).count() - (i == 0 ? 0 : cumulative.get(i - 1).count());
    }
    double left = excess;
    for (int i = n - 1; i >= 0 && left > 0; i--) {
      double take = Math.min(per[i], left);
      per[i] -= take;
      left -= take;
    }
    List<HistogramQuantile.Bucket> out = new ArrayList<>(n);
    double acc = 0;
    for (int i = 0; i < n; i++) {
      acc += per[i];
      out.add(new HistogramQuantile.Bucket(cumulative.get(i).le(), acc));
    }
    return out;
  }

  static String ms(double v) {
    return num(v) + " ms";
  }

  /** A count or bound as shown: integral values without a fraction, else one decimal. */
  public static String num(double v) {
    double r = Math.rint(v * 10) / 10;
    if (r == Math.rint(r) && Math.abs(r) < 1e15) {
      return String.valueOf((long) r);
    }
    return String.format(Locale.ROOT, "%.1f", r);
  }
}
