package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.LagTimeline.at;
import static org.sandboxslo.engine.diagnosis.LagTimeline.member;
import static org.sandboxslo.engine.diagnosis.LagTimeline.pool;
import static org.sandboxslo.engine.diagnosis.LagTimeline.template;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;

/** Control-loop runaway on hand-written timelines (fault kind 1). */
class OverCreationDiagnosisTest {
  static final String NO_CPU = "0/3 nodes are available: 3 Insufficient cpu.";

  /** Pool of 4; unschedulable members created one per second, each delivered at once. */
  static LagTimeline runaway(int members) {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 4), 0).synced(0);
    for (int i = 1; i <= members; i++) {
      t.up(member(String.format("m%02d", i), "pool", "img:1", 10 + i, null, NO_CPU), 10.2 + i);
    }
    return t;
  }

  @Test
  void unschedulableRunawayOnAPreGateControllerIsNamedWithItsCauseAndCountedExcess() {
    LagTimeline t = runaway(12);
    t.engine.controllerVersion("v0.5.3");
    // the 12th member (received at 10 + 12 + 0.2 s) reaches 12 ≥ 3 × 4; this evaluation is the
    // second observation at a distinct time: one short of three
    assertTrue(t.of(FindingKind.POOL_OVER_CREATION, 22.5).isEmpty());
    t.up(member("m13", "pool", "img:1", 23, null, NO_CPU), 23.2);
    Finding f = t.of(FindingKind.POOL_OVER_CREATION, 24).get(0);
    assertEquals("SandboxWarmPool team-b/pool", f.subject());
    assertEquals(Severity.HIGH, f.severity());
    assertEquals(at(22.2), f.firstSeen());
    // 13 / 4 = 3.25; observations 12@22.2 (growth), eval@22.5, 13@23.2 (growth), eval@24
    assertEquals("3.25", f.evidence("ownedOverDesired"));
    assertEquals(
        "13 owned / 4 spec.replicas ≥ 3.00 for 4 consecutive observations (2 growing) since "
            + at(22.2),
        f.evidence().stream()
            .filter(e -> e.name().equals("ownedOverDesired"))
            .findFirst()
            .orElseThrow()
            .arithmetic());
    assertEquals("9", f.evidence("excessMembers"));
    assertEquals(NO_CPU, f.evidence("schedulingFailure"));
    assertEquals("v0.5.3", f.evidence("controllerVersion"));
    List<String> actions = f.proposals().stream().map(Proposal::action).toList();
    assertEquals(List.of("PausePool", "DeleteExcessMembers", "None", "None", "None"), actions);
    Proposal delete = f.proposals().get(1);
    // excess = 13 − 4 = 9, all not Ready: newest first m13 … m05; the 4 oldest stay
    List<String> expected = new ArrayList<>();
    for (int i = 13; i >= 5; i--) {
      expected.add(String.format("team-b/m%02d", i));
    }
    assertEquals(expected, delete.deletes());
    assertTrue(
        f.proposals()
            .get(3)
            .summary()
            .startsWith("Upgrade the agent-sandbox controller to v0.5.4"));
    // nothing that adds creates is offered while the pool over-creates
    assertTrue(f.proposals().stream().noneMatch(Proposal::addsCreates));
  }

  @Test
  void aScaleDownDrainsMonotonicallyAndIsNotARunaway() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 20), 0).synced(0);
    List<org.sandboxslo.engine.model.SandboxView> ms = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      var m = member(String.format("m%02d", i), "pool", "img:1", 1, 5.0, null);
      ms.add(m);
      t.up(m, 6);
    }
    // scaled to 4: owned 20 ≥ 12, then 19, 18, ... as the controller deletes the excess
    t.up(pool("pool", "tpl", 4), 10);
    for (int i = 0; i < 10; i++) {
      t.delete(ms.get(19 - i), 11 + i, false);
      assertTrue(t.of(FindingKind.POOL_OVER_CREATION, 11.5 + i).isEmpty(), "after delete " + i);
    }
  }

  @Test
  void anOvershootOfTwiceTheReplicasIsNormalReplenishment() {
    LagTimeline t = runaway(8); // 8 / 4 = 2.00 < 3.00
    assertTrue(t.of(FindingKind.POOL_OVER_CREATION, 60).isEmpty());
  }

  @Test
  void aConsoleStartedAfterTheRunawaySeesItInTheInitialListAndKeepsReadyMembersAboveTheFloor() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0, true).up(pool("pool", "tpl", 4), 0, true);
    // 3 Ready + 9 unschedulable = 12 members for 4 replicas: 12 / 4 = 3.00
    for (int i = 1; i <= 12; i++) {
      t.up(
          member(
              String.format("m%02d", i),
              "pool",
              "img:1",
              -600 + i,
              i <= 3 ? -590.0 + i : null,
              i <= 3 ? null : NO_CPU),
          0,
          true);
    }
    t.synced(0.5);
    t.engine.controllerVersion("v0.5.4");
    // the whole list is one observation (at 0 s), the evaluation at 5 s the second
    assertTrue(t.of(FindingKind.POOL_OVER_CREATION, 5).isEmpty());
    Finding f = t.of(FindingKind.POOL_OVER_CREATION, 10).get(0);
    assertEquals(at(0), f.firstSeen());
    assertEquals("3.00", f.evidence("ownedOverDesired"));
    assertEquals(
        "has the expectations gate (≥ v0.5.4)",
        f.evidence().stream()
            .filter(e -> e.name().equals("controllerVersion"))
            .findFirst()
            .orElseThrow()
            .arithmetic());
    // excess 8 = the 8 newest not-Ready members; Ready ones above min(4, 3 Ready) = 3: none
    Proposal delete = f.proposals().get(1);
    assertEquals(8, delete.deletes().size());
    assertFalse(delete.deletes().contains("team-b/m01"));
    assertFalse(delete.deletes().contains("team-b/m04"));
    assertEquals("team-b/m12", delete.deletes().get(0));
    // no upgrade advice for a gated controller
    assertTrue(f.proposals().stream().noneMatch(p -> p.summary().startsWith("Upgrade")));
  }

  @Test
  void aStalePoolThatOverCreatesGetsNoPacedRecreate() {
    LagTimeline t = runaway(14);
    t.up(template("tpl", "img:2"), 40); // every member is now stale
    Finding stale = t.of(FindingKind.STALE_POOL_MEMBERS, 41).get(0);
    Proposal paced = stale.proposals().get(0);
    assertEquals("None", paced.action());
    assertTrue(paced.summary().contains("over-creates"), paced.summary());
  }
}
