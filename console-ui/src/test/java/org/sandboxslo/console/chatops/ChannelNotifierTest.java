package org.sandboxslo.console.chatops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.remediation.PlanState;
import org.sandboxslo.store.IncidentRow;
import org.sandboxslo.store.PlanRow;

/** Channel notifications posted to a local HTTP receiver standing in for an incoming webhook. */
class ChannelNotifierTest {
  static Vertx vertx;
  static HttpServer receiver;
  static final Queue<JsonObject> posts = new ConcurrentLinkedQueue<>();
  static volatile int status = 200;
  static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    receiver =
        get(
            vertx
                .createHttpServer()
                .requestHandler(
                    req ->
                        req.body()
                            .onSuccess(
                                b -> {
                                  posts.add(b.toJsonObject());
                                  req.response().setStatusCode(status).end();
                                }))
                .listen(0, "127.0.0.1"));
  }

  @AfterAll
  static void stop() throws Exception {
    get(vertx.close());
  }

  @BeforeEach
  void clear() {
    posts.clear();
    status = 200;
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static ChannelNotifier notifier() {
    return new ChannelNotifier(
        WebClient.create(vertx),
        URI.create("http://127.0.0.1:" + receiver.actualPort() + "/services/T0/B0/secret"),
        new Links(URI.create("https://slo.example.com")));
  }

  static IncidentRow row(String status, Instant endsAt) {
    return IncidentRow.of(
        "fp-1",
        status,
        new JsonObject()
            .put("alertname", "WarmPoolDrained")
            .put("severity", "page")
            .put("namespace", "demo")
            .put("sandbox_template", "python-runtime")
            .put("warmpool_name", "python-runtime-pool"),
        new JsonObject().put("summary", "no Ready members for 5m"),
        T0,
        endsAt,
        null,
        "sandbox-slo-console",
        T0.plusSeconds(30));
  }

  static PlanRow plan(String state) {
    return new PlanRow(
        "p-0123456789ab",
        "PacedRecreate",
        "demo/python-runtime-pool",
        new JsonObject(),
        "stale members",
        state,
        "alice",
        "bob",
        "alice",
        null,
        new JsonObject(),
        new JsonObject(),
        null,
        T0,
        T0);
  }

  @Test
  void anIncidentIsPostedOncePerStatusWithItsDurationAndLinks() throws Exception {
    ChannelNotifier n = notifier();
    IncidentRow firing = row("firing", null);
    get(n.incidents(List.of(firing)));
    // a repeat notification or a re-read of the same episode: nothing more
    get(n.incidents(List.of(firing)));
    assertEquals(1, posts.size());
    JsonObject first = posts.poll();
    assertEquals(
        "Firing: WarmPoolDrained on demo/python-runtime-pool (page)\nno Ready members for 5m",
        first.getString("text"));
    assertNull(first.getString("response_type"), "an incoming webhook message has no type");
    String blocks = first.getJsonArray("blocks").encode();
    assertTrue(blocks.contains("https://slo.example.com/pools/demo/python-runtime-pool"), blocks);
    assertTrue(blocks.contains("https://slo.example.com/templates/demo/python-runtime"), blocks);

    // resolved 5 min 12 s after it started: 5 × 60 + 12 = 312 s
    IncidentRow resolved = row("resolved", T0.plusSeconds(312));
    get(n.incidents(List.of(resolved, resolved)));
    assertEquals(1, posts.size());
    assertEquals(
        "Resolved: WarmPoolDrained on demo/python-runtime-pool (page) after 312s\n"
            + "no Ready members for 5m",
        posts.poll().getString("text"));

    // a new episode of the same alert (a later startsAt) is a new incident
    IncidentRow again =
        IncidentRow.of(
            "fp-1",
            "firing",
            firing.labels(),
            firing.annotations(),
            T0.plusSeconds(3600),
            null,
            null,
            null,
            T0.plusSeconds(3600));
    get(n.incidents(List.of(again)));
    assertEquals(1, posts.size());
  }

  @Test
  void planProgressIsPostedOncePerState() throws Exception {
    ChannelNotifier n = notifier();
    n.executing(plan("executing"));
    n.executing(plan("executing"));
    n.finished(plan("executing"), PlanState.SUCCEEDED);
    await().atMost(Duration.ofSeconds(20)).until(() -> posts.size() >= 2);
    // and no third post (the repeated executing) arrives
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> posts.size() == 2);
    List<String> texts = posts.stream().map(p -> p.getString("text")).sorted().toList();
    assertEquals(
        List.of(
            "Plan p-0123456789ab executing: PacedRecreate demo/python-runtime-pool — stale members"
                + " (planned by alice, approved by bob)",
            "Plan p-0123456789ab succeeded: PacedRecreate demo/python-runtime-pool — stale members"
                + " (planned by alice, approved by bob)"),
        texts);
  }

  @Test
  void aFailedPostIsLoggedNotRetriedAndNeverFails() throws Exception {
    ChannelNotifier n = notifier();
    status = 500;
    get(n.incidents(List.of(row("firing", null))));
    get(n.incidents(List.of(row("firing", null))));
    assertEquals(1, posts.size(), "posted once, not retried");
  }

  @Test
  void theNotifyUrlMustBeAnAllowedHostAndIsMasked() {
    ChatopsConfig c =
        ChatopsConfig.fromMap(
            Map.of(ChatopsConfig.NOTIFY_URL, "https://hooks.slack.com/services/T0/B0/s3cr3t"));
    assertEquals("hooks.slack.com", c.notifyUrl().getHost());
    assertFalse(c.describe().contains("s3cr3t"), c.describe());
    assertFalse(c.toString().contains("s3cr3t"), c.toString());
    assertTrue(
        c.describe().contains(ChatopsConfig.NOTIFY_URL + "=https://hooks.slack.com/******"),
        c.describe());
    assertNull(ChatopsConfig.disabled().notifyUrl());
    assertEquals(
        "sloconsole.chatops.slack.notify-url: host evil.example.com is not in"
            + " sloconsole.chatops.slack.response-url-hosts [hooks.slack.com]",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ChatopsConfig.fromMap(
                        Map.of(ChatopsConfig.NOTIFY_URL, "https://evil.example.com/hook")))
            .getMessage());
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class,
            () -> ChatopsConfig.fromMap(Map.of(ChatopsConfig.NOTIFY_URL, "hooks.slack.com/x9")));
    assertTrue(bad.getMessage().startsWith(ChatopsConfig.NOTIFY_URL + ":"), bad.getMessage());
    assertFalse(bad.getMessage().contains("x9"), bad.getMessage());
  }
}
