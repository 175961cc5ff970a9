package org.sandboxslo.benchmarks;

import org.openjdk.jmh.annotations.Benchmark;
import org.sandboxslo.engine.sli.FleetSnapshot;

/**
 * Snapshot cost: {@code FleetEngine.snapshot(now)} for {@code templates} templates and pools (100
 * members each) after one hour of claims at 300 claims/s. Before each call the next second of
 * claims is applied and {@code now} moves on one second (not timed), as in the console's tick.
 */
public class SnapshotBenchmark extends SteadyFleetBenchmark {
  @Benchmark
  public FleetSnapshot snapshot() {
    return fleet.engine.snapshot(now);
  }
}
