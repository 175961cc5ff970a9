package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.sandboxslo.console.api.SnapshotJson;

@ExtendWith(VertxExtension.class)
class ConsoleVerticleTest {
  static final Fixtures.TestSources SOURCES = new Fixtures.TestSources();
  static ConsoleServer server;
  static WebClient client;

  @BeforeAll
  static void start(Vertx vertx, VertxTestContext tc) {
    ConsoleConfig config =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.http.port", "0",
                "sloconsole.management.port", "0",
                "sloconsole.http.stream-interval", "200ms"));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1"));
    ConsoleServer.start(vertx, config, SOURCES, null, new PrometheusRegistry())
        .onComplete(
            tc.succeeding(
                s -> {
                  server = s;
                  tc.completeNow();
                }));
  }

  @AfterAll
  static void stop(VertxTestContext tc) {
    server.stop().onComplete(tc.succeedingThenComplete());
  }

  @BeforeEach
  void withSnapshot() {
    SOURCES.snapshot = Fixtures.snapshot();
    SOURCES.ready = true;
    SOURCES.ingestFailure = null;
    SOURCES.ingestErrors.clear();
    SOURCES.watchLag = Map.of();
    SOURCES.suspectStale = Map.of();
    SOURCES.unserved = java.util.List.of();
    SOURCES.findings = java.util.List.of();
  }

  static Future<HttpResponse<Buffer>> get(String path) {
    return client.get(server.httpPort(), "127.0.0.1", path).send();
  }

  static Future<HttpResponse<Buffer>> getManagement(String path) {
    return client.get(server.managementPort(), "127.0.0.1", path).send();
  }

  static void assertJson(HttpResponse<Buffer> r, int status, String body) {
    assertEquals(status, r.statusCode(), r.bodyAsString());
    assertEquals("application/json", r.getHeader("Content-Type"));
    assertEquals(body, r.bodyAsString());
  }

  @Test
  void notReadyBeforeTheFirstSnapshotThenReady(VertxTestContext tc) {
    SOURCES.snapshot = null;
    SOURCES.ready = false;
    String notReady =
        "{\"error\":\"not ready\",\"reason\":\"no fleet snapshot has been computed yet\"}";
    Future.all(
            get("/api/v1/templates"),
            get("/api/v1/pools/demo/python-runtime-pool"),
            get("/readyz"),
            getManagement("/readyz"),
            getManagement("/healthz"),
            get("/api/v1/status"))
        .compose(
            all -> {
              tc.verify(
                  () -> {
                    assertJson(all.resultAt(0), 503, notReady);
                    assertJson(all.resultAt(1), 503, notReady);
                    String notSynced =
                        "{\"status\":\"not ready\",\"checks\":{\"informers\":\"not synced\"}}";
                    assertJson(all.resultAt(2), 503, notSynced);
                    assertJson(all.resultAt(3), 503, notSynced);
                    assertJson(all.resultAt(4), 200, "{\"status\":\"ok\"}");
                    JsonObject status = ((HttpResponse<Buffer>) all.resultAt(5)).bodyAsJsonObject();
                    assertEquals(null, status.getValue("at"));
                    assertEquals(false, status.getBoolean("ready"));
                  });
              SOURCES.snapshot = Fixtures.snapshot();
              SOURCES.ready = true;
              return Future.all(getManagement("/readyz"), get("/readyz"));
            })
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          String ready =
                              "{\"status\":\"ready\",\"checks\":{\"informers\":\"synced\"}}";
                          assertJson(all.resultAt(0), 200, ready);
                          assertJson(all.resultAt(1), 200, ready);
                          tc.completeNow();
                        })));
  }

  @Test
  void listsAndItemsAreTheSnapshotJson(VertxTestContext tc) {
    var s = SOURCES.snapshot;
    Future.all(
            get("/api/v1/templates"),
            get("/api/v1/pools"),
            get("/api/v1/namespaces"),
            get("/api/v1/templates/demo/python-runtime"),
            get("/api/v1/pools/demo/python-runtime-pool"))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          assertJson(all.resultAt(0), 200, SnapshotJson.templates(s).encode());
                          assertJson(all.resultAt(1), 200, SnapshotJson.pools(s).encode());
                          assertJson(all.resultAt(2), 200, SnapshotJson.namespaces(s).encode());
                          assertJson(
                              all.resultAt(3),
                              200,
                              SnapshotJson.item(s.templates().get(1)).encode());
                          assertJson(
                              all.resultAt(4), 200, SnapshotJson.item(s.pools().get(0)).encode());
                          JsonObject t =
                              ((HttpResponse<Buffer>) all.resultAt(3)).bodyAsJsonObject();
                          assertEquals(
                              0.8333,
                              t.getJsonObject("windows")
                                  .getJsonObject("5m")
                                  .getDouble("warmHitRatio"));
                          tc.completeNow();
                        })));
  }

  @Test
  void unknownObjectsAndRoutesAreJson404(VertxTestContext tc) {
    Future.all(
            get("/api/v1/templates/demo/x"),
            get("/api/v1/pools/demo/python-runtime"),
            get("/api/v1/nothing"),
            getManagement("/nothing"))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          assertJson(
                              all.resultAt(0),
                              404,
                              "{\"error\":\"not found\",\"field\":\"name\","
                                  + "\"reason\":\"no SandboxTemplate demo/x is known\"}");
                          assertJson(
                              all.resultAt(1),
                              404,
                              "{\"error\":\"not found\",\"field\":\"name\","
                                  + "\"reason\":\"no SandboxWarmPool demo/python-runtime is known\"}");
                          assertJson(
                              all.resultAt(2),
                              404,
                              "{\"error\":\"not found\",\"reason\":\"no route GET /api/v1/nothing\"}");
                          assertJson(
                              all.resultAt(3),
                              404,
                              "{\"error\":\"not found\",\"reason\":\"no route GET /nothing\"}");
                          tc.completeNow();
                        })));
  }

  @Test
  void historyRejectsBadInputNamingTheField(VertxTestContext tc) {
    String base = "/api/v1/templates/demo/python-runtime/history";
    String known =
        "warm_hit_ratio, warm_launches, cold_launches, claim_to_ready_p50_seconds,"
            + " claim_to_ready_p95_seconds, claim_to_ready_p99_seconds,"
            + " claim_to_ready_warm_p95_seconds, claim_to_ready_cold_p95_seconds,"
            + " cold_start_p95_seconds, resume_error_ratio, pool_ready_fraction,"
            + " pool_ready_fraction_current_template, stale_members";
    Future.all(
            java.util.List.of(
                get(base + "?sli=x"),
                get(base),
                get(base + "?sli=warm_hit_ratio&window=7m"),
                get(base + "?sli=stale_members&window=5m"),
                get(base + "?sli=warm_hit_ratio&from=yesterday"),
                get(base + "?sli=warm_hit_ratio&from=1795939300&to=2026-11-29T08:00:00Z"),
                get(base + "?sli=warm_hit_ratio&to=2026-11-29T08:00:00"),
                get(base + "?sli=warm_hit_ratio&window=1h&from=1795939200"),
                get("/api/v1/pools/demo/python-runtime-pool/history?sli=pool_ready_fraction")))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          assertJson(
                              all.resultAt(0),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"sli\","
                                  + "\"reason\":\"unknown SLI 'x'; known: "
                                  + known
                                  + "\"}");
                          assertJson(
                              all.resultAt(1),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"sli\","
                                  + "\"reason\":\"sli is required; known: "
                                  + known
                                  + "\"}");
                          assertJson(
                              all.resultAt(2),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"window\","
                                  + "\"reason\":\"unknown window '7m'; known: 5m, 1h\"}");
                          assertJson(
                              all.resultAt(3),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"window\",\"reason\":\"SLI"
                                  + " 'stale_members' is a point-in-time pool SLI; its only window"
                                  + " is 'now', got '5m'\"}");
                          assertJson(
                              all.resultAt(4),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"from\",\"reason\":\"expected"
                                  + " an RFC 3339 time (2026-11-29T08:00:00Z) or unix seconds, got"
                                  + " 'yesterday'\"}");
                          assertJson(
                              all.resultAt(5),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"from\",\"reason\":\"from"
                                  + " 2026-11-29T08:01:40Z is after to 2026-11-29T08:00:00Z\"}");
                          assertJson(
                              all.resultAt(6),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"to\",\"reason\":\"expected"
                                  + " an RFC 3339 time (2026-11-29T08:00:00Z) or unix seconds, got"
                                  + " '2026-11-29T08:00:00'\"}");
                          String noStore =
                              "{\"error\":\"not ready\",\"reason\":\"history needs the SLI store,"
                                  + " which is not configured\"}";
                          assertJson(all.resultAt(7), 503, noStore);
                          assertJson(all.resultAt(8), 503, noStore);
                          tc.completeNow();
                        })));
  }

  @Test
  void statusReportsInformersIngestErrorsAndStore(VertxTestContext tc) {
    SOURCES.ingestErrors.put("SandboxClaim/bad-annotation", 2L);
    get("/api/v1/status")
        .onComplete(
            tc.succeeding(
                r ->
                    tc.verify(
                        () -> {
                          assertJson(
                              r,
                              200,
                              "{\"at\":\"2026-11-29T08:00:00Z\",\"synced\":{\"Sandbox\":true,"
                                  + "\"SandboxTemplate\":true,\"SandboxWarmPool\":true,"
                                  + "\"SandboxClaim\":false},\"watchLagSeconds\":{\"Sandbox\":"
                                  + "{\"last\":0.2,\"max5m\":1.5},\"SandboxTemplate\":null,"
                                  + "\"SandboxWarmPool\":null,\"SandboxClaim\":null},"
                                  + "\"watchLag\":{\"Sandbox\":null,\"SandboxTemplate\":null,"
                                  + "\"SandboxWarmPool\":null,\"SandboxClaim\":null},"
                                  + "\"suspectStale\":[],"
                                  + "\"ready\":true,\"ingestErrors\":"
                                  + "{\"SandboxClaim/bad-annotation\":2},"
                                  + "\"leader\":{\"elected\":false,\"isLeader\":true,"
                                  + "\"identity\":null,\"holder\":null},"
                                  + "\"store\":{\"enabled\":false,\"rows\":null,\"error\":null},"
                                  + "\"slos\":{\"running\":false,\"loadErrors\":[]}}");
                          tc.completeNow();
                        })));
  }

  @Test
  void unexpectedFailuresAreJson500WithoutStackTrace(VertxTestContext tc) {
    SOURCES.ingestFailure = new IllegalStateException("collector gone");
    get("/api/v1/status")
        .onComplete(
            tc.succeeding(
                r ->
                    tc.verify(
                        () -> {
                          assertJson(
                              r,
                              500,
                              "{\"error\":\"internal error\","
                                  + "\"reason\":\"IllegalStateException: collector gone\"}");
                          tc.completeNow();
                        })));
  }

  @Test
  void metricsOnBothPortsAndOpenMetricsByAccept(VertxTestContext tc) {
    Future.all(
            get("/metrics"),
            client
                .get(server.managementPort(), "127.0.0.1", "/metrics")
                .putHeader("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8")
                .send())
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          HttpResponse<Buffer> text = all.resultAt(0);
                          HttpResponse<Buffer> om = all.resultAt(1);
                          assertEquals(200, text.statusCode());
                          assertTrue(
                              text.getHeader("Content-Type")
                                  .startsWith("text/plain; version=0.0.4"),
                              text.getHeader("Content-Type"));
                          assertTrue(
                              text.bodyAsString()
                                  .contains(
                                      "sandbox_slo_warm_hit_ratio{namespace=\"demo\","
                                          + "sandbox_template=\"python-runtime\",window=\"5m\"}"
                                          + " 0.8333\n"),
                              text.bodyAsString());
                          assertTrue(
                              om.getHeader("Content-Type")
                                  .startsWith("application/openmetrics-text"),
                              om.getHeader("Content-Type"));
                          assertTrue(om.bodyAsString().endsWith("# EOF\n"));
                          assertFalse(om.bodyAsString().contains("NaN"));
                          tc.completeNow();
                        })));
  }

  @Test
  void openApiAndWebPageAreServed(VertxTestContext tc) {
    Future.all(get("/api/v1/openapi.yaml"), get("/"), get("/js/app.js"))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          HttpResponse<Buffer> api = all.resultAt(0);
                          assertEquals(200, api.statusCode());
                          assertEquals("application/yaml", api.getHeader("Content-Type"));
                          String yaml = api.bodyAsString();
                          assertTrue(yaml.startsWith("openapi: 3.0.3\n"));
                          for (String path :
                              new String[] {
                                "/api/v1/templates:",
                                "/api/v1/templates/{namespace}/{name}:",
                                "/api/v1/templates/{namespace}/{name}/history:",
                                "/api/v1/pools:",
                                "/api/v1/pools/{namespace}/{name}:",
                                "/api/v1/pools/{namespace}/{name}/history:",
                                "/api/v1/namespaces:",
                                "/api/v1/status:",
                                "/api/v1/stream:",
                                "/api/v1/openapi.yaml:",
                                "/api/v1/pools/{namespace}/{name}/members:",
                                "/api/v1/claims:",
                                "/api/v1/findings/{id}:",
                                "/api/v1/incidents:",
                                "/api/v1/whoami:",
                                "/api/v1/runbooks/{name}:",
                                "/api/v1/slos/{id}/budget:",
                                "/healthz:",
                                "/readyz:",
                                "/metrics:"
                              }) {
                            assertTrue(yaml.contains("\n  " + path + "\n"), path);
                          }
                          for (String sli : org.sandboxslo.store.SliName.wireNames()) {
                            assertTrue(yaml.contains(sli), sli);
                          }
                          HttpResponse<Buffer> page = all.resultAt(1);
                          assertEquals(200, page.statusCode());
                          assertTrue(page.getHeader("Content-Type").startsWith("text/html"));
                          assertTrue(page.bodyAsString().contains("<main id=\"view\""));
                          assertEquals(200, ((HttpResponse<Buffer>) all.resultAt(2)).statusCode());
                          tc.completeNow();
                        })));
  }

  @Test
  void aPortInUseFailsTheStartAndUndoesEverything(Vertx vertx, VertxTestContext tc) {
    PrometheusRegistry registry = new PrometheusRegistry();
    java.util.Set<String> before = java.util.Set.copyOf(vertx.deploymentIDs());
    ConsoleConfig taken =
        ConsoleConfig.fromMap(
            Map.of(
                "sloconsole.http.port",
                String.valueOf(server.httpPort()),
                "sloconsole.management.port",
                "0"));
    ConsoleServer.start(vertx, taken, SOURCES, null, registry)
        .onComplete(
            tc.failing(
                e ->
                    tc.verify(
                        () -> {
                          assertTrue(
                              e.getMessage().contains("Address already in use"), e.getMessage());
                          // the management verticle was undeployed and the metrics removed
                          assertEquals(0, registry.scrape().size());
                          assertEquals(before, java.util.Set.copyOf(vertx.deploymentIDs()));
                          tc.completeNow();
                        })));
  }

  @Test
  void streamSendsSnapshotEvents(Vertx vertx, VertxTestContext tc) {
    HttpClient http = vertx.createHttpClient();
    StringBuilder received = new StringBuilder();
    String expected =
        "event: snapshot\ndata: " + SnapshotJson.templates(SOURCES.snapshot).encode() + "\n\n";
    http.request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setHost("127.0.0.1")
                .setPort(server.httpPort())
                .setURI("/api/v1/stream"))
        .compose(req -> req.send())
        .onComplete(
            tc.succeeding(
                (HttpClientResponse res) -> {
                  tc.verify(
                      () -> {
                        assertEquals(200, res.statusCode());
                        assertEquals("text/event-stream", res.getHeader("Content-Type"));
                      });
                  res.handler(
                      chunk -> {
                        received.append(chunk.toString());
                        // the first event comes at once, the second one interval later
                        int first = received.indexOf(expected);
                        if (first >= 0 && received.indexOf(expected, first + 1) > first) {
                          tc.verify(
                              () -> assertTrue(received.toString().startsWith("retry: 200\n\n")));
                          http.close();
                          tc.completeNow();
                        }
                      });
                }));
  }

  static final java.time.Instant T = java.time.Instant.parse("2026-10-05T09:00:00Z");

  @Test
  void readyzIs503WithTheReasonWhileAKindIsSuspectStale(VertxTestContext tc) {
    SOURCES.suspectStale =
        Map.of(
            org.sandboxslo.engine.model.Kind.SANDBOX,
            new org.sandboxslo.engine.diagnosis.InformerHealth.Suspicion(
                org.sandboxslo.engine.model.Kind.SANDBOX,
                T,
                "claims named a Sandbox 3 times while the Sandbox stream was silent for 150 s"));
    Future.all(getManagement("/readyz"), get("/readyz"), get("/api/v1/status"))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          String body =
                              "{\"status\":\"not ready\",\"reason\":\"suspect-stale data:"
                                  + " Sandbox since 2026-10-05T09:00:00Z (claims named a Sandbox 3"
                                  + " times while the Sandbox stream was silent for 150 s)\","
                                  + "\"suspectStale\":[{\"kind\":\"Sandbox\",\"since\":"
                                  + "\"2026-10-05T09:00:00Z\",\"reason\":\"claims named a Sandbox"
                                  + " 3 times while the Sandbox stream was silent for 150 s\"}],"
                                  // informers synced, no database in this test
                                  + "\"checks\":{\"informers\":\"synced\"}}";
                          assertJson(all.resultAt(0), 503, body);
                          assertJson(all.resultAt(1), 503, body);
                          JsonObject status =
                              ((HttpResponse<Buffer>) all.resultAt(2)).bodyAsJsonObject();
                          assertEquals(false, status.getBoolean("ready"));
                          assertEquals(
                              "Sandbox",
                              status
                                  .getJsonArray("suspectStale")
                                  .getJsonObject(0)
                                  .getString("kind"));
                          tc.completeNow();
                        })));
  }

  @Test
  void statusHasWatchLagPerKindFromWatchDeliveries(VertxTestContext tc) {
    SOURCES.watchLag =
        Map.of(
            org.sandboxslo.engine.model.Kind.SANDBOX_CLAIM,
            new org.sandboxslo.engine.diagnosis.KindLag(
                org.sandboxslo.engine.model.Kind.SANDBOX_CLAIM,
                java.time.Duration.ofMillis(12_500),
                T,
                java.time.Duration.ofSeconds(40),
                7,
                T));
    get("/api/v1/status")
        .onComplete(
            tc.succeeding(
                r ->
                    tc.verify(
                        () -> {
                          JsonObject lag = r.bodyAsJsonObject().getJsonObject("watchLag");
                          assertEquals(
                              new JsonObject()
                                  .put("lastSeconds", 12.5)
                                  .put("lastAt", "2026-10-05T09:00:00Z")
                                  .put("max5mSeconds", 40.0)
                                  .put("samples5m", 7)
                                  .put("lastDeliveryAt", "2026-10-05T09:00:00Z"),
                              lag.getJsonObject("SandboxClaim"));
                          assertTrue(lag.containsKey("Sandbox"));
                          assertEquals(null, lag.getValue("Sandbox"));
                          assertEquals(0, r.bodyAsJsonObject().getJsonArray("suspectStale").size());
                          assertEquals(true, r.bodyAsJsonObject().getBoolean("ready"));
                          tc.completeNow();
                        })));
  }

  @Test
  void unservedClaimsHaveTheirOwnRouteWithFilters(VertxTestContext tc) {
    var rejected =
        new org.sandboxslo.engine.diagnosis.UnservedClaim(
            new org.sandboxslo.engine.model.ObjectRef("team-a", "c1"),
            "u-c1",
            "pool-py",
            "tpl-py",
            org.sandboxslo.engine.diagnosis.UnservedClaim.Outcome.REJECTED,
            "EnvVarsInjectionRejected",
            "env is not allowed by the template",
            T.minusSeconds(60),
            T,
            true);
    var blocked =
        new org.sandboxslo.engine.diagnosis.UnservedClaim(
            new org.sandboxslo.engine.model.ObjectRef("team-b", "c2"),
            "u-c2",
            "gone-pool",
            null,
            org.sandboxslo.engine.diagnosis.UnservedClaim.Outcome.REJECTED,
            "WarmPoolNotFound",
            null,
            null,
            T,
            false);
    SOURCES.unserved = java.util.List.of(rejected, blocked);
    Future.all(
            get("/api/v1/claims/unserved"),
            get("/api/v1/claims/unserved?namespace=team-b"),
            get("/api/v1/claims/unserved?terminal=true"),
            get("/api/v1/claims/unserved?terminal=maybe"))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          var items =
                              ((HttpResponse<Buffer>) all.resultAt(0))
                                  .bodyAsJsonObject()
                                  .getJsonArray("items");
                          assertEquals(2, items.size());
                          assertEquals(
                              new JsonObject()
                                  .put("namespace", "team-a")
                                  .put("name", "c1")
                                  .put("uid", "u-c1")
                                  .put("warmPool", "pool-py")
                                  .put("template", "tpl-py")
                                  .put("outcome", "rejected")
                                  .put("reason", "EnvVarsInjectionRejected")
                                  .put("message", "env is not allowed by the template")
                                  .put("firstSeen", "2026-10-05T08:59:00Z")
                                  .put("endedAt", "2026-10-05T09:00:00Z")
                                  .put("terminal", true),
                              items.getJsonObject(0));
                          assertEquals(
                              "c2",
                              ((HttpResponse<Buffer>) all.resultAt(1))
                                  .bodyAsJsonObject()
                                  .getJsonArray("items")
                                  .getJsonObject(0)
                                  .getString("name"));
                          assertEquals(
                              1,
                              ((HttpResponse<Buffer>) all.resultAt(2))
                                  .bodyAsJsonObject()
                                  .getJsonArray("items")
                                  .size());
                          assertJson(
                              all.resultAt(3),
                              400,
                              "{\"error\":\"bad request\",\"field\":\"terminal\","
                                  + "\"reason\":\"expected true or false, got 'maybe'\"}");
                          tc.completeNow();
                        })));
  }

  @Test
  void findingsJsonCarriesWhatAProposalDeletesAndWhetherItAddsCreates(VertxTestContext tc) {
    var f =
        new org.sandboxslo.engine.finding.Finding(
            org.sandboxslo.engine.finding.FindingKind.POOL_OVER_CREATION,
            "SandboxWarmPool team-a/pool-py",
            org.sandboxslo.engine.finding.Severity.HIGH,
            T,
            T,
            "owned 12 of 3",
            java.util.List.of(),
            java.util.List.of(),
            java.util.List.of(
                new org.sandboxslo.engine.finding.Proposal(
                    "DeleteExcessMembers",
                    "delete 2 unclaimed excess members",
                    java.util.List.of("delete pool-py-x1", "delete pool-py-x2"),
                    true,
                    java.util.List.of("team-a/pool-py-x1", "team-a/pool-py-x2"),
                    false)));
    SOURCES.findings =
        java.util.List.of(new org.sandboxslo.console.engine.FindingState(f, T, null));
    get("/api/v1/findings?kind=PoolOverCreation")
        .onComplete(
            tc.succeeding(
                r ->
                    tc.verify(
                        () -> {
                          JsonObject p =
                              r.bodyAsJsonObject()
                                  .getJsonArray("items")
                                  .getJsonObject(0)
                                  .getJsonArray("proposals")
                                  .getJsonObject(0);
                          assertEquals(
                              new io.vertx.core.json.JsonArray()
                                  .add("team-a/pool-py-x1")
                                  .add("team-a/pool-py-x2"),
                              p.getJsonArray("deletes"));
                          assertEquals(false, p.getBoolean("addsCreates"));
                          tc.completeNow();
                        })));
  }
}
