package org.sandboxslo.engine.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.PoolSizing;

class WarmPoolSimulatorTest {
  static final LogNormal ADOPT_100MS = LogNormal.constant(Duration.ofMillis(100));
  static final LogNormal COLD_5S = LogNormal.constant(Duration.ofSeconds(5));

  @Test
  void constantRateBelowTheRefillCeilingIsAllWarm() {
    // 10 claims/s for 600 s against one pool of 60, refill ≤ 20/s, cold start 5 s: each adoption
    // is replaced at once (10/s < 20/s) and the replacement is Ready 5 s later, so 10 × 5 = 50
    // members are always in flight and 60 − 50 = 10 stay Ready: every claim is warm
    PoolConfig c = PoolConfig.of(1, 60, COLD_5S, ADOPT_100MS).withRefillRate(20);
    WhatIfResult r =
        WarmPoolSimulator.run(new DemandProfile.Steady(10, Duration.ofSeconds(600)), c, 1);
    assertEquals(6000, r.claims()); // 600 s × 10/s
    assertEquals(6000, r.warmLaunches());
    assertEquals(0, r.coldLaunches());
    assertEquals(1.0, r.warmHitRatio());
    assertEquals(Duration.ofMillis(100), r.claimToReady().p99());
    assertNull(r.claimToReadyCold());
    // lowest: after the claim at 4.9 s, 60 − 50 adopted = 10 Ready (10/60); from 5 s on a
    // replacement is Ready at the instant the next claim takes one
    assertEquals(10.0 / 60, r.minReadyFraction(), 1e-12);
    assertEquals(6000, r.membersCreated()); // one replacement per adoption
  }

  @Test
  void constantRateAboveTheRefillCeilingDrainsThePool() {
    // 30 claims/s for 3600 s, one pool of 200, refill ≤ 20/s (the bucket starts full: 20 tokens),
    // cold start 5 s; a claim that finds no Ready member starts cold at once (no wait).
    // Creates are token-bound once the pool drains: 20 at t=0 from the full bucket, then 20/s, and
    // every Ready member is taken by the next claim (one per 1/30 s). So warm = 200 initial +
    // members Ready by the last arrival (3599.967 s), i.e. created by 3594.967 s:
    // 20 + floor(20 × 3594.967) = 20 + 71,899 → 200 + 71,919 = 72,119 of 108,000 (±2 for token
    // rounding at the edges)
    PoolConfig c =
        PoolConfig.of(1, 200, COLD_5S, ADOPT_100MS)
            .withRefillRate(20)
            .withPendingCandidateWait(Duration.ZERO);
    WhatIfResult r =
        WarmPoolSimulator.run(new DemandProfile.Steady(30, Duration.ofSeconds(3600)), c, 1);
    assertEquals(108_000, r.claims());
    assertTrue(Math.abs(r.warmLaunches() - 72_119) <= 2, "warm " + r.warmLaunches());
    assertEquals(r.claims(), r.warmLaunches() + r.coldLaunches());
    assertEquals(0.0, r.minReadyFraction());
    assertEquals(Duration.ofSeconds(5), r.claimToReadyCold().p50()); // cold start, no wait
    assertEquals(Duration.ofSeconds(5), r.claimToReadyCold().p99());
    // the same with upstream's 2 s wait for a pending member: cold claims waited it out first
    WhatIfResult waited =
        WarmPoolSimulator.run(
            new DemandProfile.Steady(30, Duration.ofSeconds(3600)),
            c.withPendingCandidateWait(Duration.ofSeconds(2)),
            1);
    assertEquals(Duration.ofSeconds(7), waited.claimToReadyCold().p50()); // 2 s + 5 s
  }

  @Test
  void aBurstLargerThanThePoolServesThePoolWarmAndTheRestCold() {
    // 250 claims at once against 100 Ready members: 100 warm (100 ms); the other 150 see the 100
    // replacements pending (Ready only at 5 s), wait 2 s and start cold: 2 s + 5 s = 7 s
    PoolConfig c = PoolConfig.of(1, 100, COLD_5S, ADOPT_100MS);
    DemandProfile burst =
        new DemandProfile.Bursts(0, 250, Duration.ofHours(1), Duration.ofMinutes(10));
    WhatIfResult r = WarmPoolSimulator.run(burst, c, 1);
    assertEquals(250, r.claims());
    assertEquals(100, r.warmLaunches());
    assertEquals(150, r.coldLaunches());
    assertEquals(0.4, r.warmHitRatio());
    assertEquals(Duration.ofMillis(100), r.claimToReadyWarm().p99());
    assertEquals(Duration.ofSeconds(7), r.claimToReadyCold().p50());
    // rank ceil(0.5 × 250) = 125 > 100 warm ones → 7 s
    assertEquals(Duration.ofSeconds(7), r.claimToReady().p50());
    assertEquals(0.0, r.minReadyFraction());
    assertEquals(100, r.membersCreated());
  }

  @Test
  void theSizingExampleHoldsAndOnePoolOfItsSizeDoesNot() {
    // PoolSizing: 40 claims/s × 45 s → 1,800 members → four pools of 450, refill ≥ 10/s each
    PoolSizing.Advice a = PoolSizing.advise(40, 45, 0, 0, 0);
    assertEquals(1800, a.replicas());
    assertEquals(4, a.pools());
    assertEquals(450, a.replicasPerPool());
    assertEquals(10, a.refillRatePerPool());
    LogNormal cold45 = LogNormal.constant(Duration.ofSeconds(45));
    DemandProfile demand = new DemandProfile.Steady(40, Duration.ofHours(1));
    PoolConfig proposed =
        PoolConfig.of(a.pools(), (int) a.replicasPerPool(), cold45, ADOPT_100MS)
            .withRefillRate(a.refillRatePerPool());
    // today: one pool of 450 (refill 70/s, upstream's ceiling)
    PoolConfig current = PoolConfig.of(1, 450, cold45, ADOPT_100MS).withRefillRate(70);
    WhatIfComparison cmp = WhatIfComparison.of(demand, current, proposed, 7);

    // each pool gets every 4th claim (10/s, one per 0.1 s) and holds 10 × 45 = 450 in flight:
    // the replacement made at t is Ready at t + 45 s exactly when a claim arrives: all warm
    assertEquals(144_000, cmp.proposed().claims());
    assertEquals(1.0, cmp.proposed().warmHitRatio());
    assertEquals(Duration.ofMillis(100), cmp.proposed().claimToReady().p99());
    assertEquals(0.0, cmp.proposed().minReadyFraction()); // sized exactly: no headroom

    // one pool of 450: each of the 450 replacement chains serves one claim per 45 s. Chain s starts
    // at s/40 s; services at s/40 + 45k while claims still wait (last arrival 3599.975 s + 2 s):
    // 80 services each, 81 for s ≤ 79 (s/40 + 3600 ≤ 3601.975) → 450 × 80 + 80 = 36,080 warm
    assertEquals(36_080, cmp.current().warmLaunches());
    assertEquals(36_080.0 / 144_000, cmp.current().warmHitRatio(), 1e-12);
    // cold claims waited 2 s for a pending member, then 45 s
    assertEquals(Duration.ofSeconds(47), cmp.current().claimToReadyCold().p50());
  }

  @Test
  void aWatchLagWithoutTheExpectationsGateOverCreates() {
    // 5 claims/s for 60 s against a pool of 10 with a 3 s watch lag: with the gate each pass
    // waits until its creates are seen; without it every pass in the lag re-creates the same
    // shortfall, so more members are created than claims taken (over-creation)
    DemandProfile d = new DemandProfile.Steady(5, Duration.ofSeconds(60));
    PoolConfig gated =
        PoolConfig.of(1, 10, COLD_5S, ADOPT_100MS).withWatchLag(Duration.ofSeconds(3), true);
    PoolConfig ungated = gated.withWatchLag(Duration.ofSeconds(3), false);
    WhatIfResult g = WarmPoolSimulator.run(d, gated, 1);
    WhatIfResult u = WarmPoolSimulator.run(d, ungated, 1);
    assertTrue(g.membersCreated() <= g.warmLaunches(), "gated created " + g.membersCreated());
    assertTrue(
        u.membersCreated() > u.warmLaunches(),
        "ungated created " + u.membersCreated() + " for " + u.warmLaunches() + " adoptions");
  }

  @Test
  void deterministicForASeedAndTheSeedMatters() {
    PoolConfig c =
        PoolConfig.of(
            2,
            30,
            new LogNormal(Duration.ofSeconds(3), Duration.ofSeconds(8)),
            new LogNormal(Duration.ofMillis(150), Duration.ofMillis(400)));
    DemandProfile d = new DemandProfile.Steady(12, Duration.ofMinutes(20));
    assertEquals(WarmPoolSimulator.run(d, c, 42), WarmPoolSimulator.run(d, c, 42));
    assertNotEquals(
        WarmPoolSimulator.run(d, c, 42).claimToReady(),
        WarmPoolSimulator.run(d, c, 43).claimToReady());
  }

  @Test
  void idleCostIsReplicasTimesRequestsTimesHours() {
    // 4 pools × 50 = 200 members × 0.5 core × 2 h = 200 core-hours; × 1 GiB × 2 h = 400 GiB-hours
    PoolConfig c = PoolConfig.of(4, 50, COLD_5S, ADOPT_100MS).withRequests(500, 1L << 30);
    WhatIfResult r = WarmPoolSimulator.run(new DemandProfile.Steady(1, Duration.ofHours(2)), c, 1);
    assertEquals(200.0, r.idleCpuCoreHours(), 1e-9);
    assertEquals(400.0, r.idleMemoryGibHours(), 1e-9);
  }

  @Test
  void demandShapes() {
    // diurnal 0 → 2 claims/s over a 100 s period: ∫ = 100 claims, claim 50 at half the period
    long[] diurnal =
        new DemandProfile.Diurnal(0, 2, Duration.ofSeconds(100), Duration.ofSeconds(100))
            .arrivals();
    assertEquals(100, diurnal.length);
    assertEquals(50e9, diurnal[50], 1e3);
    // bursts: 1/s base for 10 s (10) + 5 claims at 0, 4 and 8 s (15)
    long[] bursts =
        new DemandProfile.Bursts(1, 5, Duration.ofSeconds(4), Duration.ofSeconds(10)).arrivals();
    assertEquals(25, bursts.length);
    assertEquals(6, java.util.Arrays.stream(bursts).filter(t -> t == 0).count()); // base + 5
    // recorded: sorted
    long[] rec =
        new DemandProfile.Recorded(
                List.of(Duration.ofSeconds(3), Duration.ofSeconds(1)), Duration.ofSeconds(5))
            .arrivals();
    assertEquals(List.of(1_000_000_000L, 3_000_000_000L), List.of(rec[0], rec[1]));
  }

  @Test
  void badInputIsRejectedNamingTheField() {
    assertEquals(
        "claimsPerSecond must be > 0, got -1.0",
        assertThrows(
                IllegalArgumentException.class,
                () -> new DemandProfile.Steady(-1, Duration.ofSeconds(1)))
            .getMessage());
    assertEquals(
        "p95 must be >= p50 (PT3S), got PT1S",
        assertThrows(
                IllegalArgumentException.class,
                () -> new LogNormal(Duration.ofSeconds(3), Duration.ofSeconds(1)))
            .getMessage());
    assertEquals(
        "pools must be >= 1, got 0",
        assertThrows(
                IllegalArgumentException.class, () -> PoolConfig.of(0, 1, COLD_5S, ADOPT_100MS))
            .getMessage());
    assertEquals(
        "offset must be in [0, PT5S), got PT5S",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new DemandProfile.Recorded(
                        List.of(Duration.ofSeconds(5)), Duration.ofSeconds(5)))
            .getMessage());
  }
}
