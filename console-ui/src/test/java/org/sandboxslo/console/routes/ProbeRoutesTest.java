package org.sandboxslo.console.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.auth.AuthConfig;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.auth.ConsoleAuth;
import org.sandboxslo.engine.model.FleetEvent;

/**
 * {@code POST /api/v1/probes}: parsing errors name the field, the caller check runs before the
 * engine sees anything, accepted probes reach the sink with the receive time.
 */
@ExtendWith(VertxExtension.class)
class ProbeRoutesTest {
  static final Instant NOW = Instant.parse("2026-10-05T09:30:00Z");

  /** Static tokens of the console's sign-in: token → caller (namespace-scoped or not). */
  static final Map<String, Caller> TOKENS =
      Map.of(
          "op-a", new Caller("olga", Set.of("operator:team-a")),
          "viewer", new Caller("vic", Set.of("viewer")));

  final List<FleetEvent> received = new CopyOnWriteArrayList<>();
  volatile Consumer<FleetEvent> sink = received::add;
  HttpServer server;
  WebClient client;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext tc) {
    Router r = Router.router(vertx);
    r.route().handler(ConsoleAuth.of(AuthConfig.ofTokens(TOKENS, true)));
    new ProbeRoutes(() -> sink, Clock.fixed(NOW, ZoneOffset.UTC)).mount(r);
    r.route()
        .failureHandler(
            ctx -> {
              ApiException e = (ApiException) ctx.failure();
              ctx.response().setStatusCode(e.status()).end(e.toJson().encode());
            });
    client = WebClient.create(vertx);
    vertx
        .createHttpServer()
        .requestHandler(r)
        .listen(0, "127.0.0.1")
        .onComplete(
            tc.succeeding(
                s -> {
                  server = s;
                  tc.completeNow();
                }));
  }

  @AfterEach
  void stop(VertxTestContext tc) {
    server.close().onComplete(tc.succeedingThenComplete());
  }

  Future<HttpResponse<Buffer>> post(String token, String body) {
    var req =
        client
            .post(server.actualPort(), "127.0.0.1", "/api/v1/probes")
            .putHeader("Content-Type", "application/json");
    if (token != null) {
      req.putHeader("Authorization", "Bearer " + token);
    }
    return req.sendBuffer(Buffer.buffer(body));
  }

  static final String PROBE =
      "{\"sandbox\":\"team-a/sbx-1\",\"snapshot\":\"golden-7\",\"arch\":\"amd64\","
          + "\"kernel\":\"5.10.0\",\"vmgenidPresent\":false,\"bootId\":\"b-1\","
          + "\"randomSampleHash\":\"9f2c\",\"probeDelay\":\"800ms\"}";

  @Test
  void anOperatorOfTheNamespacePostsAProbe(VertxTestContext tc) {
    post("op-a", PROBE)
        .onComplete(
            tc.succeeding(
                r ->
                    tc.verify(
                        () -> {
                          assertEquals(202, r.statusCode(), r.bodyAsString());
                          assertEquals(
                              new JsonObject()
                                  .put("accepted", true)
                                  .put("sandbox", "team-a/sbx-1")
                                  .put("snapshot", "golden-7")
                                  .put("observedAt", "2026-10-05T09:30:00Z"),
                              r.bodyAsJsonObject());
                          FleetEvent.ProbeReported p = (FleetEvent.ProbeReported) received.get(0);
                          assertEquals("9f2c", p.probe().randomSampleHash());
                          assertEquals(java.time.Duration.ofMillis(800), p.probe().probeDelay());
                          assertEquals(false, p.probe().vmgenidPresent());
                          assertEquals(NOW, p.receivedAt());
                          tc.completeNow();
                        })));
  }

  @Test
  void malformedProbesAre400NamingTheField(VertxTestContext tc) {
    Future.all(
            post("op-a", "{\"sandbox\":\"team-a/sbx-1\"}"),
            post("op-a", PROBE.replace("false", "\"no\"")),
            post("op-a", "[1,2]"),
            post("op-a", "{\"sandbox\":\"sbx-1\",\"randomSampleHash\":\"x\"}"))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          assertEquals(
                              "{\"error\":\"bad request\",\"field\":\"randomSampleHash\","
                                  + "\"reason\":\"IdentityProbe team-a/sbx-1: randomSampleHash:"
                                  + " missing\"}",
                              ((HttpResponse<Buffer>) all.resultAt(0)).bodyAsString());
                          JsonObject vm =
                              ((HttpResponse<Buffer>) all.resultAt(1)).bodyAsJsonObject();
                          assertEquals("vmgenidPresent", vm.getString("field"));
                          assertEquals(
                              "body",
                              ((HttpResponse<Buffer>) all.resultAt(2))
                                  .bodyAsJsonObject()
                                  .getString("field"));
                          assertEquals(
                              "sandbox",
                              ((HttpResponse<Buffer>) all.resultAt(3))
                                  .bodyAsJsonObject()
                                  .getString("field"));
                          for (int i = 0; i < 4; i++) {
                            assertEquals(
                                400, ((HttpResponse<Buffer>) all.resultAt(i)).statusCode());
                          }
                          assertTrue(received.isEmpty());
                          tc.completeNow();
                        })));
  }

  @Test
  void callersWithoutTokenOrRoleAreRefusedAndNothingReachesTheEngine(VertxTestContext tc) {
    Future.all(
            post(null, PROBE),
            post("nope", PROBE),
            post("viewer", PROBE),
            post("op-a", PROBE.replace("team-a/", "team-b/")),
            post(null, "not json"))
        .onComplete(
            tc.succeeding(
                all ->
                    tc.verify(
                        () -> {
                          assertEquals(401, ((HttpResponse<Buffer>) all.resultAt(0)).statusCode());
                          assertEquals(401, ((HttpResponse<Buffer>) all.resultAt(1)).statusCode());
                          assertEquals(403, ((HttpResponse<Buffer>) all.resultAt(2)).statusCode());
                          assertEquals(403, ((HttpResponse<Buffer>) all.resultAt(3)).statusCode());
                          // no token: 401 before the body is read (by the sign-in layer)
                          assertEquals(401, ((HttpResponse<Buffer>) all.resultAt(4)).statusCode());
                          assertTrue(received.isEmpty());
                          tc.completeNow();
                        })));
  }

  @Test
  void withoutAnEngineTheRouteIs503(VertxTestContext tc) {
    sink = null;
    post("op-a", PROBE)
        .onComplete(
            tc.succeeding(
                r ->
                    tc.verify(
                        () -> {
                          assertEquals(503, r.statusCode());
                          tc.completeNow();
                        })));
  }
}
