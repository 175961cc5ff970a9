package org.sandboxslo.console.engine;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.diagnosis.DiagnosisSettings;
import org.sandboxslo.engine.diagnosis.InformerHealth;
import org.sandboxslo.engine.diagnosis.KindLag;
import org.sandboxslo.engine.diagnosis.UnservedClaim;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.slo.SloStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the (single-threaded) {@link FleetEngine} on one named thread: collector callbacks only
 * enqueue events through {@link #sink()}; a fixed-rate task publishes the latest snapshot and SLO
 * statuses, which the console reads without locking; everything else asks the engine through {@link
 * #call}, which returns a Future and never blocks the caller.
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
  private volatile List<FindingState> latestFindings = List.of();
  private volatile Map<String, long[]> latestHygiene = Map.of();
  private volatile Map<Kind, KindLag> latestLag = Map.of();
  private volatile Map<Kind, InformerHealth.Suspicion> latestSuspects = Map.of();
  private volatile List<UnservedClaim> latestUnserved = List.of();
  private final DiagnosisConfig diagnosis;
  private final DiagnosisSettings settings;
  private final Duration findingsEvery;
  private java.time.Instant lastDiagnosis;

  /** Key (kind + subject) → state; touched only on the engine thread. */
  private final Map<String, FindingState> findingLog = new java.util.LinkedHashMap<>();

  private static final int CLOSED_KEPT = 200;

  /** How long a call from a Vert.x context waits for the engine thread before failing. */
  static final long CALL_TIMEOUT_MS = 10_000;

  /**
   * @param engine the engine; from now on touched only by this loop's thread
   * @param clock the console clock (snapshot times)
   * @param refresh how often a snapshot is published, &gt; 0
   * @param ingestErrors collector ingest error counts keyed {@code kind/reason}
   */
  public EngineLoop(
      FleetEngine engine, Clock clock, Duration refresh, Supplier<Map<String, Long>> ingestErrors) {
    this(engine, clock, refresh, ingestErrors, DiagnosisConfig.defaults(), Duration.ofSeconds(5));
  }

  /**
   * @param diagnosis thresholds of the findings
   * @param findingsEvery how often findings are recomputed (they scan every pool's members)
   */
  public EngineLoop(
      FleetEngine engine,
      Clock clock,
      Duration refresh,
      Supplier<Map<String, Long>> ingestErrors,
      DiagnosisConfig diagnosis,
      Duration findingsEvery) {
    this(
        engine,
        clock,
        refresh,
        ingestErrors,
        diagnosis,
        DiagnosisSettings.defaults(),
        findingsEvery);
  }

  /**
   * @param settings thresholds of the issue-8 diagnoses (progress deadline, histogram reading, ...)
   */
  public EngineLoop(
      FleetEngine engine,
      Clock clock,
      Duration refresh,
      Supplier<Map<String, Long>> ingestErrors,
      DiagnosisConfig diagnosis,
      DiagnosisSettings settings,
      Duration findingsEvery) {
    this.diagnosis = Objects.requireNonNull(diagnosis, "diagnosis");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.findingsEvery = Objects.requireNonNull(findingsEvery, "findingsEvery");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ingestErrors = Objects.requireNonNull(ingestErrors, "ingestErrors");
    if (refresh.isZero() || refresh.isNegative()) {
      throw new IllegalArgumentException("refresh interval must be > 0, got " + refresh);
    }
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
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
        thread.execute(
            () -> {
              try {
                engine.apply(event);
                applied.incrementAndGet();
              } catch (RuntimeException e) {
                failed.incrementAndGet();
                LOG.warn(
                    "engine rejected event {}: {}",
                    event.getClass().getSimpleName(),
                    e.getMessage());
              }
            });
      } catch (RejectedExecutionException e) {
        // closing: events after close are dropped on purpose
      }
    };
  }

  private void publish() {
    try {
      java.time.Instant now = clock.instant();
      latest = engine.snapshot(now);
      latestSlos = engine.slos(now);
      latestLag = Map.copyOf(engine.watchLag(now));
      latestSuspects = Map.copyOf(engine.suspectStaleKinds(now, diagnosis));
      if (lastDiagnosis == null || !now.isBefore(lastDiagnosis.plus(findingsEvery))) {
        lastDiagnosis = now;
        diagnose(now);
      }
    } catch (RuntimeException e) {
      LOG.warn("snapshot failed: {}", e.toString());
    }
  }

  private void diagnose(java.time.Instant now) {
    List<Finding> current = engine.findings(now, diagnosis, settings);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Finding f : current) {
      String key = f.kind().wireName() + " " + f.subject();
      seen.add(key);
      FindingState prev = findingLog.get(key);
      java.time.Instant first = prev != null && prev.open() ? prev.firstSeen() : now;
      if (f.firstSeen() != null && f.firstSeen().isBefore(first)) {
        first = f.firstSeen();
      }
      findingLog.put(key, new FindingState(f, first, null));
    }
    int closed = 0;
    for (java.util.Iterator<Map.Entry<String, FindingState>> it = findingLog.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, FindingState> e = it.next();
      if (!seen.contains(e.getKey()) && e.getValue().open()) {
        e.setValue(new FindingState(e.getValue().finding(), e.getValue().firstSeen(), now));
      }
      if (!e.getValue().open() && ++closed > CLOSED_KEPT) {
        it.remove();
      }
    }
    List<FindingState> out = new java.util.ArrayList<>(findingLog.values());
    out.sort(
        java.util.Comparator.comparing((FindingState s) -> s.open() ? 0 : 1)
            .thenComparing(s -> s.finding().severity(), java.util.Comparator.reverseOrder())
            .thenComparing(s -> s.finding().kind().wireName())
            .thenComparing(s -> s.finding().subject()));
    latestFindings = List.copyOf(out);
    latestHygiene =
        Map.copyOf(engine.claimHygiene(now, diagnosis.finishedWithoutLifecycleWarnAfter()));
    latestUnserved = List.copyOf(engine.unservedClaims());
  }

  @Override
  public Map<Kind, KindLag> watchLag() {
    return latestLag;
  }

  @Override
  public Map<Kind, InformerHealth.Suspicion> suspectStale() {
    return latestSuspects;
  }

  @Override
  public List<UnservedClaim> unservedClaims() {
    return latestUnserved;
  }

  @Override
  public Consumer<FleetEvent> events() {
    return sink();
  }

  @Override
  public List<FindingState> findings() {
    return latestFindings;
  }

  @Override
  public Map<String, long[]> claimHygiene() {
    return latestHygiene;
  }

  /**
   * Runs {@code f} on the engine thread (e.g. adding an SLO, reading a ledger) without blocking the
   * caller: the engine thread completes a promise and the result is delivered on the caller's
   * Vert.x context ({@link Context#runOnContext}), so callbacks continue where the call was made
   * (the bridge of Strimzi's {@code VertxUtil}). Called outside Vert.x (tests, a CLI), the Future
   * completes on the engine thread.
   *
   * @return {@code f}'s result; fails with {@code f}'s exception, with {@link
   *     IllegalStateException} once the loop is closed, or (on a Vert.x context) when the engine
   *     has not answered within {@value #CALL_TIMEOUT_MS} ms
   */
  public <T> Future<T> call(Function<FleetEngine, T> f) {
    Objects.requireNonNull(f, "f");
    Context caller = Vertx.currentContext();
    Promise<T> promise = Promise.promise();
    long timer =
        caller == null
            ? -1
            : caller
                .owner()
                .setTimer(
                    CALL_TIMEOUT_MS,
                    id ->
                        promise.tryFail(
                            new IllegalStateException(
                                "engine did not answer within " + CALL_TIMEOUT_MS + " ms")));
    try {
      thread.execute(
          () -> {
            T result = null;
            RuntimeException failure = null;
            try {
              result = f.apply(engine);
            } catch (RuntimeException e) {
              failure = e;
            }
            deliver(caller, timer, promise, result, failure);
          });
    } catch (RejectedExecutionException e) {
      deliver(caller, timer, promise, null, new IllegalStateException("engine loop is closed"));
    }
    return promise.future();
  }

  private static <T> void deliver(
      Context caller, long timer, Promise<T> promise, T result, RuntimeException failure) {
    Runnable complete =
        () -> {
          if (failure == null) {
            promise.tryComplete(result);
          } else {
            promise.tryFail(failure);
          }
        };
    if (caller == null) {
      complete.run();
      return;
    }
    caller.runOnContext(
        v -> {
          caller.owner().cancelTimer(timer);
          complete.run();
        });
  }

  /**
   * Publishes a snapshot now (after every queued event is applied).
   *
   * @return the new snapshot, delivered as by {@link #call}
   */
  public Future<FleetSnapshot> refreshNow() {
    return call(
        e -> {
          publish();
          return latest;
        });
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
