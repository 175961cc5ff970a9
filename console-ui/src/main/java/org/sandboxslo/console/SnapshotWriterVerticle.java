package org.sandboxslo.console;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.store.SliStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store timer: every {@code sloconsole.store.snapshot-interval} writes the latest snapshot
 * through {@link SliStore#write}. A snapshot already written (same {@code at}) is not written
 * again, and a tick is skipped while a write is in flight. A failed write is logged at WARN and
 * retried on the next tick; it never stops the timer.
 */
public final class SnapshotWriterVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotWriterVerticle.class);

  private final ConsoleConfig config;
  private final ConsoleSources sources;
  private final SliStore store;
  private final AtomicLong rowsWritten = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private volatile Instant lastWritten;
  private boolean writing;
  private long timer = -1;

  public SnapshotWriterVerticle(ConsoleConfig config, ConsoleSources sources, SliStore store) {
    this.config = Objects.requireNonNull(config, "config");
    this.sources = Objects.requireNonNull(sources, "sources");
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public Future<?> start() {
    timer = vertx.setPeriodic(config.snapshotInterval().toMillis(), id -> writeLatest());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }

  /**
   * Writes the latest snapshot unless it is missing, already written or a write is in flight. Must
   * run on this verticle's context.
   *
   * @return the rows written (0 when skipped); never a failed Future (failures are logged)
   */
  Future<Integer> writeLatest() {
    FleetSnapshot s = sources.snapshot();
    if (writing || s == null || s.at().equals(lastWritten)) {
      return Future.succeededFuture(0);
    }
    writing = true;
    return store
        .write(s)
        .onSuccess(
            n -> {
              lastWritten = s.at();
              rowsWritten.addAndGet(n);
            })
        .recover(
            e -> {
              failures.incrementAndGet();
              LOG.warn(
                  "writing the SLI snapshot at {} to the store failed, retrying in {}: {}",
                  s.at(),
                  config.snapshotInterval(),
                  e.getMessage());
              return Future.succeededFuture(0);
            })
        .eventually(
            () -> {
              writing = false;
              return Future.succeededFuture();
            });
  }

  /** Time of the last snapshot written, or {@code null}. */
  public Instant lastWritten() {
    return lastWritten;
  }

  /** Rows written since start. */
  public long rowsWritten() {
    return rowsWritten.get();
  }

  /** Failed writes since start. */
  public long failures() {
    return failures.get();
  }
}
