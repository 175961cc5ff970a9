package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.chatops.SlackSignature;

/**
 * The chat door behind the whole console router (security headers, Origin check, sign-in, deadline,
 * Idempotency-Keys): a Slack request carries no bearer token and no Idempotency-Key, so it must
 * reach the chat door's own signature and replay checks untouched, while the webhook and the API
 * still demand their credentials.
 */
class ChatThroughConsoleTest {
  static final String SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static Vertx vertx;
  static ConsoleServer server;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    ConsoleConfig config =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.http.port", "0",
                "sloconsole.management.port", "0",
                "sloconsole.chatops.slack.signing-secret", SECRET));
    server =
        ConsoleServer.start(
                vertx, config, new Fixtures.TestSources(), null, new PrometheusRegistry())
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    server.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    vertx.close();
  }

  static HttpResponse<String> post(String path, String body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static Map<String, String> signed(String ts, String body) {
    return Map.of(
        "X-Slack-Request-Timestamp",
        ts,
        "X-Slack-Signature",
        SlackSignature.sign(SECRET, ts, body.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void slackRequestsPassSignInAndIdempotencyToTheChatDoor() throws Exception {
    String ts = Long.toString(Instant.now().getEpochSecond());
    String body = "team_id=T1&channel_id=C1&user_id=U0NOBODY&command=%2Fslo&text=help";
    // no Authorization, no Idempotency-Key: the signature is the credential
    HttpResponse<String> first = post("/chatops/slack", body, signed(ts, body));
    assertEquals(200, first.statusCode(), first.body());
    assertTrue(new JsonObject(first.body()).getString("text").contains("help"), first.body());

    // Slack's retry of the same request: 200, empty, not acted on again (the chat door's replay
    // cache answered it, not the Idempotency-Key store, which would need a key)
    Map<String, String> retry = new java.util.HashMap<>(signed(ts, body));
    retry.put("X-Slack-Retry-Num", "1");
    retry.put("X-Slack-Retry-Reason", "http_timeout");
    HttpResponse<String> retried = post("/chatops/slack", body, retry);
    assertEquals(200, retried.statusCode(), retried.body());
    assertEquals("", retried.body());

    // the same request again without Slack's retry header is a replay: the chat door's 401
    HttpResponse<String> replay = post("/chatops/slack", body, signed(ts, body));
    assertEquals(401, replay.statusCode(), replay.body());
    assertEquals("X-Slack-Signature", new JsonObject(replay.body()).getString("field"));
  }

  @Test
  void aBadSignatureIsRefusedByTheChatDoorNotBySignIn() throws Exception {
    String ts = Long.toString(Instant.now().getEpochSecond());
    String body = "user_id=U0NOBODY&command=%2Fslo&text=status";
    Map<String, String> forged =
        Map.of(
            "X-Slack-Request-Timestamp",
            ts,
            "X-Slack-Signature",
            SlackSignature.sign("another-secret", ts, body.getBytes(StandardCharsets.UTF_8)),
            // a bearer token does not stand in for the signature
            "Authorization",
            "Bearer " + SECRET);
    HttpResponse<String> r = post("/chatops/slack", body, forged);
    assertEquals(401, r.statusCode(), r.body());
    assertEquals("X-Slack-Signature", new JsonObject(r.body()).getString("field"));
    // the sign-in layer's 401 carries a Bearer challenge; the chat door's does not
    assertNull(r.headers().firstValue("WWW-Authenticate").orElse(null));
  }

  @Test
  void aSlackSignatureOpensNeitherTheWebhookNorTheApi() throws Exception {
    String ts = Long.toString(Instant.now().getEpochSecond());
    String json = "{\"version\":\"4\",\"alerts\":[]}";
    HttpResponse<String> hook =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.httpPort() + "/hooks/alertmanager"))
                .header("Content-Type", "application/json")
                .header("X-Slack-Request-Timestamp", ts)
                .header(
                    "X-Slack-Signature",
                    SlackSignature.sign(SECRET, ts, json.getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(401, hook.statusCode(), hook.body());
    assertNotNull(hook.headers().firstValue("WWW-Authenticate").orElse(null));
    HttpResponse<String> plan =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.httpPort() + "/api/v1/plans"))
                .header("Content-Type", "application/json")
                .header("X-Slack-Request-Timestamp", ts)
                .header(
                    "X-Slack-Signature",
                    SlackSignature.sign(SECRET, ts, "{}".getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(401, plan.statusCode(), plan.body());
  }
}
