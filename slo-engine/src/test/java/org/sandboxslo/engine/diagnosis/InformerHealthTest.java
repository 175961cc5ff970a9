package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.LagTimeline.at;
import static org.sandboxslo.engine.diagnosis.LagTimeline.claim;
import static org.sandboxslo.engine.diagnosis.LagTimeline.member;
import static org.sandboxslo.engine.diagnosis.LagTimeline.pool;
import static org.sandboxslo.engine.diagnosis.LagTimeline.template;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.sli.LatencySummary;

/** Informer health of the console's own data, and relist semantics (fault kind 7). */
class InformerHealthTest {
  static final DiagnosisConfig CFG = DiagnosisConfig.defaults();

  /** Pool of 3 on img:1; the template moves to img:2 at 50 s so every member is stale. */
  static LagTimeline stalePool() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 3), 0).synced(0.5);
    for (int i = 1; i <= 3; i++) {
      t.up(member("m" + i, "pool", "img:1", 5, 10.0, null), 10.2);
    }
    t.up(template("tpl", "img:2"), 50);
    return t;
  }

  @Test
  void aContradictionLongerThanTheBoundMakesTheSandboxStreamSuspectAndHoldsItsFindingsBack() {
    LagTimeline t = stalePool();
    t.up(claim("c1", "pool", "m1", 99.8, 100.0, null), 100.1);
    // 20 s: the Sandbox stream lags (a WatchLag finding) but is not suspect yet (bound 30 s)
    assertTrue(t.engine.suspectStaleKinds(at(120.1), CFG).isEmpty());
    assertEquals(
        "PacedRecreate",
        t.of(FindingKind.STALE_POOL_MEMBERS, 120.1).get(0).proposals().get(0).action());
    Map<Kind, InformerHealth.Suspicion> s = t.engine.suspectStaleKinds(at(131.1), CFG);
    assertEquals(Set.of(Kind.SANDBOX), s.keySet());
    assertEquals(at(100.1), s.get(Kind.SANDBOX).since());
    assertEquals(
        "SandboxClaim team-b/c1 names m1 but the Sandbox stream still shows it owned by"
            + " SandboxWarmPool pool for 31 s ≥ 30 s",
        s.get(Kind.SANDBOX).reason());
    List<Finding> fs = t.findings(131.1, CFG);
    Finding informer =
        fs.stream()
            .filter(f -> f.kind() == FindingKind.INFORMER_SUSPECT_STALE)
            .findFirst()
            .orElseThrow();
    assertEquals("Informer Sandbox", informer.subject());
    assertEquals(Severity.HIGH, informer.severity());
    assertEquals("503", informer.evidence("readyz"));
    Finding stale =
        fs.stream()
            .filter(f -> f.kind() == FindingKind.STALE_POOL_MEMBERS)
            .findFirst()
            .orElseThrow();
    assertEquals(Severity.INFO, stale.severity());
    assertEquals("Sandbox stream suspect-stale since " + at(100.1), stale.evidence("dataGap"));
    assertTrue(stale.explanation().startsWith("Held back (data gap: "));
    assertEquals(1, stale.proposals().size());
    assertEquals("None", stale.proposals().get(0).action());
    // the lag diagnosis itself is not held back
    assertEquals(
        1,
        fs.stream()
            .filter(f -> f.kind() == FindingKind.WATCH_LAG && f.severity() != Severity.INFO)
            .count());
  }

  @Test
  void aSandboxStreamSilentWhileClaimsKeepNamingSandboxesIsSuspect() {
    LagTimeline t = stalePool();
    for (int i = 1; i <= 3; i++) { // claims keep arriving; the Sandbox stream says nothing
      t.up(claim("c" + i, "pool", "x" + i, 40 + 25 * i, null, null), 40.2 + 25 * i);
    }
    // last Sandbox delivery 10.2 s (the template at 50 s is another stream): silent 120 s at 130.2
    assertNull(t.engine.suspectStaleKinds(at(130.1), CFG).get(Kind.SANDBOX));
    InformerHealth.Suspicion s = t.engine.suspectStaleKinds(at(130.2), CFG).get(Kind.SANDBOX);
    assertEquals(at(10.2), s.since());
    assertEquals(
        "the Sandbox stream delivered nothing for 120 s (≥ 120 s) while 3 claims named a Sandbox",
        s.reason());
  }

  @Test
  void aQuietFleetIsNotSuspect() {
    LagTimeline t = stalePool();
    t.up(claim("c1", "pool", "m1", 59.5, 60.0, null), 60.2);
    t.up(LagTimeline.adopted(member("m1", "pool", "img:1", 5, 10.0, null), "c1", "warm"), 60.3);
    // nothing moves for an hour: silence alone is no evidence
    assertTrue(t.engine.suspectStaleKinds(at(3660), CFG).isEmpty());
    assertTrue(t.of(FindingKind.INFORMER_SUSPECT_STALE, 3660).isEmpty());
  }

  static SandboxView bare(String mode, ConditionView ready, ConditionView suspended, String rv) {
    return new SandboxView(
        new ObjectRef(LagTimeline.NS, "solo"),
        "uid-solo",
        rv,
        at(0),
        new OwnerView("SandboxClaim", "c-solo", "uid-c-solo"),
        "cold",
        "go-client",
        "tpl",
        null,
        null,
        "d",
        mode,
        ready,
        suspended,
        null,
        null,
        false);
  }

  @Test
  void afterARelistUpdatesAreIdempotentAndLatenciesComeFromTheObjects() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).synced(0.5);
    SandboxView suspended =
        bare(
            "Suspended",
            new ConditionView("False", "SandboxSuspended", at(10)),
            new ConditionView("True", "PodTerminated", at(12)),
            "5");
    t.engine.apply(new FleetEvent.Upserted(suspended, at(12), at(12.3)));
    // same UID and resourceVersion again (a relist): ignored
    long dup = t.engine.duplicatesIgnored();
    t.engine.apply(new FleetEvent.Upserted(suspended, at(12), at(300), true));
    assertEquals(dup + 1, t.engine.duplicatesIgnored());
    // resumed at 100 s and Ready at 103 s (server) while nothing watched; re-listed at 400 s
    SandboxView resumed =
        bare(
            "Running",
            new ConditionView("True", "DependenciesReady", at(103)),
            new ConditionView("False", "NotSuspended", at(100)),
            "9");
    t.engine.apply(new FleetEvent.Upserted(resumed, at(103), at(400), true));
    LatencySummary l =
        t.engine.snapshot(at(401)).namespaces().get(0).windows().get(0).resumeLatency();
    assertEquals(1, l.count());
    // 103 − 100 = 3 s from the object, not 0 s (relist to relist) nor 297 s (gap)
    assertEquals(3.0, l.max().toMillis() / 1000.0, 0.05);
    // the relisted object's age (400 − 103 s) is not watch lag
    assertTrue(
        t.engine.watchLag(at(401)).get(Kind.SANDBOX) == null
            || t.engine.watchLag(at(401)).get(Kind.SANDBOX).max5m().compareTo(Duration.ofSeconds(1))
                < 0);
  }
}
