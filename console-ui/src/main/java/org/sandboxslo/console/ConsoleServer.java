package org.sandboxslo.console;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.store.SliStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console service: registers {@link ConsoleMetrics} on the registry and deploys {@link
 * ManagementVerticle}, {@link ConsoleVerticle} and, with a store, {@link SnapshotWriterVerticle}.
 * Does not own the Vert.x instance, the store or the registry: {@link #stop()} undeploys the
 * verticles and unregisters the metrics only.
 */
public final class ConsoleServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConsoleServer.class);

  private final Vertx vertx;
  private final List<String> deployments;
  private final ConsoleMetrics metrics;
  private final ConsoleVerticle console;
  private final ManagementVerticle management;
  private final SnapshotWriterVerticle writer;

  private ConsoleServer(
      Vertx vertx,
      List<String> deployments,
      ConsoleMetrics metrics,
      ConsoleVerticle console,
      ManagementVerticle management,
      SnapshotWriterVerticle writer) {
    this.vertx = vertx;
    this.deployments = deployments;
    this.metrics = metrics;
    this.console = console;
    this.management = management;
    this.writer = writer;
  }

  /**
   * Starts the service.
   *
   * @param storeOrNull the SLI store on a migrated database, or {@code null} to run without history
   *     (history answers 503, nothing is written)
   * @param registry where the console metrics are registered and which {@code /metrics} serves
   * @return the running server; a failed Future when a port cannot be bound or a metric of the same
   *     name is already registered (everything started is undeployed again)
   */
  public static Future<ConsoleServer> start(
      Vertx vertx,
      ConsoleConfig config,
      ConsoleSources sources,
      SliStore storeOrNull,
      PrometheusRegistry registry) {
    return start(vertx, config, sources, storeOrNull, registry, ConsoleServices.none());
  }

  /**
   * Starts the service with the SLO and remediation services it mounts.
   *
   * @param services the services behind {@code /api/v1/slos}, {@code /api/v1/plans} and the
   *     controller view; their routes answer 503 for a missing one
   * @see #start(Vertx, ConsoleConfig, ConsoleSources, SliStore, PrometheusRegistry)
   */
  public static Future<ConsoleServer> start(
      Vertx vertx,
      ConsoleConfig config,
      ConsoleSources sources,
      SliStore storeOrNull,
      PrometheusRegistry registry,
      ConsoleServices services) {
    return start(vertx, config, sources, storeOrNull, registry, services, Leadership.ALWAYS);
  }

  /**
   * As above for one of several replicas on one database: only the {@link Leadership leader} writes
   * SLI history and prunes it; {@code /api/v1/status} says who leads.
   */
  public static Future<ConsoleServer> start(
      Vertx vertx,
      ConsoleConfig config,
      ConsoleSources sources,
      SliStore storeOrNull,
      PrometheusRegistry registry,
      ConsoleServices services,
      Leadership leadership) {
    Objects.requireNonNull(vertx, "vertx");
    Objects.requireNonNull(services, "services");
    Objects.requireNonNull(leadership, "leadership");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(registry, "registry");
    LOG.info("console configuration:\n{}", config.describe());
    ConsoleMetrics metrics;
    try {
      metrics = ConsoleMetrics.register(registry, sources);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    ManagementVerticle management =
        new ManagementVerticle(config, sources, registry, services.database());
    ConsoleVerticle console =
        new ConsoleVerticle(
                config,
                sources,
                storeOrNull,
                registry,
                services,
                java.time.Clock.systemUTC(),
                metrics::dropped)
            .leadership(leadership);
    SnapshotWriterVerticle writer =
        storeOrNull == null
            ? null
            : new SnapshotWriterVerticle(config, sources, storeOrNull, leadership);
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    return vertx
        .deployVerticle(management)
        .onSuccess(ids::add)
        .compose(id -> vertx.deployVerticle(console))
        .onSuccess(ids::add)
        .compose(id -> writer == null ? Future.succeededFuture("") : vertx.deployVerticle(writer))
        .onSuccess(id -> addIfDeployed(ids, id))
        .map(id -> new ConsoleServer(vertx, ids, metrics, console, management, writer))
        .onSuccess(
            s ->
                LOG.info(
                    "console on http://{}:{}/, management on port {}",
                    config.httpHost(),
                    s.httpPort(),
                    s.managementPort()))
        .recover(e -> undeploy(vertx, ids, metrics).transform(x -> Future.failedFuture(e)));
  }

  private static void addIfDeployed(List<String> ids, String id) {
    if (!id.isEmpty()) {
      ids.add(id);
    }
  }

  /** The bound console port (the actual one when configured 0). */
  public int httpPort() {
    return console.actualPort();
  }

  /** The bound management port (the actual one when configured 0). */
  public int managementPort() {
    return management.actualPort();
  }

  /** The store timer, or {@code null} when running without a store. */
  public SnapshotWriterVerticle writer() {
    return writer;
  }

  /**
   * Undeploys the verticles (newest first) and unregisters the metrics. Idempotent.
   *
   * @return completes when everything is undeployed; fails with the first undeploy error
   */
  public Future<Void> stop() {
    return undeploy(vertx, deployments, metrics);
  }

  private static Future<Void> undeploy(Vertx vertx, List<String> ids, ConsoleMetrics metrics) {
    List<String> reversed;
    synchronized (ids) {
      reversed = new ArrayList<>(ids);
      ids.clear();
    }
    Collections.reverse(reversed);
    Future<Void> chain = Future.succeededFuture();
    for (String id : reversed) {
      chain = chain.compose(v -> vertx.undeploy(id));
    }
    return chain.eventually(
        () -> {
          metrics.unregister();
          return Future.succeededFuture();
        });
  }

  /**
   * {@link #stop()} and wait up to 10 s.
   *
   * @throws IllegalStateException when called on a Vert.x thread (it would deadlock), or when
   *     stopping fails or times out
   */
  @Override
  public void close() {
    if (Context.isOnVertxThread()) {
      throw new IllegalStateException("ConsoleServer.close() blocks; use stop() on Vert.x threads");
    }
    try {
      stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping the console", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("stopping the console failed: " + e.getMessage(), e);
    }
  }
}
