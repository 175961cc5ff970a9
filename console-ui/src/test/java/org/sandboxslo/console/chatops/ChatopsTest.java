package org.sandboxslo.console.chatops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleVerticleAccess;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.console.remediation.RemediationConfig;
import org.sandboxslo.console.remediation.RemediationFleet;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolMember;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;

/**
 * The chat door on real parts: embedded PostgreSQL behind the plan service, the embedded Kubernetes
 * API server (stalled through its faults() where a test needs every fabric8 call of an executing
 * plan to hang), and a local HTTP receiver standing in for Slack's {@code response_url}. Requests
 * are signed with a test secret exactly as Slack signs them.
 */
class ChatopsTest {
  static final String SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
  static final String POOL = "demo/python-runtime-pool";
  @TempDir static Path dir;
  static Vertx vertx;
  static Database storage;
  static Pool pool;
  static EmbeddedApiServer api;
  static KubernetesClient client;
  static Remediation remediation;
  static HttpServer console;
  static HttpServer receiver;
  static final Queue<Map.Entry<String, JsonObject>> posts = new ConcurrentLinkedQueue<>();
  static final HttpClient HTTP = HttpClient.newHttpClient();

  /** Four Ready members, all built from an old template: a paced Recreate has work to do. */
  static final RemediationFleet FLEET =
      new RemediationFleet() {
        @Override
        public Future<PoolState> pool(ObjectRef ref) {
          if (!ref.toString().equals(POOL)) {
            return Future.succeededFuture(null);
          }
          List<PoolMember> members = new ArrayList<>();
          for (int i = 1; i <= 4; i++) {
            members.add(new PoolMember("m" + i, "uid-" + i, true, true, null));
          }
          return Future.succeededFuture(
              new PoolState(ref, "python-runtime", 4, "OnReplenish", members));
        }

        @Override
        public List<FindingState> findings() {
          return List.of();
        }

        @Override
        public boolean controllerLite() {
          return false;
        }

        @Override
        public void setMaxRefillRate(double perSecond) {
          throw new IllegalStateException("not here");
        }
      };

  static final ConsoleSources SOURCES =
      new ConsoleSources() {
        @Override
        public FleetSnapshot snapshot() {
          return null;
        }

        @Override
        public Map<String, Long> ingestErrors() {
          return Map.of();
        }

        @Override
        public boolean ready() {
          return true;
        }
      };

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    storage =
        get(
            Database.open(
                vertx,
                ConsoleConfig.fromMap(
                        Map.of(
                            "sloconsole.db.data-dir", dir.resolve("pg").toString(),
                            "sloconsole.db.work-dir", Path.of("target", "embedded-pg").toString()))
                    .database()));
    pool = PgBuilder.pool().connectingTo(storage.embedded().connectOptions()).using(vertx).build();
    // the embedded API server; stalled (connections taken, no answers) where a test says so
    api = EmbeddedApiServer.start(0);
    Config kube =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(api.url())
            .withRequestTimeout(600_000)
            .withRequestRetryBackoffLimit(0)
            .build();
    client = new KubernetesClientBuilder().withConfig(kube).build();
    RemediationConfig rc =
        RemediationConfig.fromMap(
            Map.of(
                RemediationConfig.TOKENS,
                "alice:t-alice:operator+approver,bob:t-bob:operator+approver:demo,carol:t-carol:viewer",
                RemediationConfig.POLL,
                "100ms"));
    remediation =
        get(
            Remediation.start(
                vertx, rc, new RemediationStore(pool), client, FLEET, Clock.systemUTC()));
    receiver =
        get(
            vertx
                .createHttpServer()
                .requestHandler(
                    req ->
                        req.body()
                            .onSuccess(
                                b -> {
                                  posts.add(Map.entry(req.path(), b.toJsonObject()));
                                  req.response().setStatusCode(200).end();
                                }))
                .listen(0, "127.0.0.1"));
    ChatopsConfig config =
        ChatopsConfig.fromMap(
            Map.of(
                ChatopsConfig.SIGNING_SECRET, SECRET,
                ChatopsConfig.USERS, "U0ALICE:alice,U0BOB:bob,U0CAROL:carol",
                ChatopsConfig.RESPONSE_URL_HOSTS, "127.0.0.1"));
    Router r = Router.router(vertx);
    Chatops.mount(
        r,
        vertx,
        config,
        URI.create("https://slo.example.com"),
        Duration.ofHours(24),
        SOURCES,
        remediation,
        null,
        null,
        Clock.systemUTC());
    ConsoleVerticleAccess.jsonErrors(r);
    console = get(vertx.createHttpServer().requestHandler(r).listen(0, "127.0.0.1"));
  }

  @AfterAll
  static void stop() throws Exception {
    get(remediation.stop());
    client.close();
    api.faults().resumeRequests();
    api.close();
    get(pool.close());
    get(storage.close());
    get(vertx.close());
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  // ---- Slack, as a test

  /** A fresh response_url on the local receiver. */
  static String responseUrl() {
    return "http://127.0.0.1:" + receiver.actualPort() + "/r/" + UUID.randomUUID();
  }

  static String form(Map<String, String> fields) {
    List<String> parts = new ArrayList<>();
    fields.forEach(
        (k, v) ->
            parts.add(
                URLEncoder.encode(k, StandardCharsets.UTF_8)
                    + "="
                    + URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return String.join("&", parts);
  }

  static String slashBody(String user, String text, String responseUrl) {
    Map<String, String> f = new java.util.LinkedHashMap<>();
    f.put("token", "deprecated-verification-token");
    f.put("team_id", "T0TEAM");
    f.put("team_domain", "example");
    f.put("channel_id", "C0OPS");
    f.put("channel_name", "sre-oncall");
    f.put("user_id", user);
    f.put("command", "/slo");
    f.put("text", text);
    f.put("response_url", responseUrl);
    f.put("trigger_id", "13345224609.738474920.8088930838d88f008e0");
    return form(f);
  }

  /** Sends {@code body} signed for {@code timestamp} (unless a signature is given). */
  static HttpResponse<String> send(String path, String body, long timestamp, String signature)
      throws Exception {
    String ts = Long.toString(timestamp);
    String sig =
        signature != null
            ? signature
            : SlackSignature.sign(SECRET, ts, body.getBytes(StandardCharsets.UTF_8));
    // Slack gives up after 3 s: so does this client
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.actualPort() + path))
            .timeout(Duration.ofSeconds(3))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("X-Slack-Request-Timestamp", ts)
            .header("X-Slack-Signature", sig)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static long now() {
    return Instant.now().getEpochSecond();
  }

  static HttpResponse<String> slash(String user, String text, String responseUrl) throws Exception {
    return send("/chatops/slack", slashBody(user, text, responseUrl), now(), null);
  }

  static HttpResponse<String> click(String user, String actionId, String token, String responseUrl)
      throws Exception {
    JsonObject payload =
        new JsonObject()
            .put("type", "block_actions")
            .put("user", new JsonObject().put("id", user))
            .put("team", new JsonObject().put("id", "T0TEAM"))
            .put("channel", new JsonObject().put("id", "C0OPS"))
            .put("response_url", responseUrl)
            .put(
                "actions",
                new JsonArray()
                    .add(new JsonObject().put("action_id", actionId).put("value", token)));
    return send("/chatops/slack/actions", form(Map.of("payload", payload.encode())), now(), null);
  }

  /** The n-th post (1-based) to {@code url}, waiting up to 20 s. */
  static JsonObject post(String url, int n) {
    String path = URI.create(url).getPath();
    return await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                posts.stream()
                    .filter(e -> e.getKey().equals(path))
                    .map(Map.Entry::getValue)
                    .toList(),
            l -> l.size() >= n)
        .get(n - 1);
  }

  static long postsTo(String url) {
    String path = URI.create(url).getPath();
    return posts.stream().filter(e -> e.getKey().equals(path)).count();
  }

  static String text(JsonObject message) {
    return message.getString("text");
  }

  /** The Confirm button's token of a dry-run message. */
  static String token(JsonObject message) {
    for (Object b : message.getJsonArray("blocks")) {
      JsonObject block = (JsonObject) b;
      if ("actions".equals(block.getString("type"))) {
        return block.getJsonArray("elements").getJsonObject(0).getString("value");
      }
    }
    throw new AssertionError("no buttons in " + message.encodePrettily());
  }

  static List<PlanRow> plans(String subject) throws Exception {
    return get(new RemediationStore(pool).plans(null)).stream()
        .filter(p -> p.subject().equals(subject))
        .toList();
  }

  static List<AuditEntry> chatAudit(String actor) throws Exception {
    return get(new RemediationStore(pool).audit(null, actor, null)).stream()
        .filter(a -> a.what().startsWith("chat."))
        .toList();
  }

  /** Plans {@code recreate <pool>} as {@code user} through both steps; the confirm answer. */
  static JsonObject recreate(String user, String subject) throws Exception {
    String url = responseUrl();
    assertEquals(200, slash(user, "recreate " + subject, url).statusCode());
    JsonObject dry = post(url, 1);
    String confirmUrl = responseUrl();
    assertEquals(200, click(user, "confirm", token(dry), confirmUrl).statusCode());
    return post(confirmUrl, 1);
  }

  // ---- tests

  @Test
  void aValidRequestIsAnsweredAndABadSignatureOrAStaleTimestampIs401() throws Exception {
    HttpResponse<String> help = slash("U0NOBODY", "help", responseUrl());
    assertEquals(200, help.statusCode());
    JsonObject h = new JsonObject(help.body());
    assertEquals("ephemeral", h.getString("response_type"));
    assertTrue(h.getString("text").contains("recreate <ns/pool>"), h.encode());

    String url = responseUrl();
    HttpResponse<String> status = slash("U0NOBODY", "status", url);
    assertEquals(200, status.statusCode());
    assertTrue(new JsonObject(status.body()).getString("text").startsWith("Working on"));
    assertTrue(text(post(url, 1)).contains("no fleet snapshot yet"), text(post(url, 1)));
    // links start with sloconsole.http.external-url
    assertTrue(
        post(url, 1).encode().contains("<https://slo.example.com/health|Health>"),
        post(url, 1).encode());

    // a wrong signature: 401, a WARN naming the reason (not the secret), nothing posted
    String badUrl = responseUrl();
    String body = slashBody("U0ALICE", "recreate " + POOL, badUrl);
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream err = System.err;
    HttpResponse<String> bad;
    try {
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      bad =
          send(
              "/chatops/slack",
              body,
              now(),
              SlackSignature.sign(
                  "not-the-secret", Long.toString(now()), body.getBytes(StandardCharsets.UTF_8)));
    } finally {
      System.setErr(err);
    }
    assertEquals(401, bad.statusCode(), bad.body());
    assertEquals("signature mismatch", new JsonObject(bad.body()).getString("reason"));
    String warned = log.toString(StandardCharsets.UTF_8);
    assertTrue(warned.contains("WARN") && warned.contains("signature mismatch"), warned);
    assertFalse(warned.contains(SECRET), warned);
    assertEquals(401, send("/chatops/slack", body, now(), "v0=00").statusCode());
    assertEquals(401, send("/chatops/slack", body, now(), "").statusCode());

    // 301 s old, or 301 s ahead: stale; 299 s old is still accepted
    HttpResponse<String> stale = send("/chatops/slack", body, now() - 301, null);
    assertEquals(401, stale.statusCode());
    assertTrue(new JsonObject(stale.body()).getString("reason").startsWith("stale timestamp"));
    assertEquals(401, send("/chatops/slack", body, now() + 301, null).statusCode());
    String okUrl = responseUrl();
    assertEquals(
        200,
        send("/chatops/slack", slashBody("U0NOBODY", "status", okUrl), now() - 299, null)
            .statusCode());
    post(okUrl, 1);
    assertEquals(0, postsTo(badUrl));
  }

  @Test
  void aReplayedRequestIsRefusedAndDoesNothingTwice() throws Exception {
    String subject = "demo/replay-pool";
    String url = responseUrl();
    String body = slashBody("U0ALICE", "recreate " + subject, url);
    long ts = now();
    assertEquals(200, send("/chatops/slack", body, ts, null).statusCode());
    // the identical request (same timestamp, body, signature) again
    HttpResponse<String> replay = send("/chatops/slack", body, ts, null);
    assertEquals(401, replay.statusCode());
    assertTrue(new JsonObject(replay.body()).getString("reason").startsWith("replayed request"));
    // the dry run (an unknown pool: a 400 answer) was posted once
    JsonObject answer = post(url, 1);
    assertTrue(text(answer).contains("no SandboxWarmPool demo/replay-pool is known"), text(answer));
    await().during(Duration.ofMillis(500)).until(() -> postsTo(url) == 1);

    // a replayed Confirm click creates no second plan
    String dryUrl = responseUrl();
    slash("U0ALICE", "plan ScalePool " + POOL + " replicas=6 reason=load", dryUrl);
    String confirmUrl = responseUrl();
    JsonObject payload =
        new JsonObject()
            .put("type", "block_actions")
            .put("user", new JsonObject().put("id", "U0ALICE"))
            .put("team", new JsonObject().put("id", "T0TEAM"))
            .put("channel", new JsonObject().put("id", "C0OPS"))
            .put("response_url", confirmUrl)
            .put(
                "actions",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("action_id", "confirm")
                            .put("value", token(post(dryUrl, 1)))));
    String clickBody = form(Map.of("payload", payload.encode()));
    long t2 = now();
    assertEquals(200, send("/chatops/slack/actions", clickBody, t2, null).statusCode());
    assertEquals(401, send("/chatops/slack/actions", clickBody, t2, null).statusCode());
    assertTrue(text(post(confirmUrl, 1)).startsWith("Planned p-"), text(post(confirmUrl, 1)));
    await()
        .during(Duration.ofMillis(500))
        .until(() -> plans(POOL).stream().filter(p -> p.action().equals("ScalePool")).count() == 1);
  }

  @Test
  void aRetypedRecreateCreatesOnePlanAndTheTwoPersonRuleHolds() throws Exception {
    // the first step changes nothing
    String url1 = responseUrl();
    slash("U0ALICE", "recreate " + POOL, url1);
    JsonObject dry1 = post(url1, 1);
    assertTrue(
        text(dry1).startsWith("Dry run: PacedRecreate demo/python-runtime-pool"), text(dry1));
    assertTrue(text(dry1).contains("nothing has changed yet"));
    assertEquals(0, plans(POOL).stream().filter(p -> p.action().equals("PacedRecreate")).count());
    // retyped before confirming: a second dry run
    String url2 = responseUrl();
    slash("U0ALICE", "recreate " + POOL, url2);
    JsonObject dry2 = post(url2, 1);

    String c1 = responseUrl();
    click("U0ALICE", "confirm", token(dry1), c1);
    JsonObject planned = post(c1, 1);
    assertTrue(text(planned).startsWith("Planned p-"), text(planned));
    String id = text(planned).substring("Planned ".length(), text(planned).indexOf(' ', 8));
    // confirming the retyped one, and typing it a third time: already in progress
    String c2 = responseUrl();
    click("U0ALICE", "confirm", token(dry2), c2);
    assertTrue(text(post(c2, 1)).startsWith("Already in progress: " + id), text(post(c2, 1)));
    String url3 = responseUrl();
    slash("U0ALICE", "recreate " + POOL, url3);
    assertTrue(text(post(url3, 1)).startsWith("Already in progress: " + id), text(post(url3, 1)));
    List<PlanRow> recreates =
        plans(POOL).stream().filter(p -> p.action().equals("PacedRecreate")).toList();
    assertEquals(1, recreates.size());
    assertEquals("alice", recreates.get(0).plannedBy());

    // two-person rule: alice planned a destructive action, so alice cannot approve it
    JsonObject selfApprove = approve("U0ALICE", id);
    assertTrue(text(selfApprove).contains("two-person rule"), text(selfApprove));
    assertEquals("planned", get(new RemediationStore(pool).plan(id)).state());
    // bob (approver in demo) can
    JsonObject approved = approve("U0BOB", id);
    assertTrue(text(approved).contains("approved"), text(approved));
    assertEquals("bob", get(new RemediationStore(pool).plan(id)).approvedBy());
    // the audit names team, channel and Slack user of each step
    List<AuditEntry> alice = chatAudit("alice");
    assertTrue(
        alice.stream()
            .anyMatch(
                a ->
                    a.what().equals("chat.approve")
                        && a.object().equals("slack team=T0TEAM channel=C0OPS user=U0ALICE")
                        && a.result().startsWith("refused: 403")),
        alice.toString());
    assertTrue(
        chatAudit("bob").stream()
            .anyMatch(a -> a.what().equals("chat.approve") && a.result().equals("ok: approved")));
  }

  static JsonObject approve(String user, String id) throws Exception {
    String url = responseUrl();
    slash(user, "approve " + id, url);
    JsonObject dry = post(url, 1);
    String c = responseUrl();
    click(user, "confirm", token(dry), c);
    return post(c, 1);
  }

  @Test
  void anUnmappedUserCannotApproveAndIsAudited() throws Exception {
    String url = responseUrl();
    assertEquals(200, slash("U0STRANGER", "approve p-0123456789ab", url).statusCode());
    JsonObject refused = post(url, 1);
    assertTrue(
        text(refused).startsWith("Refused: Slack user U0STRANGER is not mapped"), text(refused));
    List<AuditEntry> rows = chatAudit("slack:U0STRANGER");
    assertEquals(1, rows.size(), rows.toString());
    assertEquals("chat.approve", rows.get(0).what());
    assertEquals("p-0123456789ab", rows.get(0).planId());
    assertEquals("slack team=T0TEAM channel=C0OPS user=U0STRANGER", rows.get(0).object());
    assertTrue(rows.get(0).result().startsWith("refused: 403"));
    // a viewer is mapped but lacks the role: the plan service refuses
    String v = responseUrl();
    slash("U0CAROL", "recreate " + POOL, v);
    assertTrue(text(post(v, 1)).contains("lacks role operator"), text(post(v, 1)));
  }

  @Test
  void userMistakesGetUsageWith200() throws Exception {
    for (String text :
        List.of("reboot everything", "recreate", "approve 42", "silence x 5 parsecs")) {
      HttpResponse<String> r = slash("U0ALICE", text, responseUrl());
      assertEquals(200, r.statusCode(), text);
      assertTrue(new JsonObject(r.body()).getString("text").contains("help"), r.body());
    }
  }

  @Test
  void theAckIsImmediateWhileTheKubernetesApiIsStalledAndTheResultIsPostedLater() throws Exception {
    // plan, approve (bob), execute (alice): the executor's first call to the API hangs
    String subject = "demo/python-runtime-pool";
    JsonObject planned = recreateOrExisting(subject);
    String id = planned.getString("id");
    if (planned.getString("state").equals("planned")) {
      approve("U0BOB", id);
    }
    api.faults().stallRequests();
    try {
      ackedWhileStalled(id, subject);
    } finally {
      api.faults().resumeRequests();
    }
  }

  void ackedWhileStalled(String id, String subject) throws Exception {
    int before = api.faults().stalledRequests();
    String url = responseUrl();
    slash("U0ALICE", "execute " + id, url);
    String c = responseUrl();
    click("U0ALICE", "confirm", token(post(url, 1)), c);
    assertTrue(text(post(c, 1)).startsWith("Executing"), text(post(c, 1)));
    await().atMost(Duration.ofSeconds(20)).until(() -> api.faults().stalledRequests() > before);
    // with the executor stuck on the API, every command is still acknowledged at once
    List<Long> millis = new ArrayList<>();
    for (String text :
        List.of("status", "recreate " + subject, "execute " + id, "approve " + id, "help")) {
      long t0 = System.nanoTime();
      HttpResponse<String> r = slash("U0ALICE", text, responseUrl());
      millis.add((System.nanoTime() - t0) / 1_000_000);
      assertEquals(200, r.statusCode(), text);
    }
    System.out.println("chat ack latency with a stalled Kubernetes API (ms): " + millis);
    // a second execute (retyped) is not a second execution
    String again = responseUrl();
    slash("U0ALICE", "execute " + id, again);
    String c2 = responseUrl();
    click("U0ALICE", "confirm", token(post(again, 1)), c2);
    assertTrue(text(post(c2, 1)).startsWith("Already in progress: " + id), text(post(c2, 1)));
    assertEquals("executing", get(new RemediationStore(pool).plan(id)).state());
    // cancelling ends it; the end is posted to the execute's response_url (2nd post there)
    String cu = responseUrl();
    slash("U0ALICE", "cancel " + id, cu);
    String cc = responseUrl();
    click("U0ALICE", "confirm", token(post(cu, 1)), cc);
    assertTrue(text(post(c, 2)).startsWith("Plan cancelled"), text(post(c, 2)));
    assertEquals("cancelled", get(new RemediationStore(pool).plan(id)).state());
  }

  /** The unfinished PacedRecreate of the pool, planned through chat if there is none. */
  static JsonObject recreateOrExisting(String subject) throws Exception {
    for (PlanRow p : plans(subject)) {
      if (p.action().equals("PacedRecreate")
          && List.of("planned", "approved").contains(p.state())) {
        return new JsonObject().put("id", p.id()).put("state", p.state());
      }
    }
    JsonObject planned = recreate("U0ALICE", subject);
    String t = text(planned);
    assertTrue(t.startsWith("Planned p-"), t);
    String id = t.substring("Planned ".length(), t.indexOf(' ', 8));
    return new JsonObject().put("id", id).put("state", "planned");
  }

  @Test
  void confirmationsAreOneUseAndOnlyForTheAsker() throws Exception {
    String url = responseUrl();
    slash("U0ALICE", "plan ScalePool " + POOL + " replicas=2 reason=night", url);
    String token = token(post(url, 1));
    String other = responseUrl();
    click("U0BOB", "confirm", token, other);
    assertTrue(text(post(other, 1)).startsWith("Only <@U0ALICE>"), text(post(other, 1)));
    String cancel = responseUrl();
    click("U0ALICE", "cancel", token, cancel);
    assertEquals("Cancelled; nothing was changed.", text(post(cancel, 1)));
    String late = responseUrl();
    click("U0ALICE", "confirm", token, late);
    assertTrue(
        text(post(late, 1)).startsWith("This confirmation has expired"), text(post(late, 1)));
    assertEquals(
        0,
        plans(POOL).stream()
            .filter(p -> p.action().equals("ScalePool") && p.params().getInteger("replicas") == 2)
            .count());
  }
}
