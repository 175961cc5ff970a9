package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.slo.BudgetExclusion;
import org.sandboxslo.engine.slo.FieldError;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloDefinitions;
import org.sandboxslo.engine.slo.SloLedger;
import org.sandboxslo.engine.slo.SloStatus;
import org.sandboxslo.store.SloStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The SLO registry: which SLOs the engine evaluates, where each came from ({@code default}, {@code
 * file}, {@code user}), their exclusions, and their budget history in PostgreSQL.
 *
 * <ul>
 *   <li>Defaults ({@link SloDefaults}) are added for every template in the latest snapshot every
 *       {@code sloconsole.slo.refresh-interval}, unless a file or user SLO has the same name.
 *   <li>File SLOs ({@code sloconsole.slo.dir}) and stored user SLOs are installed at start; user
 *       SLOs replace file and default SLOs of the same name.
 *   <li>Every time an SLO is installed its stored buckets are re-fed into its ledger ({@link
 *       SloLedger#restore}); every {@code sloconsole.slo.persist-interval} the recent buckets of
 *       every SLO are upserted.
 * </ul>
 *
 * Runs engine work through {@link EngineLoop#call} on a worker thread, never on the event loop. One
 * instance per Vert.x instance can be {@linkplain #attach attached} for {@link SloRoutes}.
 */
public final class SloService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SloService.class);
  private static final Map<Vertx, SloService> ATTACHED = new ConcurrentHashMap<>();

  /**
   * One registered SLO.
   *
   * @param definition the definition
   * @param origin {@code default}, {@code file} or {@code user}
   * @param body the definition in the console's JSON shape (as POSTed, or generated)
   */
  public record Registered(SloDefinition definition, String origin, JsonObject body) {}

  private final Vertx vertx;
  private final SloSettings settings;
  private final EngineLoop engine;
  private final SloStore store;
  private final Clock clock;
  private final Map<String, Registered> registered = new ConcurrentHashMap<>();
  private final Map<String, Registered> shadowed = new ConcurrentHashMap<>();
  private final List<SloStore.StoredExclusion> exclusions = new CopyOnWriteArrayList<>();
  private final Map<String, Boolean> installing = new ConcurrentHashMap<>();
  private final List<Long> timers = new ArrayList<>();
  private volatile Instant lastPersist;
  private volatile ControllerViewService controllerView;
  private volatile Leadership leadership = Leadership.ALWAYS;

  private SloService(
      Vertx vertx, SloSettings settings, EngineLoop engine, SloStore store, Clock clock) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.store = store;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Loads file and stored SLOs, installs them, starts the timers and attaches the service to {@code
   * vertx}.
   *
   * @param storeOrNull the store; null keeps everything in memory (nothing survives a restart)
   * @return the running service; a failed Future when the store cannot be read
   */
  public static Future<SloService> start(
      Vertx vertx, SloSettings settings, EngineLoop engine, SloStore storeOrNull, Clock clock) {
    return start(vertx, settings, engine, storeOrNull, clock, Leadership.ALWAYS);
  }

  /**
   * As above for one of several replicas on one database: every replica evaluates its SLOs for
   * reads, only the {@link Leadership leader} writes and prunes the budget history.
   */
  public static Future<SloService> start(
      Vertx vertx,
      SloSettings settings,
      EngineLoop engine,
      SloStore storeOrNull,
      Clock clock,
      Leadership leadership) {
    SloService s = new SloService(vertx, settings, engine, storeOrNull, clock);
    s.leadership = Objects.requireNonNull(leadership, "leadership");
    return s.loadFiles()
        .compose(v -> s.loadStored())
        .compose(v -> s.refreshDefaults())
        .map(
            v -> {
              s.timers.add(
                  vertx.setPeriodic(
                      settings.refreshInterval().toMillis(), id -> s.refreshDefaults()));
              if (storeOrNull != null) {
                s.timers.add(
                    vertx.setPeriodic(settings.persistInterval().toMillis(), id -> s.persist()));
              }
              ATTACHED.put(vertx, s);
              return s;
            });
  }

  /** The service attached to {@code vertx}, or null. */
  public static SloService attached(Vertx vertx) {
    return ATTACHED.get(vertx);
  }

  public SloSettings settings() {
    return settings;
  }

  /** Sets the controller view shown with templates (null = off). */
  public void controllerView(ControllerViewService view) {
    this.controllerView = view;
  }

  public ControllerViewService controllerView() {
    return controllerView;
  }

  private Future<Void> loadFiles() {
    if (settings.dir() == null) {
      return Future.succeededFuture();
    }
    return vertx
        .executeBlocking(() -> SloFiles.load(settings.dir()), false)
        .compose(
            l -> {
              l.errors().forEach(e -> LOG.warn("SLO file: {}", e));
              l.notices().forEach(n -> LOG.info("SLO file: {}", n));
              Future<Void> chain = Future.succeededFuture();
              for (int i = 0; i < l.definitions().size(); i++) {
                Registered r =
                    new Registered(
                        l.definitions().get(i), "file", new JsonObject(l.bodies().get(i)));
                chain = chain.compose(v -> install(r));
              }
              return chain;
            });
  }

  private Future<Void> loadStored() {
    if (store == null) {
      return Future.succeededFuture();
    }
    return store
        .exclusions()
        .compose(
            xs -> {
              exclusions.addAll(xs);
              return store.definitions();
            })
        .compose(
            defs -> {
              Future<Void> chain = Future.succeededFuture();
              for (SloStore.StoredDefinition d : defs) {
                SloDefinitions.Parsed p = SloDefinitions.parse(plain(d.body()));
                if (!p.isValid()) {
                  LOG.warn("stored SLO {} is no longer valid, skipped: {}", d.name(), p.errors());
                  continue;
                }
                Registered r = new Registered(p.definition(), "user", d.body());
                chain = chain.compose(v -> install(r));
              }
              return chain;
            });
  }

  /** Adds the default SLOs of every template in the latest snapshot that are not registered yet. */
  Future<Void> refreshDefaults() {
    try {
      return addDefaults();
    } catch (RuntimeException e) {
      LOG.warn("adding default SLOs failed: {}", e.toString());
      return Future.succeededFuture();
    }
  }

  private Future<Void> addDefaults() {
    FleetSnapshot snap = engine.snapshot();
    if (!settings.defaults() || snap == null) {
      return Future.succeededFuture();
    }
    Future<Void> chain = Future.succeededFuture();
    for (SliSnapshot t : snap.templates()) {
      List<Map<String, Object>> bodies =
          SloDefaults.bodies(
              t.key().namespace(), t.key().name(), settings.period(), settings.latencyThreshold());
      List<SloDefinition> defs =
          SloDefaults.forTemplate(
              t.key().namespace(), t.key().name(), settings.period(), settings.latencyThreshold());
      for (int i = 0; i < defs.size(); i++) {
        SloDefinition d = defs.get(i);
        if (registered.containsKey(d.name()) || installing.putIfAbsent(d.name(), true) != null) {
          continue;
        }
        Registered r = new Registered(d, "default", new JsonObject(bodies.get(i)));
        chain = chain.compose(v -> install(r)).onComplete(x -> installing.remove(d.name()));
      }
    }
    return chain.recover(
        e -> {
          LOG.warn("adding default SLOs failed: {}", e.getMessage());
          return Future.succeededFuture();
        });
  }

  /**
   * Registers {@code r}, puts it into the engine with its exclusions and re-feeds its stored
   * buckets.
   */
  private Future<Void> install(Registered r) {
    String name = r.definition().name();
    Registered prev = registered.put(name, r);
    if (prev != null && !"user".equals(prev.origin()) && "user".equals(r.origin())) {
      shadowed.put(name, prev);
    }
    List<BudgetExclusion> xs = new ArrayList<>();
    for (SloStore.StoredExclusion x : exclusions) {
      if (x.slo().equals(name)) {
        xs.add(new BudgetExclusion(x.from(), x.to(), x.reason(), x.author()));
      }
    }
    SloDefinition def = r.definition();
    return onEngine(
            e -> {
              e.putSlo(def);
              xs.forEach(x -> e.exclude(name, x));
              return e.ledger(name).coarseResolution();
            })
        .compose(
            coarse ->
                store == null
                    ? Future.succeededFuture(List.<SloLedger.Bucket>of())
                    : store.buckets(name, clock.instant().minus(def.period()).minus(coarse)))
        .compose(
            buckets ->
                onEngine(
                    e -> {
                      SloLedger l = e.ledger(name);
                      int n = 0;
                      if (l != null && l.definition() == def) {
                        for (SloLedger.Bucket b : buckets) {
                          n += l.restore(b) ? 1 : 0;
                        }
                      }
                      return n;
                    }))
        .onSuccess(
            n -> {
              if (n > 0) {
                MDC.put("slo", name);
                LOG.info("SLO {} ({}): {} stored budget buckets re-fed", name, r.origin(), n);
                MDC.remove("slo");
              }
            })
        .mapEmpty();
  }

  /**
   * Upserts the buckets that changed since the last write (plus one coarse width); nothing (0) on a
   * replica that does not lead.
   */
  public Future<Integer> persist() {
    if (store == null || !leadership.isLeader()) {
      return Future.succeededFuture(0);
    }
    Instant since = lastPersist;
    Instant now = clock.instant();
    List<String> names = new ArrayList<>(registered.keySet());
    return onEngine(
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
              Duration longest =
                  names.stream()
                      .map(registered::get)
                      .filter(java.util.Objects::nonNull)
                      .map(r -> r.definition().period())
                      .max(Duration::compareTo)
                      .orElse(settings.period());
              // rows older than every period (plus a day) are never read again
              return chain.compose(
                  n ->
                      store.pruneBuckets(now.minus(longest).minus(Duration.ofDays(1))).map(x -> n));
            })
        .onSuccess(n -> lastPersist = now)
        .onFailure(e -> LOG.warn("writing SLO budget history failed: {}", e.getMessage()));
  }

  // ---- API

  /** Every SLO as JSON, in name order. */
  public Future<JsonArray> list() {
    Map<String, SloStatus> statuses = published();
    List<String> names = new ArrayList<>(registered.keySet());
    names.sort(String::compareTo);
    // not yet published, or published for a definition since replaced: evaluate now
    List<String> missing =
        names.stream()
            .filter(
                n ->
                    !statuses.containsKey(n)
                        || registered.get(n) == null
                        || statuses.get(n).definition() != registered.get(n).definition())
            .toList();
    return evaluate(missing)
        .map(
            extra -> {
              JsonArray out = new JsonArray();
              for (String n : names) {
                SloStatus s = extra.containsKey(n) ? extra.get(n) : statuses.get(n);
                Registered r = registered.get(n);
                if (r != null && s != null) {
                  out.add(SloJson.slo(r, s, exclusionsOf(n)));
                }
              }
              return out;
            });
  }

  /** One SLO as JSON, evaluated now; 404 when unknown. */
  public Future<JsonObject> get(String name) {
    Registered r = registered.get(name);
    if (r == null) {
      return Future.failedFuture(ApiException.notFound("id", "no SLO named '" + name + "'"));
    }
    // evaluated now on the engine thread (one ledger is cheap), so a write is visible at once
    return evaluate(List.of(name))
        .map(
            m -> {
              SloStatus st = m.get(name);
              if (st == null) {
                throw ApiException.notFound("id", "no SLO named '" + name + "'");
              }
              return SloJson.slo(r, st, exclusionsOf(name));
            });
  }

  /**
   * Creates or replaces a user SLO from a JSON body in the console's shape.
   *
   * @return the SLO JSON; a failed Future with a 400 {@link ApiException} naming the first bad
   *     field (all of them in {@code errors} when more than one)
   */
  public Future<JsonObject> create(JsonObject body) {
    SloDefinitions.Parsed p = SloDefinitions.parse(plain(body));
    if (!p.isValid()) {
      return Future.failedFuture(badRequest(p.errors()));
    }
    Registered r = new Registered(p.definition(), "user", body);
    Future<Void> saved =
        store == null
            ? Future.succeededFuture()
            : store.putDefinition(p.definition().name(), body, null);
    return saved.compose(v -> install(r)).compose(v -> get(p.definition().name()));
  }

  /**
   * Deletes a user SLO (a file or default SLO it replaced comes back); 404 unknown, 409 not a user
   * SLO.
   */
  public Future<Void> delete(String name) {
    Registered r = registered.get(name);
    if (r == null) {
      return Future.failedFuture(ApiException.notFound("id", "no SLO named '" + name + "'"));
    }
    if (!"user".equals(r.origin())) {
      return Future.failedFuture(
          new ApiException(
              409,
              "conflict",
              "id",
              "SLO '"
                  + name
                  + "' is a "
                  + r.origin()
                  + " SLO; only user SLOs can be deleted (disable defaults with sloconsole.slo.defaults=false)"));
    }
    registered.remove(name);
    Registered back = shadowed.remove(name);
    Future<Boolean> del =
        store == null ? Future.succeededFuture(true) : store.deleteDefinition(name);
    return del.compose(x -> onEngine(e -> e.removeSlo(name)))
        .compose(x -> back == null ? Future.succeededFuture() : install(back))
        .mapEmpty();
  }

  /**
   * Adds an audited budget exclusion {@code {from, to, reason, author}} (RFC 3339 times).
   *
   * @return the exclusion JSON; 404 unknown SLO; 400 naming the bad field
   */
  public Future<JsonObject> exclude(String name, JsonObject body) {
    if (!registered.containsKey(name)) {
      return Future.failedFuture(ApiException.notFound("id", "no SLO named '" + name + "'"));
    }
    List<FieldError> errors = new ArrayList<>();
    Instant from = time(body, "from", errors);
    Instant to = time(body, "to", errors);
    String reason = text(body, "reason", errors);
    String author = text(body, "author", errors);
    for (String k : body.fieldNames()) {
      if (!List.of("from", "to", "reason", "author").contains(k)) {
        errors.add(new FieldError(k, "unknown field"));
      }
    }
    if (errors.isEmpty() && !to.isAfter(from)) {
      errors.add(new FieldError("to", "must be after from, got " + from + " .. " + to));
    }
    if (!errors.isEmpty()) {
      return Future.failedFuture(badRequest(errors));
    }
    BudgetExclusion x = new BudgetExclusion(from, to, reason, author);
    Future<SloStore.StoredExclusion> saved =
        store == null
            ? Future.succeededFuture(
                new SloStore.StoredExclusion(
                    exclusions.size() + 1, name, from, to, reason, author, clock.instant()))
            : store.addExclusion(name, from, to, reason, author);
    return saved.compose(
        s -> {
          exclusions.add(s);
          LOG.info(
              "budget exclusion on SLO {}: {} .. {} by {}: {}", name, from, to, author, reason);
          return onEngine(e -> e.exclude(name, x)).map(ok -> SloJson.exclusion(s));
        });
  }

  /** Registered SLOs (a copy). */
  public Map<String, Registered> registered() {
    return Map.copyOf(registered);
  }

  private List<SloStore.StoredExclusion> exclusionsOf(String name) {
    return exclusions.stream().filter(x -> x.slo().equals(name)).toList();
  }

  private Map<String, SloStatus> published() {
    Map<String, SloStatus> m = new LinkedHashMap<>();
    for (SloStatus s : engine.slos()) {
      m.put(s.definition().name(), s);
    }
    return m;
  }

  private Future<Map<String, SloStatus>> evaluate(List<String> names) {
    if (names.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    Instant now = clock.instant();
    return onEngine(
        e -> {
          Map<String, SloStatus> out = new LinkedHashMap<>();
          for (String n : names) {
            SloLedger l = e.ledger(n);
            if (l != null) {
              out.put(n, l.evaluate(now));
            }
          }
          return out;
        });
  }

  private <T> Future<T> onEngine(
      java.util.function.Function<org.sandboxslo.engine.FleetEngine, T> f) {
    return vertx.executeBlocking(() -> engine.call(f), false);
  }

  /** 400 naming the first bad field; further bad fields are appended to the reason. */
  static ApiException badRequest(List<FieldError> errors) {
    FieldError first = errors.get(0);
    StringBuilder reason = new StringBuilder(first.reason());
    if (errors.size() > 1) {
      reason.append(" (also: ");
      for (int i = 1; i < errors.size(); i++) {
        reason.append(i > 1 ? "; " : "").append(errors.get(i));
      }
      reason.append(')');
    }
    return ApiException.badRequest(first.field(), reason.toString());
  }

  private static Instant time(JsonObject body, String field, List<FieldError> errors) {
    Object v = body.getValue(field);
    if (!(v instanceof String s) || s.isBlank()) {
      errors.add(new FieldError(field, "is required (RFC 3339 time, e.g. 2026-09-01T02:00:00Z)"));
      return null;
    }
    try {
      return java.time.OffsetDateTime.parse(s).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      errors.add(
          new FieldError(
              field, "expected an RFC 3339 time like 2026-09-01T02:00:00Z, got '" + s + "'"));
      return null;
    }
  }

  private static String text(JsonObject body, String field, List<FieldError> errors) {
    Object v = body.getValue(field);
    if (!(v instanceof String s) || s.isBlank()) {
      errors.add(new FieldError(field, "is required (non-empty string)"));
      return null;
    }
    return s;
  }

  /** JsonObject/JsonArray → plain Map/List, recursively. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> plain(JsonObject o) {
    return (Map<String, Object>) plainValue(o);
  }

  private static Object plainValue(Object v) {
    if (v instanceof JsonObject o) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (String k : o.fieldNames()) {
        m.put(k, plainValue(o.getValue(k)));
      }
      return m;
    }
    if (v instanceof JsonArray a) {
      List<Object> l = new ArrayList<>();
      for (int i = 0; i < a.size(); i++) {
        l.add(plainValue(a.getValue(i)));
      }
      return l;
    }
    return v;
  }

  @Override
  public void close() {
    ATTACHED.remove(vertx, this);
    timers.forEach(vertx::cancelTimer);
    if (controllerView != null) {
      controllerView.close();
    }
  }

  /** Writes the history once more and detaches (call before closing the store). */
  public Future<Void> stop() {
    timers.forEach(vertx::cancelTimer);
    return persist()
        .<Void>mapEmpty()
        .recover(e -> Future.succeededFuture())
        .eventually(
            () -> {
              close();
              return Future.succeededFuture();
            });
  }

  static Duration duration(String s) {
    return org.sandboxslo.engine.time.Durations.parse("duration", s);
  }
}
