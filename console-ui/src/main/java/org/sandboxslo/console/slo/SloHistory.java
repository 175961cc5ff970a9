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
import org.sandboxslo.store.BudgetOwner;
import org.sandboxslo.store.SloStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SLOs' budget history in PostgreSQL ({@code slo_budget_bucket}): re-feeds stored buckets into
 * a freshly installed ledger ({@link SloLedger#restore}: per bucket the side with more valid events
 * wins, so nothing is counted twice) and upserts the buckets that changed since the last write.
 * Without a store both are no-ops. Engine work goes through {@link EngineLoop#call}.
 *
 * <p>Buckets are kept per name and {@link BudgetOwner}: a user SLO that replaces a default or file
 * SLO of the same name starts from its own history, and deleting it (which deletes its buckets)
 * brings the replaced SLO back with the history it had.
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
   * Re-feeds the stored buckets of the last period of {@code def} (those of {@code origin}'s owner)
   * into its ledger, if the engine still holds that very definition (a definition replaced
   * meanwhile is left alone).
   *
   * @param coarse the ledger's coarse bucket width (rows one width before the period are read too)
   * @return how many buckets were re-fed; fails when the store cannot be read
   */
  public Future<Integer> restore(SloDefinition def, SloOrigin origin, Duration coarse) {
    if (store == null) {
      return Future.succeededFuture(0);
    }
    String name = def.name();
    return store
        .buckets(name, owner(origin), clock.instant().minus(def.period()).minus(coarse))
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
  public Future<Integer> persist(Collection<RegisteredSlo> slos, Duration fallbackPeriod) {
    if (store == null) {
      return Future.succeededFuture(0);
    }
    Instant since = lastPersist;
    Instant now = clock.instant();
    Map<String, BudgetOwner> owners = new LinkedHashMap<>();
    slos.forEach(r -> owners.put(r.name(), owner(r.origin())));
    List<String> names = List.copyOf(owners.keySet());
    Duration longest =
        slos.stream()
            .map(r -> r.definition().period())
            .max(Duration::compareTo)
            .orElse(fallbackPeriod);
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
                        sum ->
                            store
                                .putBuckets(en.getKey(), owners.get(en.getKey()), en.getValue())
                                .map(k -> sum + k));
              }
              // rows older than every period (plus a day) are never read again
              return chain.compose(
                  n ->
                      store.pruneBuckets(now.minus(longest).minus(Duration.ofDays(1))).map(x -> n));
            })
        .onSuccess(n -> lastPersist = now)
        .onFailure(e -> LOG.warn("writing SLO budget history failed: {}", e.getMessage()));
  }

  /**
   * Upserts every bucket of one SLO's ledger now (before a user SLO replaces it, so the history it
   * gets back when the override is deleted is complete). Does not move the incremental mark of
   * {@link #persist}.
   *
   * @return buckets written (0 without a store or when the engine has no such ledger); fails when
   *     the store cannot be written
   */
  public Future<Integer> persistAll(RegisteredSlo slo) {
    if (store == null) {
      return Future.succeededFuture(0);
    }
    String name = slo.name();
    return engine
        .call(
            e -> {
              SloLedger l = e.ledger(name);
              return l == null || l.definition() != slo.definition()
                  ? List.<SloLedger.Bucket>of()
                  : l.buckets(null);
            })
        .compose(buckets -> store.putBuckets(name, owner(slo.origin()), buckets));
  }

  /** User SLOs own their buckets; default and file SLOs share the built-in owner. */
  static BudgetOwner owner(SloOrigin origin) {
    return origin == SloOrigin.USER ? BudgetOwner.USER : BudgetOwner.BUILTIN;
  }
}
