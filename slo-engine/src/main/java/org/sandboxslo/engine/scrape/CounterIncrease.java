package org.sandboxslo.engine.scrape;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Exact increase of counters over a series of scrapes of one target, with counter resets handled
 * the way the cases define it: the increase is the sum of the differences between consecutive
 * scrapes; a drop in value, or a changed {@code process_start_time_seconds}, is a reset and the
 * post-reset value is the increase; a series missing from the previous scrape starts from 0. Never
 * {@code last − first}, never dropping negative deltas, never treating a drop as a wrap-around.
 */
public final class CounterIncrease {
  private CounterIncrease() {}

  /**
   * A restart seen between two scrapes.
   *
   * @param at the new {@code process_start_time_seconds} when exposed, else the later scrape time
   * @param lostFrom start of the interval whose increments were never scraped (previous scrape)
   */
  public record Restart(Instant at, Instant lostFrom) {}

  /**
   * The result over a window.
   *
   * @param increase per series id (see {@link Sample#seriesId()}), ≥ 0
   * @param partial true when a reset was seen: increments between the last scrape before the
   *     restart and the restart were never scraped
   * @param restarts restarts seen, in time order
   * @param scrapes scrapes used
   */
  public record Result(
      Map<String, Double> increase, boolean partial, List<Restart> restarts, int scrapes) {
    public Result {
      increase = Map.copyOf(increase);
      restarts = List.copyOf(restarts);
    }

    /** Σ increase over the series whose sample matches. */
    public double sum(Map<String, Sample> bySeries, Predicate<Sample> filter) {
      double s = 0;
      for (Map.Entry<String, Double> e : increase.entrySet()) {
        Sample sample = bySeries.get(e.getKey());
        if (sample != null && filter.test(sample)) {
          s += e.getValue();
        }
      }
      return s;
    }
  }

  /**
   * Increase of every series named {@code metric} (exact name, e.g. {@code
   * agent_sandbox_claim_creation_total}) over scrapes with {@code from ≤ at ≤ to}, in time order.
   */
  public static Result over(List<Scrape> scrapes, String metric, Instant from, Instant to) {
    Objects.requireNonNull(metric, "metric");
    List<Scrape> in = new ArrayList<>();
    for (Scrape s : scrapes) {
      if (!s.at().isBefore(from) && !s.at().isAfter(to)) {
        in.add(s);
      }
    }
    in.sort((a, b) -> a.at().compareTo(b.at()));
    Map<String, Double> inc = new LinkedHashMap<>();
    List<Restart> restarts = new ArrayList<>();
    Map<String, Double> prev = null;
    Double prevStart = null;
    Instant prevAt = null;
    for (Scrape s : in) {
      Map<String, Double> cur = new HashMap<>();
      for (Sample x : s.samples()) {
        if (x.name().equals(metric)) {
          cur.put(x.seriesId(), x.value());
        }
      }
      Double start = s.processStart().isPresent() ? s.processStart().getAsDouble() : null;
      if (prev != null) {
        boolean processRestarted = prevStart != null && start != null && !prevStart.equals(start);
        boolean anyDrop = false;
        for (Map.Entry<String, Double> e : cur.entrySet()) {
          Double before = prev.get(e.getKey());
          double delta;
          if (before == null) {
            delta = e.getValue();
          } else if (processRestarted || e.getValue() < before) {
            delta = e.getValue();
            anyDrop |= e.getValue() < before;
          } else {
            delta = e.getValue() - before;
          }
          inc.merge(e.getKey(), delta, Double::sum);
        }
        if (processRestarted || anyDrop) {
          Instant at = processRestarted ? Instant.ofEpochSecond((long) (double) start) : s.at();
          restarts.add(new Restart(at, prevAt));
        }
      } else {
        for (String k : cur.keySet()) {
          inc.putIfAbsent(k, 0.0);
        }
      }
      prev = cur;
      prevStart = start;
      prevAt = s.at();
    }
    return new Result(inc, !restarts.isEmpty(), restarts, in.size());
  }

  /** The last sample of each series of {@code metric} in the scrapes (labels for filtering). */
  public static Map<String, Sample> seriesOf(List<Scrape> scrapes, String metric) {
    Map<String, Sample> out = new LinkedHashMap<>();
    for (Scrape s : scrapes) {
      for (Sample x : s.samples()) {
        if (x.name().equals(metric)) {
          out.put(x.seriesId(), x);
        }
      }
    }
    return out;
  }
}
