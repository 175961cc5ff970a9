package org.sandboxslo.console;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.store.SliStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store timer: every {@code sloconsole.store.snapshot-interval} queues the engine's latest
 * snapshot (one not queued before, by {@code at}) and writes the queue, oldest first, through
 * {@link SliStore#write}. While the database is down the engine keeps computing snapshots from its
 * windows; they wait in the queue (at most {@code sloconsole.store.backfill-max-snapshots}, the
 * oldest dropped first and counted) and are written when the database returns, so the SLI history
 * has no gap. A failed write is logged at WARN once per outage and retried on the next tick; it
 * never stops the timer. A tick is skipped while a write is in flight. Only the {@link Leadership
 * leader} queues and writes (replicas share one database). Retention: after its first write and
 * then every hour the leader deletes rows older than the snapshot time minus {@code
 * sloconsole.store.retention}, at most {@value #PRUNE_BATCH_ROWS} rows per statement and {@value
 * #PRUNE_MAX_BATCHES} statements per run.
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
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong backfilled = new AtomicLong();

  /** Snapshots not yet written, oldest first; touched only on this verticle's context. */
  private final Deque<FleetSnapshot> backlog = new ArrayDeque<>();

  private volatile int backlogSize;
  private final AtomicLong rowsPruned = new AtomicLong();
  private Instant nextPrune;
  private volatile Instant lastWritten;
  private Instant lastQueued;
  private boolean writing;
  private boolean failing;
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
   * Queues the latest snapshot (unless missing or queued before) and writes the queue unless a
   * write is in flight. Must run on this verticle's context.
   *
   * @return the rows written by this call (0 when skipped or failed); never a failed Future
   *     (failures are logged and counted)
   */
  Future<Integer> writeLatest() {
    FleetSnapshot s = sources.snapshot();
    if (!leadership.isLeader()) {
      return Future.succeededFuture(0);
    }
    if (s != null && !s.at().equals(lastQueued)) {
      lastQueued = s.at();
      backlog.addLast(s);
      while (backlog.size() > config.backfillMaxSnapshots()) {
        backlog.pollFirst();
        dropped.incrementAndGet();
      }
      backlogSize = backlog.size();
    }
    if (writing || backlog.isEmpty()) {
      return Future.succeededFuture(0);
    }
    writing = true;
    int queued = backlog.size();
    return drain(0)
        .onSuccess(
            n -> {
              if (failing && backlog.isEmpty()) {
                failing = false;
                backfilled.addAndGet(queued - 1L);
                LOG.info(
                    "SLI store writable again: wrote {} snapshots ({} rows) computed while it was"
                        + " down",
                    queued,
                    n);
              }
            })
        .compose(
            n -> lastWritten == null ? Future.succeededFuture(n) : pruneDue(lastWritten).map(n))
        .eventually(
            () -> {
              writing = false;
              backlogSize = backlog.size();
              return Future.succeededFuture();
            });
  }

  private Future<Integer> drain(int written) {
    FleetSnapshot next = backlog.peekFirst();
    if (next == null) {
      return Future.succeededFuture(written);
    }
    return store
        .write(next)
        .compose(
            n -> {
              backlog.pollFirst();
              lastWritten = next.at();
              rowsWritten.addAndGet(n);
              return drain(written + n);
            })
        .recover(
            e -> {
              failures.incrementAndGet();
              if (!failing) {
                failing = true;
                LOG.warn(
                    "writing the SLI snapshot at {} failed; snapshots are kept (at most {}) and"
                        + " written when the store answers again: {}",
                    next.at(),
                    config.backfillMaxSnapshots(),
                    e.getMessage());
              }
              return Future.succeededFuture(written);
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

  /** Snapshots waiting to be written (more than 1 only while the store fails). */
  public int backlog() {
    return backlogSize;
  }

  /** Snapshots dropped from a full backlog since start. */
  public long dropped() {
    return dropped.get();
  }

  /** Snapshots written late, after an outage, since start. */
  public long backfilled() {
    return backfilled.get();
  }
}
