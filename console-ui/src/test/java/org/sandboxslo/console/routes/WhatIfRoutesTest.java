package org.sandboxslo.console.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.ConsoleVerticleAccess;

class WhatIfRoutesTest {
  static Vertx vertx;
  static HttpServer server;
  static WebClient client;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    Router r = Router.router(vertx);
    WhatIfRoutes.mount(r, vertx);
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

  static HttpResponse<Buffer> post(String body) throws Exception {
    return client
        .post(server.actualPort(), "127.0.0.1", "/api/v1/whatif")
        .putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(body))
        .toCompletionStage()
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  @Test
  void aBurstAgainstTodayAndABiggerPool() throws Exception {
    // 250 claims at once: today's 100 members serve 100 warm (40 %), the rest wait 2 s for the
    // pending replacements and start cold (2 s + 5 s = 7 s); 250 members serve all warm
    HttpResponse<Buffer> r =
        post(
            """
            {"seed": 3,
             "demand": {"shape": "bursts", "burstSize": 250, "every": "1h", "duration": "10m"},
             "current": {"pools": 1, "replicas": 100, "coldStartP50": "5s",
                         "warmAdoptionP50": "100ms", "warmAdoptionP95": "100ms"},
             "proposed": {"replicas": 250}}
            """);
    assertEquals(200, r.statusCode());
    JsonObject o = r.bodyAsJsonObject();
    assertEquals(250, o.getLong("claims"));
    assertEquals(0.4, o.getJsonObject("current").getDouble("warmHitRatio"));
    assertEquals(
        7.0, o.getJsonObject("current").getJsonObject("claimToReadyColdSeconds").getDouble("p50"));
    assertEquals(1.0, o.getJsonObject("proposed").getDouble("warmHitRatio"));
    assertNull(o.getJsonObject("proposed").getValue("claimToReadyColdSeconds")); // no cold claim
    assertEquals(0.6, o.getJsonObject("delta").getDouble("warmHitRatio"), 1e-12);
    assertEquals(150, o.getJsonObject("delta").getLong("replicas"));
  }

  @Test
  void badInputIs400WithFieldAndReason() throws Exception {
    assertBad("{", "body");
    assertBad("[1]", "body");
    assertBad(
        """
        {"demand": {"shape": "steady", "claimsPerSecond": 5, "duration": "1m"},
         "current": {"pools": 1, "coldStartP50": "3s"}}
        """,
        "current.replicas");
    assertBad(
        """
        {"demand": {"shape": "steady", "claimsPerSecond": 5, "duration": "1m"},
         "current": {"pools": 1, "replicas": 2, "coldStartP50": "3s"},
         "proposed": {"refillRatePerPool": -1}}
        """,
        "proposed.refillRatePerPool");
    // 1,000 claims/s for 2 h = 7.2 M claims > 3 M per request
    assertBad(
        """
        {"demand": {"shape": "steady", "claimsPerSecond": 1000, "duration": "2h"},
         "current": {"pools": 1, "replicas": 2, "coldStartP50": "3s"}}
        """,
        "demand");
  }

  @Test
  void aBodyThatIsNotJsonIs415NamingTheContentType() throws Exception {
    HttpResponse<Buffer> r =
        client
            .post(server.actualPort(), "127.0.0.1", "/api/v1/whatif")
            .putHeader("Content-Type", "text/plain")
            .sendBuffer(Buffer.buffer("{}"))
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertEquals(415, r.statusCode(), r.bodyAsString());
    assertEquals("Content-Type", r.bodyAsJsonObject().getString("field"));
  }

  private static void assertBad(String body, String field) throws Exception {
    HttpResponse<Buffer> r = post(body);
    assertEquals(400, r.statusCode(), r.bodyAsString());
    JsonObject o = r.bodyAsJsonObject();
    assertEquals("bad request", o.getString("error"));
    assertEquals(field, o.getString("field"), o.encode());
  }
}
