package org.sandboxslo.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.scrape.HistogramQuantile;
import org.sandboxslo.engine.sli.LatencySummary;
import org.sandboxslo.engine.sli.SliKey;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;

/**
 * Quantile accuracy on the same samples: exact (nearest rank), the engine's (claims fed through
 * {@link FleetEngine}, read from the snapshot's 1 h window) and Prometheus {@code
 * histogram_quantile} ({@link HistogramQuantile}) over upstream's claim-latency bucket bounds.
 * Samples: {@code n} warm and {@code n} cold claim-to-ready latencies drawn log-normal from p50/p95
 * (warm 150 ms / 400 ms and cold 3 s / 8 s: controller-lite's adoption and cold-start defaults),
 * per seed. Prints one line per seed, population and quantile.
 */
public final class AccuracyReport {
  /** Upstream's claim startup latency histogram bounds (ms), reference §d; +Inf implicit. */
  public static final double[] UPSTREAM_BUCKETS_MS = {
    100, 250, 500, 750, 1000, 1250, 1500, 2000, 2500, 5000, 10000, 30000, 60000, 120000, 240000
  };

  static final double Z95 = 1.6448536269514722;

  /**
   * One compared quantile.
   *
   * @param seed the seed
   * @param population {@code warm}, {@code cold} or {@code all}
   * @param quantile 0.5, 0.95 or 0.99
   * @param exactMs nearest-rank quantile of the samples (ms)
   * @param engineMs the engine's (ms)
   * @param histogramQuantileMs histogram_quantile over upstream's buckets (ms)
   * @param lowerBound histogram_quantile fell into +Inf (a lower bound)
   */
  public record Row(
      long seed,
      String population,
      double quantile,
      double exactMs,
      double engineMs,
      double histogramQuantileMs,
      boolean lowerBound) {
    public double engineError() {
      return engineMs / exactMs - 1;
    }

    public double histogramQuantileError() {
      return histogramQuantileMs / exactMs - 1;
    }
  }

  private AccuracyReport() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    System.out.printf(
        Locale.ROOT,
        "accuracy: %d warm + %d cold log-normal samples per seed (warm p50 150 ms / p95 400 ms, cold 3 s / 8 s)%n",
        n,
        n);
    System.out.printf(
        Locale.ROOT,
        "%-5s %-5s %-4s %12s %12s %8s %16s %8s%n",
        "seed",
        "pop",
        "q",
        "exact ms",
        "engine ms",
        "err",
        "hist_quantile ms",
        "err");
    double worstEngine = 0;
    double worstHist = 0;
    for (long seed : new long[] {1, 2, 3}) {
      for (Row r : measure(seed, n)) {
        System.out.printf(
            Locale.ROOT,
            "%-5d %-5s p%-3s %12.1f %12.1f %+7.2f%% %16s %+7.2f%%%n",
            r.seed(),
            r.population(),
            fmtQ(r.quantile()),
            r.exactMs(),
            r.engineMs(),
            100 * r.engineError(),
            (r.lowerBound() ? ">" : "")
                + String.format(Locale.ROOT, "%.1f", r.histogramQuantileMs()),
            100 * r.histogramQuantileError());
        worstEngine = Math.max(worstEngine, Math.abs(r.engineError()));
        worstHist = Math.max(worstHist, Math.abs(r.histogramQuantileError()));
      }
    }
    System.out.printf(
        Locale.ROOT,
        "accuracy worst |error|: engine %.2f %%, histogram_quantile %.2f %%%n",
        100 * worstEngine,
        100 * worstHist);
  }

  private static String fmtQ(double q) {
    return q == 0.5 ? "50" : q == 0.95 ? "95" : "99";
  }

  /** Draws log-normal samples (ns) with the given median and p95. */
  static long[] logNormal(SplittableRandom rnd, int n, Duration p50, Duration p95) {
    double mu = Math.log(p50.toNanos());
    double sigma = (Math.log(p95.toNanos()) - mu) / Z95;
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = Math.round(Math.exp(mu + sigma * gaussian(rnd)));
    }
    return out;
  }

  /** Box–Muller (SplittableRandom has no nextGaussian on Java 17). */
  private static double gaussian(SplittableRandom rnd) {
    double u1 = 1 - rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  /** The comparison for one seed: 3 populations × 3 quantiles. */
  public static List<Row> measure(long seed, int n) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] warm = logNormal(rnd, n, Duration.ofMillis(150), Duration.ofMillis(400));
    long[] cold = logNormal(rnd, n, Duration.ofSeconds(3), Duration.ofSeconds(8));
    Fleet fleet = new Fleet(1, 10);
    FleetEngine e = fleet.engine();
    Instant t0 = Fleet.T0.plusSeconds(120);
    // 2n claims, alternating warm/cold, spread over 50 minutes: all inside the 1 h window
    long stepNanos = Duration.ofMinutes(50).toNanos() / (2L * n);
    for (int i = 0; i < 2 * n; i++) {
      boolean isWarm = i % 2 == 0;
      long latency = isWarm ? warm[i / 2] : cold[i / 2];
      Instant seen = t0.plusNanos(i * stepNanos);
      Instant ready = seen.plusNanos(latency);
      String name = "acc-" + i;
      ClaimView v =
          new ClaimView(
              new ObjectRef(Fleet.NAMESPACE, name),
              "uid-acc-" + seed + "-" + i,
              "1",
              seen,
              seen,
              ready,
              "pool-0",
              isWarm ? Fleet.memberName(0, i % 10) : name,
              false,
              false,
              "python-client",
              new ConditionView("True", "DependenciesReady", ready),
              null,
              null,
              null,
              null);
      e.apply(new FleetEvent.Upserted(v, ready, ready));
      e.apply(new FleetEvent.Deleted(Kind.SANDBOX_CLAIM, v.ref(), v.uid(), ready));
    }
    Instant now = t0.plus(Duration.ofMinutes(55));
    SliSnapshot tpl =
        e.snapshot(now).templates().stream()
            .filter(s -> s.key().equals(SliKey.template(Fleet.NAMESPACE, "tpl-0")))
            .findFirst()
            .orElseThrow();
    WindowSlis w =
        tpl.windows().stream()
            .filter(x -> x.window().equals(Duration.ofHours(1)))
            .findFirst()
            .orElseThrow();
    long[] all = new long[2 * n];
    System.arraycopy(warm, 0, all, 0, n);
    System.arraycopy(cold, 0, all, n, n);
    List<Row> out = new ArrayList<>();
    add(out, seed, "warm", warm, w.claimToReadyWarm());
    add(out, seed, "cold", cold, w.claimToReadyCold());
    add(out, seed, "all", all, w.claimToReady());
    return out;
  }

  private static void add(
      List<Row> out, long seed, String population, long[] samples, LatencySummary engine) {
    long[] sorted = samples.clone();
    Arrays.sort(sorted);
    List<HistogramQuantile.Bucket> buckets = cumulative(sorted);
    double[] qs = {0.5, 0.95, 0.99};
    Duration[] ours = {engine.p50(), engine.p95(), engine.p99()};
    for (int i = 0; i < qs.length; i++) {
      double exact = exactNearestRank(sorted, qs[i]) / 1e6;
      HistogramQuantile.Estimate h = HistogramQuantile.of(qs[i], buckets);
      out.add(
          new Row(
              seed, population, qs[i], exact, ours[i].toNanos() / 1e6, h.value(), h.lowerBound()));
    }
  }

  /** The value at rank ceil(q × n) (1-based) of sorted samples. */
  static long exactNearestRank(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /** Cumulative counts over upstream's bounds (a sample equal to a bound counts in it). */
  static List<HistogramQuantile.Bucket> cumulative(long[] sortedNanos) {
    List<HistogramQuantile.Bucket> out = new ArrayList<>();
    int i = 0;
    for (double le : UPSTREAM_BUCKETS_MS) {
      while (i < sortedNanos.length && sortedNanos[i] / 1e6 <= le) {
        i++;
      }
      out.add(new HistogramQuantile.Bucket(le, i));
    }
    out.add(new HistogramQuantile.Bucket(Double.POSITIVE_INFINITY, sortedNanos.length));
    return out;
  }
}
