package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloLedger;
import org.sandboxslo.store.SloStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SLOs' budget history in PostgreSQL ({@code slo_budget_bucket}): re-feeds stored buckets into
 * a freshly installed ledger ({@link SloLedger#restore}: per bucket the side with more valid events
 * wins, so nothing is counted twice) and upserts the buckets that changed since the last write.
 * Without a store both are no-ops. Engine work goes through {@link EngineLoop#call}.
 */
public final class SloHistory {
  private static final Logger LOG = LoggerFactory.getLogger(SloHistory.class);

  private final EngineLoop engine;
  private final SloStore store;
  private final Clock clock;
  private volatile Instant lastPersist;

  /**
   * @param storeOrNull the store; null keeps everything in memory (nothing survives a restart)
   */
  public SloHistory(EngineLoop engine, SloStore storeOrNull, Clock clock) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.store = storeOrNull;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Whether a store is configured. */
  public boolean stored() {
    return store != null;
  }

  /**
   * Re-feeds the stored buckets of the last period of {@code def} into its ledger, if the engine
   * still holds that very definition (a definition replaced meanwhile is left alone).
   *
   * @param coarse the ledger's coarse bucket width (rows one width before the period are read too)
   * @return how many buckets were re-fed; fails when the store cannot be read
   */
  public Future<Integer> restore(SloDefinition def, Duration coarse) {
    if (store == null) {
      return Future.succeededFuture(0);
    }
    String name = def.name();
    return store
        .buckets(name, clock.instant().minus(def.period()).minus(coarse))
        .compose(
            buckets ->
                engine.call(
                    e -> {
                      SloLedger l = e.ledger(name);
                      int n = 0;
                      if (l != null && l.definition() == def) {
                        for (SloLedger.Bucket b : buckets) {
                          n += l.restore(b) ? 1 : 0;
                        }
                      }
                      return n;
                    }));
  }

  /**
   * Upserts the buckets of {@code slos} that changed since the last successful write (plus one
   * coarse width), then prunes rows older than every period plus a day.
   *
   * @param fallbackPeriod the period used for pruning when {@code slos} is empty
   * @return buckets written; fails (and WARNs) when the store cannot be written
   */
  public Future<Integer> persist(Collection<SloDefinition> slos, Duration fallbackPeriod) {
    if (store == null) {
      return Future.succeededFuture(0);
    }
    Instant since = lastPersist;
    Instant now = clock.instant();
    List<String> names = slos.stream().map(SloDefinition::name).toList();
    Duration longest =
        slos.stream().map(SloDefinition::period).max(Duration::compareTo).orElse(fallbackPeriod);
    return engine
        .call(
            e -> {
              Map<String, List<SloLedger.Bucket>> out = new LinkedHashMap<>();
              for (String n : names) {
                SloLedger l = e.ledger(n);
                if (l != null) {
                  out.put(n, l.buckets(since == null ? null : since.minus(l.coarseResolution())));
                }
              }
              return out;
            })
        .compose(
            all -> {
              Future<Integer> chain = Future.succeededFuture(0);
              for (Map.Entry<String, List<SloLedger.Bucket>> en : all.entrySet()) {
                chain =
                    chain.compose(
                        sum -> store.putBuckets(en.getKey(), en.getValue()).map(k -> sum + k));
              }
              // rows older than every period (plus a day) are never read again
              return chain.compose(
                  n ->
                      store.pruneBuckets(now.minus(longest).minus(Duration.ofDays(1))).map(x -> n));
            })
        .onSuccess(n -> lastPersist = now)
        .onFailure(e -> LOG.warn("writing SLO budget history failed: {}", e.getMessage()));
  }
}
