package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
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
import org.sandboxslo.console.api.Deadline;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.auth.ConsoleAuth;
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
  private final List<LoadError> loadErrors = new CopyOnWriteArrayList<>();
  private final java.util.concurrent.atomic.AtomicLong memoryIds =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * A stored SLO that could not be loaded at start: skipped, shown on {@code /api/v1/status}.
   *
   * @param slo the stored name
   * @param reason one line: which field is wrong and why
   */
  public record LoadError(String slo, String reason) {}

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
                String error = d.error();
                SloDefinitions.Parsed p = null;
                if (error == null) {
                  p = SloDefinitions.parse(plain(d.body()));
                  if (!p.isValid()) {
                    error = String.valueOf(p.errors());
                  } else if (!p.definition().name().equals(d.name())) {
                    error = "the stored body names SLO '" + p.definition().name() + "'";
                  }
                }
                if (error != null) {
                  skip(d.name(), error);
                  continue;
                }
                RegisteredSlo r = new RegisteredSlo(p.definition(), SloOrigin.USER, d.body());
                chain =
                    chain.compose(
                        v ->
                            install(r)
                                .recover(
                                    e -> {
                                      registered.remove(r.name(), r);
                                      skip(r.name(), "could not be installed: " + e.getMessage());
                                      return Future.succeededFuture();
                                    }));
              }
              return chain;
            });
  }

  private void skip(String name, String reason) {
    loadErrors.add(new LoadError(name, reason));
    MDC.put("slo", name);
    LOG.error("stored SLO {} skipped: {}", name, reason);
    MDC.remove("slo");
  }

  /** The stored SLOs skipped at start (empty when every one loaded). */
  public List<LoadError> loadErrors() {
    return List.copyOf(loadErrors);
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
   * Creates or replaces a user SLO from a JSON body in the console's shape, as {@code caller} (role
   * {@code slo-owner} for the SLO's namespace, and for the namespace of the SLO it replaces);
   * audited {@code slo.create} before and after the change.
   *
   * @return the SLO; a failed Future with a 400 {@link ApiException} naming the first bad field
   *     (further ones appended to the reason), 403 naming the role
   */
  public Future<SloReport> create(Caller caller, JsonObject body) {
    return create(caller, body, Deadline.NONE);
  }

  /** As above; the change is not applied once {@code deadline} has passed (503). */
  public Future<SloReport> create(Caller caller, JsonObject body, Deadline deadline) {
    SloDefinitions.Parsed p = SloDefinitions.parse(plain(body));
    if (!p.isValid()) {
      return Future.failedFuture(badRequest(p.errors()));
    }
    String name = p.definition().name();
    try {
      ConsoleAuth.requireRole(
          caller, "slo-owner", p.definition().namespace(), "creating SLO " + name);
      RegisteredSlo existing = registered.get(name);
      if (existing != null) {
        ConsoleAuth.requireRole(
            caller, "slo-owner", existing.definition().namespace(), "replacing SLO " + name);
      }
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    RegisteredSlo r = new RegisteredSlo(p.definition(), SloOrigin.USER, body);
    String what = registered.containsKey(name) ? "slo.replace" : "slo.create";
    String why = body.getString("description");
    RegisteredSlo replaced = registered.get(name);
    return audit(caller, what, name, why, "intent")
        .compose(
            v -> {
              deadline.check("storing SLO " + name);
              // the replaced default or file SLO's latest buckets are written first: it gets them
              // back when the override is deleted
              return replaced == null || replaced.origin() == SloOrigin.USER
                  ? Future.succeededFuture(0)
                  : history.persistAll(replaced);
            })
        .compose(
            n ->
                store == null
                    ? Future.<Void>succeededFuture()
                    : store.putDefinition(name, body, caller.user()))
        .compose(v -> install(r))
        .compose(v -> audit(caller, what, name, why, "ok"))
        .compose(v -> get(name));
  }

  private static Throwable deadlineFailure(Deadline d, String name) {
    try {
      d.check("adding a budget exclusion to SLO " + name);
      return new IllegalStateException("deadline");
    } catch (ApiException e) {
      return e;
    }
  }

  /** Audits one SLO change in {@code remediation_audit} (memory mode: the log). */
  private Future<Void> audit(Caller c, String what, String slo, String why, String result) {
    MDC.put("slo", slo);
    LOG.info("{} SLO {} by {}: {}", what, slo, c.user(), result);
    MDC.remove("slo");
    if (store == null) {
      return Future.succeededFuture();
    }
    return store.audit(c.user(), what, "SLO " + slo, why, result, clock.instant()).mapEmpty();
  }

  /**
   * Deletes a user SLO (a file or default SLO it replaced comes back), as {@code caller} (role
   * {@code slo-owner} for its namespace; audited {@code slo.delete}); 404 unknown, 403, 409 not a
   * user SLO.
   */
  public Future<Void> delete(Caller caller, String name) {
    RegisteredSlo r = registered.get(name);
    if (r == null) {
      return Future.failedFuture(unknown(name));
    }
    try {
      ConsoleAuth.requireRole(
          caller, "slo-owner", r.definition().namespace(), "deleting SLO " + name);
    } catch (ApiException e) {
      return Future.failedFuture(e);
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
    return audit(caller, "slo.delete", name, null, "intent")
        .compose(
            v -> {
              registered.remove(name);
              RegisteredSlo back = shadowed.remove(name);
              Future<Boolean> del =
                  store == null ? Future.succeededFuture(true) : store.deleteDefinition(name);
              return del.compose(x -> engine.call(e -> e.removeSlo(name)))
                  .compose(x -> back == null ? Future.succeededFuture() : install(back));
            })
        .compose(v -> audit(caller, "slo.delete", name, null, "ok"));
  }

  /**
   * Adds an audited budget exclusion {@code {from, to, reason}} (RFC 3339 times) as {@code caller}
   * (role {@code slo-owner} for the SLO's namespace); the author is the caller ({@code author}, if
   * given, must be the caller's own name).
   *
   * @return the stored exclusion; 404 unknown SLO; 403; 400 naming the bad field
   */
  public Future<SloStore.StoredExclusion> exclude(Caller caller, String name, JsonObject body) {
    return exclude(caller, name, body, Deadline.NONE);
  }

  /** As above; the exclusion is not stored once {@code deadline} has passed (503). */
  public Future<SloStore.StoredExclusion> exclude(
      Caller caller, String name, JsonObject body, Deadline deadline) {
    RegisteredSlo slo = registered.get(name);
    if (slo == null) {
      return Future.failedFuture(unknown(name));
    }
    try {
      ConsoleAuth.requireRole(
          caller,
          "slo-owner",
          slo.definition().namespace(),
          "adding a budget exclusion to SLO " + name);
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    List<FieldError> errors = new ArrayList<>();
    Instant from = time(body, "from", errors);
    Instant to = time(body, "to", errors);
    String reason = text(body, "reason", errors);
    String author = caller.user();
    Object declared = body.getValue("author");
    if (declared != null && !author.equals(declared)) {
      errors.add(
          new FieldError(
              "author",
              "is the signed-in caller ("
                  + author
                  + "); omit it instead of declaring someone else"));
    }
    if (reason != null && reason.length() > 1024) {
      errors.add(new FieldError("reason", "must be at most 1024 characters"));
    }
    if (from != null
        && to != null
        && Duration.between(from, to).compareTo(SloDefinitions.MAX_PERIOD) > 0) {
      errors.add(
          new FieldError(
              "to", "an exclusion may span at most " + SloDefinitions.MAX_PERIOD.toDays() + "d"));
    }
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
    String object = from + " .. " + to;
    return audit(caller, "slo.exclude", name, reason + " (" + object + ")", "intent")
        .compose(
            v ->
                deadline.expired()
                    ? Future.failedFuture(deadlineFailure(deadline, name))
                    : store == null
                        ? Future.succeededFuture(
                            new SloStore.StoredExclusion(
                                memoryIds.incrementAndGet(),
                                name,
                                from,
                                to,
                                reason,
                                author,
                                clock.instant()))
                        : store.addExclusion(name, from, to, reason, author))
        .compose(
            s -> {
              exclusions.add(s);
              return engine.call(e -> e.exclude(name, x)).map(ok -> s);
            })
        .compose(
            s ->
                audit(
                        caller,
                        "slo.exclude",
                        name,
                        reason + " (exclusion " + s.id() + ", " + object + ")",
                        "ok")
                    .map(s));
  }

  /**
   * Revokes a budget exclusion of SLO {@code name} as {@code caller} (role {@code slo-owner} for
   * the SLO's namespace): its events count again; the stored row keeps who added it and gets who
   * revoked it; audited {@code slo.exclusion.revoke}.
   *
   * @param reasonOrNull why, or null
   * @return the revoked exclusion; 404 for an unknown SLO or exclusion (or one already revoked),
   *     403
   */
  public Future<SloStore.StoredExclusion> revokeExclusion(
      Caller caller, String name, long id, String reasonOrNull) {
    RegisteredSlo slo = registered.get(name);
    if (slo == null) {
      return Future.failedFuture(unknown(name));
    }
    try {
      ConsoleAuth.requireRole(
          caller,
          "slo-owner",
          slo.definition().namespace(),
          "revoking a budget exclusion of SLO " + name);
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    SloStore.StoredExclusion x =
        exclusions.stream()
            .filter(e -> e.id() == id && e.slo().equals(name))
            .findFirst()
            .orElse(null);
    if (x == null) {
      return Future.failedFuture(
          ApiException.notFound(
              "exclusionId", "SLO '" + name + "' has no active budget exclusion " + id));
    }
    String why = (reasonOrNull == null ? "revoked" : reasonOrNull) + " (exclusion " + id + ")";
    return audit(caller, "slo.exclusion.revoke", name, why, "intent")
        .compose(
            v ->
                store == null
                    ? Future.succeededFuture(true)
                    : store.revokeExclusion(id, name, caller.user(), reasonOrNull, clock.instant()))
        .compose(
            ok -> {
              if (!ok) {
                throw ApiException.notFound(
                    "exclusionId", "budget exclusion " + id + " was already revoked");
              }
              exclusions.remove(x);
              BudgetExclusion b = new BudgetExclusion(x.from(), x.to(), x.reason(), x.author());
              return engine.call(e -> e.revokeExclusion(name, b));
            })
        .compose(v -> audit(caller, "slo.exclusion.revoke", name, why, "ok"))
        .map(x);
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
