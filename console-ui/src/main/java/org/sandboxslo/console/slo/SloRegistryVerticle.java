package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.Objects;

/**
 * Fills the {@link SloRegistry} at start (file SLOs from {@code sloconsole.slo.dir}, read on a
 * worker thread; stored user SLOs; the defaults of the templates known so far) and adds the
 * defaults of new templates every {@code sloconsole.slo.refresh-interval}. The start Future fails
 * when the store cannot be read.
 */
public final class SloRegistryVerticle extends VerticleBase {
  private final SloRegistry registry;
  private long timer = -1;

  public SloRegistryVerticle(SloRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public Future<?> start() {
    SloSettings settings = registry.settings();
    return loadFiles(settings)
        .compose(v -> registry.installStored())
        .compose(v -> registry.refreshDefaults())
        .onSuccess(
            v ->
                timer =
                    vertx.setPeriodic(
                        settings.refreshInterval().toMillis(), id -> registry.refreshDefaults()));
  }

  private Future<Void> loadFiles(SloSettings settings) {
    if (settings.dir() == null) {
      return Future.succeededFuture();
    }
    return vertx
        .executeBlocking(() -> SloFiles.load(settings.dir()), false)
        .compose(registry::installFiles);
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }
}
