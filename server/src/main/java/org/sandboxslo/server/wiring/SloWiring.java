package org.sandboxslo.server.wiring;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.console.slo.SloSettings;
import org.sandboxslo.console.slo.SloSubsystem;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.SloStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the SLO subsystem inside the assembled service: the SLO store on the console's pool, the
 * {@link SloSubsystem} (registry, history, their verticles; the console receives it by
 * constructor), controller-lite's {@code /metrics} in the demo ({@code
 * sloconsole.controller-view.demo-port}, default a free port, on 127.0.0.1) and the controller view
 * when a controller URL is known.
 */
public final class SloWiring {
  private static final Logger LOG = LoggerFactory.getLogger(SloWiring.class);

  private SloWiring() {}

  /**
   * @param localOrNull the controller in this process (the demo: its metrics are served and scraped
   *     by default), null in watch mode
   * @param leadership only the leader writes budget history
   * @return the running subsystem; {@link SloSubsystem#stop()} persists the budget history once
   *     more
   * @throws IllegalArgumentException for bad {@code sloconsole.slo.*}/{@code controller-view.*}
   *     keys
   */
  public static SloSubsystem start(
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
    SloStore store = storage == null ? null : storage.sloStore();
    // every controller scrape also feeds the engine: the controller report and its diagnoses
    return await(
        SloSubsystem.start(
            vertx,
            settings,
            engine,
            store,
            Clock.systemUTC(),
            s -> engine.sink().accept(new FleetEvent.Scraped(s)),
            leadership));
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
