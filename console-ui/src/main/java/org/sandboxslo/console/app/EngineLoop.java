package org.sandboxslo.console.app;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.sandboxslo.console.ConsoleSources;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.slo.SloStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the (single-threaded) {@link FleetEngine} on one named thread: collector callbacks only
 * enqueue events through {@link #sink()}; a fixed-rate task publishes the latest snapshot and SLO
 * statuses, which the console reads without locking.
 */
public final class EngineLoop implements ConsoleSources, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EngineLoop.class);

  private final FleetEngine engine;
  private final Clock clock;
  private final Supplier<Map<String, Long>> ingestErrors;
  private final ScheduledExecutorService thread;
  private final AtomicLong applied = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile FleetSnapshot latest;
  private volatile List<SloStatus> latestSlos = List.of();

  /**
   * @param engine the engine; from now on touched only by this loop's thread
   * @param clock the console clock (snapshot times)
   * @param refresh how often a snapshot is published, &gt; 0
   * @param ingestErrors collector ingest error counts keyed {@code kind/reason}
   */
  public EngineLoop(FleetEngine engine, Clock clock, Duration refresh, Supplier<Map<String, Long>> ingestErrors) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ingestErrors = Objects.requireNonNull(ingestErrors, "ingestErrors");
    if (refresh.isZero() || refresh.isNegative()) {
      throw new IllegalArgumentException("refresh interval must be > 0, got " + refresh);
    }
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "slo-engine");
      t.setDaemon(true);
      return t;
    });
    thread.scheduleAtFixedRate(this::publish, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Where the collector delivers events; never blocks, never throws. */
  public Consumer<FleetEvent> sink() {
    return event -> {
      try {
        thread.execute(() -> {
          try {
            engine.apply(event);
            applied.incrementAndGet();
          } catch (RuntimeException e) {
            failed.incrementAndGet();
            LOG.warn("engine rejected event {}: {}", event.getClass().getSimpleName(), e.getMessage());
          }
        });
      } catch (RejectedExecutionException e) {
        // closing: events after close are dropped on purpose
      }
    };
  }

  private void publish() {
    try {
      latest = engine.snapshot(clock.instant());
      latestSlos = engine.slos(clock.instant());
    } catch (RuntimeException e) {
      LOG.warn("snapshot failed: {}", e.toString());
    }
  }

  /**
   * Runs {@code f} on the engine thread (e.g. adding an SLO) and waits for its result.
   *
   * @throws IllegalStateException when it fails or takes longer than 10 s
   */
  public <T> T call(Function<FleetEngine, T> f) {
    CompletableFuture<T> out = CompletableFuture.supplyAsync(() -> f.apply(engine), thread);
    try {
      return out.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(c);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    } catch (TimeoutException e) {
      throw new IllegalStateException("engine did not answer within 10 s");
    }
  }

  /** Publishes a snapshot now (after every queued event is applied) and returns it. */
  public FleetSnapshot refreshNow() {
    call(e -> {
      publish();
      return null;
    });
    return latest;
  }

  @Override
  public FleetSnapshot snapshot() {
    return latest;
  }

  /** The SLO statuses published with the latest snapshot. */
  public List<SloStatus> slos() {
    return latestSlos;
  }

  @Override
  public Map<String, Long> ingestErrors() {
    return ingestErrors.get();
  }

  @Override
  public boolean ready() {
    FleetSnapshot s = latest;
    return s != null && s.allSynced();
  }

  @Override
  public List<Duration> windows() {
    return engine.config().windows();
  }

  /** Events applied so far. */
  public long applied() {
    return applied.get();
  }

  @Override
  public void close() {
    thread.shutdown();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
