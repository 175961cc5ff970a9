package org.sandboxslo.engine.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;

/**
 * Benchmark harness (not a test): engine throughput, snapshot and findings cost, and heap per
 * tracked object. Run after {@code mvn -pl slo-engine test-compile}:
 *
 * <pre>
 * java -cp slo-engine/target/classes:slo-engine/target/test-classes:$(ls ~/.m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/*.jar) \
 *   org.sandboxslo.engine.bench.EngineBench [templates] [membersPerPool] [claims]
 * </pre>
 */
public final class EngineBench {
  public static void main(String[] args) {
    int templates = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    int members = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int claims = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
    Instant t0 = Instant.parse("2026-09-01T10:00:00Z");
    Map<String, Object> spec =
        Map.of(
            "podTemplate",
            Map.of("spec", Map.of("containers", List.of(Map.of("name", "m", "image", "img:1")))));
    String digest = Blueprints.digest(spec);
    Map<String, Object> canonical = Blueprints.canonical(spec);
    System.gc();
    long heap0 = used();
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    long start = System.nanoTime();
    long events = 0;
    for (int t = 0; t < templates; t++) {
      String tn = "tpl-" + t;
      e.apply(
          new FleetEvent.Upserted(
              new TemplateView(
                  new ObjectRef("ns", tn),
                  "uid-" + tn,
                  "1",
                  1,
                  digest,
                  null,
                  null,
                  List.of("img:1"),
                  canonical),
              t0,
              t0));
      e.apply(
          new FleetEvent.Upserted(
              new PoolView(
                  new ObjectRef("ns", "pool-" + t),
                  "uid-pool-" + t,
                  "1",
                  1,
                  tn,
                  members,
                  null,
                  members,
                  members),
              t0,
              t0));
      events += 2;
      for (int m = 0; m < members; m++) {
        String n = "pool-" + t + "-" + m;
        e.apply(
            new FleetEvent.Upserted(
                new SandboxView(
                    new ObjectRef("ns", n),
                    "uid-" + n,
                    "1",
                    t0,
                    new OwnerView("SandboxWarmPool", "pool-" + t, "uid-pool-" + t),
                    "warm",
                    "controller",
                    tn,
                    "h",
                    null,
                    digest,
                    "Running",
                    new ConditionView("True", "DependenciesReady", t0.plusSeconds(3)),
                    null,
                    null,
                    null,
                    false,
                    "h1",
                    List.of("img:1"),
                    canonical,
                    List.of()),
                t0,
                t0));
        events++;
      }
    }
    long fleetNanos = System.nanoTime() - start;
    start = System.nanoTime();
    for (int c = 0; c < claims; c++) {
      int t = c % templates;
      Instant seen = t0.plusMillis(c * 3600_000L / claims);
      boolean warm = c % 10 != 0;
      String sandbox = warm ? "pool-" + t + "-" + (c % members) : "claim-" + c;
      ClaimView v =
          new ClaimView(
              new ObjectRef("ns", "claim-" + c),
              "uid-c-" + c,
              "1",
              seen,
              seen,
              seen.plusMillis(warm ? 150 + c % 300 : 3000 + c % 5000),
              "pool-" + t,
              sandbox,
              false,
              false,
              "python-client",
              new ConditionView("True", "DependenciesReady", seen.plusSeconds(1)),
              null,
              null,
              null,
              null);
      e.apply(new FleetEvent.Upserted(v, seen, seen));
      e.apply(new FleetEvent.Deleted(v.kind(), v.ref(), v.uid(), seen.plusSeconds(30)));
      events += 2;
    }
    long claimNanos = System.nanoTime() - start;
    Instant now = t0.plus(Duration.ofMinutes(59));
    for (int i = 0; i < 3; i++) {
      e.snapshot(now); // warm up
    }
    start = System.nanoTime();
    int reps = 10;
    for (int i = 0; i < reps; i++) {
      e.snapshot(now);
    }
    long snapNanos = (System.nanoTime() - start) / reps;
    start = System.nanoTime();
    int findings = e.findings(now, DiagnosisConfig.defaults()).size();
    long findNanos = System.nanoTime() - start;
    System.gc();
    long heap1 = used();
    int objects = templates * (members + 2);
    System.out.printf(
        "fleet: %d templates, %d pools x %d members = %d objects, applied in %.0f ms%n",
        templates, templates, members, objects, fleetNanos / 1e6);
    System.out.printf(
        "claims: %d claims (+ deletes) over 1 h applied at %.0f events/s%n",
        claims, 2 * claims / (claimNanos / 1e9));
    System.out.printf(
        "snapshot: %.1f ms; findings: %.1f ms (%d findings)%n",
        snapNanos / 1e6, findNanos / 1e6, findings);
    System.out.printf(
        "heap retained: %.1f MB total, %.0f bytes per tracked object (windows for %d claims included)%n",
        (heap1 - heap0) / 1e6, (double) (heap1 - heap0) / objects, claims);
    System.out.println(
        "events total: " + events + " (keep e reachable: " + e.duplicatesIgnored() + ")");
  }

  private static long used() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }
}
