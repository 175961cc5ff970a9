package org.sandboxslo.console.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;

/**
 * Issue 9 probe: "destructive" and the two-person rule are decided against live state at approve
 * and at execute. A ScalePool written as 0 → 1 and self-approved must not run once the pool has 4
 * replicas (it would delete 3 members): refused with 403, back to planned, a second approver
 * approves, then it runs. Also: {@code replicas: 4294967296} is a 400, not 0.
 */
class PlanLiveSafetyTest {
  @TempDir static Path dir;
  static Vertx vertx;
  static Database storage;
  static Pool pool;
  static EmbeddedApiServer api;
  static KubernetesClient client;
  static Remediation service;
  static final AtomicInteger liveReplicas = new AtomicInteger();
  static final Caller ALICE = new Caller("alice", Set.of("operator", "approver"));
  static final Caller BOB = new Caller("bob", Set.of("approver:demo"));
  static final String POOL = "demo/node-runtime-pool";

  static final RemediationFleet FLEET =
      new OnePoolFleet(POOL, () -> liveReplicas.get(), perSecond -> {});

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
    api = EmbeddedApiServer.start(0);
    client = api.client();
    DemoManifests.apply(client);
    service =
        get(
            Remediation.start(
                vertx,
                RemediationConfig.fromMap(Map.of(RemediationConfig.POLL, "100ms")),
                new RemediationStore(pool),
                client,
                FLEET,
                Clock.systemUTC()));
  }

  @AfterAll
  static void stop() throws Exception {
    get(service.stop());
    client.close();
    api.close();
    get(pool.close());
    get(storage.close());
    get(vertx.close());
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  static ApiException refused(Future<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> get(f));
    return (ApiException) e.getCause();
  }

  static JsonObject scaleTo(int replicas) {
    return new JsonObject()
        .put("action", "ScalePool")
        .put("subject", POOL)
        .put("params", new JsonObject().put("replicas", replicas))
        .put("reason", "probe");
  }

  @Test
  void aSelfApprovedGrowPlanIsRefusedOnceItWouldShrinkTheLivePool() throws Exception {
    PlanService s = service.plans();
    liveReplicas.set(0);
    PlanRow p = get(s.create(ALICE, scaleTo(1)));
    assertEquals(false, p.dryRun().getBoolean("destructive")); // 0 → 1 adds a member
    PlanRow approved = get(s.approve(ALICE, p.id())); // one person may approve a grow
    assertEquals("approved", approved.state());
    assertEquals("alice", approved.approvedBy());

    liveReplicas.set(4); // the pool grew meanwhile: 4 → 1 would delete 3 members
    ApiException e = refused(s.execute(ALICE, p.id(), null));
    assertEquals(403, e.status());
    assertEquals("approver", e.toJson().getString("field"));
    assertTrue(
        e.toJson().getString("reason").contains("set spec.replicas 4 → 1"),
        e.toJson().getString("reason"));
    PlanRow back = get(s.plan(ALICE, p.id()));
    assertEquals("planned", back.state());
    assertNull(back.approvedBy());
    List<AuditEntry> audit = get(s.audit(ALICE, p.id(), null, null));
    AuditEntry last = audit.get(audit.size() - 1);
    assertEquals("plan.execute", last.what());
    assertTrue(last.result().startsWith("refused: 403"), last.result());

    // the planner cannot approve it again while it is destructive; a second approver can
    assertEquals(403, refused(s.approve(ALICE, p.id())).status());
    assertEquals("approved", get(s.approve(BOB, p.id())).state());
    assertEquals("executing", get(s.execute(ALICE, p.id(), null)).state());
  }

  @Test
  void replicasAreCheckedBeforeNarrowing() throws Exception {
    liveReplicas.set(4);
    for (Object bad : List.of(4294967296L, -1, 10_001, 2.5, "3", 1e300)) {
      ApiException e =
          refused(
              service
                  .plans()
                  .create(ALICE, scaleTo(0).put("params", new JsonObject().put("replicas", bad))));
      assertEquals(400, e.status(), String.valueOf(bad));
      assertEquals("params.replicas", e.toJson().getString("field"));
    }
    ApiException wrap =
        refused(
            service
                .plans()
                .create(
                    ALICE,
                    scaleTo(0).put("params", new JsonObject().put("replicas", 4294967296L))));
    assertEquals("expected an integer 0..10000, got 4294967296", wrap.toJson().getString("reason"));
  }
}
