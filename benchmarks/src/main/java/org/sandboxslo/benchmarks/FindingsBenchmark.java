package org.sandboxslo.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
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
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;

/**
 * Findings cost: {@code FleetEngine.findings(now, defaults)} (it takes a snapshot too) for {@code
 * templates} templates and pools (100 members each, every tenth template edited so its members are
 * stale) after one hour of claims at 300 claims/s; the next second of claims is applied before each
 * call (not timed).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class FindingsBenchmark {
  @Param({"1000"})
  public int templates;

  private SteadyFleet fleet;
  private Instant now;
  private final DiagnosisConfig config = DiagnosisConfig.defaults();

  @Setup(Level.Trial)
  public void fleet() {
    fleet = new SteadyFleet(templates, 100, 300, Duration.ofHours(1));
  }

  @Setup(Level.Invocation)
  public void nextSecond() {
    now = fleet.advance();
  }

  @Benchmark
  public List<Finding> findings() {
    return fleet.engine.findings(now, config);
  }
}
