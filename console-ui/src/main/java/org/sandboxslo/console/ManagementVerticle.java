package org.sandboxslo.console;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.util.Objects;
import java.util.function.Supplier;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.store.DatabaseStatus;

/**
 * The management server on {@code sloconsole.management.port} (host {@code sloconsole.http.host}):
 * {@code /healthz}, {@code /readyz}, {@code /metrics} (see {@link ManagementRoutes}); anything else
 * is a JSON 404. The start Future fails when the port cannot be bound.
 */
public final class ManagementVerticle extends VerticleBase {
  private final ConsoleConfig config;
  private final ConsoleSources sources;
  private final PrometheusRegistry registry;
  private final Supplier<DatabaseStatus> database;
  private volatile HttpServer server;

  public ManagementVerticle(
      ConsoleConfig config, ConsoleSources sources, PrometheusRegistry registry) {
    this(config, sources, registry, null);
  }

  /**
   * @param databaseOrNull the database health {@code /readyz} reports, or null
   */
  public ManagementVerticle(
      ConsoleConfig config,
      ConsoleSources sources,
      PrometheusRegistry registry,
      Supplier<DatabaseStatus> databaseOrNull) {
    this.config = Objects.requireNonNull(config, "config");
    this.sources = Objects.requireNonNull(sources, "sources");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.database = databaseOrNull;
  }

  @Override
  public Future<?> start() {
    return Future.succeededFuture(router()).compose(this::listen).onSuccess(s -> server = s);
  }

  private Router router() {
    Router router = Router.router(vertx);
    ManagementRoutes.mount(router, sources, registry, database);
    ConsoleVerticle.jsonErrors(router);
    return router;
  }

  private Future<HttpServer> listen(Router router) {
    return vertx
        .createHttpServer(
            new HttpServerOptions().setHost(config.httpHost()).setPort(config.managementPort()))
        .requestHandler(router)
        .listen();
  }

  /**
   * The bound port (the actual one when configured 0).
   *
   * @throws IllegalStateException before the verticle has started
   */
  public int actualPort() {
    HttpServer s = server;
    if (s == null) {
      throw new IllegalStateException("management server not started");
    }
    return s.actualPort();
  }
}
