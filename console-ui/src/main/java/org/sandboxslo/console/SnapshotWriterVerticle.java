package org.sandboxslo.console;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.store.SliStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store timer: every {@code sloconsole.store.snapshot-interval} writes the latest snapshot
 * through {@link SliStore#write}. A snapshot already written (same {@code at}) is not written
 * again, and a tick is skipped while a write is in flight. A failed write is logged at WARN and
 * retried on the next tick; it never stops the timer. Only the {@link Leadership leader} writes
 * (replicas share one database). Retention: after its first write and then every hour the leader
 * deletes rows older than the snapshot time minus {@code sloconsole.store.retention}, at most
 * {@value #PRUNE_BATCH_ROWS} rows per statement and {@value #PRUNE_MAX_BATCHES} statements per run.
 */
public final class SnapshotWriterVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotWriterVerticle.class);

  static final int PRUNE_BATCH_ROWS = 5000;
  static final int PRUNE_MAX_BATCHES = 20;
  static final Duration PRUNE_INTERVAL = Duration.ofHours(1);

  private final ConsoleConfig config;
  private final Leadership leadership;
  private final ConsoleSources sources;
  private final SliStore store;
  private final AtomicLong rowsWritten = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong rowsPruned = new AtomicLong();
  private Instant nextPrune;
  private volatile Instant lastWritten;
  private boolean writing;
  private long timer = -1;

  public SnapshotWriterVerticle(ConsoleConfig config, ConsoleSources sources, SliStore store) {
    this(config, sources, store, Leadership.ALWAYS);
  }

  /**
   * @param leadership writes and prunes only while this process leads
   */
  public SnapshotWriterVerticle(
      ConsoleConfig config, ConsoleSources sources, SliStore store, Leadership leadership) {
    this.leadership = Objects.requireNonNull(leadership, "leadership");
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
    if (writing || s == null || s.at().equals(lastWritten) || !leadership.isLeader()) {
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
        .compose(n -> pruneDue(s.at()).map(n))
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

  /** Deletes rows older than the retention when an hour has passed since the last run. */
  private Future<Long> pruneDue(Instant at) {
    if (nextPrune != null && at.isBefore(nextPrune)) {
      return Future.succeededFuture(0L);
    }
    nextPrune = at.plus(PRUNE_INTERVAL);
    Instant cutoff = at.minus(config.retention());
    return store
        .prune(cutoff, PRUNE_BATCH_ROWS, PRUNE_MAX_BATCHES)
        .onSuccess(
            n -> {
              rowsPruned.addAndGet(n);
              if (n > 0) {
                LOG.info("pruned {} SLI history rows older than {}", n, cutoff);
              }
            })
        .recover(
            e -> {
              LOG.warn("pruning SLI history older than {} failed: {}", cutoff, e.getMessage());
              return Future.succeededFuture(0L);
            });
  }

  /** Rows deleted by retention since start. */
  public long rowsPruned() {
    return rowsPruned.get();
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
