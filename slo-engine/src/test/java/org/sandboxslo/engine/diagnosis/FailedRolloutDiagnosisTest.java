package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.Timeline.NS;
import static org.sandboxslo.engine.diagnosis.Timeline.at;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;

/** Fault kind 3: a rollout whose new generation never becomes Ready, hidden by old members. */
class FailedRolloutDiagnosisTest {
  static final String PULL = "Back-off pulling image \"img:2\"";

  /**
   * Template tpl gen 1 (img:1) with 4 Ready members a1..a4; at 60 s gen 2 (img:2). Claims c1 (400
   * s) and c2 (500 s) adopt a1 and a2; the pool creates b1 (401 s) and b2 (501 s) from gen 2.
   */
  static Timeline masked(boolean b1BecomesReady) {
    Timeline tl = new Timeline();
    tl.up(tl.template("tpl", "img:1", 1), 0);
    tl.up(tl.pool("pool-py", "tpl", 4, 4, null), 0);
    for (String m : List.of("a1", "a2", "a3", "a4")) {
      tl.up(tl.member(m, "pool-py", "img:1", 0, 10.0), 10);
    }
    tl.up(tl.template("tpl", "img:2", 2), 60);
    tl.up(tl.sandbox("a1", "SandboxClaim", "c1", "tpl", "img:1", 0, 10.0, false), 400);
    tl.up(tl.claim("c1", "pool-py", "a1", 399.5, 400), 400);
    tl.up(tl.member("b1", "pool-py", "img:2", 401, null), 401);
    if (b1BecomesReady) {
      tl.up(tl.member("b1", "pool-py", "img:2", 401, 420.0), 420);
      tl.pod(tl.pod("b1", null, null, 0), 420);
    } else {
      tl.pod(tl.pod("b1", "ImagePullBackOff", PULL, 0), 410);
    }
    tl.up(tl.sandbox("a2", "SandboxClaim", "c2", "tpl", "img:1", 0, 10.0, false), 500);
    tl.up(tl.claim("c2", "pool-py", "a2", 499.5, 500), 500);
    tl.up(tl.member("b2", "pool-py", "img:2", 501, null), 501);
    tl.pod(tl.pod("b2", "ImagePullBackOff", PULL, 0), 510);
    tl.up(tl.pool("pool-py", "tpl", 4, b1BecomesReady ? 3 : 2, null), 510);
    tl.syncAll(510);
    return tl;
  }

  @Test
  void imagePullFailureHiddenByOldReadyMembersTurnsCriticalAtTheDeadline() {
    Timeline tl = masked(false);
    // before the deadline (60 s + 10 min = 660 s) the failing pods already make it HIGH
    List<Finding> early = tl.findings(600, FindingKind.FAILED_ROLLOUT);
    assertEquals(1, early.size());
    assertEquals(Severity.HIGH, early.get(0).severity());
    assertEquals(at(660).toString(), early.get(0).evidence("alertFiresAt"));

    Finding f = tl.findings(700, FindingKind.FAILED_ROLLOUT).get(0);
    assertEquals(Severity.CRITICAL, f.severity());
    assertEquals("SandboxWarmPool team-a/pool-py", f.subject());
    assertEquals(at(60), f.firstSeen());
    assertEquals("2 created, 0 Ready", f.evidence("newGenerationMembers"));
    assertEquals("ImagePullBackOff ×2", f.evidence("waitingReasons"));
    // status.readyReplicas 2 / spec.replicas 4 = 0.50; Ready on gen 2: 0 / 4
    assertEquals("0.50", f.evidence("readyFractionUpstream"));
    assertEquals("0.00", f.evidence("readyFractionCurrentTemplate"));
    // old-generation Ready unclaimed members: a3, a4
    assertEquals("2", f.evidence("claimsLeftBeforeBroken"));
    // claims Ready from the pool in (400, 700]: c1 (400 s, bucket [400, 410) starts at the edge)
    // and c2 (500 s) → 2 / 300 s = 0.00667/s; 2 claims left / (2/300) = 300 s → 700 + 300 = 1000
    assertEquals("0.00667/s", f.evidence("claimRate"));
    assertEquals(at(1000).toString(), f.evidence("brokenSandboxesFrom"));
    assertTrue(f.evidence("pod").contains("ImagePullBackOff"), f.evidence("pod"));
    assertEquals("RollbackTemplate", f.proposals().get(0).action());
    assertTrue(f.proposals().get(0).summary().contains("generation 1"));
    assertTrue(f.proposals().get(0).steps().get(0).contains("images img:2 → img:1"));
    assertTrue(f.objects().contains("Pod team-a/b1"));

    // and the stale members a3, a4 must not be replaced while no new member has been Ready
    Finding stale = tl.findings(700, FindingKind.STALE_POOL_MEMBERS).get(0);
    assertEquals(1, stale.proposals().size());
    assertEquals("None", stale.proposals().get(0).action());
    assertTrue(stale.proposals().get(0).summary().startsWith("Wait"));
  }

  @Test
  void negativeControlRolloutWhoseFirstNewMemberBecomesReady() {
    Timeline tl = masked(true);
    assertEquals(List.of(), tl.findings(700, FindingKind.FAILED_ROLLOUT));
    // the ordinary paced Recreate is offered again once a canary is Ready
    assertEquals(
        "PacedRecreate",
        tl.findings(700, FindingKind.STALE_POOL_MEMBERS).get(0).proposals().get(0).action());
  }

  @Test
  void crashLoopUnderRecreateChurnsAndAlreadyServesBrokenSandboxes() {
    Timeline tl = new Timeline();
    tl.up(tl.template("tpl", "img:1", 1), 0);
    tl.up(tl.pool("pool-py", "tpl", 3, 3, "Recreate"), 0);
    for (String m : List.of("a1", "a2", "a3")) {
      tl.up(tl.member(m, "pool-py", "img:1", 0, 10.0), 10);
    }
    tl.up(tl.template("tpl", "img:bad", 2), 60);
    for (String m : List.of("a1", "a2", "a3")) {
      tl.apply(new FleetEvent.Deleted(Kind.SANDBOX, new ObjectRef(NS, m), "uid-" + m, at(61)));
    }
    for (String m : List.of("b1", "b2", "b3")) {
      tl.up(tl.member(m, "pool-py", "img:bad", 62, null), 62);
      tl.pod(tl.pod(m, "CrashLoopBackOff", "back-off 40s restarting failed container", 3), 120);
    }
    // the readiness grace period replaces b1 (never Ready) with b4
    tl.apply(new FleetEvent.PodDeleted(new ObjectRef(NS, "b1"), "pod-uid-b1", at(400)));
    tl.apply(new FleetEvent.Deleted(Kind.SANDBOX, new ObjectRef(NS, "b1"), "uid-b1", at(400)));
    tl.up(tl.member("b4", "pool-py", "img:bad", 401, null), 401);
    tl.up(tl.pool("pool-py", "tpl", 3, 0, "Recreate"), 401);

    Finding f = tl.findings(700, FindingKind.FAILED_ROLLOUT).get(0);
    assertEquals(Severity.CRITICAL, f.severity());
    assertEquals("4 created, 0 Ready", f.evidence("newGenerationMembers"));
    assertEquals(
        "3 present (b2, b3, b4), 1 deleted without ever becoming Ready",
        f.evidence().stream()
            .filter(e -> e.name().equals("newGenerationMembers"))
            .findFirst()
            .orElseThrow()
            .arithmetic());
    // b1 from its recorded failure after its Pod was deleted, b2 and b3 from their Pods
    assertEquals("CrashLoopBackOff ×3", f.evidence("waitingReasons"));
    assertEquals("3", f.evidence("maxRestarts"));
    assertEquals("0", f.evidence("claimsLeftBeforeBroken"));
    assertEquals(at(700).toString(), f.evidence("brokenSandboxesFrom"));
    assertEquals("0.00", f.evidence("readyFractionUpstream"));
    assertEquals("RollbackTemplate", f.proposals().get(0).action());
  }

  @Test
  void slowRolloutWithoutFailingPodsIsSilentUntilTheDeadline() {
    Timeline tl = new Timeline();
    tl.up(tl.template("tpl", "img:1", 1), 0);
    tl.up(tl.pool("pool-py", "tpl", 2, 2, null), 0);
    tl.up(tl.member("a1", "pool-py", "img:1", 0, 5.0), 5);
    tl.up(tl.member("a2", "pool-py", "img:1", 0, 5.0), 5);
    tl.up(tl.template("tpl", "img:2", 2), 60);
    tl.up(tl.sandbox("a1", "SandboxClaim", "c1", "tpl", "img:1", 0, 5.0, false), 99);
    tl.up(tl.member("b1", "pool-py", "img:2", 100, null), 100);
    assertEquals(List.of(), tl.findings(659, FindingKind.FAILED_ROLLOUT));
    Finding f = tl.findings(660, FindingKind.FAILED_ROLLOUT).get(0); // 60 s + 600 s
    assertEquals(Severity.CRITICAL, f.severity());
    assertEquals("none", f.evidence("podEvidence"));
    assertEquals("1", f.evidence("claimsLeftBeforeBroken"));
    assertEquals("no data", f.evidence("claimRate"));
  }

  @Test
  void changeNotObservedStartsAtTheFirstNewMemberAndPointsAtTheOldBlueprint() {
    Timeline tl = new Timeline();
    tl.settings = tl.settings.withProgressDeadline(java.time.Duration.ofMinutes(5));
    tl.up(tl.template("tpl", "img:2", 2), 0);
    tl.up(tl.pool("pool-py", "tpl", 2, 1, null), 0);
    tl.up(tl.member("a1", "pool-py", "img:1", -3600, -3590.0), 0);
    tl.up(tl.member("b1", "pool-py", "img:2", 90, null), 100);
    tl.pod(tl.pod("b1", "ErrImagePull", "manifest unknown", 0), 110);
    Finding f = tl.findings(400, FindingKind.FAILED_ROLLOUT).get(0); // 100 s + 300 s
    assertEquals(Severity.CRITICAL, f.severity());
    assertEquals(at(100), f.firstSeen());
    assertEquals(at(100).toString(), f.evidence("rolloutSeenSince"));
    assertEquals("None", f.proposals().get(0).action());
    assertTrue(
        f.proposals().get(0).summary().contains("Ready member a1")
            && f.proposals().get(0).summary().contains("images img:1"),
        f.proposals().get(0).summary());
  }

  @Test
  void everyGenerationIsKeptWithTheTimeItWasSeenReady() {
    Timeline tl = masked(false);
    var gens = tl.engine.templateGenerations(new ObjectRef(NS, "tpl"));
    assertEquals(2, gens.size());
    assertEquals(1, gens.get(0).generation());
    assertEquals(List.of("img:1"), gens.get(0).images());
    assertEquals(at(10), gens.get(0).provenGoodAt());
    assertEquals(at(60), gens.get(1).firstSeenAt());
    assertEquals(null, gens.get(1).provenGoodAt());
  }
}
