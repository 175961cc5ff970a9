package org.sandboxslo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.sandboxslo.engine.Fixtures.pool;
import static org.sandboxslo.engine.Fixtures.spec;
import static org.sandboxslo.engine.Fixtures.up;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolMember;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.remediation.RecreatePlan;
import org.sandboxslo.engine.remediation.RemediationPlanner;

/** {@link FleetEngine#poolState} on the C03 shape, feeding the paced Recreate planner. */
class PoolStateTest {
  @Test
  void c03TheEngineViewPlansA2ThenA3AndLeavesTheClaimedA1Alone() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(DiagnoserTest.template("tpl-py", spec("python-runtime:3.11"), null, "1"), 0));
    e.apply(up(pool("pool-py", "tpl-py", 3, 3), 0));
    for (String m : List.of("pool-py-a1", "pool-py-a2", "pool-py-a3")) {
      e.apply(
          up(DiagnoserTest.member(m, "pool-py", spec("python-runtime:3.11"), 5.0, null, "1"), 5));
    }
    e.apply(up(DiagnoserTest.template("tpl-py", spec("python-runtime:3.12"), null, "2"), 100));
    // claim-001 adopts a1 (owner becomes the claim), b1 refills on the new template
    e.apply(up(Fixtures.claim("claim-001", "pool-py", "pool-py-a1", 400, 401.0, false, "1"), 401));
    e.apply(up(Fixtures.adopted("pool-py-a1", "claim-001", "tpl-py", "warm", 401, "2"), 401));
    e.apply(
        up(
            DiagnoserTest.member(
                "pool-py-b1", "pool-py", spec("python-runtime:3.12"), 416.0, null, "1"),
            416));

    PoolState s = e.poolState(new ObjectRef(Fixtures.NS, "pool-py"));
    assertEquals(3, s.replicas());
    assertEquals("tpl-py", s.templateName());
    assertEquals("claim-001", s.member("pool-py-a1").claim());
    assertEquals(List.of("pool-py-a2", "pool-py-a3"), s.staleUnclaimed());
    assertEquals(
        List.of("pool-py-a2", "pool-py-a3", "pool-py-b1"),
        s.unclaimed().stream().map(PoolMember::name).toList());
    assertEquals(3, s.readyUnclaimed());
    assertEquals(1, s.readyCurrentTemplate());

    RecreatePlan p = RemediationPlanner.pacedRecreate(s, 0.34);
    assertEquals(List.of(List.of("pool-py-a2"), List.of("pool-py-a3")), p.batches());
    assertEquals(1, p.maxUnavailable());
    assertEquals(2, p.floorReady());
    assertEquals(List.of("pool-py-a1 (claim claim-001)"), p.untouched());
    assertNull(e.poolState(new ObjectRef(Fixtures.NS, "nope")));
  }
}
