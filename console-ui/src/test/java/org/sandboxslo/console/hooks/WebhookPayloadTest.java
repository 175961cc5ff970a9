package org.sandboxslo.console.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.api.ApiException;

class WebhookPayloadTest {
  static JsonObject alert(String fp, String status) {
    JsonObject a =
        new JsonObject()
            .put("fingerprint", fp)
            .put(
                "labels",
                new JsonObject().put("alertname", "WarmPoolDrained").put("namespace", "demo"))
            .put("annotations", new JsonObject().put("summary", "drained"))
            .put("startsAt", "2026-11-29T08:00:00Z")
            .put("endsAt", "0001-01-01T00:00:00Z")
            .put("generatorURL", "http://prometheus/graph");
    return status == null ? a : a.put("status", status);
  }

  static JsonObject payload(String groupStatus, JsonObject... alerts) {
    return new JsonObject()
        .put("version", "4")
        .put("groupKey", "{}:{alertname=\"WarmPoolDrained\"}")
        .put("status", groupStatus)
        .put("receiver", "sandbox-slo-console")
        .put("truncatedAlerts", 0)
        .put("groupLabels", new JsonObject().put("alertname", "WarmPoolDrained"))
        .put("commonLabels", new JsonObject())
        .put("commonAnnotations", new JsonObject())
        .put("externalURL", "http://alertmanager:9093")
        .put("alerts", new JsonArray(java.util.List.of((Object[]) alerts)));
  }

  @Test
  void eachAlertsStatusWinsOverTheGroupsAndAZeroEndIsOpen() {
    JsonObject resolved = alert("b", "resolved").put("endsAt", "2026-11-29T08:07:30Z");
    // a firing alert with a future endsAt (API v2 style) is still open
    JsonObject firing = alert("a", "firing").put("endsAt", "2026-11-29T09:00:00Z");
    WebhookPayload p = WebhookPayload.parse(payload("firing", firing, resolved, alert("c", null)));
    assertEquals(WebhookPayload.AlertStatus.FIRING, p.alerts().get(0).status());
    assertNull(p.alerts().get(0).endsAt());
    assertEquals(WebhookPayload.AlertStatus.RESOLVED, p.alerts().get(1).status());
    assertEquals(Instant.parse("2026-11-29T08:07:30Z"), p.alerts().get(1).endsAt());
    // no status of its own: the group's
    assertEquals(WebhookPayload.AlertStatus.FIRING, p.alerts().get(2).status());
    assertEquals(Map.of("alertname", "WarmPoolDrained"), p.groupLabels());
    // the same alert in a "resolved" group but firing itself stays firing
    assertEquals(
        WebhookPayload.AlertStatus.FIRING,
        WebhookPayload.parse(payload("resolved", alert("a", "firing"))).alerts().get(0).status());
  }

  @Test
  void wrongTypesAnywhereAre400NamingThePath() {
    assertField("version", payload("firing").put("version", 4));
    assertField("truncatedAlerts", payload("firing").put("truncatedAlerts", "2"));
    assertField("truncatedAlerts", payload("firing").put("truncatedAlerts", -1));
    assertField("truncatedAlerts", payload("firing").put("truncatedAlerts", 1.5));
    assertField("status", payload("burning"));
    assertField("groupKey", payload("firing").put("groupKey", 7));
    assertField("receiver", payload("firing").put("receiver", new JsonArray()));
    assertField(
        "groupLabels.alertname",
        payload("firing").put("groupLabels", new JsonObject().put("alertname", 1)));
    assertField("commonAnnotations", payload("firing").put("commonAnnotations", "x"));
    assertField("externalURL", payload("firing").put("externalURL", false));
    assertField("alerts", payload("firing").put("alerts", new JsonObject()));
    assertField(
        "alerts[0]",
        payload("firing", alert("a", "firing")).put("alerts", new JsonArray().add("a")));
    assertField("alerts[0].status", payload("firing", alert("a", "maybe")));
    assertField(
        "alerts[0].fingerprint", payload("firing", alert("a", "firing").put("fingerprint", 12)));
    assertField(
        "alerts[0].labels.namespace",
        payload(
            "firing",
            alert("a", "firing")
                .put("labels", new JsonObject().put("alertname", "X").put("namespace", 3))));
    assertField(
        "alerts[0].annotations.summary",
        payload(
            "firing",
            alert("a", "firing")
                .put("annotations", new JsonObject().put("summary", new JsonObject()))));
    assertField(
        "alerts[0].startsAt", payload("firing", alert("a", "firing").put("startsAt", 1700000000)));
    assertField("alerts[0].endsAt", payload("firing", alert("a", "firing").put("endsAt", "soon")));
    assertField(
        "alerts[0].generatorURL", payload("firing", alert("a", "firing").put("generatorURL", 1)));
    assertField(
        "alerts[0].labels.alertname",
        payload("firing", alert("a", "firing").put("labels", new JsonObject())));
  }

  @Test
  void valuesAreCappedAndHugeMapsRefused() {
    String longValue = "x".repeat(WebhookPayload.MAX_LABEL_CHARS + 10);
    String longAnnotation = "y".repeat(WebhookPayload.MAX_ANNOTATION_CHARS + 1);
    WebhookPayload p =
        WebhookPayload.parse(
            payload(
                "firing",
                alert("a", "firing")
                    .put("labels", new JsonObject().put("alertname", "X").put("big", longValue))
                    .put("annotations", new JsonObject().put("description", longAnnotation))));
    // 1024 kept + a marker naming the 10 cut
    assertEquals("x".repeat(1024) + "…[+10 chars]", p.alerts().get(0).labels().getString("big"));
    assertEquals(
        "y".repeat(8192) + "…[+1 chars]", p.alerts().get(0).annotations().getString("description"));
    JsonObject many = new JsonObject().put("alertname", "X");
    for (int i = 0; i < WebhookPayload.MAX_ENTRIES; i++) {
      many.put("l" + i, "v");
    }
    assertField("alerts[0].labels", payload("firing", alert("a", "firing").put("labels", many)));
  }

  @Test
  void theConsolesBoundsAre400NamingTheField() {
    // 1,001 alerts in one notification: over the 1,000 the console holds
    JsonObject[] many = new JsonObject[AlertmanagerHook.KEPT + 1];
    for (int i = 0; i < many.length; i++) {
      many[i] = alert("f" + i, "firing");
    }
    assertField("alerts", payload("firing", many));
    // a fingerprint of 129 characters is refused, 128 accepted
    assertField("alerts[0].fingerprint", payload("firing", alert("x".repeat(129), "firing")));
    assertEquals(
        128,
        WebhookPayload.parse(payload("firing", alert("x".repeat(128), "firing")))
            .alerts()
            .get(0)
            .fingerprint()
            .length());
    // labels over 16 KiB as sent are refused even though one value would be cut to 1,024 chars
    JsonObject hugeLabel = alert("h", "firing");
    hugeLabel.getJsonObject("labels").put("blob", "y".repeat(16 * 1024));
    assertField("alerts[0].labels", payload("firing", hugeLabel));
    // 1,500 characters (under 16 KiB) are accepted and cut: 1,024 kept, 1,500 - 1,024 = 476 marked
    JsonObject longLabel = alert("l", "firing");
    longLabel.getJsonObject("labels").put("blob", "y".repeat(1500));
    assertEquals(
        "y".repeat(1024) + "…[+476 chars]",
        WebhookPayload.parse(payload("firing", longLabel))
            .alerts()
            .get(0)
            .labels()
            .getString("blob"));
    // NUL anywhere: a value, a key, a top-level string
    JsonObject nulValue = alert("n1", "firing");
    nulValue.getJsonObject("annotations").put("summary", "a\u0000b");
    assertField("alerts[0].annotations.summary", payload("firing", nulValue));
    JsonObject nulKey = alert("n2", "firing");
    nulKey.getJsonObject("labels").put("a\u0000b", "v");
    assertField("alerts[0].labels", payload("firing", nulKey));
    assertField("groupKey", payload("firing", alert("n3", "firing")).put("groupKey", "g\u0000"));
  }

  static void assertField(String field, JsonObject body) {
    ApiException e = assertThrows(ApiException.class, () -> WebhookPayload.parse(body));
    assertEquals(400, e.status());
    assertEquals(field, e.toJson().getString("field"), e.toJson().encode());
  }

  @Test
  void timesAreKeptToTheMillisecondLikeApiV2() {
    // the webhook sends nanoseconds, API v2 milliseconds: both name the same episode
    WebhookPayload p =
        WebhookPayload.parse(
            payload(
                "firing", alert("a", "firing").put("startsAt", "2026-12-01T08:32:42.575663123Z")));
    assertEquals(Instant.parse("2026-12-01T08:32:42.575Z"), p.alerts().get(0).startsAt());
    JsonObject api =
        new JsonObject()
            .put("fingerprint", "a")
            .put("labels", new JsonObject().put("alertname", "WarmPoolDrained"))
            .put("startsAt", "2026-12-01T08:32:42.575Z");
    assertEquals(
        p.alerts().get(0).startsAt(),
        AlertmanagerHook.fromApi(api, "console", Instant.EPOCH).startsAt());
  }
}
