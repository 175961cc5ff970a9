package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleStorage;
import org.sandboxslo.console.app.EngineLoop;
import org.sandboxslo.console.store.SliStore;
import org.sandboxslo.controller.ControllerLite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the SLO subsystem inside the assembled service: the SLO store on its own small pool, the
 * {@link SloService} (attached to {@code vertx} for the console routes), controller-lite's {@code
 * /metrics} in the demo ({@code sloconsole.controller-view.demo-port}, default a free port, on
 * 127.0.0.1) and the {@link ControllerViewService} when a controller URL is known.
 */
public final class SloWiring {
  private static final Logger LOG = LoggerFactory.getLogger(SloWiring.class);

  private SloWiring() {}

  /**
   * @param controllerOrNull controller-lite in the demo (its metrics are served and scraped by
   *     default), null in watch mode
   * @return closes everything started here (persisting the budget history once more first)
   * @throws IllegalArgumentException for bad {@code sloconsole.slo.*}/{@code controller-view.*}
   *     keys
   */
  public static AutoCloseable start(
      Vertx vertx,
      Map<String, String> settingsMap,
      EngineLoop engine,
      ConsoleStorage storage,
      ConsoleConfig console,
      ControllerLite controllerOrNull) {
    SloSettings settings = SloSettings.fromMap(settingsMap);
    if (controllerOrNull != null) {
      String url = controllerOrNull.metrics().serve("127.0.0.1", settings.demoPort());
      LOG.info("controller-lite metrics on {}", url);
      if (settings.controllerUrl() == null) {
        settings = settings.withControllerUrl(url);
      }
    }
    Pool pool = null;
    SloStore store = null;
    if (storage != null) {
      PgConnectOptions opts =
          storage.embedded() != null
              ? storage.embedded().connectOptions()
              : SliStore.connectOptions(console.dbUrl(), console.dbUser(), console.dbPassword());
      pool =
          PgBuilder.pool()
              .with(new PoolOptions().setMaxSize(2))
              .connectingTo(opts)
              .using(vertx)
              .build();
      store = new SloStore(pool);
    }
    Clock clock = Clock.systemUTC();
    SloService service = await(SloService.start(vertx, settings, engine, store, clock));
    if (settings.controllerUrl() != null) {
      service.controllerView(new ControllerViewService(vertx, settings, clock));
      LOG.info(
          "controller view: scraping {} every {}",
          settings.controllerUrl(),
          settings.controllerInterval());
    }
    Pool p = pool;
    return () -> {
      await(service.stop());
      if (p != null) {
        await(p.close());
      }
    };
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable c = e.getCause();
      throw new IllegalStateException(
          "SLO service: " + (c.getMessage() == null ? c.toString() : c.getMessage()), c);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("SLO service did not start within 60 s");
    }
  }
}
