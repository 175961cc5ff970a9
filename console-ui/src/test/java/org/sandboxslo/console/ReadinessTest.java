package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sandboxslo.store.DatabaseStatus;

/**
 * {@code /readyz} with a database: ready only while the informers are synced and the last database
 * probe answered; the body names each check and, while the database is down, since when.
 */
class ReadinessTest {
  Vertx vertx;
  HttpServer server;
  WebClient web;
  final Fixtures.TestSources sources = new Fixtures.TestSources();
  final AtomicReference<DatabaseStatus> db = new AtomicReference<>();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    Router r = Router.router(vertx);
    ManagementRoutes.mount(r, sources, new PrometheusRegistry(), db::get);
    server = get(vertx.createHttpServer().requestHandler(r).listen(0));
    web = WebClient.create(vertx);
  }

  @AfterEach
  void stop() throws Exception {
    web.close();
    get(vertx.close());
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  JsonObject readyz(int status) throws Exception {
    var r = get(web.get(server.actualPort(), "127.0.0.1", "/readyz").send());
    assertEquals(status, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  @Test
  void readyNeedsSyncedInformersAndAnAnsweringDatabase() throws Exception {
    Instant since = Instant.parse("2026-11-29T09:00:00Z");
    sources.snapshot = Fixtures.snapshot();
    sources.ready = true;
    db.set(new DatabaseStatus(true, since, null, 0));
    assertEquals(
        new JsonObject()
            .put("databaseRestarts", 0)
            .put("status", "ready")
            .put("checks", new JsonObject().put("informers", "synced").put("database", "up")),
        readyz(200));

    db.set(new DatabaseStatus(false, since, "connection refused", 1));
    assertEquals(
        new JsonObject()
            .put("databaseDownSince", "2026-11-29T09:00:00Z")
            .put("databaseRestarts", 1)
            .put("status", "not ready")
            .put(
                "checks",
                new JsonObject()
                    .put("informers", "synced")
                    .put("database", "down: connection refused")),
        readyz(503));

    // negative control: the database is up but the informers are not synced
    sources.ready = false;
    db.set(new DatabaseStatus(true, since, null, 1));
    assertEquals("not synced", readyz(503).getJsonObject("checks").getString("informers"));
  }
}
