package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.store.SloStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembled SLO service: the {@link SloRegistry} and {@link SloHistory}, and their verticles —
 * {@link SloRegistryVerticle} (load at start, defaults timer), {@link SloPersistenceVerticle}
 * (history timer; only with a store) and {@link ControllerViewVerticle} (only when {@code
 * sloconsole.controller-view.url} is set). The console receives {@link #registry()} and {@link
 * #controllerView()} by constructor ({@code ConsoleServices}); nothing is registered globally.
 */
public final class SloSubsystem {
  private static final Logger LOG = LoggerFactory.getLogger(SloSubsystem.class);

  private final Vertx vertx;
  private final SloRegistry registry;
  private final SloPersistenceVerticle persistence;
  private final ControllerViewVerticle controllerView;
  private final List<String> deployments;

  private SloSubsystem(
      Vertx vertx,
      SloRegistry registry,
      SloPersistenceVerticle persistence,
      ControllerViewVerticle controllerView,
      List<String> deployments) {
    this.vertx = vertx;
    this.registry = registry;
    this.persistence = persistence;
    this.controllerView = controllerView;
    this.deployments = deployments;
  }

  /**
   * Assembles the pieces and deploys the verticles.
   *
   * @param storeOrNull the store; null keeps everything in memory (nothing survives a restart)
   * @return the running subsystem; a failed Future when the store cannot be read (everything
   *     deployed is undeployed again)
   */
  public static Future<SloSubsystem> start(
      Vertx vertx, SloSettings settings, EngineLoop engine, SloStore storeOrNull, Clock clock) {
    return start(vertx, settings, engine, storeOrNull, clock, s -> {});
  }

  /**
   * As above; every controller scrape is also handed to {@code onScrape} (the engine's {@code
   * FleetEvent.Scraped}: the controller report and its histogram diagnoses).
   */
  public static Future<SloSubsystem> start(
      Vertx vertx,
      SloSettings settings,
      EngineLoop engine,
      SloStore storeOrNull,
      Clock clock,
      java.util.function.Consumer<org.sandboxslo.engine.scrape.Scrape> onScrape) {
    return start(vertx, settings, engine, storeOrNull, clock, onScrape, Leadership.ALWAYS);
  }

  /**
   * As above for one of several replicas on one database: every replica fills its registry and
   * evaluates its SLOs (reads are served everywhere); only the {@link Leadership leader} writes and
   * prunes the budget history ({@link SloPersistenceVerticle}).
   */
  public static Future<SloSubsystem> start(
      Vertx vertx,
      SloSettings settings,
      EngineLoop engine,
      SloStore storeOrNull,
      Clock clock,
      java.util.function.Consumer<org.sandboxslo.engine.scrape.Scrape> onScrape,
      Leadership leadership) {
    Objects.requireNonNull(vertx, "vertx");
    Objects.requireNonNull(leadership, "leadership");
    SloHistory history = new SloHistory(engine, storeOrNull, clock);
    SloRegistry registry = new SloRegistry(settings, engine, storeOrNull, history, clock);
    SloPersistenceVerticle persistence =
        storeOrNull == null ? null : new SloPersistenceVerticle(registry, history, leadership);
    ControllerViewVerticle view =
        settings.controllerUrl() == null
            ? null
            : new ControllerViewVerticle(settings, clock, onScrape);
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    return vertx
        .deployVerticle(new SloRegistryVerticle(registry))
        .onSuccess(ids::add)
        .compose(
            x ->
                persistence == null
                    ? Future.succeededFuture("")
                    : vertx.deployVerticle(persistence))
        .onSuccess(id -> addIfDeployed(ids, id))
        .compose(x -> view == null ? Future.succeededFuture("") : vertx.deployVerticle(view))
        .onSuccess(id -> addIfDeployed(ids, id))
        .map(
            x -> {
              if (view != null) {
                LOG.info(
                    "controller view: scraping {} every {}",
                    settings.controllerUrl(),
                    settings.controllerInterval());
              }
              return new SloSubsystem(vertx, registry, persistence, view, ids);
            })
        .recover(e -> undeploy(vertx, ids).transform(x -> Future.failedFuture(e)));
  }

  private static void addIfDeployed(List<String> ids, String id) {
    if (!id.isEmpty()) {
      ids.add(id);
    }
  }

  public SloRegistry registry() {
    return registry;
  }

  /** The controller view, or null when none is configured. */
  public ControllerViewVerticle controllerView() {
    return controllerView;
  }

  /**
   * Writes the budget history now.
   *
   * @return buckets written (0 without a store)
   */
  public Future<Integer> persistNow() {
    return persistence == null ? Future.succeededFuture(0) : persistence.persistNow();
  }

  /**
   * Undeploys the verticles, newest first (the history is written once more). Idempotent; call
   * before closing the store.
   */
  public Future<Void> stop() {
    return undeploy(vertx, deployments);
  }

  private static Future<Void> undeploy(Vertx vertx, List<String> ids) {
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
    return chain;
  }
}
