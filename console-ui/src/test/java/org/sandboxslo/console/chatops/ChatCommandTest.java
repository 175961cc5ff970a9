package org.sandboxslo.console.chatops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.remediation.PlanAction;

class ChatCommandTest {
  @Test
  void readsEveryCommand() {
    assertEquals(new ChatCommand.Help(), ChatCommand.parse(""));
    assertEquals(new ChatCommand.Help(), ChatCommand.parse("  help "));
    assertEquals(new ChatCommand.Status(null), ChatCommand.parse("status"));
    assertEquals(
        new ChatCommand.Status("demo/python-runtime"),
        ChatCommand.parse("STATUS demo/python-runtime"));
    assertEquals(
        new ChatCommand.Explain("StalePoolMembers-1a2b3c4d"),
        ChatCommand.parse("explain StalePoolMembers-1a2b3c4d"));
    assertEquals(
        new ChatCommand.Plan(
            "recreate", PlanAction.PACED_RECREATE, "demo/pool-a", new JsonObject(), null),
        ChatCommand.parse("recreate demo/pool-a"));
    assertEquals(
        new ChatCommand.Plan(
            "plan",
            PlanAction.SCALE_POOL,
            "demo/pool-a",
            new JsonObject().put("replicas", 12),
            "evening peak"),
        ChatCommand.parse("plan scale-pool demo/pool-a replicas=12 reason=\"evening peak\""));
    assertEquals(
        new JsonObject().put("maxRefillRate", 2.5),
        ((ChatCommand.Plan)
                ChatCommand.parse("plan SetRefillPacing controller-lite maxRefillRate=2.5"))
            .params());
    assertEquals(
        new ChatCommand.Approve("p-1a2b3c4d5e6f"), ChatCommand.parse("approve P-1A2B3C4D5E6F"));
    assertEquals(
        new ChatCommand.Execute("p-1a2b3c4d5e6f"), ChatCommand.parse("execute p-1a2b3c4d5e6f"));
    assertEquals(
        new ChatCommand.Cancel("p-1a2b3c4d5e6f"), ChatCommand.parse("cancel p-1a2b3c4d5e6f"));
    assertEquals(
        new ChatCommand.Silence(
            "{alertname=\"WarmPoolDrained\", namespace=\"demo\"}",
            Duration.ofHours(2),
            "canary rollout in progress"),
        ChatCommand.parse(
            "silence {alertname=\"WarmPoolDrained\", namespace=\"demo\"} 2h canary rollout in progress"));
    assertEquals(new ChatCommand.ListSilences(), ChatCommand.parse("silences"));
  }

  @Test
  void writesAreMarkedAndReadsAreNot() {
    for (String t : List.of("status", "explain x", "help", "silences")) {
      assertTrue(!ChatCommand.parse(t).write(), t);
    }
    for (String t :
        List.of("recreate a/b", "approve p-1", "execute p-1", "cancel p-1", "silence a=b 1h r")) {
      assertTrue(ChatCommand.parse(t).write(), t);
    }
  }

  @Test
  void mistakesBecomeUsageNamingTheProblem() {
    assertEquals(
        "recreate needs one pool as namespace/name. Usage: recreate <ns/pool> — dry run of a paced"
            + " Recreate of the pool's stale members",
        usage("recreate"));
    assertTrue(usage("recreate a/b c/d").startsWith("recreate needs one pool"));
    assertTrue(usage("approve 42").startsWith("approve needs one plan id"));
    assertTrue(
        usage("plan Reboot demo/a").startsWith("unknown action 'Reboot'; actions: PacedRecreate"));
    assertTrue(usage("plan ScalePool demo/a replicas").startsWith("expected key=value"));
    assertTrue(usage("silence a=b forever why").startsWith("'forever' is not a duration"));
    assertTrue(
        usage("silence a=b 1h").startsWith("silence needs a target, a duration and a reason"));
    assertTrue(usage("kubectl delete pods --all").startsWith("unknown command 'kubectl'"));
    assertInstanceOf(ChatCommand.Usage.class, ChatCommand.parse("status a b"));
  }

  static String usage(String text) {
    return ((ChatCommand.Usage) ChatCommand.parse(text)).problem();
  }
}
