package org.sandboxslo.engine.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * The safety invariants of a paced Recreate, over generated pools and adversarial executions
 * (replacements that never become Ready, claims adopting members mid-rollout, spec.replicas changed
 * underneath): a Ready member is deleted only once a replacement on the current template is Ready;
 * the floor counts members Ready now and never lets the pool reach zero Ready by our deletes;
 * claimed Sandboxes are never touched; no plan while a hazard holds.
 */
class PlannerSafetyPropertyTest {
  static final ObjectRef POOL = new ObjectRef("ns", "pool");

  /** A member code: bit 0 Ready, bit 1 stale, bit 2 claimed. */
  @Provide
  Arbitrary<List<Integer>> members() {
    return Arbitraries.integers().between(0, 7).list().ofMaxSize(10);
  }

  static PoolState state(int replicas, List<Integer> codes) {
    List<PoolMember> ms = new ArrayList<>();
    for (int i = 0; i < codes.size(); i++) {
      int c = codes.get(i);
      ms.add(
          new PoolMember(
              "m" + i, "u" + i, (c & 1) != 0, (c & 2) != 0, (c & 4) != 0 ? "claim" + i : null));
    }
    return new PoolState(POOL, "tpl", replicas, "OnReplenish", ms);
  }

  @Property(tries = 400)
  void executionNeverBreaksTheFloorNorDeletesReadyWithoutAReadyReplacement(
      @ForAll @IntRange(min = 0, max = 8) int replicas,
      @ForAll("members") List<Integer> codes,
      @ForAll @DoubleRange(min = 0.05, max = 1.0) double fraction,
      @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 5) Integer> world) {
    PoolState start = state(replicas, codes);
    RemediationPlanner.Offer offer = RemediationPlanner.offer(start, fraction, null);
    if (!(offer instanceof RemediationPlanner.Offer.Planned planned)) {
      return;
    }
    RecreatePlan plan = planned.plan();
    if (start.readyUnclaimed() > 0) {
      assertTrue(plan.floorReady() >= 1, "a plan never aims at zero Ready members");
    }
    assertTrue(plan.floorReady() <= start.readyUnclaimed(), "the floor counts members Ready now");
    assertTrue(plan.targets().stream().allMatch(n -> start.member(n).unclaimed()));
    List<PoolMember> live = new ArrayList<>(start.members());
    int liveReplicas = replicas;
    boolean surged = false;
    int scaleUps = 0;
    Set<String> deleted = new HashSet<>();
    int fresh = 0;
    for (int move : world) {
      PoolState now = new PoolState(POOL, "tpl", liveReplicas, "OnReplenish", live);
      PacedStep step = RemediationPlanner.next(now, plan, deleted, planned.surge(), surged);
      if (step instanceof PacedStep.Done) {
        assertTrue(!surged, "a surged pool is restored before the plan is done");
        return;
      }
      if (step instanceof PacedStep.Scale sc) {
        if (sc.replicas() > plan.replicas()) {
          scaleUps++;
          assertEquals(1, scaleUps, "the surge happens once");
          assertEquals(plan.replicas() + planned.surge(), sc.replicas());
          for (int i = 0; i < planned.surge(); i++) { // the controller creates canaries
            live.add(new PoolMember("s" + i, "us" + i, false, false, null));
          }
          surged = true;
        } else {
          assertTrue(surged, "a restore only follows a surge");
          assertEquals(plan.replicas(), sc.replicas());
          surged = false;
        }
        liveReplicas = sc.replicas();
        continue;
      }
      if (step instanceof PacedStep.Delete d) {
        int readyInBatch = 0;
        for (String n : d.names()) {
          PoolMember m = now.member(n);
          assertTrue(m != null && m.unclaimed() && m.stale(), "only stale unclaimed: " + n);
          readyInBatch += m.ready() ? 1 : 0;
        }
        assertTrue(
            now.readyUnclaimed() - readyInBatch >= plan.floorReady(),
            "floor " + plan.floorReady() + " holds with " + now.readyUnclaimed() + " Ready");
        if (readyInBatch > 0) {
          assertTrue(
              now.readyCurrentTemplate() >= deleted.size() + readyInBatch,
              "a Ready member goes only once its replacement is Ready");
        }
        live.removeIf(m -> d.names().contains(m.name()));
        deleted.addAll(d.names());
        for (String n : d.names()) { // the controller refills; the replacement is not Ready yet
          live.add(new PoolMember("r" + fresh, "ur" + fresh, false, false, null));
          fresh++;
        }
        continue;
      }
      assertInstanceOf(PacedStep.Wait.class, step);
      // the world moves while we wait
      switch (move) {
        case 0, 1 -> readyOne(live, false); // a replacement becomes Ready
        case 2 -> claimOne(live); // a claim adopts an unclaimed member
        case 3 -> readyOne(live, true); // a stale member becomes Ready (or nothing)
        case 4 -> liveReplicas = Math.max(0, liveReplicas - 1); // someone scales down
        default -> {} // nothing happens (a broken template: replacements never Ready)
      }
    }
  }

  private static void readyOne(List<PoolMember> live, boolean stale) {
    for (int i = 0; i < live.size(); i++) {
      PoolMember m = live.get(i);
      if (!m.ready() && m.stale() == stale && m.unclaimed()) {
        live.set(i, new PoolMember(m.name(), m.uid(), true, m.stale(), null));
        return;
      }
    }
  }

  private static void claimOne(List<PoolMember> live) {
    for (int i = 0; i < live.size(); i++) {
      PoolMember m = live.get(i);
      if (m.unclaimed() && m.ready()) {
        live.set(i, new PoolMember(m.name(), m.uid(), true, m.stale(), "late-claim-" + i));
        return;
      }
    }
  }

  @Property(tries = 200)
  void noPlanIsOfferedWhileAHazardHolds(
      @ForAll @IntRange(min = 0, max = 8) int replicas,
      @ForAll("members") List<Integer> codes,
      @ForAll @DoubleRange(min = 0.05, max = 1.0) double fraction) {
    RemediationPlanner.Offer o =
        RemediationPlanner.offer(state(replicas, codes), fraction, "the pool over-creates");
    assertInstanceOf(RemediationPlanner.Offer.Refused.class, o);
  }

  @Property(tries = 200)
  void aSurgeIsPlannedExactlyWhenReadyStaleMembersHaveNoReadyCanary(
      @ForAll @IntRange(min = 1, max = 8) int replicas,
      @ForAll("members") List<Integer> codes,
      @ForAll @DoubleRange(min = 0.05, max = 1.0) double fraction) {
    PoolState s = state(replicas, codes);
    if (RemediationPlanner.offer(s, fraction, null) instanceof RemediationPlanner.Offer.Planned p) {
      boolean readyStale = s.unclaimed().stream().anyMatch(m -> m.ready() && m.stale());
      boolean canary = s.readyCurrentTemplate() > 0;
      assertEquals(readyStale && !canary, p.surge() > 0);
    }
  }
}
