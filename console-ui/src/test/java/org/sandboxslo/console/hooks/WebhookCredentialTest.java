package org.sandboxslo.console.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.ConsoleVerticleAccess;

/** The webhook's credential, as Alertmanager's {@code http_config} sends it. */
class WebhookCredentialTest {
  static final String TOKEN = "wh-test-token";
  static final String PAYLOAD =
      "{\"version\":\"4\",\"status\":\"firing\",\"receiver\":\"console\",\"alerts\":[{"
          + "\"status\":\"firing\",\"fingerprint\":\"f1\",\"labels\":{\"alertname\":\"A\"},"
          + "\"startsAt\":\"2026-11-29T07:50:00Z\",\"endsAt\":\"0001-01-01T00:00:00Z\"}]}";
  static Vertx vertx;
  static HttpServer server;
  static WebClient client;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    Router r = Router.router(vertx);
    r.post("/hooks/alertmanager").handler(WebhookCredential.of(TOKEN));
    new AlertmanagerHook().mount(r);
    ConsoleVerticleAccess.jsonErrors(r);
    server =
        vertx
            .createHttpServer()
            .requestHandler(r)
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    client = WebClient.create(vertx);
  }

  @AfterAll
  static void stop() {
    vertx.close();
  }

  static HttpResponse<Buffer> post(String authorizationOrNull) throws Exception {
    var req =
        client
            .post(server.actualPort(), "127.0.0.1", "/hooks/alertmanager")
            .putHeader("Content-Type", "application/json");
    if (authorizationOrNull != null) {
      req.putHeader("Authorization", authorizationOrNull);
    }
    return req.sendBuffer(Buffer.buffer(PAYLOAD))
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  static int alertsKept() throws Exception {
    return client
        .get(server.actualPort(), "127.0.0.1", "/api/v1/alerts")
        .send()
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .bodyAsJsonObject()
        .getJsonArray("items")
        .size();
  }

  static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void refusedWithoutTheTokenAndNothingIsKept_acceptedWithBearerOrBasic() throws Exception {
    for (String bad :
        new String[] {null, "Bearer nope", basic("alertmanager", "nope"), "Token " + TOKEN}) {
      HttpResponse<Buffer> r = post(bad);
      assertEquals(401, r.statusCode(), r.bodyAsString());
      assertEquals("Authorization", r.bodyAsJsonObject().getString("field"));
      assertFalse(r.bodyAsString().contains(TOKEN), r.bodyAsString());
      assertTrue(r.getHeader("WWW-Authenticate").startsWith("Bearer"));
    }
    assertEquals(0, alertsKept());
    HttpResponse<Buffer> bearer = post("Bearer " + TOKEN);
    assertEquals(200, bearer.statusCode(), bearer.bodyAsString());
    assertEquals(1, bearer.bodyAsJsonObject().getInteger("new"));
    assertEquals(1, alertsKept());
    // Alertmanager's basic_auth with the token as password; the same alert again is unchanged
    HttpResponse<Buffer> viaBasic = post(basic("alertmanager", TOKEN));
    assertEquals(200, viaBasic.statusCode(), viaBasic.bodyAsString());
    assertEquals(1, viaBasic.bodyAsJsonObject().getInteger("unchanged"));
  }

  @Test
  void reasonsNameTheProblemNeverTheToken() {
    WebhookCredential c = WebhookCredential.forToken(TOKEN);
    assertNull(c.problem("Bearer " + TOKEN));
    assertNull(c.problem("bearer  " + TOKEN + " "));
    assertNull(c.problem(basic("", TOKEN)));
    // a colon inside the password belongs to the password (user ends at the first colon)
    assertNull(WebhookCredential.forToken("a:b").problem(basic("u", "a:b")));
    Map<String, String> cases =
        Map.of(
            "",
            "no Authorization header (expected Bearer or Basic with the webhook token)",
            "Bearer " + TOKEN + "x",
            "wrong webhook token (Bearer)",
            basic("u", TOKEN + "x"),
            "wrong webhook token (Basic)",
            "Basic !!!",
            "Basic credential is not base64",
            "Basic " + Base64.getEncoder().encodeToString(TOKEN.getBytes(StandardCharsets.UTF_8)),
            "Basic credential has no user:password form",
            "Digest x",
            "unsupported Authorization scheme 'Digest' (expected Bearer or Basic)");
    cases.forEach((header, reason) -> assertEquals(reason, c.problem(header), header));
  }

  @Test
  void theTokenIsAKnownKeyAndMasked() {
    AlertmanagerConfig c =
        AlertmanagerConfig.fromMap(Map.of(AlertmanagerConfig.WEBHOOK_TOKEN, " " + TOKEN + " "));
    assertEquals(TOKEN, c.webhookToken());
    assertFalse(c.describe().contains(TOKEN), c.describe());
    assertFalse(c.toString().contains(TOKEN), c.toString());
    assertTrue(c.describe().contains(AlertmanagerConfig.WEBHOOK_TOKEN + "=******"));
    assertEquals("", AlertmanagerConfig.fromMap(Map.of()).webhookToken());
    assertEquals(
        AlertmanagerConfig.WEBHOOK_TOKEN + "=",
        AlertmanagerConfig.fromMap(Map.of()).describe().lines().toList().get(3));
  }
}
