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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleServer;
import org.sandboxslo.console.ConsoleServices;
import org.sandboxslo.console.api.IdempotencyKeys;
import org.sandboxslo.console.auth.AuthConfig;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.auth.ConsoleAuth;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.IdempotencyStore;
import org.sandboxslo.store.SloStore;

/**
 * Engine loop + embedded PostgreSQL + SLO subsystem + console server on free ports, for tests.
 * Static tokens: {@link #OWNER} (user alice, {@code slo-owner}, sent by default), {@link #VIEWER}
 * (victor, {@code viewer}) and {@link #TEAM_A_OWNER} (tara, {@code slo-owner:team-a}); anonymous
 * reads unless {@code sloconsole.auth.anonymous-read=false} is given.
 */
final class SloHarness implements AutoCloseable {
  static final String OWNER = "owner-token-0123456789";
  static final String VIEWER = "viewer-token-0123456789";
  static final String TEAM_A_OWNER = "team-a-owner-token-0123";
  static final Map<String, Caller> TOKENS =
      Map.of(
          OWNER, new Caller("alice", Set.of("slo-owner")),
          VIEWER, new Caller("victor", Set.of("viewer")),
          TEAM_A_OWNER, new Caller("tara", Set.of("slo-owner:team-a")));

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
    ConsoleConfig config =
        ConsoleConfig.fromMap(
            m.entrySet().stream()
                .filter(e -> !e.getKey().startsWith("sloconsole.auth."))
                .collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    ConsoleAuth auth = ConsoleAuth.of(AuthConfig.fromMap(m, TOKENS, true, java.util.Set.of()));
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
                ConsoleServices.of(slo, null, auth)
                    .withIdempotency(IdempotencyKeys.of(new IdempotencyStore(storage.pool())))));
    web = WebClient.create(vertx);
  }

  HttpResponse<Buffer> get(String path) throws Exception {
    return get(web.get(server.httpPort(), "127.0.0.1", path).send());
  }

  HttpResponse<Buffer> post(String path, JsonObject body) throws Exception {
    return post(path, body, OWNER);
  }

  /** POSTs JSON with {@code Authorization: Bearer token} (null: none). */
  HttpResponse<Buffer> post(String path, JsonObject body, String token) throws Exception {
    var req =
        web.post(server.httpPort(), "127.0.0.1", path)
            .putHeader("Content-Type", "application/json");
    if (token != null) {
      req.putHeader("Authorization", "Bearer " + token);
    }
    return get(req.sendBuffer(Buffer.buffer(body.encode())));
  }

  HttpResponse<Buffer> post(String path, String contentType, String body) throws Exception {
    return get(
        web.post(server.httpPort(), "127.0.0.1", path)
            .putHeader("Content-Type", contentType)
            .putHeader("Authorization", "Bearer " + OWNER)
            .sendBuffer(Buffer.buffer(body)));
  }

  HttpResponse<Buffer> delete(String path) throws Exception {
    return delete(path, OWNER);
  }

  HttpResponse<Buffer> delete(String path, String token) throws Exception {
    var req = web.delete(server.httpPort(), "127.0.0.1", path);
    if (token != null) {
      req.putHeader("Authorization", "Bearer " + token);
    }
    return get(req.send());
  }

  int port() {
    return server.httpPort();
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
