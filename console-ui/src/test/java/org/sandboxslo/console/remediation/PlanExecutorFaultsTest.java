package org.sandboxslo.console.remediation;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;

/**
 * The executor against failing steps, on real components (embedded PostgreSQL, a fresh embedded API
 * server with the demo templates and pools per test, no controller, so no pool ever gets Ready
 * members): an AlreadyExists with the same spec is success and one audit pair; with another spec
 * the plan fails at once; a wait fails at its deadline; a subject pool that is deleted fails the
 * plan (never "0 Ready"); a step that keeps failing fails the plan after the configured attempts,
 * each attempt audited before and after; a step left without {@code step.after} by a crash is
 * closed on resume.
 */
class PlanExecutorFaultsTest {
  @TempDir static Path dir;
  static Vertx vertx;
  static Database storage;
  EmbeddedApiServer api;
  KubernetesClient client;
  Remediation service;
  RemediationStore store;
  static final Caller ALICE = new Caller("alice", java.util.Set.of("operator", "approver"));
  static final Caller BOB = new Caller("bob", java.util.Set.of("approver"));
  final AtomicInteger refillCalls = new AtomicInteger();

  final RemediationFleet fleet =
      new RemediationFleet() {
        @Override
        public Future<PoolState> pool(ObjectRef ref) {
          return Future.succeededFuture(
              ref.toString().equals("demo/node-runtime-pool")
                  ? new PoolState(ref, "node-runtime", 4, "OnReplenish", List.of())
                  : null);
        }

        @Override
        public List<FindingState> findings() {
          return List.of();
        }

        @Override
        public boolean controllerLite() {
          return true;
        }

        @Override
        public void setMaxRefillRate(double perSecond) {
          refillCalls.incrementAndGet();
          throw new IllegalStateException("controller-lite is restarting");
        }
      };

  @BeforeAll
  static void database() throws Exception {
    vertx = Vertx.vertx();
    storage =
        Database.open(
                vertx,
                ConsoleConfig.fromMap(
                        Map.of(
                            "sloconsole.db.data-dir",
                            dir.resolve("pg").toString(),
                            "sloconsole.db.work-dir",
                            Path.of("target", "embedded-pg").toString(),
                            // a frozen database is reported within 3 + 5 + 1 = 9 s
                            "sloconsole.db.connect-timeout",
                            "3s"))
                    .database())
            .toCompletionStage()
            .toCompletableFuture()
            .get(120, TimeUnit.SECONDS); // extracting and starting PostgreSQL on a loaded machine
  }

  @AfterAll
  static void closeDatabase() throws Exception {
    get(storage.close());
    get(vertx.close());
  }

  @BeforeEach
  void cluster() {
    api = EmbeddedApiServer.start(0);
    client = api.client();
    DemoManifests.apply(client);
    store = storage.remediationStore();
  }

  @AfterEach
  void stop() throws Exception {
    if (service != null) {
      get(service.stop());
    }
    client.close();
    api.close();
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  PlanService start(Map<String, String> extra) throws Exception {
    Map<String, String> m = new HashMap<>(Map.of(RemediationConfig.POLL, "100ms"));
    m.putAll(extra);
    service =
        get(
            Remediation.start(
                vertx, RemediationConfig.fromMap(m), store, client, fleet, Clock.systemUTC()));
    return service.plans();
  }

  PlanRow executed(PlanService s, String action, String subject, JsonObject params)
      throws Exception {
    PlanRow p =
        get(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", action)
                    .put("subject", subject)
                    .put("params", params)
                    .put("reason", "executor fault test")));
    get(s.approve(BOB, p.id()));
    get(s.execute(ALICE, p.id(), null));
    return p;
  }

  PlanRow finished(String id) throws Exception {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> PlanState.of(get(store.plan(id)).state()).finished());
    return get(store.plan(id));
  }

  void createPool(String name, String template, int replicas) {
    GenericKubernetesResource r = Resources.newObject(Kind.SANDBOX_WARM_POOL, "demo");
    r.getMetadata().setName(name);
    r.setAdditionalProperty(
        "spec", Map.of("replicas", replicas, "sandboxTemplateRef", Map.of("name", template)));
    Resources.ops(client, Kind.SANDBOX_WARM_POOL).inNamespace("demo").resource(r).create();
  }

  static long count(List<AuditEntry> rows, String what, String resultPrefix) {
    return rows.stream()
        .filter(r -> r.what().equals(what) && r.result().startsWith(resultPrefix))
        .count();
  }

  @Test
  void anExistingPoolWithTheSameSpecIsSuccessAndAWaitFailsAtItsDeadline() throws Exception {
    // ShardPool of node-runtime-pool (4 replicas) into 2: step 1 creates node-runtime-pool-shard-1
    // with 4 / 2 = 2 replicas; it exists already with exactly that spec
    createPool("node-runtime-pool-shard-1", "node-runtime", 2);
    PlanService s = start(Map.of(ExecutorConfig.WAIT_TIMEOUT, "2s"));
    PlanRow p =
        executed(s, "ShardPool", "demo/node-runtime-pool", new JsonObject().put("shards", 2));
    PlanRow done = finished(p.id());
    assertEquals("failed", done.state());
    assertTrue(
        done.result()
            .endsWith("(limit 2s): SandboxWarmPool demo/node-runtime-pool-shard-1: 0 of 2 Ready"),
        done.result());
    List<AuditEntry> rows = get(store.audit(p.id(), null, null));
    // one attempt, audited once before and once after: no retry loop
    assertEquals(1, count(rows, "step.before", "intent"), rows.toString());
    assertEquals(1, count(rows, "step.after", "ok: already exists with the same spec"));
    assertEquals(2, rows.stream().filter(r -> r.what().startsWith("step.")).count());
    assertEquals(1, count(rows, "plan.done", "failed: waited "));
  }

  @Test
  void anExistingPoolWithAnotherSpecFailsThePlanAtOnce() throws Exception {
    createPool("node-runtime-pool-shard-1", "node-runtime", 7);
    PlanService s = start(Map.of());
    PlanRow p =
        executed(s, "ShardPool", "demo/node-runtime-pool", new JsonObject().put("shards", 2));
    PlanRow done = finished(p.id());
    assertEquals("failed", done.state());
    String why =
        "SandboxWarmPool demo/node-runtime-pool-shard-1 already exists with template node-runtime"
            + " and replicas 7; the plan wants template node-runtime and replicas 2";
    assertEquals(why, done.result());
    List<AuditEntry> rows = get(store.audit(p.id(), null, null));
    assertEquals(1, count(rows, "step.before", "intent"));
    assertEquals(1, count(rows, "step.after", "error: " + why));
    // the original pool was never touched
    assertEquals(4, replicas("node-runtime-pool"));
  }

  @Test
  void aSubjectPoolDeletedMidPlanFailsThePlanInsteadOfWaitingForZeroReady() throws Exception {
    PlanService s = start(Map.of());
    PlanRow p =
        executed(s, "ShardPool", "demo/node-runtime-pool", new JsonObject().put("shards", 2));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                get(store.plan(p.id()))
                    .progress()
                    .getString("waiting", "")
                    .equals("SandboxWarmPool demo/node-runtime-pool-shard-1: 0 of 2 Ready"));
    Resources.ops(client, Kind.SANDBOX_WARM_POOL)
        .inNamespace("demo")
        .withName("node-runtime-pool")
        .delete();
    PlanRow done = finished(p.id());
    assertEquals("failed", done.state());
    assertEquals(
        "SandboxWarmPool demo/node-runtime-pool no longer exists; nothing more was changed",
        done.result());
  }

  @Test
  void aWaitedForPoolThatIsGoneFailsThePlan() throws Exception {
    PlanService s = start(Map.of());
    PlanRow p =
        executed(s, "ShardPool", "demo/node-runtime-pool", new JsonObject().put("shards", 2));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> get(store.plan(p.id())).progress().getString("waiting") != null);
    Resources.ops(client, Kind.SANDBOX_WARM_POOL)
        .inNamespace("demo")
        .withName("node-runtime-pool-shard-1")
        .delete();
    PlanRow done = finished(p.id());
    assertEquals("failed", done.state());
    assertEquals(
        "SandboxWarmPool demo/node-runtime-pool-shard-1 does not exist (step 2 waits for 2"
            + " Ready)",
        done.result());
  }

  @Test
  void aStepThatKeepsFailingFailsThePlanAfterTheConfiguredAttempts() throws Exception {
    PlanService s = start(Map.of(ExecutorConfig.STEP_ATTEMPTS, "3"));
    PlanRow p =
        executed(s, "SetRefillPacing", "controller-lite", new JsonObject().put("maxRefillRate", 5));
    PlanRow done = finished(p.id());
    assertEquals("failed", done.state());
    assertEquals(
        "the step failed 3 times in a row; last: controller-lite is restarting", done.result());
    assertEquals(3, refillCalls.get());
    List<AuditEntry> rows = get(store.audit(p.id(), null, null));
    // every attempt is audited before and after
    assertEquals(3, count(rows, "step.before", "intent"));
    assertEquals(3, count(rows, "step.after", "error: controller-lite is restarting"));
  }

  @Test
  void aStepLeftWithoutItsAfterRowByACrashIsClosedOnResume() throws Exception {
    Instant t = Instant.parse("2026-11-29T08:00:00Z");
    JsonObject dry =
        RemediationPlans.scalePool(
            get(fleet.pool(ObjectRef.parse("demo/node-runtime-pool"))),
            new JsonObject().put("replicas", 3));
    get(
        store.insert(
            new PlanRow(
                "p-crashed",
                "ScalePool",
                "demo/node-runtime-pool",
                new JsonObject().put("replicas", 3),
                "shrink",
                "executing",
                "alice",
                "bob",
                "alice",
                null,
                dry,
                new JsonObject(),
                null,
                t,
                t)));
    // the console wrote step.before, sent the change and died
    get(
        store.append(
            new AuditEntry(
                0,
                t,
                RemediationAudit.EXECUTOR,
                "step.before",
                "p-crashed",
                1,
                "SandboxWarmPool demo/node-runtime-pool",
                "scale",
                "intent")));
    start(Map.of());
    PlanRow done = finished("p-crashed");
    assertEquals("succeeded", done.state());
    assertEquals(3, replicas("node-runtime-pool"));
    List<AuditEntry> rows = get(store.audit("p-crashed", null, null));
    assertEquals(
        List.of(
            "step.before", "plan.resume", "step.after", "step.before", "step.after", "plan.done"),
        rows.stream().map(AuditEntry::what).toList());
    assertTrue(
        rows.get(2).result().startsWith("unknown: the console stopped"), rows.get(2).result());
    assertEquals("ok", rows.get(4).result());
    assertNull(rows.get(1).step());
  }

  @Test
  void aCancelSentWhileTheDatabaseIsFrozenIsRefusedWith503ButStillStopsThePlan() throws Exception {
    PlanService s = start(Map.of());
    PlanRow p =
        executed(s, "ShardPool", "demo/node-runtime-pool", new JsonObject().put("shards", 2));
    // the executor waits for the first shard, which never gets Ready here (no controller)
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                get(store.plan(p.id()))
                    .progress()
                    .getString("waiting", "")
                    .startsWith("SandboxWarmPool demo/node-runtime-pool-shard-1: 0 of 2 Ready"));
    Throwable refused;
    signalDatabase("STOP");
    try {
      refused =
          s.cancel(ALICE, p.id())
              .toCompletionStage()
              .toCompletableFuture()
              .handle((ok, e) -> e)
              .get(30, TimeUnit.SECONDS);
    } finally {
      signalDatabase("CONT");
    }
    // the client is told the cancel is not confirmed
    ApiException e =
        (ApiException)
            (refused instanceof java.util.concurrent.CompletionException
                ? refused.getCause()
                : refused);
    assertEquals(503, e.status());
    assertTrue(e.getMessage().contains("is not confirmed"), e.getMessage());
    // ... and the cancel is not lost: the executor stores it once the database answers
    PlanRow done = finished(p.id());
    assertEquals("cancelled", done.state());
    assertEquals("cancelled by alice", done.result());
    // the audit row follows the state change
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count(get(store.audit(p.id(), null, null)), "plan.cancel", "ok") == 1);
    List<AuditEntry> rows = get(store.audit(p.id(), null, null));
    assertEquals(1, count(rows, "plan.cancel", "ok"));
    assertEquals(
        "alice",
        rows.stream()
            .filter(r -> r.what().equals("plan.cancel"))
            .findFirst()
            .orElseThrow()
            .actor());
    assertEquals(0, count(rows, "plan.done", ""));
    // a retried cancel confirms it (200 with the plan), nothing is written twice
    assertEquals("cancelled", get(s.cancel(ALICE, p.id())).state());
    assertEquals(1, count(get(store.audit(p.id(), null, null)), "plan.cancel", "ok"));
  }

  @Test
  void aCancelWhileTheDatabaseAnswersIsStoredByTheRequestAndAuditedOnce() throws Exception {
    PlanService s = start(Map.of());
    PlanRow p =
        executed(s, "ShardPool", "demo/node-runtime-pool", new JsonObject().put("shards", 2));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> get(store.plan(p.id())).progress().containsKey("waiting"));
    PlanRow cancelled = get(s.cancel(BOB, p.id()));
    assertEquals("cancelled", cancelled.state());
    assertEquals("cancelled by bob", cancelled.result());
    // the executor sees the stored cancel and stops: for several poll intervals (100 ms) one
    // plan.cancel, no plan.done, still cancelled
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> {
              List<AuditEntry> rows = get(store.audit(p.id(), null, null));
              return count(rows, "plan.cancel", "ok") == 1
                  && count(rows, "plan.done", "") == 0
                  && get(store.plan(p.id())).state().equals("cancelled");
            });
  }

  /** Sends {@code signal} to the embedded postmaster and every process under it. */
  static void signalDatabase(String signal) throws Exception {
    long pid =
        Long.parseLong(
            java.nio.file.Files.readAllLines(dir.resolve("pg").resolve("postmaster.pid"))
                .get(0)
                .trim());
    List<String> cmd = new java.util.ArrayList<>(List.of("kill", "-" + signal, "" + pid));
    ProcessHandle.of(pid).orElseThrow().descendants().forEach(d -> cmd.add("" + d.pid()));
    assertEquals(0, new ProcessBuilder(cmd).inheritIO().start().waitFor(), String.join(" ", cmd));
  }

  int replicas(String name) {
    Object r =
        Resources.spec(
                Resources.ops(client, Kind.SANDBOX_WARM_POOL)
                    .inNamespace("demo")
                    .withName(name)
                    .get())
            .get("replicas");
    return ((Number) r).intValue();
  }
}
