package org.sandboxslo.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.FleetEvent;

/**
 * Ingest measured in CPU time of the applying thread (not wall time), so other processes on a
 * shared machine do not count against the engine: the same work as {@link IngestBenchmark} (1 M
 * claims, 2 M events, fresh engine per run, events built per chunk of {@value
 * IngestBenchmark#CHUNK} claims outside the timed part), repeated; prints events per CPU-second per
 * run and the median. Usage: {@code IngestCpuHarness TEMPLATES [RUNS]}.
 */
public final class IngestCpuHarness {
  private IngestCpuHarness() {}

  public static void main(String[] args) {
    int templates = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    Fleet fleet = new Fleet(templates, 100);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[] rates = new double[runs];
    double perSecond = IngestBenchmark.CLAIMS / 3600.0;
    for (int r = 0; r < runs; r++) {
      FleetEngine e = fleet.engine();
      long cpu = 0;
      long wall = 0;
      long n = 0;
      for (long from = 0; from < IngestBenchmark.CLAIMS; from += IngestBenchmark.CHUNK) {
        FleetEvent[] events = fleet.claims(from, from + IngestBenchmark.CHUNK, perSecond);
        long cpu0 = mx.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        for (FleetEvent ev : events) {
          e.apply(ev);
        }
        cpu += mx.getCurrentThreadCpuTime() - cpu0;
        wall += System.nanoTime() - wall0;
        n += events.length;
      }
      rates[r] = n / (cpu / 1e9);
      System.out.printf(
          Locale.ROOT,
          "run %d: %,.0f events/CPU-s (%,.0f events/s wall)%n",
          r,
          rates[r],
          n / (wall / 1e9));
    }
    java.util.Arrays.sort(rates);
    System.out.printf(
        Locale.ROOT,
        "ingest templates=%d median %,.0f events/CPU-s [%,.0f – %,.0f] over %d runs%n",
        templates,
        rates[runs / 2],
        rates[0],
        rates[runs - 1],
        runs);
  }
}
