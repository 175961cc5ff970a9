package org.sandboxslo.server.wiring;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.console.slo.ControllerViewService;
import org.sandboxslo.console.slo.SloService;
import org.sandboxslo.console.slo.SloSettings;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.SloStore;
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
   * @param localOrNull the controller in this process (the demo: its metrics are served and scraped
   *     by default), null in watch mode
   * @param leadership only the leader writes budget history
   * @return closes everything started here (persisting the budget history once more first)
   * @throws IllegalArgumentException for bad {@code sloconsole.slo.*}/{@code controller-view.*}
   *     keys
   */
  public static AutoCloseable start(
      Vertx vertx,
      Map<String, String> settingsMap,
      EngineLoop engine,
      Database storage,
      LocalController localOrNull,
      Leadership leadership) {
    SloSettings settings = SloSettings.fromMap(settingsMap);
    if (localOrNull != null) {
      String url = localOrNull.serveMetrics("127.0.0.1", settings.demoPort());
      LOG.info("controller-lite metrics on {}", url);
      if (settings.controllerUrl() == null) {
        settings = settings.withControllerUrl(url);
      }
    }
    SloStore store = storage == null ? null : new SloStore(storage.pool());
    Clock clock = Clock.systemUTC();
    SloService service = await(SloService.start(vertx, settings, engine, store, clock, leadership));
    if (settings.controllerUrl() != null) {
      service.controllerView(new ControllerViewService(vertx, settings, clock));
      LOG.info(
          "controller view: scraping {} every {}",
          settings.controllerUrl(),
          settings.controllerInterval());
    }
    return () -> await(service.stop());
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
