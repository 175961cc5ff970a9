package org.sandboxslo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.Fixtures.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.upstream.Blueprints;

class FleetEngineTest {

  private static SliSnapshot template(FleetSnapshot s, String name) {
    return s.templates().stream()
        .filter(t -> t.key().name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static WindowSlis w(SliSnapshot s, int i) {
    return s.windows().get(i);
  }

  private static List<FleetEvent> warmColdTimeline() {
    List<FleetEvent> ev = new ArrayList<>();
    ev.add(up(Fixtures.template("tpl-py", "img:1", "1"), 0));
    ev.add(up(pool("pool-py", "tpl-py", 3, 3), 0));
    // claim-1: warm, first seen 10.0 s, Ready 10.25 s
    ev.add(up(adopted("pool-py-a1", "claim-1", "tpl-py", "warm", 10, "s1"), 10.3));
    ev.add(up(claim("claim-1", "pool-py", "pool-py-a1", 10.0, 10.25, false, "c1"), 10.3));
    // claim-2: warm, 0.5 s
    ev.add(up(adopted("pool-py-a2", "claim-2", "tpl-py", "warm", 20, "s2"), 20.6));
    ev.add(up(claim("claim-2", "pool-py", "pool-py-a2", 20.0, 20.5, false, "c2"), 20.6));
    // claim-3: env ⇒ cold, 28 s; sandbox named like the claim
    ev.add(up(adopted("claim-3", "claim-3", "tpl-py", "cold", 58, "s3"), 58.1));
    ev.add(up(claim("claim-3", "pool-py", "claim-3", 30.0, 58.0, true, "c3"), 58.1));
    // claim-4: not ready yet
    ev.add(up(claim("claim-4", "pool-py", null, 59.0, null, false, "c4"), 59));
    return ev;
  }

  @Test
  void warmHitRatioAndLatencyFromExactTimeline() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    warmColdTimeline().forEach(e::apply);
    SliSnapshot t = template(e.snapshot(at(60)), "tpl-py");
    WindowSlis fiveMin = w(t, 0);
    assertEquals(Duration.ofMinutes(5), fiveMin.window());
    assertEquals(2, fiveMin.warmLaunches());
    assertEquals(1, fiveMin.coldLaunches());
    assertEquals(2.0 / 3.0, fiveMin.warmHitRatio(), 1e-12);
    assertEquals(2, fiveMin.claimToReadyWarm().count());
    assertEquals(1, fiveMin.claimToReadyCold().count());
    // warm samples 0.25 s and 0.5 s; sketch error <= 0.4 %
    assertEquals(0.25, fiveMin.claimToReadyWarm().p50().toNanos() / 1e9, 0.25 * 0.004);
    assertEquals(0.5, fiveMin.claimToReadyWarm().p95().toNanos() / 1e9, 0.5 * 0.004);
    assertEquals(28.0, fiveMin.claimToReadyCold().p99().toNanos() / 1e9, 28 * 0.004);
    assertEquals(28.0, fiveMin.claimToReady().p99().toNanos() / 1e9, 28 * 0.004);
    assertEquals(0.5, fiveMin.claimToReady().p50().toNanos() / 1e9, 0.5 * 0.004);
    assertEquals(2, t.totals().warmLaunches());
    assertEquals(1, t.totals().coldLaunches());
    assertEquals(List.of("pool-py"), t.related());
  }

  @Test
  void relistAndDuplicatesNeverCountTwice() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    List<FleetEvent> ev = warmColdTimeline();
    ev.forEach(e::apply);
    // a relist replays every object with the same uid + resourceVersion, in another order
    List<FleetEvent> replay = new ArrayList<>(ev);
    java.util.Collections.reverse(replay);
    replay.forEach(e::apply);
    WindowSlis fiveMin = w(template(e.snapshot(at(60)), "tpl-py"), 0);
    assertEquals(2, fiveMin.warmLaunches());
    assertEquals(1, fiveMin.coldLaunches());
    assertEquals(ev.size(), e.duplicatesIgnored());
    // a later modification of a counted claim (new resourceVersion) does not recount it either
    e.apply(up(claim("claim-1", "pool-py", "pool-py-a1", 10.0, 10.25, false, "c1-b"), 70));
    assertEquals(2, w(template(e.snapshot(at(70)), "tpl-py"), 0).warmLaunches());
  }

  @Test
  void emptyWindowIsNoDataNeverZeroOrNaN() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(Fixtures.template("tpl-py", "img:1", "1"), 0));
    WindowSlis fiveMin = w(template(e.snapshot(at(60)), "tpl-py"), 0);
    assertEquals(0, fiveMin.warmLaunches());
    assertNull(fiveMin.warmHitRatio());
    assertNull(fiveMin.claimToReady());
    assertNull(fiveMin.claimToReadyWarm());
    assertNull(fiveMin.coldStart());
    assertNull(fiveMin.resumeErrorRatio());
  }

  @Test
  void windowsSlideAtBucketResolution() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    warmColdTimeline().forEach(e::apply);
    // at 10:06:00 the 5m window starts at 10:01:00: claims at 10:00:10..58 fell out, 1h keeps them
    SliSnapshot t = template(e.snapshot(at(360)), "tpl-py");
    assertNull(w(t, 0).warmHitRatio());
    assertEquals(0, w(t, 0).warmLaunches());
    assertEquals(2.0 / 3.0, w(t, 1).warmHitRatio(), 1e-12);
    // at 10:05:15 the 5m window starts at 10:00:15 → bucket [10:00:20, ...): claim-1 (ready
    // 10:00:10.25) is out
    WindowSlis partial = w(template(e.snapshot(at(315)), "tpl-py"), 0);
    assertEquals(1, partial.warmLaunches());
    assertEquals(1, partial.coldLaunches());
    // after the longest window, buckets are evicted but totals stay
    SliSnapshot late = template(e.snapshot(at(3 * 3600)), "tpl-py");
    assertNull(w(late, 1).warmHitRatio());
    assertEquals(2, late.totals().warmLaunches());
  }

  @Test
  void launchTypeFromNamingRuleWhenSandboxUnseen() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(pool("pool-py", "tpl-py", 1, 1), 0));
    e.apply(up(claim("c-warm", "pool-py", "pool-py-x9", 1, 1.2, false, "1"), 2));
    e.apply(up(claim("c-cold", "pool-py", "c-cold", 1, 5.0, false, "2"), 6));
    WindowSlis fiveMin = w(template(e.snapshot(at(10)), "tpl-py"), 0);
    assertEquals(1, fiveMin.warmLaunches());
    assertEquals(1, fiveMin.coldLaunches());
  }

  @Test
  void claimReadyBeforeItsPoolIsSeenWaitsThenCountsOnce() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(claim("c1", "pool-py", "pool-py-a", 1, 1.5, false, "1"), 2));
    assertTrue(e.snapshot(at(3)).templates().isEmpty());
    e.apply(up(pool("pool-py", "tpl-py", 1, 1), 3));
    e.apply(up(pool("pool-py", "tpl-py", 1, 0), 4));
    SliSnapshot t = template(e.snapshot(at(5)), "tpl-py");
    assertEquals(1, w(t, 0).warmLaunches());
    assertEquals(false, t.exists());
  }

  @Test
  void poolMembershipByOwnerReferenceAndSemanticStaleness() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(Fixtures.template("tpl-py", "img:1", "1"), 0));
    e.apply(up(pool("pool-py", "tpl-py", 3, 3), 0));
    e.apply(up(member("pool-py-a1", "pool-py", "tpl-py", "img:1", 0, 14.0, "1"), 15));
    e.apply(up(member("pool-py-a2", "pool-py", "tpl-py", "img:1", 0, 12.0, "2"), 15));
    e.apply(up(member("pool-py-a3", "pool-py", "tpl-py", "img:1", 0, null, "3"), 15));
    // spoofed: warm-pool label but no ownerReference (C10) — not a member
    e.apply(
        up(
            new SandboxView(
                new ObjectRef(NS, "sbx-x1"),
                "uid-x1",
                "9",
                at(0),
                null,
                "warm",
                "controller",
                "tpl-py",
                "d6848635",
                null,
                Blueprints.digest(spec("img:1")),
                "Running",
                new ConditionView("True", "DependenciesReady", at(3)),
                null,
                null,
                null,
                false),
            16));
    PoolGauge g = template(e.snapshot(at(20)), "tpl-py").pool();
    assertEquals(new PoolGauge(3, 3, 3, 1.0, 3, 2, 2, 2.0 / 3, 0, 1), g);
    // refill (cold start) p95 over the two Ready members: 12 s and 14 s
    WindowSlis fiveMin = w(template(e.snapshot(at(20)), "tpl-py"), 0);
    assertEquals(2, fiveMin.coldStart().count());
    assertEquals(14.0, fiveMin.coldStart().p95().toNanos() / 1e9, 14 * 0.004);

    // a metadata-only edit: same semantic digest ⇒ nothing stale
    e.apply(up(Fixtures.template("tpl-py", "img:1", "2"), 30));
    assertEquals(0, template(e.snapshot(at(31)), "tpl-py").pool().staleMembers());
    // image change ⇒ all three stale; current-template ready fraction 0, upstream's still 1.0
    e.apply(up(Fixtures.template("tpl-py", "img:2", "3"), 40));
    PoolGauge after = template(e.snapshot(at(41)), "tpl-py").pool();
    assertEquals(3, after.staleMembers());
    assertEquals(0.0, after.readyFractionCurrentTemplate());
    assertEquals(1.0, after.readyFraction());
  }

  @Test
  void replicasZeroPoolHasNoReadyFraction() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(pool("pool-cold", "tpl-gpu", 0, 0), 0));
    PoolGauge g = template(e.snapshot(at(1)), "tpl-gpu").pool();
    assertNull(g.readyFraction());
    assertNull(g.readyFractionCurrentTemplate());
  }

  private static SandboxView resumable(
      String name, String mode, ConditionView ready, ConditionView suspended, String rv) {
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv,
        at(0),
        new OwnerView("SandboxClaim", "c-" + name, "uid-c"),
        "warm",
        "python-client",
        "tpl-py",
        null,
        "uid-c",
        "d",
        mode,
        ready,
        suspended,
        null,
        null,
        false);
  }

  @Test
  void resumeSuccessErrorAndTimeout() {
    FleetEngine e =
        new FleetEngine(
            new EngineConfig(
                List.of(Duration.ofMinutes(5)), Duration.ofSeconds(10), Duration.ofSeconds(30)));
    ConditionView suspendedReady = new ConditionView("False", "SandboxSuspended", at(0));
    ConditionView notReady = new ConditionView("False", "DependenciesNotReady", at(10));
    for (String n : List.of("ok", "bad", "slow", "unknown")) {
      e.apply(
          up(
              resumable(
                  n,
                  "Suspended",
                  suspendedReady,
                  new ConditionView("True", "PodTerminated", at(0)),
                  n + "1"),
              1));
      e.apply(
          up(
              resumable(
                  n,
                  "Running",
                  notReady,
                  new ConditionView("False", "NotSuspended", at(10)),
                  n + "2"),
              10));
    }
    e.apply(
        up(
            resumable(
                "ok",
                "Running",
                new ConditionView("True", "DependenciesReady", at(13)),
                null,
                "ok3"),
            13.5));
    e.apply(
        up(
            resumable(
                "bad",
                "Running",
                new ConditionView("False", "ReconcilerError", at(12)),
                null,
                "bad3"),
            12));
    e.apply(
        up(
            resumable(
                "unknown",
                "Running",
                notReady,
                new ConditionView("Unknown", "PodStateUnknown", at(14)),
                "u3"),
            14));
    WindowSlis before = w(template(e.snapshot(at(20)), "tpl-py"), 0);
    assertEquals(3, before.resumeAttempts());
    assertEquals(2, before.resumeErrors());
    assertEquals(3.5, before.resumeLatency().p50().toNanos() / 1e9, 3.5 * 0.004);
    WindowSlis after = w(template(e.snapshot(at(41)), "tpl-py"), 0);
    assertEquals(4, after.resumeAttempts());
    assertEquals(3, after.resumeErrors());
    assertEquals(0.75, after.resumeErrorRatio());
    SliSnapshot t = template(e.snapshot(at(42)), "tpl-py");
    assertEquals(1, t.totals().resumeSuccess());
    assertEquals(2, t.totals().resumeError());
    assertEquals(1, t.totals().resumeTimeout());
  }

  @Test
  void syncStateAndWatchLag() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    assertEquals(false, e.snapshot(at(0)).allSynced());
    for (Kind k : Kind.values()) {
      e.apply(new FleetEvent.Synced(k, at(1)));
    }
    e.apply(new FleetEvent.Upserted(pool("pool-py", "tpl-py", 1, 1), at(1), at(3.5)));
    e.apply(
        new FleetEvent.Upserted(
            pool("pool-py", "tpl-py", 2, 1), at(1), at(9))); // no newer server time
    FleetSnapshot s = e.snapshot(at(10));
    assertTrue(s.allSynced());
    assertEquals(Duration.ofMillis(2500), s.watchLag().get(Kind.SANDBOX_WARM_POOL).last());
    assertEquals(Duration.ofMillis(2500), s.watchLag().get(Kind.SANDBOX_WARM_POOL).max5m());
  }

  @Test
  void namespaceRollUpSumsTemplates() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    warmColdTimeline().forEach(e::apply);
    e.apply(up(pool("pool-node", "tpl-node", 2, 1), 0));
    e.apply(up(claim("n1", "pool-node", "pool-node-z", 1, 2.0, false, "n1"), 3));
    FleetSnapshot s = e.snapshot(at(60));
    SliSnapshot ns = s.namespaces().get(0);
    assertEquals(NS, ns.key().namespace());
    assertEquals(List.of("tpl-node", "tpl-py"), ns.related());
    assertEquals(3, ns.windows().get(0).warmLaunches());
    assertEquals(5, ns.pool().replicas());
    assertEquals(2, s.pools().size());
  }

  @Test
  void sloLedgersAreFedEligibleClaimsOnlyByDefault() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.putSlo(
        org.sandboxslo.engine.slo.SloDefinitions.parse(
                java.util.Map.of(
                    "name",
                    "warm-hit",
                    "sli",
                    "warm_hit_ratio",
                    "objective",
                    95,
                    "window",
                    "1d",
                    "selector",
                    java.util.Map.of("namespace", NS, "sandboxTemplate", "tpl-py")))
            .definition());
    e.putSlo(
        org.sandboxslo.engine.slo.SloDefinitions.parse(
                java.util.Map.of(
                    "name",
                    "warm-hit-raw",
                    "sli",
                    "warm_hit_ratio",
                    "objective",
                    95,
                    "window",
                    "1d",
                    "eligibleOnly",
                    false))
            .definition());
    e.putSlo(
        org.sandboxslo.engine.slo.SloDefinitions.parse(
                java.util.Map.of(
                    "name",
                    "fast-claims",
                    "sli",
                    "claim_to_ready_latency",
                    "objective",
                    95,
                    "window",
                    "1d",
                    "latencyThreshold",
                    "1s"))
            .definition());
    warmColdTimeline().forEach(e::apply);
    java.util.List<org.sandboxslo.engine.slo.SloStatus> s = e.slos(at(60));
    // claim-3 set env: not a valid event for the eligible warm-hit SLO
    assertEquals(2, s.get(0).valid());
    assertEquals(1.0, s.get(0).sli());
    assertEquals(3, s.get(1).valid());
    assertEquals(2.0 / 3, s.get(1).sli(), 1e-12);
    // latency: 0.25 s and 0.5 s are within 1 s, 28 s is not
    assertEquals(3, s.get(2).valid());
    assertEquals(2, s.get(2).good());
    org.sandboxslo.engine.sli.Totals t = template(e.snapshot(at(60)), "tpl-py").totals();
    assertEquals(2, t.eligibleWarmLaunches());
    assertEquals(0, t.eligibleColdLaunches());
    // buckets 0.1,0.25,0.5,1,...: 0.25 s → le 0.25, 0.5 s → le 0.5; 28 s → le 30
    assertEquals(
        java.util.List.of(0L, 1L, 1L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L), t.claimToReadyWarm());
    assertEquals(1L, t.claimToReadyCold().get(7));
    assertEquals(0.75, t.claimToReadyWarmSumSeconds(), 1e-6);
    assertEquals(28.0, t.claimToReadyColdSumSeconds(), 1e-6);
  }
}
