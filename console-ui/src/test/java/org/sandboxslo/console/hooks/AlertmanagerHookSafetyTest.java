package org.sandboxslo.console.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.RouterFixture;
import org.sandboxslo.console.auth.AuthConfig;

/**
 * Issue 9 probes on the webhook: it takes only Alertmanager's secret (Bearer or basic auth), wrong
 * JSON types and NUL characters are 400 naming the field (never 500 with a class name), and the
 * alerts it holds are capped per alert and in total, drops counted.
 */
class AlertmanagerHookSafetyTest {
  static final String SECRET = "am-webhook-secret-0123456789";
  static RouterFixture app;
  static AlertmanagerHook hook;
  static final Map<String, AtomicLong> drops = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    hook =
        new AlertmanagerHook(
            (kind, reason) ->
                drops
                    .computeIfAbsent(kind + "/" + reason, k -> new AtomicLong())
                    .incrementAndGet());
    app =
        RouterFixture.start(
            AuthConfig.ofTokens(Map.of(), false).withWebhookToken(SECRET),
            (vertx, r) -> hook.mount(r));
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  static HttpResponse<Buffer> post(String body, String authorization) throws Exception {
    var req = app.post("/hooks/alertmanager").putHeader("Content-Type", "application/json");
    if (authorization != null) {
      req.putHeader("Authorization", authorization);
    }
    return RouterFixture.send(req, Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)), 10);
  }

  static HttpResponse<Buffer> post(String body) throws Exception {
    return post(body, "Bearer " + SECRET);
  }

  static JsonObject alert(String fp, JsonObject labels, JsonObject annotations) {
    return new JsonObject()
        .put("status", "firing")
        .put("fingerprint", fp)
        .put("labels", labels)
        .put("annotations", annotations)
        .put("startsAt", "2026-11-29T08:00:00Z")
        .put("endsAt", "0001-01-01T00:00:00Z");
  }

  static String payload(JsonObject... alerts) {
    return new JsonObject()
        .put("version", "4")
        .put("receiver", "sandbox-slo-console")
        .put("status", "firing")
        .put("alerts", new JsonArray(java.util.List.of((Object[]) alerts)))
        .encode();
  }

  static String okPayload(String fp) {
    return payload(alert(fp, new JsonObject().put("alertname", "SloFastBurn"), new JsonObject()));
  }

  @Test
  void onlyTheWebhookSecretIsAccepted() throws Exception {
    assertEquals(401, post(okPayload("auth-1"), null).statusCode());
    assertEquals(401, post(okPayload("auth-1"), "Bearer wrong").statusCode());
    String basicWrong =
        Base64.getEncoder().encodeToString("alertmanager:nope".getBytes(StandardCharsets.UTF_8));
    assertEquals(401, post(okPayload("auth-1"), "Basic " + basicWrong).statusCode());
    HttpResponse<Buffer> bearer = post(okPayload("auth-1"), "Bearer " + SECRET);
    assertEquals(200, bearer.statusCode(), bearer.bodyAsString());
    String basic =
        Base64.getEncoder()
            .encodeToString(("alertmanager:" + SECRET).getBytes(StandardCharsets.UTF_8));
    assertEquals(200, post(okPayload("auth-2"), "Basic " + basic).statusCode());
    // the scheme in any case, spaces around the token; Basic with an empty user name
    assertEquals(200, post(okPayload("auth-3"), "bearer  " + SECRET + " ").statusCode());
    String emptyUser =
        Base64.getEncoder().encodeToString((":" + SECRET).getBytes(StandardCharsets.UTF_8));
    HttpResponse<Buffer> again = post(okPayload("auth-3"), "Basic " + emptyUser);
    assertEquals(200, again.statusCode(), again.bodyAsString());
    // the same alert delivered again (now over Basic) changes nothing
    assertEquals(1, again.bodyAsJsonObject().getInteger("unchanged"));
    // a 401 names the problem, never the secret
    HttpResponse<Buffer> wrong = post(okPayload("auth-4"), "Bearer " + SECRET + "x");
    assertEquals(401, wrong.statusCode());
    assertFalse(wrong.bodyAsString().contains(SECRET), wrong.bodyAsString());
  }

  @Test
  void theWebhookTokenIsOneKeyTrimmedAndMasked() {
    AuthConfig c =
        AuthConfig.fromMap(
            Map.of(AuthConfig.WEBHOOK_TOKEN, " " + SECRET + " "), Map.of(), false, Set.of());
    assertEquals(SECRET, c.webhookToken());
    assertFalse(c.describe().contains(SECRET), c.describe());
    // the Alertmanager section accepts the key (it is not an unknown sloconsole.alertmanager.*)
    assertEquals(
        AuthConfig.WEBHOOK_TOKEN,
        AlertmanagerConfig.WEBHOOK_TOKEN,
        "one key for the webhook secret");
    // ... and holds nothing of it: the sign-in's startup lines show it, masked, once
    assertEquals(
        java.util.List.of(
            "sloconsole.alertmanager.url=",
            "sloconsole.alertmanager.max-silence=1d",
            "sloconsole.alertmanager.plan-step-duration=5m"),
        AlertmanagerConfig.fromMap(Map.of(AuthConfig.WEBHOOK_TOKEN, SECRET))
            .describe()
            .lines()
            .toList());
  }

  @Test
  void wrongJsonTypesAndNulAreFieldErrorsWithoutClassNames() throws Exception {
    Map<String, String> cases =
        Map.of(
            payload(new JsonObject().put("status", 7).put("fingerprint", "x")),
            "alerts[0].status",
            payload(
                alert("t1", new JsonObject().put("alertname", "A"), new JsonObject())
                    .put("labels", "not-an-object")),
            "alerts[0].labels",
            payload(alert("t2", new JsonObject().put("alertname", 5), new JsonObject())),
            "alerts[0].labels.alertname",
            payload(alert("t3", new JsonObject().put("alertname", "A\u0000B"), new JsonObject())),
            "alerts[0].labels.alertname",
            payload(
                alert("t4", new JsonObject().put("alertname", "A"), new JsonObject())
                    .put("startsAt", 12)),
            "alerts[0].startsAt",
            new JsonObject().put("version", 4).put("alerts", new JsonArray()).encode(),
            "version",
            payload(alert("t\u00005", new JsonObject().put("alertname", "A"), new JsonObject())),
            "alerts[0].fingerprint");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      HttpResponse<Buffer> res = post(c.getKey());
      assertEquals(400, res.statusCode(), c.getKey() + " -> " + res.bodyAsString());
      JsonObject body = res.bodyAsJsonObject();
      assertEquals(c.getValue(), body.getString("field"), body.encode());
      assertFalse(body.encode().contains("Exception"), body.encode());
      assertFalse(body.encode().contains("java."), body.encode());
    }
  }

  @Test
  void alertsAreCappedInNumberAndSizeWithDropsCounted() throws Exception {
    // 1,000 held at most: 1,010 distinct alerts in 11 notifications → 10 oldest dropped
    long before = drops.getOrDefault("alert/cap", new AtomicLong()).get();
    int held = hook.size();
    for (int batch = 0; batch < 11; batch++) {
      JsonObject[] as = new JsonObject[batch < 10 ? 100 : 10];
      for (int i = 0; i < as.length; i++) {
        as[i] =
            alert(
                "cap-" + batch + "-" + i,
                new JsonObject().put("alertname", "Cap"),
                new JsonObject());
      }
      if (as.length > 0) {
        assertEquals(200, post(payload(as)).statusCode());
      }
    }
    // 1,010 new alerts on top of those held before: all but 1,000 dropped
    long expectedDropped = held + 1010 - AlertmanagerHook.KEPT;
    assertEquals(AlertmanagerHook.KEPT, hook.size());
    assertEquals(expectedDropped, drops.get("alert/cap").get() - before);

    // one alert with 3 × 8 KiB of annotations (each within the 8,192-character value cap, 24 KiB
    // together > 16 KiB) keeps its labels and loses the annotations
    String eightK = "x".repeat(8 * 1024);
    HttpResponse<Buffer> res =
        post(
            payload(
                alert(
                    "big-1",
                    new JsonObject().put("alertname", "Big"),
                    new JsonObject()
                        .put("description", eightK)
                        .put("summary", eightK)
                        .put("runbook", eightK))));
    assertEquals(200, res.statusCode());
    assertEquals(1, drops.get("alert/oversized").get());
    assertTrue(hook.totalBytes() <= AlertmanagerHook.MAX_TOTAL_BYTES);
    // labels alone over the limit (40 KiB as sent, before any value cap) are refused: they
    // identify the alert
    String big = "x".repeat(40 * 1024);
    HttpResponse<Buffer> refused =
        post(
            payload(
                alert(
                    "big-2",
                    new JsonObject().put("alertname", "Big").put("blob", big),
                    new JsonObject())));
    assertEquals(400, refused.statusCode());
    assertEquals("alerts[0].labels", refused.bodyAsJsonObject().getString("field"));
  }
}
