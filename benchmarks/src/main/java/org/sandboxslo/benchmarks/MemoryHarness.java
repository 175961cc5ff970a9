package org.sandboxslo.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.FleetEvent;

/**
 * Retained heap of the engine, measured as heap used after full GCs (several, until it settles),
 * before and after building the state. Run each size in its own JVM with a fixed heap, e.g. {@code
 * java -Xms3g -Xmx3g -cp benchmarks.jar org.sandboxslo.benchmarks.MemoryHarness sandboxes 100000}.
 *
 * <ul>
 *   <li>{@code sandboxes N}: N tracked pool members (100 per pool, N/100 templates and pools), as
 *       the collector builds them (every string a fresh object, the controller's reserved labels on
 *       each); prints bytes per tracked Sandbox.
 *   <li>{@code windows T}: T templates with 100 members each, then one hour of claims at 300
 *       claims/s and a snapshot; prints the heap of the whole engine and the part the hour of
 *       windows adds.
 * </ul>
 */
public final class MemoryHarness {
  private MemoryHarness() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: MemoryHarness sandboxes N | windows TEMPLATES");
      System.exit(2);
    }
    int n = Integer.parseInt(args[1]);
    switch (args[0]) {
      case "sandboxes" -> sandboxes(n);
      case "windows" -> windows(n);
      default -> {
        System.err.println("unknown mode " + args[0]);
        System.exit(2);
      }
    }
  }

  static void sandboxes(int n) throws InterruptedException {
    int templates = Math.max(1, n / 100);
    Fleet fleet = new Fleet(templates, n / templates);
    long before = settledHeap();
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    fleet.applyFleet(e);
    e.snapshot(Fleet.T0.plusSeconds(120));
    long after = settledHeap();
    System.out.printf(
        Locale.ROOT,
        "memory sandboxes=%d templates=%d retained=%.1f MB perSandbox=%.0f B%n",
        fleet.sandboxes(),
        templates,
        (after - before) / 1e6,
        (after - before) / (double) fleet.sandboxes());
    reachabilityFence(e);
  }

  static void windows(int templates) throws InterruptedException {
    Fleet fleet = new Fleet(templates, 100);
    long before = settledHeap();
    FleetEngine e = fleet.engine();
    e.snapshot(Fleet.T0.plusSeconds(120));
    long fleetOnly = settledHeap();
    double rate = 300;
    long claims = Fleet.claimsIn(Duration.ofHours(1), rate);
    for (long from = 0; from < claims; from += 10_000) {
      for (FleetEvent ev : fleet.claims(from, Math.min(claims, from + 10_000), rate)) {
        e.apply(ev);
      }
      if (from % 100_000 == 0) {
        e.snapshot(Fleet.seenAt(from, rate));
      }
    }
    e.snapshot(Fleet.T0.plus(Duration.ofHours(1)));
    long after = settledHeap();
    System.out.printf(
        Locale.ROOT,
        "memory templates=%d sandboxes=%d engine=%.1f MB fleet=%.1f MB windows(1h @ %.0f claims/s)=%.1f MB%n",
        templates,
        fleet.sandboxes(),
        (after - before) / 1e6,
        (fleetOnly - before) / 1e6,
        rate,
        (after - fleetOnly) / 1e6);
    reachabilityFence(e);
  }

  private static volatile Object sink;

  private static void reachabilityFence(Object o) {
    sink = o;
  }

  /** Heap used after full GCs, once two in a row agree within 1 %. */
  static long settledHeap() throws InterruptedException {
    var mem = ManagementFactory.getMemoryMXBean();
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      Thread.sleep(200);
      long used = mem.getHeapMemoryUsage().getUsed();
      if (Math.abs(used - last) < last / 100) {
        return used;
      }
      last = used;
    }
    return last;
  }
}
