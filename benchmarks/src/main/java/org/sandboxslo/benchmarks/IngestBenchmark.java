package org.sandboxslo.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.FleetEvent;

/**
 * Engine ingest: domain events per second applied on one thread. The engine holds the fleet ({@code
 * templates} templates and pools, 100 Ready members each) and takes a stream of 1 M claims spread
 * over one hour (each an upsert, Ready, and its delete: 2 M events), {@value #CHUNK} claims per
 * invocation; after the millionth claim the next invocation starts a fresh engine. Each chunk's
 * events are built just before it is applied and not timed (the collector builds them, and hands
 * them over while they are still in cache). Run it pinned to one core ({@code taskset -c 1}), as
 * {@code benchmarks/run} does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 3, time = 5)
public class IngestBenchmark {
  /** Claims per invocation. */
  public static final int CLAIMS = 1_000_000;

  @Param({"50", "100", "1000"})
  public int templates;

  /** Claims per invocation. */
  public static final int CHUNK = 5_000;

  private Fleet fleet;
  private FleetEvent[] events;
  private FleetEngine engine;
  private long next = CLAIMS;

  @Setup(Level.Trial)
  public void fleet() {
    fleet = new Fleet(templates, 100);
  }

  @Setup(Level.Invocation)
  public void nextChunk() {
    if (next >= CLAIMS) {
      engine = fleet.engine();
      next = 0;
    }
    events = fleet.claims(next, next + CHUNK, CLAIMS / 3600.0);
    next += CHUNK;
  }

  @Benchmark
  @OperationsPerInvocation(2 * CHUNK)
  public FleetEngine ingest() {
    FleetEngine e = engine;
    for (FleetEvent ev : events) {
      e.apply(ev);
    }
    return e;
  }
}
