package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.LagTimeline.adopted;
import static org.sandboxslo.engine.diagnosis.LagTimeline.at;
import static org.sandboxslo.engine.diagnosis.LagTimeline.claim;
import static org.sandboxslo.engine.diagnosis.LagTimeline.member;
import static org.sandboxslo.engine.diagnosis.LagTimeline.pool;
import static org.sandboxslo.engine.diagnosis.LagTimeline.template;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.SandboxView;

/** Watch lag per kind, cross-stream detection and the expectations gate (fault kind 2). */
class WatchLagDiagnosisTest {

  @Test
  void theInitialListIsNotLagAndTheGaugeFollowsLiveEventsBackDown() {
    LagTimeline t = new LagTimeline();
    // listed at 0 s: objects created an hour earlier (no list flag: the burst rule applies)
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 2), 0);
    SandboxView m1 = member("m1", "pool", "img:1", -3600, -3590.0, null);
    t.up(m1, 0).up(member("m2", "pool", "img:1", -3600, -3590.0, null), 0.1).synced(0.2);
    assertTrue(t.engine.watchLag(at(1)).isEmpty(), "list ages are not lag");
    // a claim adopts m1: the claim's Ready (server 100 s) arrives at 140 s → 40 s lag
    t.up(claim("c1", "pool", "m1", 99.5, 100.0, null), 140);
    KindLag l = t.engine.watchLag(at(141)).get(Kind.SANDBOX_CLAIM);
    assertEquals(Duration.ofSeconds(40), l.last());
    assertEquals(Duration.ofSeconds(40), l.max5m());
    // recovered: the next claim's Ready (server 200 s) arrives at 200.5 s
    t.up(claim("c2", "pool", "m2", 199.5, 200.0, null), 200.5);
    assertEquals(Duration.ofMillis(500), t.engine.watchLag(at(201)).get(Kind.SANDBOX_CLAIM).last());
    assertEquals(
        Duration.ofSeconds(40), t.engine.watchLag(at(201)).get(Kind.SANDBOX_CLAIM).max5m());
    // 5 minutes after the 40 s sample (bucket 140 s) only the 0.5 s one is left
    KindLag later = t.engine.watchLag(at(140 + 300 + 10)).get(Kind.SANDBOX_CLAIM);
    assertEquals(Duration.ofMillis(500), later.max5m());
    assertEquals(1, later.samples5m());
  }

  /** Pool of 3 Ready members at 10 s; claims timely, Sandboxes delivered {@code lag} s late. */
  static LagTimeline sandboxStreamLags(double lag) {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 3), 0).synced(0.5);
    for (int i = 1; i <= 3; i++) {
      t.up(member("m" + i, "pool", "img:1", 5, 10.0, null), 10 + lag);
    }
    return t;
  }

  @Test
  void oneLaggingKindIsTheApiserverWatchPath() {
    LagTimeline t = sandboxStreamLags(40);
    // the claims stream is timely: a claim Ready at 60 s is received at 60.3 s
    t.up(claim("c1", "pool", "m1", 59.5, 60.0, null), 60.3);
    t.up(adopted(member("m1", "pool", "img:1", 5, 10.0, null), "c1", "warm"), 60.4);
    Finding f = t.of(FindingKind.WATCH_LAG, 70).get(0);
    assertEquals("Watch Sandbox", f.subject());
    assertEquals(Severity.TICKET, f.severity());
    // received 50 − server 10 = 40 s; the adoption patch carries no newer server time
    assertEquals("40.0 s", f.evidence("watchLag.Sandbox"));
    assertEquals("apiserver watch path", f.evidence("attribution"));
    assertEquals(at(50), f.firstSeen());
    assertTrue(f.proposals().get(0).summary().contains("--separate-watch-connection=true"));
    assertTrue(f.proposals().stream().allMatch(p -> p.action().equals("None")));
  }

  @Test
  void everyKindLaggingAlikeIsTheConsoleItself() {
    LagTimeline t = sandboxStreamLags(30);
    t.up(claim("c1", "pool", "m1", 59.5, 60.0, null), 90);
    Finding f = t.of(FindingKind.WATCH_LAG, 95).get(0);
    assertEquals("Console watch (all kinds)", f.subject());
    assertEquals("console", f.evidence("attribution"));
    assertEquals("30.0 s", f.evidence("watchLag.Sandbox"));
    assertEquals("30.0 s", f.evidence("watchLag.SandboxClaim"));
  }

  @Test
  void aClaimNamingAPoolOwnedSandboxShowsTheLagBeforeTheLateEventArrives() {
    LagTimeline t = sandboxStreamLags(0.2);
    t.up(claim("c1", "pool", "m2", 99.8, 100.0, null), 100.1);
    // 5 s later: below the 10 s warn level, no finding yet
    assertTrue(t.of(FindingKind.WATCH_LAG, 105).isEmpty());
    Finding f = t.of(FindingKind.WATCH_LAG, 115.1).get(0);
    assertEquals("Watch Sandbox", f.subject());
    // 115.1 − 100.1 = 15 s: a lower bound; no late Sandbox event has arrived yet
    assertEquals("≥ 15 s", f.evidence("crossStream.Sandbox"));
    // the measured lag still looks timely: only the earlier deliveries (10.2 − 10) were sampled
    assertEquals("0.2 s", f.evidence("watchLag.Sandbox"));
    assertEquals(List.of("Sandbox team-b/m2"), f.objects());
    // the late adoption arrives: the contradiction is gone
    t.up(adopted(member("m2", "pool", "img:1", 5, 10.0, null), "c1", "warm"), 116);
    assertTrue(t.of(FindingKind.WATCH_LAG, 117).isEmpty());
  }

  /**
   * Pool of 3; at 100 s three claims adopt m1..m3 and the controller creates m4..m6 (server 101 s),
   * which reach the Sandbox watch only at 141 s (40 s late); at 150 s two more claims take m4, m5;
   * then nothing is created. A cold claim at 160 s starts cold although m6 was Ready (server 110
   * s).
   */
  static LagTimeline gateStall() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 3), 0).synced(0.5);
    for (int i = 1; i <= 3; i++) {
      t.up(member("m" + i, "pool", "img:1", 5, 10.0, null), 10.2);
    }
    for (int i = 1; i <= 3; i++) {
      t.up(claim("c" + i, "pool", "m" + i, 99.5, 100.0, null), 100.2);
      t.up(adopted(member("m" + i, "pool", "img:1", 5, 10.0, null), "c" + i, "warm"), 100.3);
    }
    for (int i = 4; i <= 6; i++) {
      t.up(member("m" + i, "pool", "img:1", 101, 110.0, null), 141);
    }
    for (int i = 4; i <= 5; i++) {
      t.up(claim("c" + i, "pool", "m" + i, 149.5, 150.0, null), 150.2);
      t.up(adopted(member("m" + i, "pool", "img:1", 101, 110.0, null), "c" + i, "warm"), 150.3);
    }
    // c9 launched cold (a Sandbox named like the claim) at 160 s
    SandboxView cold = adopted(member("c9", "pool", "img:1", 160, 163.0, null), "c9", "cold");
    t.up(claim("c9", "pool", "c9", 160.0, 163.0, null), 163.2).up(cold, 163.3);
    return t;
  }

  @Test
  void aRefillStallWithLateCreatesIsTheGateWithItsReleaseTimeAndAvoidableColdStarts() {
    LagTimeline t = gateStall();
    // 200 − 101 = 99 s without a create ≥ 60 s; deficit 3 − 1 (m6) = 2
    List<Finding> gated = t.of(FindingKind.REFILL_GATED_BY_WATCH_LAG, 200);
    assertEquals(1, gated.size());
    Finding g = gated.get(0);
    assertEquals("SandboxWarmPool team-b/pool", g.subject());
    assertEquals("2", g.evidence("deficit"));
    assertEquals("99 s", g.evidence("serverCreateGap"));
    assertEquals("3", g.evidence("unobservedCreates"));
    // earliest unobserved create 101 s + 300 s
    assertEquals(at(401).toString(), g.evidence("gateReleaseBy"));
    assertEquals("1", g.evidence("avoidableColdStarts"));
    assertEquals(Severity.HIGH, g.severity());
    assertEquals(at(101 + 60), g.firstSeen());
    assertTrue(
        g.objects()
            .contains("SandboxClaim team-b/c9 (avoidable cold start: m6 Ready on the server)"),
        g.objects().toString());
    // the generic stall is attributed, not repeated
    assertTrue(t.of(FindingKind.REFILL_STALLED, 200).isEmpty());
    // nothing that deletes, recreates or scales the pool while the gate blocks
    for (Finding f : t.findings(200, org.sandboxslo.engine.finding.DiagnosisConfig.defaults())) {
      if (f.subject().equals("SandboxWarmPool team-b/pool")) {
        assertTrue(f.proposals().stream().noneMatch(Proposal::automatic), f.toString());
      }
    }
  }

  @Test
  void aStallWithTimelyCreatesIsAPlainRefillStall() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 3), 0).synced(0.5);
    t.up(member("m1", "pool", "img:1", 5, 10.0, null), 5.3);
    t.up(member("m2", "pool", "img:1", 6, null, null), 6.3);
    assertTrue(t.of(FindingKind.REFILL_GATED_BY_WATCH_LAG, 100).isEmpty());
    assertEquals(1, t.of(FindingKind.REFILL_STALLED, 100).size());
    assertTrue(t.of(FindingKind.WATCH_LAG, 100).isEmpty());
  }
}
