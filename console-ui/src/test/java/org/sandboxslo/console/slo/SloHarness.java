package org.sandboxslo.console.slo;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleServer;
import org.sandboxslo.console.ConsoleServices;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.SloStore;

/** Engine loop + embedded PostgreSQL + SLO subsystem + console server on free ports, for tests. */
final class SloHarness implements AutoCloseable {
  final Vertx vertx = Vertx.vertx();
  final EngineLoop loop;
  final Database storage;
  final ConsoleServer server;
  final SloSubsystem slo;
  final WebClient web;

  SloHarness(Path dataDir, Map<String, String> extra) throws Exception {
    Map<String, String> m =
        new HashMap<>(
            Map.of(
                "sloconsole.http.port", "0",
                "sloconsole.management.port", "0",
                "sloconsole.db.data-dir", dataDir.toString(),
                "sloconsole.db.work-dir", Path.of("target", "embedded-pg").toString(),
                "sloconsole.slo.refresh-interval", "200ms"));
    m.putAll(extra);
    ConsoleConfig config = ConsoleConfig.fromMap(m);
    loop =
        new EngineLoop(
            new FleetEngine(EngineConfig.fromMap(Map.of())),
            Clock.systemUTC(),
            Duration.ofMillis(100),
            Map::of);
    storage = get(Database.open(vertx, config.database()));
    slo =
        get(
            SloSubsystem.start(
                vertx,
                SloSettings.fromMap(m),
                loop,
                new SloStore(storage.pool()),
                Clock.systemUTC()));
    server =
        get(
            ConsoleServer.start(
                vertx,
                config,
                loop,
                storage.store(),
                new PrometheusRegistry(),
                ConsoleServices.of(slo, null)));
    web = WebClient.create(vertx);
  }

  HttpResponse<Buffer> get(String path) throws Exception {
    return get(web.get(server.httpPort(), "127.0.0.1", path).send());
  }

  HttpResponse<Buffer> post(String path, JsonObject body) throws Exception {
    return get(
        web.post(server.httpPort(), "127.0.0.1", path)
            .putHeader("Content-Type", "application/json")
            .sendBuffer(Buffer.buffer(body.encode())));
  }

  HttpResponse<Buffer> post(String path, String contentType, String body) throws Exception {
    return get(
        web.post(server.httpPort(), "127.0.0.1", path)
            .putHeader("Content-Type", contentType)
            .sendBuffer(Buffer.buffer(body)));
  }

  HttpResponse<Buffer> delete(String path) throws Exception {
    return get(web.delete(server.httpPort(), "127.0.0.1", path).send());
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    web.close();
    server.close();
    get(slo.stop());
    get(storage.close());
    loop.close();
    get(vertx.close());
  }
}
