package org.sandboxslo.console.remediation;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;

/**
 * The service on real components without a controller: embedded PostgreSQL and the embedded API
 * server with the demo templates and pools (no members). Covers resume after a restart,
 * cancellation before the next step, the live refill knob, and the append-only audit table.
 */
class RemediationServiceTest {
  @TempDir static Path dir;
  static Vertx vertx;
  static Database storage;
  static Pool pool;
  static EmbeddedApiServer api;
  static KubernetesClient client;
  static final AtomicReference<Double> refillRate = new AtomicReference<>();
  static volatile List<FindingState> findings = List.of();
  static final Caller ALICE = new Caller("alice", java.util.Set.of("operator", "approver"));
  static final Caller BOB = new Caller("bob", java.util.Set.of("approver:demo"));
  Remediation service;

  static final RemediationFleet FLEET =
      new RemediationFleet() {
        @Override
        public Future<PoolState> pool(ObjectRef ref) {
          return Future.succeededFuture(
              switch (ref.toString()) {
                case "demo/python-runtime-pool" ->
                    new PoolState(ref, "python-runtime", 8, "OnReplenish", List.of());
                case "demo/node-runtime-pool" ->
                    new PoolState(ref, "node-runtime", 4, "OnReplenish", List.of());
                default -> null;
              });
        }

        @Override
        public List<FindingState> findings() {
          return findings;
        }

        @Override
        public boolean controllerLite() {
          return true;
        }

        @Override
        public void setMaxRefillRate(double perSecond) {
          refillRate.set(perSecond);
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
    api = EmbeddedApiServer.start(0);
    client = api.client();
    DemoManifests.apply(client);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    api.close();
    get(pool.close());
    get(storage.close());
    get(vertx.close());
  }

  @AfterEach
  void stopService() throws Exception {
    if (service != null) {
      get(service.stop());
    }
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  PlanService startService() throws Exception {
    RemediationConfig cfg = RemediationConfig.fromMap(Map.of(RemediationConfig.POLL, "100ms"));
    service =
        get(
            Remediation.start(
                vertx, cfg, new RemediationStore(pool), client, FLEET, Clock.systemUTC()));
    return service.plans();
  }

  static int replicas(String name) {
    Object r =
        Resources.spec(
                Resources.ops(client, Kind.SANDBOX_WARM_POOL)
                    .inNamespace("demo")
                    .withName(name)
                    .get())
            .get("replicas");
    return ((Number) r).intValue();
  }

  String state(String id) throws Exception {
    return get(new RemediationStore(pool).plan(id)).state();
  }

  static long count(List<AuditEntry> rows, String what, String resultPrefix) {
    return rows.stream()
        .filter(r -> r.what().equals(what) && r.result().startsWith(resultPrefix))
        .count();
  }

  @Test
  void anExecutingPlanResumesAfterARestart() throws Exception {
    RemediationStore store = new RemediationStore(pool);
    JsonObject dry =
        RemediationPlans.scalePool(
            get(FLEET.pool(ObjectRef.parse("demo/python-runtime-pool"))),
            new JsonObject().put("replicas", 3));
    Instant t = Instant.parse("2026-11-29T08:00:00Z");
    // as a console that crashed after execute: state executing, no step done
    get(
        store.insert(
            new PlanRow(
                "p-resume",
                "ScalePool",
                "demo/python-runtime-pool",
                new JsonObject().put("replicas", 3),
                "shrink for the night",
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
    startService();
    await().atMost(Duration.ofSeconds(20)).until(() -> state("p-resume").equals("succeeded"));
    assertEquals(3, replicas("python-runtime-pool"));
    List<AuditEntry> rows = get(store.audit("p-resume", null, null));
    assertEquals(
        List.of("plan.resume", "step.before", "step.after", "plan.done"),
        rows.stream().map(AuditEntry::what).toList());
    assertEquals("intent", rows.get(1).result());
    assertEquals("SandboxWarmPool demo/python-runtime-pool", rows.get(1).object());
    assertEquals("ok", rows.get(2).result());
    assertEquals("succeeded: 1 steps done", rows.get(3).result());
  }

  @Test
  void aCancelledPlanStopsBeforeItsNextStep() throws Exception {
    PlanService s = startService();
    PlanRow p =
        get(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", "ShardPool")
                    .put("subject", "demo/node-runtime-pool")
                    .put("params", new JsonObject().put("shards", 2))
                    .put("reason", "past the refill ceiling")));
    assertEquals(
        List.of("create-pool", "wait-pool-ready", "patch-pool"),
        p.dryRun().getJsonArray("steps").stream()
            .map(o -> ((JsonObject) o).getString("op"))
            .toList());
    ApiException twoPerson = assertThrowsAsync(s.approve(ALICE, p.id()));
    assertEquals(403, twoPerson.status());
    get(s.approve(BOB, p.id()));
    get(s.execute(ALICE, p.id(), null));
    // the new pool is created, then the plan waits for its members (no controller runs here)
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                get(new RemediationStore(pool).plan(p.id()))
                    .progress()
                    .getString("waiting", "")
                    .equals("SandboxWarmPool demo/node-runtime-pool-shard-1: 0 of 2 Ready"));
    assertEquals(2, replicas("node-runtime-pool-shard-1"));
    get(s.cancel(ALICE, p.id()));
    assertEquals("cancelled", state(p.id()));
    await()
        .during(Duration.ofMillis(800))
        .atMost(Duration.ofSeconds(2))
        .until(() -> replicas("node-runtime-pool") == 4);
    List<AuditEntry> rows = get(new RemediationStore(pool).audit(p.id(), null, null));
    assertEquals(1, count(rows, "step.before", "intent"));
    assertEquals(1, count(rows, "plan.cancel", "ok"));
    assertEquals(0, count(rows, "plan.done", ""));
    assertEquals(409, assertThrowsAsync(s.execute(ALICE, p.id(), null)).status());
  }

  @Test
  void refillPacingIsALiveKnobOfControllerLite() throws Exception {
    PlanService s = startService();
    PlanRow p =
        get(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", "SetRefillPacing")
                    .put("subject", "controller-lite")
                    .put("params", new JsonObject().put("maxRefillRate", 5))
                    .put("reason", "refill bursts starve the API server")));
    assertEquals(false, p.dryRun().getBoolean("destructive"));
    get(s.approve(ALICE, p.id()));
    get(s.execute(ALICE, p.id(), "k-1"));
    await().atMost(Duration.ofSeconds(60)).until(() -> state(p.id()).equals("succeeded"));
    assertEquals(5.0, refillRate.get());
    ApiException bad =
        assertThrowsAsync(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", "SetRefillPacing")
                    .put("subject", "controller-lite")
                    .put("params", new JsonObject().put("maxRefillRate", -1))
                    .put("reason", "r")));
    assertEquals("params.maxRefillRate", bad.toJson().getString("field"));
  }

  @Test
  void approvalNeedsARoleAllowedForTheAction() throws Exception {
    RemediationConfig cfg =
        RemediationConfig.fromMap(
            Map.of(
                RemediationConfig.POLL,
                "100ms",
                RemediationConfig.APPROVER_ROLES,
                "ScalePool:admin"));
    service =
        get(
            Remediation.start(
                vertx, cfg, new RemediationStore(pool), client, FLEET, Clock.systemUTC()));
    PlanRow p =
        get(
            service
                .plans()
                .create(
                    ALICE,
                    new JsonObject()
                        .put("action", "ScalePool")
                        .put("subject", "demo/python-runtime-pool")
                        .put("params", new JsonObject().put("replicas", 9))
                        .put("reason", "peak hour")));
    ApiException e = assertThrowsAsync(service.plans().approve(BOB, p.id()));
    assertEquals(403, e.status());
    assertEquals(
        "user bob lacks role admin for namespace demo, which approving ScalePool requires",
        e.toJson().getString("reason"));
    assertEquals("planned", state(p.id()));
    get(service.plans().approve(new Caller("root", java.util.Set.of("admin")), p.id()));
    assertEquals("approved", state(p.id()));
  }

  @Test
  void refillPacingOfTheUpstreamControllerPatchesItsDeploymentArgs() throws Exception {
    PlanService s = startService();
    PlanRow missing =
        get(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", "SetRefillPacing")
                    .put("subject", "agent-sandbox-system/nope")
                    .put("params", new JsonObject().put("maxRefillRate", 20))
                    .put("reason", "pace refills")));
    get(s.approve(ALICE, missing.id()));
    get(s.execute(ALICE, missing.id(), null));
    await().atMost(Duration.ofSeconds(60)).until(() -> state(missing.id()).equals("failed"));
    assertEquals(
        "skipped: Deployment agent-sandbox-system/nope does not exist",
        get(new RemediationStore(pool).plan(missing.id())).result());

    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName("agent-sandbox-system")
                .endMetadata()
                .build())
        .create();
    client
        .apps()
        .deployments()
        .inNamespace("agent-sandbox-system")
        .resource(
            new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder()
                .withNewMetadata()
                .withName("agent-sandbox-controller")
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .addNewContainer()
                .withName("manager")
                .withImage("registry.k8s.io/agent-sandbox/controller:v0.5.0")
                .withArgs("--extensions", "--sandbox-warm-pool-max-refill-rate=5")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    PlanRow p =
        get(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", "SetRefillPacing")
                    .put("subject", "agent-sandbox-system/agent-sandbox-controller")
                    .put("params", new JsonObject().put("maxRefillRate", 20))
                    .put("reason", "refill p95 too slow for the peak")));
    assertEquals(
        "containers[0].args: replace --sandbox-warm-pool-max-refill-rate with "
            + "--sandbox-warm-pool-max-refill-rate=20",
        p.dryRun().getJsonArray("steps").getJsonObject(0).getString("patch"));
    get(s.approve(ALICE, p.id()));
    get(s.execute(ALICE, p.id(), null));
    await().atMost(Duration.ofSeconds(60)).until(() -> state(p.id()).equals("succeeded"));
    assertEquals(
        List.of("--extensions", "--sandbox-warm-pool-max-refill-rate=20"),
        client
            .apps()
            .deployments()
            .inNamespace("agent-sandbox-system")
            .withName("agent-sandbox-controller")
            .get()
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0)
            .getArgs());
  }

  static void claim(String name, Map<String, Object> ready, Map<String, Object> lifecycle) {
    io.fabric8.kubernetes.api.model.GenericKubernetesResource c =
        Resources.newObject(Kind.SANDBOX_CLAIM, "team-c");
    c.getMetadata().setName(name);
    Map<String, Object> spec =
        new java.util.HashMap<>(Map.of("warmPoolRef", Map.of("name", "pool-py")));
    if (lifecycle != null) {
      spec.put("lifecycle", lifecycle);
    }
    c.setAdditionalProperty("spec", spec);
    io.fabric8.kubernetes.api.model.GenericKubernetesResource created =
        Resources.ops(client, Kind.SANDBOX_CLAIM).inNamespace("team-c").resource(c).create();
    // status is a subresource: written separately, as the controller does
    created.setAdditionalProperty("status", Map.of("conditions", List.of(ready)));
    Resources.ops(client, Kind.SANDBOX_CLAIM)
        .inNamespace("team-c")
        .resource(created)
        .updateStatus();
  }

  static void ensureNamespace(String name) {
    if (client.namespaces().withName(name).get() == null) {
      client
          .namespaces()
          .resource(
              new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                  .withNewMetadata()
                  .withName(name)
                  .endMetadata()
                  .build())
          .create();
    }
  }

  /** A {@link Leadership} the test switches by hand, as the Lease election would. */
  static final class SwitchedLeadership implements Leadership {
    private final String identity;
    private final List<java.util.function.Consumer<Boolean>> listeners =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean leader;

    SwitchedLeadership(String identity) {
      this.identity = identity;
    }

    void set(boolean now) {
      leader = now;
      listeners.forEach(l -> l.accept(now));
    }

    @Override
    public boolean isLeader() {
      return leader;
    }

    @Override
    public void onChange(java.util.function.Consumer<Boolean> listener) {
      listeners.add(listener);
    }

    @Override
    public boolean elected() {
      return true;
    }

    @Override
    public String identity() {
      return identity;
    }
  }

  @Test
  void aFollowerLeavesStepsToTheLeaderAndTakesOverWithoutRepeatingAnAuditedStep() throws Exception {
    ensureNamespace("team-c");
    Map<String, Object> expired =
        Map.of(
            "type",
            "Ready",
            "status",
            "False",
            "reason",
            "ClaimExpired",
            "lastTransitionTime",
            "2026-11-29T04:00:00Z");
    for (String c : List.of("claim-801", "claim-802", "claim-803")) {
      claim(c, expired, Map.of("shutdownPolicy", "Retain"));
    }
    // the SDK that created claim-802 annotated it with its trace (agent-sandbox's JSON map)
    String callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    Resources.ops(client, Kind.SANDBOX_CLAIM)
        .inNamespace("team-c")
        .withName("claim-802")
        .edit(
            c -> {
              c.getMetadata()
                  .setAnnotations(
                      Map.of(
                          PlanTracing.TRACE_CONTEXT_ANNOTATION,
                          "{\"traceparent\":\"00-" + callerTrace + "-00f067aa0ba902b7-01\"}"));
              return c;
            });
    List<SpanData> spans = new java.util.concurrent.CopyOnWriteArrayList<>();
    SdkTracerProvider traces =
        SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(collecting(spans)))
            .build();
    org.sandboxslo.engine.finding.Finding f =
        new org.sandboxslo.engine.finding.Finding(
            org.sandboxslo.engine.finding.FindingKind.EXPIRED_CLAIMS_ACCUMULATING,
            "Namespace team-c",
            org.sandboxslo.engine.finding.Severity.TICKET,
            Instant.parse("2026-11-29T04:00:00Z"),
            Instant.parse("2026-11-29T09:00:00Z"),
            "expired claims pile up",
            List.of(),
            List.of(
                "SandboxClaim team-c/claim-801",
                "SandboxClaim team-c/claim-802",
                "SandboxClaim team-c/claim-803"),
            List.of());
    findings = List.of(new FindingState(f, f.firstSeen(), null));
    SwitchedLeadership b = new SwitchedLeadership("b");
    RemediationConfig cfg =
        RemediationConfig.fromMap(
            Map.of(RemediationConfig.POLL, "100ms", "sloconsole.auth.two-person", "false"));
    RemediationStore store = new RemediationStore(pool);
    service =
        get(
            Remediation.start(
                vertx,
                cfg,
                store,
                client,
                FLEET,
                Clock.systemUTC(),
                b,
                OpenTelemetrySdk.builder().setTracerProvider(traces).build()));
    PlanService s = service.plans();
    PlanRow p =
        get(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", "DeleteExpiredClaims")
                    .put("subject", "team-c")
                    .put("reason", "three retained expired claims")));
    findings = List.of();
    get(s.approve(ALICE, p.id()));
    get(s.execute(ALICE, p.id(), null));
    // b does not lead: the plan stays executing and nothing is changed (10 polls of 100 ms)
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(3))
        .until(
            () ->
                state(p.id()).equals("executing")
                    && exists("claim-801")
                    && exists("claim-802")
                    && exists("claim-803"));
    assertEquals(0, count(get(store.audit(p.id(), null, null)), "step.before", "intent"));
    // the old leader a had applied step 1 and audited it, then stopped before storing progress
    get(
        store.append(
            new AuditEntry(
                0,
                Instant.now(),
                "executor@a",
                "step.after",
                p.id(),
                1,
                "SandboxClaim team-c/claim-801",
                "delete expired claim",
                "ok")));
    b.set(true);
    await().atMost(Duration.ofSeconds(20)).until(() -> state(p.id()).equals("succeeded"));
    List<AuditEntry> rows = get(store.audit(p.id(), null, null));
    // step 1 is not applied again (claim-801 still exists, since this test's "a" never deleted
    // it); steps 2 and 3 are applied once each by b
    assertTrue(exists("claim-801"));
    assertTrue(!exists("claim-802") && !exists("claim-803"), rows.toString());
    assertEquals(
        List.of("executor@a 1", "executor@b 2", "executor@b 3"),
        rows.stream()
            .filter(r -> r.what().equals("step.after"))
            .map(r -> r.actor() + " " + r.step())
            .toList());
    AuditEntry resume =
        rows.stream().filter(r -> r.what().equals("plan.resume")).findFirst().orElseThrow();
    assertEquals("executor@b leadership gained", resume.actor() + " " + resume.why());

    // traces: one plan span on b, a child span for each step b applied (2 and 3, not 1)
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertEquals(
                    List.of("remediation.plan", "remediation.step", "remediation.step"),
                    spans.stream().map(SpanData::getName).sorted().toList(),
                    spans.toString()));
    SpanData plan =
        spans.stream().filter(x -> x.getName().equals("remediation.plan")).findFirst().get();
    assertEquals(p.id(), plan.getAttributes().get(PlanTracing.PLAN));
    assertEquals("DeleteExpiredClaims", plan.getAttributes().get(PlanTracing.ACTION));
    assertEquals("team-c", plan.getAttributes().get(PlanTracing.SUBJECT));
    // the plan span's result is the plan.done row's, e.g. "succeeded: 3 steps done"
    AuditEntry done =
        rows.stream().filter(r -> r.what().equals("plan.done")).findFirst().orElseThrow();
    assertTrue(done.result().startsWith("succeeded: "), done.result());
    assertEquals(done.result(), plan.getAttributes().get(PlanTracing.RESULT));
    List<SpanData> stepSpans =
        spans.stream().filter(x -> x.getName().equals("remediation.step")).toList();
    assertEquals(
        List.of("2 [SandboxClaim team-c/claim-802] ok", "3 [SandboxClaim team-c/claim-803] ok"),
        stepSpans.stream()
            .map(
                x ->
                    x.getAttributes().get(PlanTracing.STEP)
                        + " "
                        + x.getAttributes().get(PlanTracing.OBJECTS)
                        + " "
                        + x.getAttributes().get(PlanTracing.RESULT))
            .sorted()
            .toList());
    for (SpanData x : stepSpans) {
      assertEquals(plan.getSpanContext().getSpanId(), x.getParentSpanId());
      assertEquals("DeleteExpiredClaims", x.getAttributes().get(PlanTracing.ACTION));
    }
    // claim-802's trace is continued by a link; claim-803 has none
    assertEquals(
        List.of(callerTrace),
        stepSpans.stream()
            .filter(x -> x.getAttributes().get(PlanTracing.STEP) == 2L)
            .findFirst()
            .get()
            .getLinks()
            .stream()
            .map(l -> l.getSpanContext().getTraceId())
            .toList());
    assertEquals(
        0,
        stepSpans.stream()
            .filter(x -> x.getAttributes().get(PlanTracing.STEP) == 3L)
            .findFirst()
            .get()
            .getLinks()
            .size());
    traces.close();
  }

  /** A span exporter that keeps what it is given. */
  static SpanExporter collecting(List<SpanData> into) {
    return new SpanExporter() {
      @Override
      public CompletableResultCode export(java.util.Collection<SpanData> spans) {
        into.addAll(spans);
        return CompletableResultCode.ofSuccess();
      }

      @Override
      public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
      }

      @Override
      public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
      }
    };
  }

  static boolean exists(String claim) {
    return Resources.ops(client, Kind.SANDBOX_CLAIM).inNamespace("team-c").withName(claim).get()
        != null;
  }

  @Test
  void expiredClaimsAreDeletedOnlyAfterApprovalAndOnlyWhileStillExpired() throws Exception {
    ensureNamespace("team-c");
    Map<String, Object> expired =
        Map.of(
            "type",
            "Ready",
            "status",
            "False",
            "reason",
            "ClaimExpired",
            "lastTransitionTime",
            "2026-11-29T04:00:00Z");
    claim("claim-701", expired, Map.of("shutdownPolicy", "Retain"));
    claim("claim-702", expired, Map.of("shutdownPolicy", "Retain"));
    // listed by an older finding, but Ready again by the time the plan runs: must survive
    claim(
        "claim-900",
        Map.of("type", "Ready", "status", "True", "reason", "DependenciesReady"),
        null);
    org.sandboxslo.engine.finding.Finding f =
        new org.sandboxslo.engine.finding.Finding(
            org.sandboxslo.engine.finding.FindingKind.EXPIRED_CLAIMS_ACCUMULATING,
            "Namespace team-c",
            org.sandboxslo.engine.finding.Severity.TICKET,
            Instant.parse("2026-11-29T04:00:00Z"),
            Instant.parse("2026-11-29T09:00:00Z"),
            "expired claims pile up",
            List.of(),
            List.of(
                "SandboxClaim team-c/claim-701",
                "SandboxClaim team-c/claim-702",
                "SandboxClaim team-c/claim-900"),
            List.of());
    findings = List.of(new FindingState(f, f.firstSeen(), null));
    PlanService s = startService();
    PlanRow p =
        get(
            s.create(
                ALICE,
                new JsonObject()
                    .put("action", "DeleteExpiredClaims")
                    .put("subject", "team-c")
                    .put("reason", "C09: 6 > 5 retained expired claims")));
    assertEquals(false, p.dryRun().getBoolean("automatic"));
    assertEquals(3, p.dryRun().getJsonArray("steps").size());
    assertTrue(exists("claim-701"), "planning deleted something");
    ApiException noRole = assertThrowsAsync(s.approve(BOB, p.id()));
    assertEquals(
        "user bob lacks role approver for namespace team-c, which approving DeleteExpiredClaims requires",
        noRole.toJson().getString("reason"));
    get(s.approve(new Caller("carol", java.util.Set.of("approver:team-c")), p.id()));
    get(s.execute(ALICE, p.id(), null));
    await().atMost(Duration.ofSeconds(60)).until(() -> state(p.id()).equals("succeeded"));
    List<AuditEntry> rows = get(new RemediationStore(pool).audit(p.id(), null, null));
    assertTrue(!exists("claim-701") && !exists("claim-702"), rows.toString());
    assertTrue(exists("claim-900"));
    assertEquals(
        "skipped: SandboxClaim team-c/claim-900 is neither expired nor finished without lifecycle",
        rows.stream()
            .filter(
                r ->
                    r.what().equals("step.after")
                        && "SandboxClaim team-c/claim-900".equals(r.object()))
            .findFirst()
            .orElseThrow()
            .result());
    assertEquals(3, count(rows, "step.before", "intent"));
    findings = List.of();
  }

  @Test
  void theAuditTableIsAppendOnly() throws Exception {
    RemediationStore store = new RemediationStore(pool);
    long seq =
        get(
            store.append(
                new AuditEntry(
                    0, Instant.now(), "alice", "plan.create", null, null, null, "t", "ok")));
    assertTrue(seq > 0);
    ExecutionException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class,
            () -> get(pool.query("update remediation_audit set result = 'forged'").execute()));
    assertTrue(
        e.getCause().getMessage().contains("remediation_audit is append-only"),
        e.getCause().getMessage());
    org.junit.jupiter.api.Assertions.assertThrows(
        ExecutionException.class, () -> get(pool.query("delete from remediation_audit").execute()));
    assertEquals(
        "ok",
        get(store.audit(null, "alice", null)).stream()
            .filter(r -> r.seq() == seq)
            .findFirst()
            .orElseThrow()
            .result());
  }

  static ApiException assertThrowsAsync(Future<?> f) throws Exception {
    try {
      get(f);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ApiException a) {
        return a;
      }
      throw e;
    }
    throw new AssertionError("expected an ApiException");
  }
}
