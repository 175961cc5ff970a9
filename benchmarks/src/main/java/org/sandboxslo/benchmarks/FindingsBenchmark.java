package org.sandboxslo.benchmarks;

import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;

/**
 * Findings cost: {@code FleetEngine.findings(now, defaults)} (it takes a snapshot too) for {@code
 * templates} templates and pools (100 members each, every tenth template edited so its members are
 * stale) after one hour of claims at 300 claims/s; the next second of claims is applied before each
 * call (not timed).
 */
public class FindingsBenchmark extends SteadyFleetBenchmark {
  private final DiagnosisConfig config = DiagnosisConfig.defaults();

  @Benchmark
  public List<Finding> findings() {
    return fleet.engine.findings(now, config);
  }
}
