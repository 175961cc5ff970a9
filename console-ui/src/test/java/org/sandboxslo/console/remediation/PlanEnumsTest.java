package org.sandboxslo.console.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.sandboxslo.store.PlanRow;

/** The typed plan values keep the strings stored in PostgreSQL and shown by the API. */
class PlanEnumsTest {
  @Test
  void wireNamesAreTheStoredStrings() {
    assertEquals(PlanRow.ACTIONS, PlanAction.wireNames());
    assertEquals(PlanRow.STATES, PlanState.wireNames());
    assertEquals(
        List.of(
            "delete-members",
            "patch-pool",
            "create-pool",
            "wait-pool-ready",
            "delete-claim",
            "set-refill-rate",
            "patch-deployment-args"),
        Arrays.stream(StepOp.values()).map(StepOp::wireName).toList());
  }

  @Test
  void parsingIsExactAndUnknownNamesAreRefused() {
    assertEquals(Optional.of(PlanAction.SHARD_POOL), PlanAction.ofWireName("ShardPool"));
    assertEquals(Optional.empty(), PlanAction.ofWireName("shardpool"));
    assertEquals(PlanState.CANCELLED, PlanState.of("cancelled"));
    assertEquals(
        "unknown stored plan state CANCELLED",
        assertThrows(IllegalStateException.class, () -> PlanState.of("CANCELLED")).getMessage());
    assertEquals(
        "unknown step op rm-rf",
        assertThrows(IllegalStateException.class, () -> StepOp.of("rm-rf")).getMessage());
  }

  @Test
  void onlySucceededFailedAndCancelledAreFinished() {
    assertEquals(
        List.of(PlanState.SUCCEEDED, PlanState.FAILED, PlanState.CANCELLED),
        Arrays.stream(PlanState.values()).filter(PlanState::finished).toList());
  }

  @Test
  void theNamespaceThatGovernsAPlan() {
    assertEquals("demo", PlanAction.PACED_RECREATE.namespaceOf("demo/python-runtime-pool"));
    assertEquals("team-c", PlanAction.DELETE_EXPIRED_CLAIMS.namespaceOf("team-c"));
    assertNull(PlanAction.SET_REFILL_PACING.namespaceOf("controller-lite"));
    assertEquals(
        "agent-sandbox-system",
        PlanAction.SET_REFILL_PACING.namespaceOf("agent-sandbox-system/agent-sandbox-controller"));
    assertNull(PlanAction.SCALE_POOL.namespaceOf("no-slash"));
  }
}
