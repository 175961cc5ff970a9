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
    return HistogramQuantile.of(q, buckets);
  }

  private static boolean matches(Sample s, String namespace, String template) {
    return (namespace == null || namespace.equals(s.labels().get("namespace")))
        && (template == null || template.equals(s.labels().get("sandbox_template")));
  }
}
