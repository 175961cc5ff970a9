package org.sandboxslo.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sandboxslo.engine.whatif.DemandProfile;
import org.sandboxslo.engine.whatif.LogNormal;
import org.sandboxslo.engine.whatif.PoolConfig;
import org.sandboxslo.engine.whatif.WarmPoolSimulator;
import org.sandboxslo.engine.whatif.WhatIfResult;

/**
 * What-if simulator speed: simulated claims per second for one hour at 300 claims/s (1.08 M claims)
 * against four pools of 300 (cold start log-normal 3 s / 8 s, adoption 150 ms / 400 ms, refill ≤
 * 70/s per pool, 200 ms watch lag, expectations gate). The goal is ≥ 200,000 claims/s (the hour in
 * ≤ 5 s).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class WhatIfBenchmark {
  static final int CLAIMS = 1_080_000;

  private final DemandProfile demand = new DemandProfile.Steady(300, Duration.ofHours(1));
  private final PoolConfig config =
      PoolConfig.of(
              4,
              300,
              new LogNormal(Duration.ofSeconds(3), Duration.ofSeconds(8)),
              new LogNormal(Duration.ofMillis(150), Duration.ofMillis(400)))
          .withRefillRate(70)
          .withWatchLag(Duration.ofMillis(200), true);

  private long seed;

  @Benchmark
  @OperationsPerInvocation(CLAIMS)
  public WhatIfResult hourAt300PerSecond() {
    return WarmPoolSimulator.run(demand, config, seed++);
  }
}
