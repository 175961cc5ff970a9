package org.sandboxslo.console.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.RouterFixture;

class WhatIfRoutesTest {
  static RouterFixture app;

  @BeforeAll
  static void start() throws Exception {
    app = RouterFixture.start((vertx, r) -> WhatIfRoutes.mount(r, vertx));
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  static HttpResponse<Buffer> post(String body) throws Exception {
    return RouterFixture.send(
        app.post("/api/v1/whatif").putHeader("Content-Type", "application/json"),
        Buffer.buffer(body),
        30);
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
        RouterFixture.send(
            app.post("/api/v1/whatif").putHeader("Content-Type", "text/plain"),
            Buffer.buffer("{}"),
            30);
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
