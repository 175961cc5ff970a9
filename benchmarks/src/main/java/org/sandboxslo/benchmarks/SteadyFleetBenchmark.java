package org.sandboxslo.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Shared state of the benchmarks on a steady fleet: {@code templates} templates and pools (100
 * members each) after one hour of claims at 300 claims/s; before each call the next second of
 * claims is applied and {@code now} moves on one second (not timed), as in the console's tick.
 * Average time in ms, one fork with a 4 GiB heap, 2 × 5 s warm-up, 3 × 5 s measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public abstract class SteadyFleetBenchmark {
  @Param({"1000"})
  public int templates;

  protected SteadyFleet fleet;
  protected Instant now;

  @Setup(Level.Trial)
  public void fleet() {
    fleet = new SteadyFleet(templates, 100, 300, Duration.ofHours(1));
  }

  @Setup(Level.Invocation)
  public void nextSecond() {
    now = fleet.advance();
  }
}
