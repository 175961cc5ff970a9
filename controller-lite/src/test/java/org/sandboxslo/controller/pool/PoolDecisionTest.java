package org.sandboxslo.controller.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.ObjectRef;

class PoolDecisionTest {
  static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");
  static final ObjectRef POOL = new ObjectRef("ns", "pool");
  static final PoolDecision DECISION =
      new PoolDecision(300, Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofSeconds(30));

  static Member member(int i, boolean ready, Instant created, String digest) {
    return new Member("pool-" + i, "uid-" + i, created, ready, false, digest, false);
  }

  static List<Member> ready(int n) {
    List<Member> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(member(i, true, T0.minusSeconds(60 - i), "d1"));
    }
    return out;
  }

  static PoolInput input(int replicas, List<Member> members, ExpectationsView exp, Instant now) {
    return new PoolInput(
        POOL,
        1,
        replicas,
        "d1",
        UpdateStrategy.ON_REPLENISH,
        members,
        0,
        exp,
        Double.POSITIVE_INFINITY,
        0,
        null,
        now);
  }

  @Test
  void emptyPoolCreatesUpToReplicasCappedByBatchSize() {
    assertEquals(10, DECISION.decide(input(10, List.of(), ExpectationsView.NONE, T0)).creates());
    PoolDecision small =
        new PoolDecision(4, Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofSeconds(30));
    assertEquals(4, small.decide(input(10, List.of(), ExpectationsView.NONE, T0)).creates());
  }

  @Test
  void expectationsGateHoldsSecondBatchUntilObservedOrExpired() {
    PoolExpectations exp = new PoolExpectations();
    PoolPlan first = DECISION.decide(input(5, List.of(), exp.view(), T0));
    assertEquals(5, first.creates());
    exp.expect(first.creates(), List.of(), T0);

    // informer has seen 2 of 5: no new creates although the pool is short by 3
    exp.creationObserved();
    exp.creationObserved();
    PoolPlan gated = DECISION.decide(input(5, ready(2), exp.view(), T0.plusSeconds(1)));
    assertEquals(0, gated.creates());
    assertEquals(Duration.ofSeconds(30), gated.requeueAfter());
    assertEquals(
        "Skipping sandbox creation: waiting for in-flight creates/deletes to be observed",
        gated.blocked());

    // close to expiry the requeue is the time left, not the fallback
    PoolPlan nearExpiry =
        DECISION.decide(input(5, ready(2), exp.view(), T0.plus(Duration.ofSeconds(290))));
    assertEquals(0, nearExpiry.creates());
    assertEquals(Duration.ofSeconds(10), nearExpiry.requeueAfter());

    // after 5 minutes the expectations expire and creates resume
    PoolPlan expired =
        DECISION.decide(input(5, ready(2), exp.view(), T0.plus(Duration.ofMinutes(5))));
    assertEquals(3, expired.creates());

    // or: once everything is observed, creates resume at once
    exp.creationObserved();
    exp.creationObserved();
    exp.creationObserved();
    assertEquals(ExpectationsView.NONE, exp.view());
    assertEquals(2, DECISION.decide(input(5, ready(3), exp.view(), T0.plusSeconds(2))).creates());
  }

  @Test
  void deletesAreUidTrackedAndGateExcessDeletes() {
    PoolExpectations exp = new PoolExpectations();
    exp.expect(0, List.of("uid-0"), T0);
    PoolPlan gated = DECISION.decide(input(1, ready(3), exp.view(), T0.plusSeconds(1)));
    assertEquals(List.of(), gated.deletes());
    exp.deletionObserved("uid-other");
    assertEquals(1, exp.view().pendingDeletes());
    exp.deletionObserved("uid-0");
    PoolPlan open = DECISION.decide(input(1, ready(3), exp.view(), T0.plusSeconds(1)));
    assertEquals(2, open.deletes().size());
  }

  @Test
  void excessDeletesPreferNotReadyThenNewest() {
    List<Member> ms =
        List.of(
            member(1, true, T0.minusSeconds(30), "d1"),
            member(2, true, T0.minusSeconds(10), "d1"),
            member(3, false, T0.minusSeconds(50), "d1"),
            member(4, true, T0.minusSeconds(20), "d1"));
    PoolPlan plan = DECISION.decide(input(2, ms, ExpectationsView.NONE, T0));
    assertEquals(
        List.of("pool-3", "pool-2"), plan.deletes().stream().map(d -> d.member().name()).toList());
    assertEquals(PoolPlan.DeleteReason.EXCESS, plan.deletes().get(0).reason());
  }

  @Test
  void notReadyPastGraceIsReplacedAndPassDoesNotCreate() {
    List<Member> ms =
        List.of(member(1, false, T0.minus(Duration.ofMinutes(6)), "d1"), member(2, true, T0, "d1"));
    PoolPlan plan = DECISION.decide(input(3, ms, ExpectationsView.NONE, T0));
    assertEquals(1, plan.deletes().size());
    assertEquals(PoolPlan.DeleteReason.NOT_READY_PAST_GRACE, plan.deletes().get(0).reason());
    assertEquals(0, plan.creates());
  }

  @Test
  void recreateDeletesAllUnclaimedStaleMembersOnReplenishKeepsThem() {
    List<Member> ms =
        new ArrayList<>(
            List.of(
                member(1, true, T0, "old"), member(2, true, T0, "old"), member(3, true, T0, "d1")));
    ms.add(new Member("pool-9", "uid-9", T0, true, false, "old", true)); // being adopted
    PoolInput recreate =
        new PoolInput(
            POOL,
            1,
            4,
            "d1",
            UpdateStrategy.RECREATE,
            ms,
            0,
            ExpectationsView.NONE,
            Double.POSITIVE_INFINITY,
            0,
            null,
            T0);
    assertEquals(
        List.of("pool-1", "pool-2"),
        DECISION.decide(recreate).deletes().stream().map(d -> d.member().name()).toList());
    PoolInput onReplenish =
        new PoolInput(
            POOL,
            1,
            4,
            "d1",
            UpdateStrategy.ON_REPLENISH,
            ms,
            0,
            ExpectationsView.NONE,
            Double.POSITIVE_INFINITY,
            0,
            null,
            T0);
    assertEquals(List.of(), DECISION.decide(onReplenish).deletes());
  }

  @Test
  void refillRateLimitsCreatesAndRequeuesForTheNextToken() {
    PoolInput in =
        new PoolInput(
            POOL,
            1,
            10,
            "d1",
            UpdateStrategy.ON_REPLENISH,
            List.of(),
            0,
            ExpectationsView.NONE,
            2.5,
            2.0,
            null,
            T0);
    PoolPlan plan = DECISION.decide(in);
    assertEquals(2, plan.creates());
    PoolInput none =
        new PoolInput(
            POOL,
            1,
            10,
            "d1",
            UpdateStrategy.ON_REPLENISH,
            List.of(),
            0,
            ExpectationsView.NONE,
            0.5,
            2.0,
            null,
            T0);
    PoolPlan waiting = DECISION.decide(none);
    assertEquals(0, waiting.creates());
    assertEquals(Duration.ofMillis(250), waiting.requeueAfter());
  }

  @Test
  void statusIsWrittenOnlyWhenItChangesAndTemplateMissingCreatesNothing() {
    PoolPlan plan = DECISION.decide(input(2, ready(2), ExpectationsView.NONE, T0));
    PoolStatus st = new PoolStatus(2, 2, PoolDecision.selector("pool"), 1);
    assertEquals(st, plan.status());
    PoolInput same =
        new PoolInput(
            POOL,
            1,
            2,
            "d1",
            UpdateStrategy.ON_REPLENISH,
            ready(2),
            0,
            ExpectationsView.NONE,
            Double.POSITIVE_INFINITY,
            0,
            st,
            T0);
    assertNull(DECISION.decide(same).status());
    PoolInput noTemplate =
        new PoolInput(
            POOL,
            1,
            2,
            null,
            UpdateStrategy.ON_REPLENISH,
            List.of(),
            0,
            ExpectationsView.NONE,
            Double.POSITIVE_INFINITY,
            0,
            null,
            T0);
    assertEquals(0, DECISION.decide(noTemplate).creates());
    assertEquals(
        "agents.x-k8s.io/warm-pool-sandbox=" + org.sandboxslo.engine.upstream.NameHash.of("pool"),
        PoolDecision.selector("pool"));
  }

  @Test
  void tokenBucketRefillsAtRateAndCapsAtCapacity() {
    TokenBucket b = new TokenBucket(2, T0);
    assertEquals(2.0, b.available(T0));
    b.take(2, T0);
    assertEquals(0.0, b.available(T0));
    assertEquals(1.0, b.available(T0.plusMillis(500)), 1e-9);
    assertEquals(2.0, b.available(T0.plusSeconds(10)), 1e-9);
    b.setRate(0);
    assertEquals(Double.POSITIVE_INFINITY, b.available(T0.plusSeconds(11)));
    assertThrows(IllegalArgumentException.class, () -> b.setRate(-1));
  }
}
