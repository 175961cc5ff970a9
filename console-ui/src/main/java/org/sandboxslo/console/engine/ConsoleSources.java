package org.sandboxslo.console.engine;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.diagnosis.InformerHealth;
import org.sandboxslo.engine.diagnosis.KindLag;
import org.sandboxslo.engine.diagnosis.UnservedClaim;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.sli.FleetSnapshot;

/**
 * What the console reads from the rest of the service (collector and engine). Called on Vert.x
 * event-loop threads, so every method must be cheap, non-blocking and thread-safe (typically a
 * volatile read of the latest value).
 */
public interface ConsoleSources {
  /**
   * The latest fleet snapshot; {@code null} before the first one has been computed (the API then
   * answers 503 "not ready").
   */
  FleetSnapshot snapshot();

  /**
   * Ingest errors since start, keyed {@code kind/reason} (e.g. {@code
   * SandboxClaim/bad-annotation}); counts are monotonic. Empty when none.
   */
  Map<String, Long> ingestErrors();

  /** True when the service is ready to serve (informers synced, first snapshot computed). */
  boolean ready();

  /**
   * The configured SLI windows, in configured order (the first is the default for history queries).
   * Default: the engine defaults (5m, 1h); override with the engine's configuration.
   */
  default List<Duration> windows() {
    return EngineConfig.defaults().windows();
  }

  /** Open findings and recently closed ones, most severe first; empty when none or not computed. */
  default List<FindingState> findings() {
    return List.of();
  }

  /**
   * Claim hygiene per namespace: {@code [retained expired claims, finished claims without
   * lifecycle]}; empty when unknown.
   */
  default Map<String, long[]> claimHygiene() {
    return Map.of();
  }

  /**
   * Runs {@code f} on the engine's thread; the result arrives on the caller's context: reads the
   * published snapshot does not carry (pool members, claims). {@link EngineLoop} implements it.
   *
   * @return fails when there is no engine to ask or it does not answer in time
   */
  default <T> io.vertx.core.Future<T> call(
      java.util.function.Function<org.sandboxslo.engine.FleetEngine, T> f) {
    return io.vertx.core.Future.failedFuture("this console has no engine to ask");
  }

  /**
   * Watch lag per kind at the latest snapshot, from watch deliveries only ({@code
   * FleetEngine#watchLag}); kinds without a sample are absent.
   */
  default Map<Kind, KindLag> watchLag() {
    return Map.of();
  }

  /**
   * Kinds whose data is suspect-stale at the latest snapshot ({@code
   * FleetEngine#suspectStaleKinds}); {@code /readyz} answers 503 while any is. Empty when none.
   */
  default Map<Kind, InformerHealth.Suspicion> suspectStale() {
    return Map.of();
  }

  /**
   * Claims never served (rejected, blocked, expired or deleted before Ready), oldest first, as of
   * the latest diagnosis; empty when none or not computed.
   */
  default List<UnservedClaim> unservedClaims() {
    return List.of();
  }

  /**
   * Where events the console receives itself (identity probes posted to {@code /api/v1/probes}) go
   * to the engine; never blocks. Null when this process has no engine to feed (the route then
   * answers 503).
   */
  default Consumer<FleetEvent> events() {
    return null;
  }
}
