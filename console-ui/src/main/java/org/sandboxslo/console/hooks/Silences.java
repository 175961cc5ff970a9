package org.sandboxslo.console.hooks;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.remediation.PlanAction;
import org.sandboxslo.console.remediation.PlanListener;
import org.sandboxslo.console.remediation.PlanState;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.PlanRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Silences through Alertmanager's API v2 under the {@link SilencePolicy}, for the API, the web
 * console and chat, all audited in {@code remediation_audit} ({@code silence.create}, {@code
 * silence.expire}, refusals as {@code refused: ...}). Creating or expiring needs role {@code
 * operator} in the pinned namespace (cluster-wide for a template-only silence); listing needs
 * {@code viewer}.
 *
 * <p>Routes (bearer token as for plans; 503 without Alertmanager ({@code sloconsole.alertmanager
 * .url}) or remediation):
 *
 * <ul>
 *   <li>{@code GET /api/v1/silences?state=active|pending|expired|all} (default active and pending)
 *       → {@code {"items":[silence]}}
 *   <li>{@code POST /api/v1/silences} {@code {"matchers":[{name,value,isRegex?,isEqual?}] |
 *       "alertname=\"X\",namespace=\"y\"", "duration":"2h", "reason"}} → 201 silence
 *   <li>{@code DELETE /api/v1/silences/{id}} → 200 silence (expired)
 * </ul>
 *
 * Silence JSON: {@code {"id","state","matchers":["alertname=\"X\"",...],"startsAt","endsAt",
 * "createdBy","comment","plan"}} ({@code plan} = the plan id for a plan's own silence, else null).
 *
 * <p>While a plan executes, the alerts it is expected to trip on its subject ({@link
 * #expectedAlerts}) are silenced for its expected duration (steps × {@code
 * sloconsole.alertmanager.plan-step-duration}, at most {@code max-silence}); the silences are found
 * again by their comment ({@code plan <id>: ...}) and expired when the plan ends, also after a
 * restart of the console.
 */
public final class Silences {
  private static final Logger LOG = LoggerFactory.getLogger(Silences.class);
  private static final Pattern ID = Pattern.compile("[0-9A-Za-z-]{1,64}");
  static final String PLAN_PREFIX = "plan ";

  private final AlertmanagerClient am;
  private final AlertmanagerConfig config;
  private final Remediation remediation;
  private final Clock clock;

  /**
   * @param amOrNull the Alertmanager client, or null (every call fails 503)
   * @param remediationOrNull audit and callers, or null (every call fails 503)
   */
  public Silences(
      AlertmanagerClient amOrNull,
      AlertmanagerConfig config,
      Remediation remediationOrNull,
      Clock clock) {
    this.am = amOrNull;
    this.config = Objects.requireNonNull(config, "config");
    this.remediation = remediationOrNull;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Builds the service, registers its plan listener with the remediation service and mounts the
   * routes.
   *
   * @return the service (for chat)
   */
  public static Silences mount(
      Router router,
      Vertx vertx,
      AlertmanagerConfig config,
      Remediation remediationOrNull,
      Clock clock) {
    Silences s =
        new Silences(AlertmanagerClient.create(vertx, config), config, remediationOrNull, clock);
    if (remediationOrNull != null && s.am != null) {
      remediationOrNull.addListener(s.planListener());
    }
    router.get("/api/v1/silences").handler(s::list);
    router.post("/api/v1/silences").handler(JsonBody.reader(JsonBody.DEFAULT_LIMIT_BYTES));
    router.post("/api/v1/silences").handler(s::create);
    router.delete("/api/v1/silences/:id").handler(s::expire);
    return s;
  }

  /** Whether silences can be made (Alertmanager configured and remediation running). */
  public boolean available() {
    return am != null && remediation != null && remediation.running();
  }

  private void ready() {
    if (am == null) {
      throw ApiException.notReady(
          "silences need Alertmanager; set "
              + AlertmanagerConfig.URL
              + " (e.g. http://alertmanager:9093)");
    }
    if (remediation == null || !remediation.running()) {
      throw ApiException.notReady("silences need the remediation service (database, tokens)");
    }
  }

  /**
   * Creates a silence after the policy and role checks; audited either way.
   *
   * @param door how the request came, e.g. {@code api} or {@code slack team=T1 channel=C1 user=U1}
   * @return the silence JSON; fails with 400 (policy), 403 (role), 503, or Alertmanager's error
   */
  public Future<JsonObject> create(
      Caller c, List<SilenceMatcher> matchers, Duration duration, String reason, String door) {
    SilencePolicy.Checked s;
    try {
      ready();
      s =
          SilencePolicy.check(
              matchers, duration, reason, c.user(), config.maxSilence(), clock.instant());
      if (!c.has("operator", s.namespace())) {
        throw new ApiException(
            403,
            "forbidden",
            "role",
            "user "
                + c.user()
                + " lacks role operator"
                + (s.namespace() == null ? " (cluster-wide)" : " for namespace " + s.namespace())
                + ", which silencing requires");
      }
    } catch (ApiException e) {
      return refuse(c.user(), "silence.create", null, text(matchers) + " via " + door, reason, e);
    }
    String object = text(s.matchers()) + " via " + door;
    return gateway(am.createSilence(s.matchers(), s.startsAt(), s.endsAt(), s.author(), s.reason()))
        .compose(
            id ->
                remediation
                    .audit(
                        c.user(),
                        "silence.create",
                        null,
                        object,
                        s.reason(),
                        "ok: " + id + " until " + s.endsAt())
                    .map(x -> id))
        .compose(this::one);
  }

  /**
   * Expires a silence (role operator in its pinned namespace); audited.
   *
   * @return the silence JSON; fails with 400 (bad id), 404, 403, 503
   */
  public Future<JsonObject> expire(Caller c, String id, String door) {
    try {
      ready();
      if (id == null || !ID.matcher(id).matches()) {
        throw ApiException.badRequest("id", "expected a silence id (a UUID)");
      }
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    return gateway(am.silence(id))
        .compose(
            s -> {
              if (s == null) {
                return Future.failedFuture(ApiException.notFound("id", "no silence " + id));
              }
              String ns = pinnedNamespace(s);
              String object = "silence " + id + " " + text(matchers(s)) + " via " + door;
              if (!c.has("operator", ns)) {
                return refuse(
                    c.user(),
                    "silence.expire",
                    null,
                    object,
                    null,
                    new ApiException(
                        403,
                        "forbidden",
                        "role",
                        "user "
                            + c.user()
                            + " lacks role operator"
                            + (ns == null ? " (cluster-wide)" : " for namespace " + ns)));
              }
              return gateway(am.expire(id))
                  .compose(
                      x -> remediation.audit(c.user(), "silence.expire", null, object, null, "ok"))
                  .compose(x -> one(id));
            });
  }

  /**
   * The silences Alertmanager keeps whose namespace the caller may view.
   *
   * @param state {@code active}, {@code pending}, {@code expired}, or null for active and pending
   */
  public Future<List<JsonObject>> list(Caller c, String state) {
    try {
      ready();
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    return gateway(am.silences())
        .map(
            arr -> {
              List<JsonObject> out = new ArrayList<>();
              for (Object o : arr) {
                JsonObject s = (JsonObject) o;
                String st = s.getJsonObject("status", new JsonObject()).getString("state", "");
                boolean wanted =
                    state == null
                        ? st.equals("active") || st.equals("pending")
                        : state.equals("all") || st.equals(state);
                if (wanted && c.has("viewer", pinnedNamespace(s))) {
                  out.add(json(s));
                }
              }
              out.sort(
                  java.util.Comparator.comparing((JsonObject j) -> j.getString("endsAt"))
                      .reversed());
              return out;
            });
  }

  /** Alertmanager's failures as 502 naming it (never a 500). */
  private static <T> Future<T> gateway(Future<T> f) {
    return f.recover(
        e ->
            Future.failedFuture(
                e instanceof ApiException
                    ? e
                    : new ApiException(
                        502, "bad gateway", null, "Alertmanager: " + e.getMessage())));
  }

  private Future<JsonObject> one(String id) {
    return am.silence(id).map(s -> s == null ? new JsonObject().put("id", id) : json(s));
  }

  private <T> Future<T> refuse(
      String actor, String what, String plan, String object, String why, ApiException e) {
    Future<?> audited =
        remediation == null || e.status() == 503
            ? Future.succeededFuture()
            : remediation.audit(
                actor, what, plan, object, why, "refused: " + e.status() + " " + e.getMessage());
    return audited.transform(x -> Future.failedFuture(e));
  }

  static List<SilenceMatcher> matchers(JsonObject silence) {
    List<SilenceMatcher> out = new ArrayList<>();
    JsonArray ms = silence.getJsonArray("matchers", new JsonArray());
    for (int i = 0; i < ms.size(); i++) {
      try {
        out.add(SilenceMatcher.fromJson(ms.getValue(i), "matchers[" + i + "]"));
      } catch (ApiException e) {
        // a matcher we cannot read is shown as nothing
      }
    }
    return out;
  }

  static String pinnedNamespace(JsonObject silence) {
    return matchers(silence).stream()
        .filter(m -> m.pins("namespace"))
        .map(SilenceMatcher::value)
        .findFirst()
        .orElse(null);
  }

  static String text(List<SilenceMatcher> ms) {
    return ms == null
        ? "{}"
        : "{" + String.join(",", ms.stream().map(SilenceMatcher::toString).toList()) + "}";
  }

  /** The console's JSON of an API v2 silence. */
  static JsonObject json(JsonObject s) {
    String comment = s.getString("comment", "");
    String plan = null;
    if (comment.startsWith(PLAN_PREFIX) && comment.indexOf(':') > PLAN_PREFIX.length()) {
      plan = comment.substring(PLAN_PREFIX.length(), comment.indexOf(':'));
    }
    return new JsonObject()
        .put("id", s.getString("id"))
        .put("state", s.getJsonObject("status", new JsonObject()).getString("state"))
        .put("matchers", new JsonArray(matchers(s).stream().map(SilenceMatcher::toString).toList()))
        .put("startsAt", s.getString("startsAt"))
        .put("endsAt", s.getString("endsAt"))
        .put("createdBy", s.getString("createdBy"))
        .put("comment", comment)
        .put("plan", plan);
  }

  // ---- plan silences

  /**
   * The alerts (rule names of {@code alerts/sandbox-sli.rules.yml}) a plan is expected to trip on
   * the pools it changes while it runs, each as the matchers of one silence: a paced Recreate or a
   * switch to Recreate deletes members (the pool's Ready fraction dips: {@code WarmPoolDrained};
   * refill runs late: {@code WarmPoolRefillStalled}); a scale-up adds members that are not Ready
   * yet; a shard creates pools that start empty. Other actions trip none.
   */
  static List<List<SilenceMatcher>> expectedAlerts(PlanRow p) {
    PlanAction action = PlanAction.of(p.action());
    String subject = p.subject();
    int slash = subject.indexOf('/');
    if (slash <= 0) {
      return List.of();
    }
    String ns = subject.substring(0, slash);
    String pool = subject.substring(slash + 1);
    List<String> pools = new ArrayList<>();
    List<String> alerts = new ArrayList<>();
    switch (action) {
      case PACED_RECREATE -> {
        pools.add(pool);
        alerts.addAll(List.of("WarmPoolDrained", "WarmPoolRefillStalled"));
      }
      case SET_UPDATE_STRATEGY -> {
        if (p.dryRun().getBoolean("destructive", false)) {
          pools.add(pool);
          alerts.addAll(List.of("WarmPoolDrained", "WarmPoolRefillStalled"));
        }
      }
      case SCALE_POOL -> {
        JsonObject replicas =
            p.dryRun().getJsonObject("predicted", new JsonObject()).getJsonObject("replicas");
        if (replicas != null
            && replicas.getInteger("after", 0) > replicas.getInteger("before", 0)) {
          pools.add(pool);
          alerts.add("WarmPoolDrained");
        }
      }
      case SHARD_POOL -> {
        int shards = p.dryRun().getJsonObject("predicted", new JsonObject()).getInteger("pools", 1);
        for (int i = 1; i < shards; i++) {
          pools.add(pool + "-shard-" + i);
        }
        alerts.add("WarmPoolDrained");
      }
      default -> {
        // SetRefillPacing, DeleteExpiredClaims: nothing expected to fire
      }
    }
    List<List<SilenceMatcher>> out = new ArrayList<>();
    for (String a : alerts) {
      for (String pl : pools) {
        out.add(
            List.of(
                SilenceMatcher.eq("alertname", a),
                SilenceMatcher.eq("namespace", ns),
                SilenceMatcher.eq("warmpool_name", pl)));
      }
    }
    return out;
  }

  /** Expected duration: steps (surge and restore included) × the step duration, ≤ max-silence. */
  Duration expectedDuration(PlanRow p) {
    int steps = p.dryRun().getJsonArray("steps", new JsonArray()).size();
    if (p.dryRun().getInteger("surge", 0) > 0) {
      steps++; // the restore after the last batch
    }
    Duration d = config.planStepDuration().multipliedBy(Math.max(1, steps));
    return d.compareTo(config.maxSilence()) > 0 ? config.maxSilence() : d;
  }

  /** The listener that silences while a plan executes. */
  PlanListener planListener() {
    return new PlanListener() {
      @Override
      public void executing(PlanRow p) {
        silencePlan(p)
            .onFailure(
                e -> LOG.warn("plan {}: expected alerts not silenced: {}", p.id(), e.getMessage()));
      }

      @Override
      public void finished(PlanRow p, PlanState state) {
        expirePlan(p, state)
            .onFailure(e -> LOG.warn("plan {}: silences not expired: {}", p.id(), e.getMessage()));
      }
    };
  }

  /** Creates the plan's silences; the Future carries their ids. */
  Future<List<String>> silencePlan(PlanRow p) {
    if (!available()) {
      return Future.succeededFuture(List.of());
    }
    Duration d = expectedDuration(p);
    String author = p.executedBy() == null ? "executor" : p.executedBy();
    String comment =
        PLAN_PREFIX
            + p.id()
            + ": "
            + p.action()
            + " "
            + p.subject()
            + " is executing (expected for about "
            + Durations.format(d)
            + "); expired when the plan ends";
    List<Future<String>> created = new ArrayList<>();
    for (List<SilenceMatcher> ms : expectedAlerts(p)) {
      SilencePolicy.Checked s =
          SilencePolicy.check(ms, d, comment, author, config.maxSilence(), clock.instant());
      created.add(
          am.createSilence(s.matchers(), s.startsAt(), s.endsAt(), s.author(), s.reason())
              .compose(
                  id ->
                      remediation
                          .audit(
                              author,
                              "silence.create",
                              p.id(),
                              text(ms) + " via plan",
                              comment,
                              "ok: " + id + " until " + s.endsAt())
                          .map(id)));
    }
    return Future.all(created).map(cf -> cf.<String>list());
  }

  /** Expires every unexpired silence of the plan (found by its comment); ids expired. */
  Future<List<String>> expirePlan(PlanRow p, PlanState state) {
    if (!available()) {
      return Future.succeededFuture(List.of());
    }
    String prefix = PLAN_PREFIX + p.id() + ":";
    return am.silences()
        .compose(
            arr -> {
              List<Future<String>> expired = new ArrayList<>();
              for (Object o : arr) {
                JsonObject s = (JsonObject) o;
                String st = s.getJsonObject("status", new JsonObject()).getString("state", "");
                if (s.getString("comment", "").startsWith(prefix) && !st.equals("expired")) {
                  String id = s.getString("id");
                  expired.add(
                      am.expire(id)
                          .compose(
                              x ->
                                  remediation.audit(
                                      "executor",
                                      "silence.expire",
                                      p.id(),
                                      "silence " + id + " " + text(matchers(s)) + " via plan",
                                      "plan " + state,
                                      "ok"))
                          .map(id));
                }
              }
              return Future.all(expired).map(cf -> cf.<String>list());
            });
  }

  // ---- routes

  private Caller caller(RoutingContext ctx) {
    ready();
    return org.sandboxslo.console.auth.ConsoleAuth.caller(ctx);
  }

  private void list(RoutingContext ctx) {
    String state = ctx.request().getParam("state");
    if (state != null && !List.of("active", "pending", "expired", "all").contains(state)) {
      throw ApiException.badRequest(
          "state", "unknown state '" + state + "'; known: active, pending, expired, all");
    }
    reply(
        ctx,
        200,
        list(caller(ctx), state).map(l -> new JsonObject().put("items", new JsonArray(l))));
  }

  private void create(RoutingContext ctx) {
    Caller c = caller(ctx);
    JsonObject body = JsonBody.object(ctx, "a silence {\"matchers\",\"duration\",\"reason\"}");
    Object raw = body.getValue("matchers");
    List<SilenceMatcher> ms = new ArrayList<>();
    if (raw instanceof String text) {
      ms.addAll(SilenceMatcher.parseList(text, "matchers"));
    } else if (raw instanceof JsonArray arr) {
      for (int i = 0; i < arr.size(); i++) {
        ms.add(SilenceMatcher.fromJson(arr.getValue(i), "matchers[" + i + "]"));
      }
    } else {
      throw ApiException.badRequest(
          "matchers",
          "expected a list of {name,value,isRegex,isEqual} or a text like alertname=\"X\",namespace=\"y\"");
    }
    if (!(body.getValue("duration") instanceof String d)) {
      throw ApiException.badRequest("duration", "expected a duration such as 30m or 2h");
    }
    Duration duration;
    try {
      duration = Durations.parse("duration", d);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("duration", e.getMessage());
    }
    Object reason = body.getValue("reason");
    if (reason != null && !(reason instanceof String)) {
      throw ApiException.badRequest("reason", "expected a string");
    }
    reply(ctx, 201, create(c, ms, duration, (String) reason, "api"));
  }

  private void expire(RoutingContext ctx) {
    reply(ctx, 200, expire(caller(ctx), ctx.pathParam("id"), "api"));
  }

  private static void reply(RoutingContext ctx, int status, Future<JsonObject> f) {
    f.onSuccess(
            j ->
                ctx.response()
                    .setStatusCode(status)
                    .putHeader("Content-Type", "application/json")
                    .end(j.encode()))
        .onFailure(ctx::fail);
  }

  /** The current instant of the service clock. */
  Instant now() {
    return clock.instant();
  }
}
