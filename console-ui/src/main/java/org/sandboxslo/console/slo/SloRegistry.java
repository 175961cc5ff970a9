package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.engine.EngineLoop;
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
 * The SLO registry: which SLOs the engine evaluates, where each came from ({@link SloOrigin}), and
 * their budget exclusions.
 *
 * <ul>
 *   <li>Defaults ({@link SloDefaults}) are added for every template in the latest snapshot ({@link
 *       #refreshDefaults}, called by {@link SloRegistryVerticle} on its timer), unless a file or
 *       user SLO has the same name.
 *   <li>File SLOs and stored user SLOs are installed at start; a user SLO replaces a file or
 *       default SLO of the same name, and deleting it brings the replaced one back with its budget
 *       history (buckets are stored per {@link org.sandboxslo.store.BudgetOwner}).
 *   <li>Installing an SLO puts it into the engine with its exclusions and re-feeds its stored
 *       buckets ({@link SloHistory#restore}).
 * </ul>
 *
 * Engine work goes through {@link EngineLoop#call} (a Future; no thread waits). Every method
 * returns a Future failing with an {@link ApiException} (400 naming the first bad field, 404, 409)
 * for a refused request. Thread-safe.
 */
public final class SloRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(SloRegistry.class);

  private final SloSettings settings;
  private final EngineLoop engine;
  private final SloStore store;
  private final SloHistory history;
  private final Clock clock;
  private final Map<String, RegisteredSlo> registered = new ConcurrentHashMap<>();
  private final Map<String, RegisteredSlo> shadowed = new ConcurrentHashMap<>();
  private final List<SloStore.StoredExclusion> exclusions = new CopyOnWriteArrayList<>();
  private final Map<String, Boolean> installing = new ConcurrentHashMap<>();

  /**
   * @param storeOrNull where user SLOs and exclusions are stored; null keeps them in memory
   * @param history the budget history re-fed at every install
   */
  public SloRegistry(
      SloSettings settings,
      EngineLoop engine,
      SloStore storeOrNull,
      SloHistory history,
      Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.store = storeOrNull;
    this.history = Objects.requireNonNull(history, "history");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public SloSettings settings() {
    return settings;
  }

  /** Installs the SLOs of loaded files (origin {@code file}); bad documents are logged. */
  Future<Void> installFiles(SloFiles.Loaded l) {
    l.errors().forEach(e -> LOG.warn("SLO file: {}", e));
    l.notices().forEach(n -> LOG.info("SLO file: {}", n));
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < l.definitions().size(); i++) {
      RegisteredSlo r =
          new RegisteredSlo(
              l.definitions().get(i), SloOrigin.FILE, new JsonObject(l.bodies().get(i)));
      chain = chain.compose(v -> install(r));
    }
    return chain;
  }

  /** Installs the stored user SLOs and reads the stored exclusions; fails when the store fails. */
  Future<Void> installStored() {
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
                RegisteredSlo r = new RegisteredSlo(p.definition(), SloOrigin.USER, d.body());
                chain = chain.compose(v -> install(r));
              }
              return chain;
            });
  }

  /**
   * Adds the default SLOs of every template in the latest snapshot that are not registered yet.
   * Never fails: a failure is logged at WARN and retried on the next call.
   */
  public Future<Void> refreshDefaults() {
    try {
      return addDefaults()
          .recover(
              e -> {
                LOG.warn("adding default SLOs failed: {}", e.getMessage());
                return Future.succeededFuture();
              });
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
      String ns = t.key().namespace();
      String tpl = t.key().name();
      List<Map<String, Object>> bodies =
          SloDefaults.bodies(ns, tpl, settings.period(), settings.latencyThreshold());
      List<SloDefinition> defs =
          SloDefaults.forTemplate(ns, tpl, settings.period(), settings.latencyThreshold());
      for (int i = 0; i < defs.size(); i++) {
        SloDefinition d = defs.get(i);
        if (registered.containsKey(d.name()) || installing.putIfAbsent(d.name(), true) != null) {
          continue;
        }
        RegisteredSlo r = new RegisteredSlo(d, SloOrigin.DEFAULT, new JsonObject(bodies.get(i)));
        chain = chain.compose(v -> install(r)).onComplete(x -> installing.remove(d.name()));
      }
    }
    return chain;
  }

  /**
   * Registers {@code r}, puts it into the engine with its exclusions and re-feeds its stored
   * buckets.
   */
  private Future<Void> install(RegisteredSlo r) {
    String name = r.name();
    RegisteredSlo prev = registered.put(name, r);
    if (prev != null && prev.origin() != SloOrigin.USER && r.origin() == SloOrigin.USER) {
      shadowed.put(name, prev);
    }
    List<BudgetExclusion> xs =
        exclusionsOf(name).stream()
            .map(x -> new BudgetExclusion(x.from(), x.to(), x.reason(), x.author()))
            .toList();
    SloDefinition def = r.definition();
    return engine
        .call(
            e -> {
              e.putSlo(def);
              xs.forEach(x -> e.exclude(name, x));
              return e.ledger(name).coarseResolution();
            })
        .compose(coarse -> history.restore(def, r.origin(), coarse))
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

  /** Every SLO with its status, in name order. */
  public Future<List<SloReport>> list() {
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
              List<SloReport> out = new ArrayList<>();
              for (String n : names) {
                SloStatus s = extra.containsKey(n) ? extra.get(n) : statuses.get(n);
                RegisteredSlo r = registered.get(n);
                if (r != null && s != null) {
                  out.add(new SloReport(r, s, exclusionsOf(n)));
                }
              }
              return out;
            });
  }

  /** One SLO, evaluated now (so a write is visible at once); 404 when unknown. */
  public Future<SloReport> get(String name) {
    RegisteredSlo r = registered.get(name);
    if (r == null) {
      return Future.failedFuture(unknown(name));
    }
    return evaluate(List.of(name))
        .map(
            m -> {
              SloStatus st = m.get(name);
              if (st == null) {
                throw unknown(name);
              }
              return new SloReport(r, st, exclusionsOf(name));
            });
  }

  private static ApiException unknown(String name) {
    return ApiException.notFound("id", "no SLO named '" + name + "'");
  }

  /**
   * Creates or replaces a user SLO from a JSON body in the console's shape.
   *
   * @return the SLO; a failed Future with a 400 {@link ApiException} naming the first bad field
   *     (further ones appended to the reason)
   */
  public Future<SloReport> create(JsonObject body) {
    SloDefinitions.Parsed p = SloDefinitions.parse(plain(body));
    if (!p.isValid()) {
      return Future.failedFuture(badRequest(p.errors()));
    }
    RegisteredSlo r = new RegisteredSlo(p.definition(), SloOrigin.USER, body);
    RegisteredSlo replaced = registered.get(r.name());
    Future<Void> saved =
        store == null
            ? Future.succeededFuture()
            : store.putDefinition(p.definition().name(), body, null);
    // the replaced default or file SLO's latest buckets are written first: it gets them back when
    // the override is deleted
    Future<Integer> kept =
        replaced == null || replaced.origin() == SloOrigin.USER
            ? Future.succeededFuture(0)
            : history.persistAll(replaced);
    return kept.compose(n -> saved)
        .compose(v -> install(r))
        .compose(v -> get(p.definition().name()));
  }

  /**
   * Deletes a user SLO (a file or default SLO it replaced comes back); 404 unknown, 409 not a user
   * SLO.
   */
  public Future<Void> delete(String name) {
    RegisteredSlo r = registered.get(name);
    if (r == null) {
      return Future.failedFuture(unknown(name));
    }
    if (r.origin() != SloOrigin.USER) {
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
    RegisteredSlo back = shadowed.remove(name);
    Future<Boolean> del =
        store == null ? Future.succeededFuture(true) : store.deleteDefinition(name);
    return del.compose(x -> engine.call(e -> e.removeSlo(name)))
        .compose(x -> back == null ? Future.succeededFuture() : install(back))
        .mapEmpty();
  }

  /**
   * Adds an audited budget exclusion {@code {from, to, reason, author}} (RFC 3339 times).
   *
   * @return the stored exclusion; 404 unknown SLO; 400 naming the bad field
   */
  public Future<SloStore.StoredExclusion> exclude(String name, JsonObject body) {
    if (!registered.containsKey(name)) {
      return Future.failedFuture(unknown(name));
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
          return engine.call(e -> e.exclude(name, x)).map(ok -> s);
        });
  }

  /** Registered SLOs by name (a copy). */
  public Map<String, RegisteredSlo> registered() {
    return Map.copyOf(registered);
  }

  /** The definitions of the registered SLOs (a copy). */
  public List<SloDefinition> definitions() {
    return registered.values().stream().map(RegisteredSlo::definition).toList();
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
    return engine.call(
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
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
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
}
