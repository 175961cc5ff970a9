package org.sandboxslo.engine.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.ObjectRef;

class RemediationPlannerTest {
  static final ObjectRef POOL = new ObjectRef("team-a", "pool-py");

  /** C03 after the template change: a1 adopted by claim-001, a2 and a3 stale, b1 fresh. */
  static PoolState c03(PoolMember... extra) {
    List<PoolMember> ms =
        new java.util.ArrayList<>(
            List.of(
                new PoolMember("pool-py-a1", "u1", true, true, "claim-001"),
                new PoolMember("pool-py-a2", "u2", true, true, null),
                new PoolMember("pool-py-a3", "u3", true, true, null),
                new PoolMember("pool-py-b1", "u4", true, false, null)));
    ms.addAll(List.of(extra));
    return new PoolState(POOL, "tpl-py", 3, "OnReplenish", ms);
  }

  @Test
  void c03PlansA2ThenA3OneAtATimeAndNeverA1() {
    RecreatePlan p = RemediationPlanner.pacedRecreate(c03(), 0.34);
    assertEquals(1, p.maxUnavailable());
    assertEquals(2, p.floorReady());
    assertEquals(List.of(List.of("pool-py-a2"), List.of("pool-py-a3")), p.batches());
    assertEquals(List.of("pool-py-a1 (claim claim-001)"), p.untouched());
    assertEquals(2, p.staleBefore());
    assertEquals(3, p.readyBefore());
    assertEquals(1, p.readyCurrentTemplateBefore());
    assertEquals(2.0 / 3, p.floorFraction(), 1e-9);
  }

  @Test
  void stepsDeleteA2WaitForItsReplacementThenA3() {
    RecreatePlan plan = RemediationPlanner.pacedRecreate(c03(), 0.34);
    assertEquals(
        new PacedStep.Delete(List.of("pool-py-a2")),
        RemediationPlanner.next(c03(), plan, Set.of()));
    // a2 deleted, replacement b2 not Ready yet: 2 Ready (a3, b1); deleting a3 would leave 1 < 2
    PoolState mid =
        new PoolState(
            POOL,
            "tpl-py",
            3,
            "OnReplenish",
            List.of(
                new PoolMember("pool-py-a1", "u1", true, true, "claim-001"),
                new PoolMember("pool-py-a3", "u3", true, true, null),
                new PoolMember("pool-py-b1", "u4", true, false, null),
                new PoolMember("pool-py-b2", "u5", false, false, null)));
    PacedStep wait = RemediationPlanner.next(mid, plan, Set.of("pool-py-a2"));
    assertEquals(
        new PacedStep.Wait(
            "waiting for replacements: 2 of 3 members Ready; deleting 1 would leave 1 < floor 2"),
        wait);
    PoolState replaced =
        new PoolState(
            POOL,
            "tpl-py",
            3,
            "OnReplenish",
            List.of(
                new PoolMember("pool-py-a1", "u1", true, true, "claim-001"),
                new PoolMember("pool-py-a3", "u3", true, true, null),
                new PoolMember("pool-py-b1", "u4", true, false, null),
                new PoolMember("pool-py-b2", "u5", true, false, null)));
    assertEquals(
        new PacedStep.Delete(List.of("pool-py-a3")),
        RemediationPlanner.next(replaced, plan, Set.of("pool-py-a2")));
    PoolState done =
        new PoolState(
            POOL,
            "tpl-py",
            3,
            "OnReplenish",
            List.of(
                new PoolMember("pool-py-a1", "u1", true, true, "claim-001"),
                new PoolMember("pool-py-b1", "u4", true, false, null),
                new PoolMember("pool-py-b2", "u5", true, false, null),
                new PoolMember("pool-py-b3", "u6", true, false, null)));
    assertEquals(
        new PacedStep.Done(List.of()),
        RemediationPlanner.next(done, plan, Set.of("pool-py-a2", "pool-py-a3")));
  }

  @Test
  void aMemberClaimedBeforeItsTurnIsSkippedNotDeleted() {
    RecreatePlan plan = RemediationPlanner.pacedRecreate(c03(), 0.34);
    PoolState a2Claimed =
        new PoolState(
            POOL,
            "tpl-py",
            3,
            "OnReplenish",
            List.of(
                new PoolMember("pool-py-a1", "u1", true, true, "claim-001"),
                new PoolMember("pool-py-a2", "u2", true, true, "claim-002"),
                new PoolMember("pool-py-a3", "u3", true, true, null),
                new PoolMember("pool-py-b1", "u4", true, false, null),
                new PoolMember("pool-py-b2", "u5", true, false, null)));
    assertEquals(
        new PacedStep.Delete(List.of("pool-py-a3")),
        RemediationPlanner.next(a2Claimed, plan, Set.of()));
    PacedStep end = RemediationPlanner.next(a2Claimed, plan, Set.of("pool-py-a3"));
    assertEquals(new PacedStep.Done(List.of("pool-py-a2")), end);
  }

  @Test
  void eightReplicasGoTwoAtATimeKeepingSixReady() {
    List<PoolMember> ms = new java.util.ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      ms.add(new PoolMember("m" + i, "u" + i, true, true, null));
    }
    ms.add(new PoolMember("c1", "uc", true, true, "claim-x"));
    PoolState s = new PoolState(POOL, "tpl", 8, "OnReplenish", ms);
    RecreatePlan p = RemediationPlanner.pacedRecreate(s, 0.34);
    assertEquals(2, p.maxUnavailable());
    assertEquals(6, p.floorReady());
    assertEquals(4, p.batches().size());
    assertEquals(List.of("m1", "m2"), p.batches().get(0));
    // no member on the current template is Ready: no Ready member goes before a canary is Ready
    assertEquals(
        new PacedStep.Wait(
            "waiting for canaries: 0 Ready member(s) on the current template, need 2 (0 deleted so"
                + " far + 2 Ready in the next batch)"),
        RemediationPlanner.next(s, p, Set.of()));
    // with two canaries Ready (n1, n2: 10 Ready, 10 − 2 = 8 ≥ floor 6) the first batch goes
    List<PoolMember> withCanaries = new java.util.ArrayList<>(ms);
    withCanaries.add(new PoolMember("n1", "un1", true, false, null));
    withCanaries.add(new PoolMember("n2", "un2", true, false, null));
    PoolState c = new PoolState(POOL, "tpl", 8, "OnReplenish", withCanaries);
    assertEquals(
        new PacedStep.Delete(List.of("m1", "m2")), RemediationPlanner.next(c, p, Set.of()));
  }

  @Test
  void nothingStaleIsAnEmptyPlanThatIsDoneAtOnce() {
    PoolState s =
        new PoolState(
            POOL, "tpl", 1, "OnReplenish", List.of(new PoolMember("m1", "u", true, false, null)));
    RecreatePlan p = RemediationPlanner.pacedRecreate(s, 0.34);
    assertEquals(List.of(), p.batches());
    assertEquals(0, p.floorReady());
    assertEquals(new PacedStep.Done(List.of()), RemediationPlanner.next(s, p, Set.of()));
  }

  @Test
  void badFractionsAreRejectedWithTheValue() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RemediationPlanner.maxUnavailable(0, 3));
    assertEquals("max unavailable fraction must be in (0, 1], got 0.0", e.getMessage());
    assertEquals(1, RemediationPlanner.maxUnavailable(0.34, 3));
    assertEquals(3, RemediationPlanner.maxUnavailable(1, 3));
  }
}
