package org.sandboxslo.engine.finding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PoolSizingTest {
  @Test
  void theWellKnownSizingExample() {
    // 40 claims/s at 45 s cold start → ~1,800 members → four pools of 450
    PoolSizing.Advice a = PoolSizing.advise(40, 45, 0, 250, 512L << 20);
    assertEquals(1800, a.replicas());
    assertEquals(4, a.pools());
    assertEquals(450, a.replicasPerPool());
    assertEquals(10, a.refillRatePerPool());
    assertEquals(450_000, a.cpuMillisIdle());
    assertEquals(1800L * (512L << 20), a.memoryBytesIdle());
    assertEquals(
        "replicas = ceil(40/s × 45 s) = 1800; pools = max(ceil(40/70), ceil(1800/500)) = 4; 450 per pool; refill ≥ 10/s per pool",
        a.arithmetic());
  }

  @Test
  void refillCeilingAloneForcesShardingAndHeadroomCounts() {
    PoolSizing.Advice a = PoolSizing.advise(150, 2, 0.2, 0, 0);
    assertEquals(360, a.replicas()); // 150 × 2 × 1.2
    assertEquals(3, a.pools()); // ceil(150 / 70)
    assertEquals(120, a.replicasPerPool());
    assertEquals(50, a.refillRatePerPool());
    assertEquals(1, PoolSizing.advise(0.5, 3, 0, 0, 0).pools());
    assertEquals(
        "refill p95 must be > 0 s, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> PoolSizing.advise(1, 0, 0, 0, 0))
            .getMessage());
  }
}
