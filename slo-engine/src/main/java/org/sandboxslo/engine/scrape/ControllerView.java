package org.sandboxslo.engine.scrape;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The controller-reported view of the SLIs, computed from scrapes of the agent-sandbox controller's
 * own {@code /metrics} (reference §d): warm-hit ratio from {@code
 * agent_sandbox_claim_creation_total}, claim-to-ready quantiles from a latency histogram in ms
 * (e.g. {@code agent_sandbox_claim_controller_startup_latency_ms}). Counter resets are handled by
 * {@link CounterIncrease}.
 */
public final class ControllerView {
  private ControllerView() {}

  public static final String CLAIM_CREATION_TOTAL = "agent_sandbox_claim_creation_total";
  public static final String CONTROLLER_STARTUP_LATENCY_MS =
      "agent_sandbox_claim_controller_startup_latency_ms";

  /** Webhook annotation → claim Ready; observed only when a webhook stamps the annotation. */
  public static final String CLAIM_STARTUP_LATENCY_MS = "agent_sandbox_claim_startup_latency_ms";

  /** SDK annotation → claim Ready (client clock; negatives dropped). */
  public static final String CLIENT_CLAIM_STARTUP_LATENCY_MS =
      "agent_sandbox_client_claim_startup_latency_ms";

  /** Sandbox creationTimestamp → Sandbox Ready, recorded at claim first Ready. */
  public static final String CREATION_LATENCY_MS = "agent_sandbox_creation_latency_ms";

  /** Gauge of all Sandboxes in the controller's cache. */
  public static final String SANDBOXES = "agent_sandboxes";

  /** Constant 1 with the build's labels ({@code git_version}, ...). */
  public static final String BUILD_INFO = "agent_sandbox_build_info";

  /**
   * Warm-hit over a window.
   *
   * @param warm Δ warm launches
   * @param cold Δ cold launches
   * @param ratio warm / (warm + cold); null when both are 0 ("no data")
   * @param partial some increments were never scraped (a restart inside the window)
   * @param restarts restarts seen (timeline annotations)
   */
  public record WarmHit(
      double warm,
      double cold,
      Double ratio,
      boolean partial,
      List<CounterIncrease.Restart> restarts) {}

  /**
   * @param namespace label {@code namespace} to match, or null for any
   * @param template label {@code sandbox_template} to match, or null for any
   */
  public static WarmHit warmHit(
      List<Scrape> scrapes, String namespace, String template, Instant from, Instant to) {
    CounterIncrease.Result r = CounterIncrease.over(scrapes, CLAIM_CREATION_TOTAL, from, to);
    Map<String, Sample> series = CounterIncrease.seriesOf(scrapes, CLAIM_CREATION_TOTAL);
    double warm =
        r.sum(
            series,
            s -> matches(s, namespace, template) && "warm".equals(s.labels().get("launch_type")));
    double cold =
        r.sum(
            series,
            s -> matches(s, namespace, template) && "cold".equals(s.labels().get("launch_type")));
    double total = warm + cold;
    return new WarmHit(warm, cold, total == 0 ? null : warm / total, r.partial(), r.restarts());
  }

  /**
   * A quantile of a latency histogram over a window, in milliseconds, from bucket increases.
   *
   * @param histogram base name without {@code _bucket}, e.g. {@link #CONTROLLER_STARTUP_LATENCY_MS}
   * @param launchType label {@code launch_type} to match, or null for all
   * @return null when no observation fell in the window
   */
  public static HistogramQuantile.Estimate latencyQuantileMs(
      List<Scrape> scrapes,
      String histogram,
      String template,
      String launchType,
      double q,
      Instant from,
      Instant to) {
    BucketDelta d = bucketDelta(scrapes, histogram, template, launchType, from, to);
    if (d == null) {
      return null;
    }
    return HistogramQuantile.of(q, d.buckets());
  }

  /**
   * Cumulative bucket increases of a histogram over a window, summed over the matching series.
   *
   * @param buckets by {@code le} ascending, the last one {@code +Inf}; counts are increases
   * @param partial a counter reset fell inside the window (increments before it were not scraped)
   * @param restarts the resets seen
   * @param firstScrape the earliest scrape used (increases count observations after it)
   * @param lastScrape the latest scrape used
   */
  public record BucketDelta(
      List<HistogramQuantile.Bucket> buckets,
      boolean partial,
      List<CounterIncrease.Restart> restarts,
      Instant firstScrape,
      Instant lastScrape) {
    public BucketDelta {
      buckets = List.copyOf(buckets);
      restarts = List.copyOf(restarts);
    }

    /** Observations in the window: the {@code +Inf} bucket's increase. */
    public double count() {
      return buckets.get(buckets.size() - 1).count();
    }
  }

  /**
   * Bucket increases of {@code histogram} ({@code <histogram>_bucket}) over the scrapes in [from,
   * to] with the label filters.
   *
   * @param template label {@code sandbox_template}, or null for any
   * @param launchType label {@code launch_type}, or null for any
   * @return null when no matching bucket series with {@code le="+Inf"} was scraped in the window
   */
  public static BucketDelta bucketDelta(
      List<Scrape> scrapes,
      String histogram,
      String template,
      String launchType,
      Instant from,
      Instant to) {
    String bucketName = histogram + "_bucket";
    CounterIncrease.Result r = CounterIncrease.over(scrapes, bucketName, from, to);
    Map<String, Sample> series = CounterIncrease.seriesOf(scrapes, bucketName);
    TreeMap<Double, Double> byLe = new TreeMap<>();
    for (Map.Entry<String, Double> e : r.increase().entrySet()) {
      Sample s = series.get(e.getKey());
      if (s == null
          || !matches(s, null, template)
          || (launchType != null && !launchType.equals(s.labels().get("launch_type")))) {
        continue;
      }
      String le = s.labels().get("le");
      if (le == null) {
        continue;
      }
      byLe.merge(PromText.parseValue(le), e.getValue(), Double::sum);
    }
    if (byLe.isEmpty() || !byLe.containsKey(Double.POSITIVE_INFINITY)) {
      return null;
    }
    List<HistogramQuantile.Bucket> buckets = new ArrayList<>();
    byLe.forEach((le, c) -> buckets.add(new HistogramQuantile.Bucket(le, c)));
    Instant first = null;
    Instant last = null;
    for (Scrape s : scrapes) {
      if (!s.at().isBefore(from) && !s.at().isAfter(to)) {
        first = first == null || s.at().isBefore(first) ? s.at() : first;
        last = last == null || s.at().isAfter(last) ? s.at() : last;
      }
    }
    return new BucketDelta(buckets, r.partial(), r.restarts(), first, last);
  }

  /**
   * The label values of {@code label} on the series of {@code metric} scraped in [from, to],
   * sorted.
   */
  public static java.util.SortedSet<String> labelValues(
      List<Scrape> scrapes, String metric, String label, Instant from, Instant to) {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (Scrape s : scrapes) {
      if (s.at().isBefore(from) || s.at().isAfter(to)) {
        continue;
      }
      for (Sample x : s.samples()) {
        if (x.name().equals(metric) && x.labels().get(label) != null) {
          out.add(x.labels().get(label));
        }
      }
    }
    return out;
  }

  private static boolean matches(Sample s, String namespace, String template) {
    return (namespace == null || namespace.equals(s.labels().get("namespace")))
        && (template == null || template.equals(s.labels().get("sandbox_template")));
  }
}
