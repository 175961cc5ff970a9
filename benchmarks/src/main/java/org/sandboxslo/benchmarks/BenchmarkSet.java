package org.sandboxslo.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs JMH benchmarks matching a pattern with {@code forks} forks and prints, per benchmark and
 * parameter set, the median and min–max of the per-fork means (each fork is one run: its own JVM,
 * warm-up and measurement iterations). Usage: {@code BenchmarkSet REGEX [FORKS [SECONDS]]}: FORKS
 * defaults to 3; SECONDS, when given, replaces the annotated length of every warm-up and
 * measurement iteration (the iteration counts stay), for a shorter run on a shared machine.
 */
public final class BenchmarkSet {
  private BenchmarkSet() {}

  public static void main(String[] args) throws RunnerException {
    if (args.length < 1) {
      System.err.println("usage: BenchmarkSet REGEX [FORKS [SECONDS]]");
      System.exit(2);
    }
    int forks = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    ChainedOptionsBuilder opts = new OptionsBuilder().include(args[0]).forks(forks);
    if (args.length > 2) {
      TimeValue each = TimeValue.seconds(Integer.parseInt(args[2]));
      opts.warmupTime(each).measurementTime(each);
    }
    Collection<RunResult> results = new Runner(opts.build()).run();
    System.out.println();
    System.out.println(
        "summary (per-fork means; median [min – max], "
            + forks
            + " forks"
            + (args.length > 2 ? ", " + args[2] + " s iterations" : "")
            + ")");
    for (RunResult r : results) {
      List<Double> means = new ArrayList<>();
      for (BenchmarkResult b : r.getBenchmarkResults()) {
        double sum = 0;
        int n = 0;
        for (IterationResult i : b.getIterationResults()) {
          sum += i.getPrimaryResult().getScore();
          n++;
        }
        means.add(sum / n);
      }
      means.sort(Double::compare);
      String params =
          r.getParams().getParamsKeys().stream()
              .map(k -> k + "=" + r.getParams().getParam(k))
              .reduce((a, b) -> a + "," + b)
              .orElse("");
      System.out.printf(
          Locale.ROOT,
          "%-40s %-16s %14.3f [%.3f – %.3f] %s%n",
          r.getParams().getBenchmark().replaceFirst("^.*\\.benchmarks\\.", ""),
          params,
          median(means),
          means.get(0),
          means.get(means.size() - 1),
          r.getPrimaryResult().getScoreUnit());
    }
  }

  static double median(List<Double> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
