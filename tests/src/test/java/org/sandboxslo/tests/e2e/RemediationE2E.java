package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.console.remediation.RemediationConfig;
import org.sandboxslo.console.remediation.RemediationFleet;
import org.sandboxslo.demo.DemoApp;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.RemediationStore;

/**
 * The stale-template incident end to end on embedded defaults (no load): a claim adopts one member
 * of demo/python-runtime-pool, the template image changes under OnReplenish, the engine reports
 * StalePoolMembers, and its PacedRecreate plan is planned, refused when it must be, approved by a
 * second person, executed and audited. A second pool shows that a failing audit write stops the
 * change, and that a new service on the same database resumes the plan.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RemediationE2E {
  static final String NS = "demo";
  static final String POOL = "python-runtime-pool";
  static final String NEW_IMAGE = "registry.example.com/sandbox/python-runtime:3.13";
  static final String ALICE = "token-alice";
  static final String BOB = "token-bob";
  static final String CAROL = "token-carol";
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir static Path dir;
  DemoApp app;

  @BeforeAll
  void start() {
    Map<String, String> s = new HashMap<>();
    s.put("sloconsole.http.port", "0");
    s.put("sloconsole.management.port", "0");
    s.put("sloconsole.db.data-dir", dir.resolve("pg").toString());
    s.put("sloconsole.db.work-dir", dir.resolve("pg-bin").toString());
    s.put("sloconsole.load.enabled", "false");
    s.put("sloconsole.controller.cold-start-p50", "300ms");
    s.put("sloconsole.controller.cold-start-p95", "800ms");
    s.put("sloconsole.remediation.poll-interval", "200ms");
    s.put(
        "sloconsole.auth.tokens",
        "alice:"
            + ALICE
            + ":operator+approver,bob:"
            + BOB
            + ":approver:demo+viewer,carol:"
            + CAROL
            + ":viewer");
    List<String> errors = new ArrayList<>();
    app = DemoApp.start(s, List.of(), Map.of(), errors::add);
    assertEquals(List.of(), errors);
    await().atMost(Duration.ofSeconds(60)).until(() -> Http.get(mgmt("/readyz")).status() == 200);
    await().atMost(Duration.ofSeconds(60)).until(() -> readyMembers(POOL).size() == 8);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  String api(String path) {
    return "http://127.0.0.1:" + app.httpPort() + path;
  }

  String mgmt(String path) {
    return "http://127.0.0.1:" + app.managementPort() + path;
  }

  static Http.Response post(String url, String token, String body, String idempotencyKey) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(20))
            .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body))
            .header("Content-Type", "application/json");
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (idempotencyKey != null) {
      b.header("Idempotency-Key", idempotencyKey);
    }
    return send(b.build());
  }

  static Http.Response get(String url, String token) {
    return send(
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + token)
            .build());
  }

  static Http.Response send(HttpRequest r) {
    try {
      HttpResponse<String> resp = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
      return new Http.Response(resp.statusCode(), resp.body());
    } catch (IOException e) {
      throw new AssertionError(r.method() + " " + r.uri() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted");
    }
  }

  List<GenericKubernetesResource> sandboxes() {
    return Resources.ops(app.client(), Kind.SANDBOX).inNamespace(NS).list().getItems();
  }

  static boolean ownedBy(GenericKubernetesResource s, String kind, String name) {
    OwnerReference o = Resources.controllerOwner(s);
    return o != null && kind.equals(o.getKind()) && name.equals(o.getName());
  }

  static String image(GenericKubernetesResource s) {
    Map<String, Object> c =
        (Map<String, Object>)
            Resources.list(
                    Resources.map(Resources.map(Resources.spec(s), "podTemplate"), "spec"),
                    "containers")
                .get(0);
    return (String) c.get("image");
  }

  /** Ready members owned by the pool (controller ownerReference), not deleting. */
  List<GenericKubernetesResource> readyMembers(String pool) {
    return sandboxes().stream()
        .filter(
            s ->
                ownedBy(s, "SandboxWarmPool", pool)
                    && s.getMetadata().getDeletionTimestamp() == null
                    && Resources.isTrue(s, "Ready"))
        .toList();
  }

  Set<String> memberUids(String pool) {
    Set<String> out = new TreeSet<>();
    sandboxes().stream()
        .filter(s -> ownedBy(s, "SandboxWarmPool", pool))
        .forEach(s -> out.add(s.getMetadata().getUid()));
    return out;
  }

  void setImage(String template, String image) {
    GenericKubernetesResource t =
        Resources.ops(app.client(), Kind.SANDBOX_TEMPLATE).inNamespace(NS).withName(template).get();
    Map<String, Object> c =
        (Map<String, Object>)
            Resources.list(
                    Resources.map(Resources.map(Resources.spec(t), "podTemplate"), "spec"),
                    "containers")
                .get(0);
    c.put("image", image);
    Resources.ops(app.client(), Kind.SANDBOX_TEMPLATE).inNamespace(NS).resource(t).update();
  }

  /** Creates a claim on the pool and returns the name of the Sandbox it got, once Ready. */
  String claim(String name, String pool) {
    GenericKubernetesResource c = Resources.newObject(Kind.SANDBOX_CLAIM, NS);
    c.getMetadata().setName(name);
    c.setAdditionalProperty("spec", Map.of("warmPoolRef", Map.of("name", pool)));
    Resources.ops(app.client(), Kind.SANDBOX_CLAIM).inNamespace(NS).resource(c).create();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              GenericKubernetesResource r =
                  Resources.ops(app.client(), Kind.SANDBOX_CLAIM)
                      .inNamespace(NS)
                      .withName(name)
                      .get();
              return r != null
                  && Resources.isTrue(r, "Ready")
                  && Resources.annotation(r, Labels.SANDBOX_NAME) != null;
            });
    return Resources.annotation(
        Resources.ops(app.client(), Kind.SANDBOX_CLAIM).inNamespace(NS).withName(name).get(),
        Labels.SANDBOX_NAME);
  }

  JsonNode findingFor(String pool) {
    Http.Response r = Http.get(api("/api/v1/findings?kind=StalePoolMembers&state=open"));
    JsonNode items = r.json().get("items");
    assertNotNull(items, r.status() + " " + r.body());
    for (JsonNode f : items) {
      if (f.get("subject").asText().equals("SandboxWarmPool " + NS + "/" + pool)) {
        return f;
      }
    }
    return null;
  }

  /** Plans the PacedRecreate a StalePoolMembers finding proposes (as alice). */
  JsonNode planFromFinding(String pool) {
    await().atMost(Duration.ofSeconds(60)).until(() -> findingFor(pool) != null);
    JsonNode f = findingFor(pool);
    assertEquals("PacedRecreate", f.get("proposals").get(0).get("action").asText());
    ObjectNode body =
        Http.JSON
            .createObjectNode()
            .put("action", "PacedRecreate")
            .put("subject", NS + "/" + pool)
            .put("reason", f.get("explanation").asText());
    body.putObject("params");
    Http.Response r = post(api("/api/v1/plans"), ALICE, body.toString(), null);
    assertEquals(201, r.status(), r.body());
    return r.json();
  }

  List<JsonNode> audit(String planId) {
    List<JsonNode> out = new ArrayList<>();
    get(api("/api/v1/audit?plan=" + planId), CAROL).json().get("items").forEach(out::add);
    return out;
  }

  static long count(List<JsonNode> rows, String what, String resultPrefix) {
    return rows.stream()
        .filter(
            r ->
                r.get("what").asText().equals(what)
                    && r.get("result").asText().startsWith(resultPrefix))
        .count();
  }

  @Test
  @Order(1)
  void staleTemplateIncidentIsPlannedApprovedExecutedPacedAndAudited() throws Exception {
    String claimed = claim("e2e-claim-1", POOL);
    GenericKubernetesResource claimedBefore =
        Resources.ops(app.client(), Kind.SANDBOX).inNamespace(NS).withName(claimed).get();
    String oldImage = image(claimedBefore);
    await().atMost(Duration.ofSeconds(90)).until(() -> readyMembers(POOL).size() == 8);
    setImage("python-runtime", NEW_IMAGE);

    // plan: dry run names exactly the 8 stale unclaimed members, 2 at a time, floor 6 of 8
    JsonNode plan = planFromFinding(POOL);
    String id = plan.get("id").asText();
    assertEquals("planned", plan.get("state").asText());
    JsonNode dry = plan.get("plan");
    assertEquals(2, dry.get("maxUnavailable").asInt());
    assertEquals(6, dry.get("floorReady").asInt());
    assertEquals(0.75, dry.get("floorFraction").asDouble(), 0.0);
    assertEquals(4, dry.get("batches").size());
    Set<String> planned = new TreeSet<>();
    dry.get("batches")
        .forEach(
            b -> {
              assertEquals(2, b.size());
              b.forEach(n -> planned.add(n.asText()));
            });
    Set<String> membersNow = new TreeSet<>();
    sandboxes().stream()
        .filter(s -> ownedBy(s, "SandboxWarmPool", POOL))
        .forEach(s -> membersNow.add(s.getMetadata().getName()));
    assertEquals(membersNow, planned);
    assertFalse(planned.contains(claimed));
    assertEquals(claimed + " (claim e2e-claim-1)", dry.get("untouched").get(0).asText());
    assertEquals(8, dry.get("predicted").get("staleMembers").get("before").asInt());
    assertEquals(0, dry.get("predicted").get("staleMembers").get("after").asInt());
    assertEquals(0.75, dry.get("predicted").get("minReadyFractionDuringRollout").asDouble(), 0.0);

    // refusals change nothing: no approval yet; viewer approves; planner approves own destructive
    // plan
    Set<String> uidsBefore = memberUids(POOL);
    Http.Response early = post(api("/api/v1/plans/" + id + "/execute"), ALICE, null, null);
    assertEquals(409, early.status(), early.body());
    assertEquals(
        "plan " + id + " is not approved; an approver must approve it before it can be executed",
        early.json().get("reason").asText());
    Http.Response viewer = post(api("/api/v1/plans/" + id + "/approve"), CAROL, null, null);
    assertEquals(403, viewer.status(), viewer.body());
    assertEquals("role", viewer.json().get("field").asText());
    assertTrue(
        viewer.json().get("reason").asText().contains("lacks role approver for namespace demo"),
        viewer.body());
    Http.Response self = post(api("/api/v1/plans/" + id + "/approve"), ALICE, null, null);
    assertEquals(403, self.status(), self.body());
    assertTrue(self.json().get("reason").asText().startsWith("two-person rule"), self.body());
    assertEquals(401, post(api("/api/v1/plans/" + id + "/approve"), null, null, null).status());
    assertEquals(401, post(api("/api/v1/plans/" + id + "/approve"), "nope", null, null).status());
    assertEquals("planned", get(api("/api/v1/plans/" + id), CAROL).json().get("state").asText());
    assertEquals(uidsBefore, memberUids(POOL));
    List<JsonNode> refusedRows = audit(id);
    assertEquals(1, count(refusedRows, "plan.create", "ok"));
    assertEquals(
        3,
        refusedRows.stream().filter(r -> r.get("result").asText().startsWith("refused: ")).count());
    assertEquals(0, count(refusedRows, "step.before", ""));
    assertEquals(0, count(refusedRows, "plan.approve", "ok"));

    // bad input is a 400 naming the field
    Http.Response bad =
        post(
            api("/api/v1/plans"),
            ALICE,
            "{\"action\":\"Nuke\",\"subject\":\"demo/x\",\"reason\":\"r\"}",
            null);
    assertEquals(400, bad.status());
    assertEquals("action", bad.json().get("field").asText());
    Http.Response badSubject =
        post(
            api("/api/v1/plans"),
            ALICE,
            "{\"action\":\"PacedRecreate\",\"subject\":\"demo/nope\",\"reason\":\"r\"}",
            null);
    assertEquals(400, badSubject.status());
    assertEquals("subject", badSubject.json().get("field").asText());
    assertEquals("no SandboxWarmPool demo/nope is known", badSubject.json().get("reason").asText());
    Http.Response badParams =
        post(
            api("/api/v1/plans"),
            ALICE,
            "{\"action\":\"ScalePool\",\"subject\":\"demo/python-runtime-pool\",\"params\":{\"replicas\":-1},\"reason\":\"r\"}",
            null);
    assertEquals(400, badParams.status());
    assertEquals("params.replicas", badParams.json().get("field").asText());

    // bob approves
    Http.Response approved = post(api("/api/v1/plans/" + id + "/approve"), BOB, null, null);
    assertEquals(200, approved.status(), approved.body());
    assertEquals("bob", approved.json().get("approvedBy").asText());

    // execute while sampling the pool's Ready members through the Kubernetes API
    AtomicInteger minReady = new AtomicInteger(Integer.MAX_VALUE);
    ConcurrentLinkedQueue<Integer> currentTemplateReady = new ConcurrentLinkedQueue<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(
        () -> {
          List<GenericKubernetesResource> ready = readyMembers(POOL);
          minReady.accumulateAndGet(ready.size(), Math::min);
          currentTemplateReady.add(
              (int) ready.stream().filter(s -> NEW_IMAGE.equals(image(s))).count());
        },
        0,
        50,
        TimeUnit.MILLISECONDS);
    long t0 = System.nanoTime();
    Http.Response exec = post(api("/api/v1/plans/" + id + "/execute"), ALICE, null, "exec-1");
    assertEquals(200, exec.status(), exec.body());
    assertEquals("executing", exec.json().get("state").asText());
    // a retry with the same Idempotency-Key gets the first answer again and changes nothing
    Http.Response dup = post(api("/api/v1/plans/" + id + "/execute"), ALICE, null, "exec-1");
    assertEquals(200, dup.status(), dup.body());
    assertEquals(exec.body(), dup.body());
    // without a key a duplicate is refused by the state machine
    Http.Response noKey = post(api("/api/v1/plans/" + id + "/execute"), ALICE, null, null);
    assertEquals(409, noKey.status(), noKey.body());
    assertTrue(
        noKey.json().get("reason").asText().endsWith("nothing was done twice"), noKey.body());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                get(api("/api/v1/plans/" + id), CAROL)
                    .json()
                    .get("state")
                    .asText()
                    .equals("succeeded"));
    long rolloutMs = (System.nanoTime() - t0) / 1_000_000;
    sampler.shutdown();
    assertTrue(sampler.awaitTermination(5, TimeUnit.SECONDS));
    System.out.println(
        "paced Recreate of 8 members: "
            + rolloutMs
            + " ms, min Ready sampled "
            + minReady.get()
            + " of 8 ("
            + currentTemplateReady.size()
            + " samples)");
    assertTrue(minReady.get() >= 6, "Ready members dropped to " + minReady.get() + " < floor 6");
    // the current-template ready count only grows during the rollout, until all 8 are replaced;
    // then the restore after the surge (8 + 2 → 8) may remove the 2 extra members again
    List<Integer> fresh = new ArrayList<>(currentTemplateReady);
    int full = fresh.indexOf(8) < 0 ? fresh.size() : fresh.indexOf(8);
    for (int i = 1; i < full; i++) {
      assertTrue(fresh.get(i) >= fresh.get(i - 1), "current-template Ready went down: " + fresh);
    }
    for (int i = full; i < fresh.size(); i++) {
      assertTrue(
          fresh.get(i) >= 8, "current-template Ready fell below 8 after the rollout: " + fresh);
    }
    JsonNode done = get(api("/api/v1/plans/" + id), CAROL).json();
    assertTrue(done.get("progress").get("minReady").asInt() >= 6, done.toString());
    assertEquals(8, done.get("progress").get("deleted").size());

    // afterwards: no stale member, all members on the new image, claimed member untouched
    await().atMost(Duration.ofSeconds(90)).until(() -> readyMembers(POOL).size() == 8);
    readyMembers(POOL).forEach(m -> assertEquals(NEW_IMAGE, image(m)));
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertEquals(
                    0,
                    Http.get(api("/api/v1/pools/" + NS + "/" + POOL))
                        .json()
                        .get("pool")
                        .get("staleMembers")
                        .asInt()));
    GenericKubernetesResource claimedAfter =
        Resources.ops(app.client(), Kind.SANDBOX).inNamespace(NS).withName(claimed).get();
    assertNotNull(claimedAfter, "the claimed Sandbox was deleted");
    assertEquals(claimedBefore.getMetadata().getUid(), claimedAfter.getMetadata().getUid());
    assertTrue(ownedBy(claimedAfter, "SandboxClaim", "e2e-claim-1"));
    assertEquals(oldImage, image(claimedAfter));
    String next = claim("e2e-claim-2", POOL);
    assertEquals(
        NEW_IMAGE,
        image(Resources.ops(app.client(), Kind.SANDBOX).inNamespace(NS).withName(next).get()));

    // the audit log: plan, approval, execution, every step before and after, the end
    List<JsonNode> rows = audit(id);
    assertEquals(1, count(rows, "plan.create", "ok"));
    assertEquals(1, count(rows, "plan.approve", "ok"));
    assertEquals(
        "bob",
        rows.stream()
            .filter(
                r ->
                    r.get("what").asText().equals("plan.approve")
                        && r.get("result").asText().equals("ok"))
            .findFirst()
            .orElseThrow()
            .get("actor")
            .asText());
    assertEquals(1, count(rows, "plan.execute", "ok"));
    // 8 deletes, plus the surge first (no member on the new template was Ready) and its restore
    assertEquals(10, count(rows, "step.before", "intent"));
    assertEquals(10, count(rows, "step.after", "ok"));
    assertEquals(1, count(rows, "plan.done", "succeeded"));
    for (String member : planned) {
      List<JsonNode> steps =
          rows.stream()
              .filter(r -> ("Sandbox demo/" + member).equals(r.get("object").asText()))
              .toList();
      assertEquals(2, steps.size(), member + ": " + steps);
      assertEquals("step.before", steps.get(0).get("what").asText());
      assertEquals("step.after", steps.get(1).get("what").asText());
      assertTrue(steps.get(0).get("seq").asLong() < steps.get(1).get("seq").asLong());
    }
    assertFalse(
        rows.stream().anyMatch(r -> r.get("object").asText().equals("Sandbox demo/" + claimed)));

    // a duplicated execute of the finished plan: 409, nothing deleted, no new step rows
    Set<String> uidsAfter = memberUids(POOL);
    Http.Response again = post(api("/api/v1/plans/" + id + "/execute"), ALICE, null, null);
    assertEquals(409, again.status());
    assertEquals(
        "plan " + id + " is already succeeded (started by alice); nothing was done twice",
        again.json().get("reason").asText());
    List<JsonNode> rowsAfter = audit(id);
    assertEquals(10, count(rowsAfter, "step.before", ""));
    assertEquals(rows.size() + 1, rowsAfter.size());
    assertTrue(
        rowsAfter.get(rowsAfter.size() - 1).get("result").asText().startsWith("refused: 409"));
    assertEquals(uidsAfter, memberUids(POOL));
    // the audit filters
    assertTrue(get(api("/api/v1/audit?actor=bob"), CAROL).json().get("items").size() >= 1);
    assertEquals(400, get(api("/api/v1/audit?since=yesterday"), CAROL).status());
  }

  @Test
  @Order(2)
  void aFailingAuditWriteStopsTheChange() throws Exception {
    String pool = "node-runtime-pool";
    await().atMost(Duration.ofSeconds(90)).until(() -> readyMembers(pool).size() == 4);
    setImage("node-runtime", "registry.example.com/sandbox/node-runtime:99");
    JsonNode plan = planFromFinding(pool);
    String id = plan.get("id").asText();
    assertEquals(200, post(api("/api/v1/plans/" + id + "/approve"), BOB, null, null).status());
    Set<String> before = memberUids(pool);
    String jdbc = app.storage().embedded().jdbcUrl();
    try (Connection c = DriverManager.getConnection(jdbc, "postgres", "");
        Statement st = c.createStatement()) {
      st.execute(
          "create function e2e_audit_down() returns trigger language plpgsql as $$ begin "
              + "if new.what = 'step.before' then raise exception 'audit store down'; end if; return new; end $$");
      st.execute(
          "create trigger e2e_audit_down before insert on remediation_audit for each row "
              + "execute function e2e_audit_down()");
    }
    assertEquals(200, post(api("/api/v1/plans/" + id + "/execute"), ALICE, null, null).status());
    // for 3 s (15 executor ticks) the step's audit write fails: no member is deleted
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() -> memberUids(pool).equals(before));
    assertEquals(0, count(audit(id), "step.before", ""));
    assertEquals(0, count(audit(id), "step.after", ""));
    assertEquals("executing", get(api("/api/v1/plans/" + id), CAROL).json().get("state").asText());
    // the console stops while the step is blocked; a new service on the same database resumes the
    // plan
    Remediation old = app.remediation();
    get(old.stop());
    try (Connection c = DriverManager.getConnection(jdbc, "postgres", "");
        Statement st = c.createStatement()) {
      st.execute("drop trigger e2e_audit_down on remediation_audit");
    }
    Vertx other = Vertx.vertx();
    Pool db =
        PgBuilder.pool()
            .connectingTo(app.storage().embedded().connectOptions())
            .using(other)
            .build();
    RemediationStore store = new RemediationStore(db);
    RemediationFleet fleet =
        new RemediationFleet() {
          @Override
          public Future<PoolState> pool(ObjectRef ref) {
            return app.engine().call(e -> e.poolState(ref));
          }

          @Override
          public List<FindingState> findings() {
            return app.engine().findings();
          }

          @Override
          public boolean controllerLite() {
            return true;
          }

          @Override
          public void setMaxRefillRate(double perSecond) {
            app.controller().setMaxRefillRate(perSecond);
          }
        };
    Remediation resumed =
        get(
            Remediation.start(
                other,
                RemediationConfig.fromMap(Map.of(RemediationConfig.POLL, "200ms")),
                store,
                app.client(),
                fleet,
                Clock.systemUTC()));
    try {
      await()
          .atMost(Duration.ofSeconds(40))
          .until(() -> get(store.plan(id)).state().equals("succeeded"));
      List<AuditEntry> rows = get(store.audit(id, null, null));
      assertEquals(1, rows.stream().filter(r -> r.what().equals("plan.resume")).count());
      // one delete step per batch of the 4 members; a surge and its restore only when the plan
      // was made while no member on the new template was Ready (depends on the controller's pace)
      JsonObject dry = get(store.plan(id)).dryRun();
      int deleted =
          dry.getJsonArray("batches").stream().mapToInt(b -> ((JsonArray) b).size()).sum();
      assertEquals(4, deleted, dry.encode());
      int expectedSteps =
          dry.getJsonArray("batches").size() + (dry.getInteger("surge", 0) > 0 ? 2 : 0);
      assertEquals(
          expectedSteps,
          rows.stream()
              .filter(r -> r.what().equals("step.before") && r.result().equals("intent"))
              .count());
      assertEquals(
          expectedSteps,
          rows.stream()
              // "ok", or "ok: spec.replicas 4 → 6" for the surge and its restore
              .filter(r -> r.what().equals("step.after") && r.result().startsWith("ok"))
              .count());
      assertTrue(
          get(store.plan(id)).progress().getInteger("minReady") >= 3,
          get(store.plan(id)).progress().encode());
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  readyMembers("node-runtime-pool").stream().allMatch(m -> image(m).endsWith(":99"))
                      && readyMembers("node-runtime-pool").size() == 4);
    } finally {
      get(resumed.stop());
      get(db.close());
      get(other.close());
    }
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
