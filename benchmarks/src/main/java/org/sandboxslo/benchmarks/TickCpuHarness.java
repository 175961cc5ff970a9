package org.sandboxslo.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import org.sandboxslo.engine.finding.DiagnosisConfig;

/**
 * Snapshot and findings measured in CPU time of the calling thread (not wall time), so other
 * processes on a shared machine do not count against the engine: the same work as {@link
 * SnapshotBenchmark} and {@link FindingsBenchmark} ({@code templates} templates and pools of 100
 * members after one hour at 300 claims/s; before each call the next second of claims is applied,
 * untimed). The first {@code warmup} calls of each kind are not counted; prints the median and
 * min–max of the CPU milliseconds per call. Usage: {@code TickCpuHarness TEMPLATES [CALLS
 * [WARMUP]]} (defaults 1000, 15, 15).
 */
public final class TickCpuHarness {
  private TickCpuHarness() {}

  public static void main(String[] args) {
    int templates = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    SteadyFleet fleet = new SteadyFleet(templates, 100, 300, Duration.ofHours(1));
    DiagnosisConfig config = DiagnosisConfig.defaults();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[] snapshot = new double[calls];
    double[] findings = new double[calls];
    for (int i = -warmup; i < calls; i++) {
      Instant now = fleet.advance();
      long c0 = mx.getCurrentThreadCpuTime();
      fleet.engine.snapshot(now);
      long c1 = mx.getCurrentThreadCpuTime();
      now = fleet.advance();
      long c2 = mx.getCurrentThreadCpuTime();
      fleet.engine.findings(now, config);
      long c3 = mx.getCurrentThreadCpuTime();
      if (i >= 0) {
        snapshot[i] = (c1 - c0) / 1e6;
        findings[i] = (c3 - c2) / 1e6;
      }
    }
    print("snapshot", templates, snapshot);
    print("findings", templates, findings);
  }

  private static void print(String what, int templates, double[] ms) {
    Arrays.sort(ms);
    System.out.printf(
        Locale.ROOT,
        "%s templates=%d median %.1f CPU-ms [%.1f – %.1f] over %d calls%n",
        what,
        templates,
        ms[ms.length / 2],
        ms[0],
        ms[ms.length - 1],
        ms.length);
  }
}
