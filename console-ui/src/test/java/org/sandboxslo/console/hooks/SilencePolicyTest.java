package org.sandboxslo.console.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.store.PlanRow;

class SilencePolicyTest {
  static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");
  static final Duration MAX = Duration.ofHours(24);

  static List<SilenceMatcher> m(String text) {
    return SilenceMatcher.parseList(text, "matchers");
  }

  @Test
  void acceptsAlertnameWithNamespaceOrTemplateUpToTheMaximum() {
    SilencePolicy.Checked c =
        SilencePolicy.check(
            m("alertname=WarmPoolDrained,namespace=\"demo\""), MAX, " rollout ", "alice", MAX, NOW);
    assertEquals(NOW.plus(MAX), c.endsAt());
    assertEquals("demo", c.namespace());
    assertEquals("rollout", c.reason());
    SilencePolicy.Checked t =
        SilencePolicy.check(
            m("{alertname=\"SandboxWarmHitRatioLow\", sandbox_template=\"python-runtime\"}"),
            Duration.ofMinutes(30),
            "load test",
            "bob",
            MAX,
            NOW);
    assertNull(t.namespace()); // template only: cluster-wide roles
    assertEquals(NOW.plusSeconds(1800), t.endsAt());
  }

  @Test
  void refusesWhatDoesNotPinOneAlertOfOneSubject() {
    assertRefused("matchers", m("namespace=demo"), MAX, "r", "a");
    assertRefused("matchers", m("alertname=~\"Warm.*\",namespace=demo"), MAX, "r", "a");
    assertRefused("matchers", m("alertname!=X,namespace=demo"), MAX, "r", "a");
    assertRefused("matchers", m("alertname=X"), MAX, "r", "a");
    assertRefused("matchers", m("alertname=X,namespace=~\"de.*\""), MAX, "r", "a");
    assertRefused("matchers", m("alertname=X,namespace=\"\""), MAX, "r", "a");
    assertRefused("duration", m("alertname=X,namespace=demo"), MAX.plusSeconds(1), "r", "a");
    assertRefused("duration", m("alertname=X,namespace=demo"), Duration.ZERO, "r", "a");
    assertRefused("reason", m("alertname=X,namespace=demo"), MAX, "  ", "a");
    assertRefused("author", m("alertname=X,namespace=demo"), MAX, "r", "");
    ApiException e =
        assertThrows(
            ApiException.class,
            () ->
                SilencePolicy.check(
                    m("alertname=X,namespace=demo"), Duration.ofHours(25), "r", "a", MAX, NOW));
    assertEquals(
        "25h is longer than the longest silence allowed (1d, sloconsole.alertmanager.max-silence)",
        e.toJson().getString("reason"));
  }

  @Test
  void matchersReadAmtoolsFormsAndPrintAlertmanagers() {
    List<SilenceMatcher> ms =
        m("{alertname=\"A\", namespace!=\"kube-system\", pod=~\"x.*\", b!~y}");
    assertEquals(
        List.of(
            new SilenceMatcher("alertname", "A", false, true),
            new SilenceMatcher("namespace", "kube-system", false, false),
            new SilenceMatcher("pod", "x.*", true, true),
            new SilenceMatcher("b", "y", true, false)),
        ms);
    assertEquals("namespace!=\"kube-system\"", ms.get(1).toString());
    assertEquals("a=\"quote \\\" in\"", SilenceMatcher.eq("a", "quote \" in").toString());
    assertEquals(List.of(SilenceMatcher.eq("a", "quote \" in")), m("a=\"quote \\\" in\""));
    assertThrows(ApiException.class, () -> m("alertname"));
    assertThrows(ApiException.class, () -> m(""));
    assertThrows(ApiException.class, () -> m("a=b c=d"));
  }

  static PlanRow plan(String action, String subject, JsonObject dry) {
    Instant t = NOW;
    return new PlanRow(
        "p-1",
        action,
        subject,
        new JsonObject(),
        "why",
        "executing",
        "alice",
        "bob",
        "alice",
        null,
        dry,
        new JsonObject(),
        null,
        t,
        t);
  }

  @Test
  void aPlanSilencesWhatItIsExpectedToTripForItsSteps() {
    JsonObject dry =
        new JsonObject()
            .put("surge", 1)
            .put(
                "steps",
                new JsonArray().add(new JsonObject()).add(new JsonObject()).add(new JsonObject()));
    PlanRow p = plan("PacedRecreate", "demo/python-runtime-pool", dry);
    assertEquals(
        List.of(
            List.of(
                SilenceMatcher.eq("alertname", "WarmPoolDrained"),
                SilenceMatcher.eq("namespace", "demo"),
                SilenceMatcher.eq("warmpool_name", "python-runtime-pool")),
            List.of(
                SilenceMatcher.eq("alertname", "WarmPoolRefillStalled"),
                SilenceMatcher.eq("namespace", "demo"),
                SilenceMatcher.eq("warmpool_name", "python-runtime-pool"))),
        Silences.expectedAlerts(p));
    Silences s =
        new Silences(
            null,
            new AlertmanagerConfig(null, Duration.ofHours(1), Duration.ofMinutes(5)),
            null,
            java.time.Clock.systemUTC());
    // 3 steps + the restore after a surge = 4 × 5 min
    assertEquals(Duration.ofMinutes(20), s.expectedDuration(p));
    // 20 steps × 5 min = 100 min, capped at max-silence 1 h
    JsonArray twenty = new JsonArray();
    for (int i = 0; i < 20; i++) {
      twenty.add(new JsonObject());
    }
    assertEquals(
        Duration.ofHours(1),
        s.expectedDuration(plan("PacedRecreate", "demo/p", new JsonObject().put("steps", twenty))));
    // scaling down trips nothing; scaling up may drain; shards start empty
    JsonObject down =
        new JsonObject()
            .put(
                "predicted",
                new JsonObject()
                    .put("replicas", new JsonObject().put("before", 8).put("after", 3)));
    assertEquals(List.of(), Silences.expectedAlerts(plan("ScalePool", "demo/p", down)));
    JsonObject up =
        new JsonObject()
            .put(
                "predicted",
                new JsonObject()
                    .put("replicas", new JsonObject().put("before", 3).put("after", 8)));
    assertEquals(1, Silences.expectedAlerts(plan("ScalePool", "demo/p", up)).size());
    JsonObject shard = new JsonObject().put("predicted", new JsonObject().put("pools", 3));
    assertEquals(
        List.of("p-shard-1", "p-shard-2"),
        Silences.expectedAlerts(plan("ShardPool", "demo/p", shard)).stream()
            .map(l -> l.get(2).value())
            .toList());
    assertEquals(
        List.of(), Silences.expectedAlerts(plan("DeleteExpiredClaims", "demo", new JsonObject())));
  }

  static void assertRefused(
      String field, List<SilenceMatcher> ms, Duration d, String reason, String author) {
    ApiException e =
        assertThrows(
            ApiException.class, () -> SilencePolicy.check(ms, d, reason, author, MAX, NOW));
    assertEquals(400, e.status());
    assertEquals(field, e.toJson().getString("field"), e.toJson().encode());
  }
}
