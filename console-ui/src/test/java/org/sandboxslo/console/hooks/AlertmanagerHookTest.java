package org.sandboxslo.console.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.ConsoleVerticleAccess;

class AlertmanagerHookTest {
  static Vertx vertx;
  static HttpServer server;
  static WebClient client;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    Router r = Router.router(vertx);
    new AlertmanagerHook().mount(r);
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
    return post(body, "application/json");
  }

  /** Alertmanager sends {@code Content-Type: application/json}. */
  static HttpResponse<Buffer> post(String body, String contentType) throws Exception {
    var req = client.post(server.actualPort(), "127.0.0.1", "/hooks/alertmanager");
    if (contentType != null) {
      req.putHeader("Content-Type", contentType);
    }
    return req.sendBuffer(Buffer.buffer(body))
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  static JsonObject get(String path) throws Exception {
    return client
        .get(server.actualPort(), "127.0.0.1", path)
        .send()
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .bodyAsJsonObject();
  }

  @Test
  void realPayloadIsStoredOnceAndResolvesInPlace() throws Exception {
    String sample =
        Files.readString(
            Path.of(
                System.getProperty("shared.dir"), "fixtures", "alertmanager-webhook-sample.json"));
    HttpResponse<Buffer> first = post(sample);
    assertEquals(200, first.statusCode());
    assertEquals(
        new JsonObject()
            .put("received", 1)
            .put("new", 1)
            .put("changed", 0)
            .put("unchanged", 0)
            .put("truncatedAlerts", 0)
            .put("incomplete", false)
            .put("reread", false),
        first.bodyAsJsonObject());
    // an identical redelivery changes nothing
    JsonObject again = post(sample).bodyAsJsonObject();
    assertEquals(0, again.getInteger("new"));
    assertEquals(1, again.getInteger("unchanged"));
    JsonObject firing = get("/api/v1/alerts?state=firing").getJsonArray("items").getJsonObject(0);
    assertEquals("SloFastBurn", firing.getString("alertname"));
    assertEquals(1, firing.getInteger("notifications"));
    assertEquals(null, firing.getString("endsAt"));
    assertEquals("/api/v1/slos/checkout", firing.getJsonObject("links").getString("slo"));
    String resolved =
        sample
            .replace("\"status\":\"firing\",\"labels\"", "\"status\":\"resolved\",\"labels\"")
            .replace("\"endsAt\":\"0001-01-01T00:00:00Z\"", "\"endsAt\":\"2026-11-29T07:55:00Z\"");
    assertEquals(200, post(resolved).statusCode());
    assertEquals(0, get("/api/v1/alerts?state=firing").getJsonArray("items").size());
    JsonObject r = get("/api/v1/alerts?state=resolved").getJsonArray("items").getJsonObject(0);
    assertEquals("2026-11-29T07:55:00Z", r.getString("endsAt"));
  }

  @Test
  void badPayloadsAre400WithTheFieldAndStoreNothing() throws Exception {
    assertField(post("{\"version\":\"3\",\"alerts\":[]}"), "version");
    HttpResponse<Buffer> notJson = post("not json");
    assertField(notJson, "body");
    assertEquals(
        "not valid JSON at line 1, column 4: Unrecognized token 'not': was expecting "
            + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
        notJson.bodyAsJsonObject().getString("reason"));
    assertField(post("[]"), "body");
    assertField(post(""), "body");
    // the same valid payload under another media type is refused before it is read
    String empty = "{\"version\":\"4\",\"alerts\":[]}";
    HttpResponse<Buffer> text = post(empty, "text/plain");
    assertEquals(415, text.statusCode(), text.bodyAsString());
    assertEquals(
        new JsonObject()
            .put("error", "unsupported media type")
            .put("field", "Content-Type")
            .put("reason", "expected application/json, got 'text/plain'"),
        text.bodyAsJsonObject());
    assertEquals(415, post(empty, null).statusCode());
    assertEquals(200, post(empty, "application/json; charset=utf-8").statusCode());
    assertField(post("{\"version\":\"4\",\"alerts\":{}}"), "alerts");
    assertField(
        post(
            "{\"version\":\"4\",\"alerts\":[{\"status\":\"firing\",\"fingerprint\":\"x\",\"labels\":{}}]}"),
        "alerts[0].labels.alertname");
    assertField(
        post(
            "{\"version\":\"4\",\"alerts\":[{\"status\":\"firing\",\"fingerprint\":\"y\",\"labels\":{\"alertname\":\"A\"},"
                + "\"startsAt\":\"yesterday\"}]}"),
        "alerts[0].startsAt");
    assertEquals(
        400,
        client
            .get(server.actualPort(), "127.0.0.1", "/api/v1/alerts?state=maybe")
            .send()
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS)
            .statusCode());
    JsonObject all = get("/api/v1/alerts");
    all.getJsonArray("items")
        .forEach(o -> assertEquals("SloFastBurn", ((JsonObject) o).getString("alertname")));
  }

  static void assertField(HttpResponse<Buffer> r, String field) {
    assertEquals(400, r.statusCode(), r.bodyAsString());
    assertEquals(field, r.bodyAsJsonObject().getString("field"), r.bodyAsString());
  }
}
