package org.sandboxslo.console;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Deadline;
import org.sandboxslo.console.api.DropCounter;
import org.sandboxslo.console.api.HttpGuards;
import org.sandboxslo.console.api.IdempotencyHandler;
import org.sandboxslo.console.api.IdempotencyKeys;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.console.api.SnapshotJson;
import org.sandboxslo.console.auth.ConsoleAuth;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.hooks.AlertmanagerHook;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.console.remediation.RemediationRoutes;
import org.sandboxslo.console.slo.SloRoutes;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.Scope;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.HistoryPoint;
import org.sandboxslo.store.SliName;
import org.sandboxslo.store.SliStore;
import org.sandboxslo.store.StoreErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console HTTP server on {@code sloconsole.http.host}:{@code sloconsole.http.port}. Routes
 * (JSON unless noted; shapes in {@link SnapshotJson} and {@code openapi.yaml}):
 *
 * <ul>
 *   <li>{@code GET /api/v1/templates}, {@code /api/v1/pools}, {@code /api/v1/namespaces}: {@code
 *       {"at","synced","items":[...]}}; 503 {@code {"error":"not ready"}} before the first snapshot
 *   <li>{@code GET /api/v1/templates/{ns}/{name}}, {@code /api/v1/pools/{ns}/{name}}: one item; 404
 *       {@code {"error":"not found","field":"name","reason":"no SandboxTemplate demo/x is known"}}
 *   <li>{@code GET /api/v1/{templates|pools}/{ns}/{name}/history?sli=&window=&from=&to=}: stored
 *       values, {@code {"namespace","name","sli","window","from","to","points":[{"at","value"}]}};
 *       400 naming the bad field; 503 without a store
 *   <li>{@code GET /api/v1/status}: informer sync and watch lag per kind, ingest errors, store
 *       rows, leader election ({@code leader.isLeader}, {@code identity}, {@code holder})
 *   <li>{@code GET /api/v1/stream}: Server-Sent Events, {@code event: snapshot} with the templates
 *       JSON every {@code sloconsole.http.stream-interval}
 *   <li>{@code GET /api/v1/openapi.yaml}: the OpenAPI 3 description
 *   <li>{@code POST /hooks/alertmanager}: the Alertmanager webhook; {@link ConsoleAuth} admits only
 *       the webhook secret ({@code sloconsole.alertmanager.webhook-token}, Bearer or the Basic
 *       password); {@code GET /api/v1/alerts}, {@code /api/v1/alert-groups}, {@code
 *       /api/v1/incidents}; {@code GET/POST /api/v1/silences}, {@code DELETE /api/v1/silences/{id}}
 *   <li>{@code POST /chatops/slack}, {@code /chatops/slack/actions}: signed Slack requests, when
 *       {@code sloconsole.chatops.slack.signing-secret} is set (else 404); outside {@code /api/}
 *       and {@code /hooks/}, so {@link ConsoleAuth} and the Idempotency-Key store pass them to the
 *       chat door, which checks the Slack signature and its own replay window (Slack's retries
 *       carry {@code X-Slack-Retry-Num}, not an Idempotency-Key)
 *   <li>{@code /healthz}, {@code /readyz}, {@code /metrics}: as on the management port
 *   <li>{@code /}: the web console ({@code webroot/})
 * </ul>
 *
 * Every failure is answered with JSON {@code {"error","field"?,"reason"}} and a 4xx/5xx status,
 * never a stack trace; a database that is down or frozen gives 503 {@code {"error":"database
 * unavailable"}} with {@code Retry-After} (see {@link StoreErrors#unavailable}). The start Future
 * fails when the port cannot be bound.
 */
public final class ConsoleVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(ConsoleVerticle.class);
  private static final Duration DEFAULT_HISTORY = Duration.ofHours(1);
  private static final Buffer OPENAPI = resource("openapi.yaml");

  private final ConsoleConfig config;
  private final ConsoleSources sources;
  private final SliStore store;
  private final PrometheusRegistry registry;
  private final Clock clock;
  private final SloRoutes slos;
  private final RemediationRoutes remediation;
  private final AlertmanagerHook alertmanager;
  private final org.sandboxslo.console.remediation.Remediation remediationService;
  private final org.sandboxslo.console.slo.SloRegistry sloRegistry;
  private final ConsoleAuth auth;
  private final DropCounter drops;
  private final IdempotencyKeys idempotencyKeys;
  private long pruneTimer = -1;
  private final Deque<HttpServerResponse> streams = new ArrayDeque<>();
  private final java.util.function.Supplier<org.sandboxslo.store.DatabaseStatus> database;
  private volatile HttpServer server;

  /** Channel notifications; set in {@link #router()} when a notify URL is configured. */
  private volatile org.sandboxslo.console.chatops.ChannelNotifier notifier;

  /**
   * @param config ports, host, stream interval
   * @param sources the latest snapshot, ingest errors and readiness
   * @param storeOrNull the SLI store; {@code null} disables history (503) and the row count
   * @param registry served at {@code /metrics}
   */
  public ConsoleVerticle(
      ConsoleConfig config,
      ConsoleSources sources,
      SliStore storeOrNull,
      PrometheusRegistry registry) {
    this(config, sources, storeOrNull, registry, ConsoleServices.none());
  }

  /** As above, with the SLO and remediation services to mount. */
  public ConsoleVerticle(
      ConsoleConfig config,
      ConsoleSources sources,
      SliStore storeOrNull,
      PrometheusRegistry registry,
      ConsoleServices services) {
    this(config, sources, storeOrNull, registry, services, Clock.systemUTC());
  }

  /** As above, with the clock used for the default history range. */
  public ConsoleVerticle(
      ConsoleConfig config,
      ConsoleSources sources,
      SliStore storeOrNull,
      PrometheusRegistry registry,
      ConsoleServices services,
      Clock clock) {
    this(config, sources, storeOrNull, registry, services, clock, DropCounter.NONE);
  }

  /** As above, counting what the caps drop ({@code sandbox_slo_dropped_total}). */
  public ConsoleVerticle(
      ConsoleConfig config,
      ConsoleSources sources,
      SliStore storeOrNull,
      PrometheusRegistry registry,
      ConsoleServices services,
      Clock clock,
      DropCounter drops) {
    this.config = Objects.requireNonNull(config, "config");
    this.sources = Objects.requireNonNull(sources, "sources");
    this.store = storeOrNull;
    this.registry = Objects.requireNonNull(registry, "registry");
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(services, "services");
    this.slos = new SloRoutes(services.slos(), services.controllerView());
    this.remediation = new RemediationRoutes(services.remediation());
    this.remediationService = services.remediation();
    this.sloRegistry = services.slos();
    this.auth = services.auth();
    this.drops = Objects.requireNonNull(drops, "drops");
    java.util.function.Function<List<org.sandboxslo.store.IncidentRow>, Future<?>> persist =
        org.sandboxslo.console.routes.IncidentRoutes.persister(storeOrNull);
    this.alertmanager =
        new AlertmanagerHook(
            config.chatops().notifyUrl() == null
                ? persist
                : rows ->
                    (persist == null ? Future.succeededFuture() : persist.apply(rows))
                        .onSuccess(x -> notifier.incidents(rows)),
            drops);
    this.idempotencyKeys =
        services.idempotencyOrNull() != null
            ? services.idempotencyOrNull()
            : IdempotencyKeys.inMemory(ConsoleServices.MEMORY_KEYS, drops);
    this.database = services.database();
  }

  private volatile Leadership leadership = Leadership.ALWAYS;

  /** Sets who leads, for {@code /api/v1/status} (default {@link Leadership#ALWAYS}). */
  public ConsoleVerticle leadership(Leadership l) {
    this.leadership = Objects.requireNonNull(l, "leadership");
    return this;
  }

  /**
   * The {@code leader} member of {@code /api/v1/status}: {@code elected} (false for a single
   * process), {@code isLeader}, this process's {@code identity} and the observed {@code holder}
   * (null when unknown or without election).
   */
  static JsonObject leaderJson(Leadership l) {
    return new JsonObject()
        .put("elected", l.elected())
        .put("isLeader", l.isLeader())
        .put("identity", l.identity())
        .put("holder", l.leader());
  }

  @Override
  public Future<?> start() {
    pruneTimer =
        vertx.setPeriodic(
            Duration.ofMinutes(10).toMillis(),
            id ->
                idempotencyKeys
                    .prune(clock.instant())
                    .onFailure(
                        e -> LOG.warn("pruning Idempotency-Keys failed: {}", e.getMessage())));
    return Future.succeededFuture(router()).compose(this::listen).onSuccess(s -> server = s);
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(pruneTimer);
    return Future.succeededFuture();
  }

  /**
   * The bound port (the actual one when configured 0).
   *
   * @throws IllegalStateException before the verticle has started
   */
  public int actualPort() {
    HttpServer s = server;
    if (s == null) {
      throw new IllegalStateException("console server not started");
    }
    return s.actualPort();
  }

  private Future<HttpServer> listen(Router router) {
    return vertx
        .createHttpServer(HttpGuards.serverOptions(config.httpHost(), config.httpPort()))
        .invalidRequestHandler(HttpGuards::invalidRequest)
        .requestHandler(router)
        .listen();
  }

  private Router router() {
    Router r = Router.router(vertx);
    r.route().handler(HttpGuards.securityHeaders());
    r.route().handler(HttpGuards.origin(config.trustedOrigins()));
    r.route().handler(auth);
    r.route().handler(this::deadline);
    IdempotencyHandler idempotency =
        new IdempotencyHandler(
            idempotencyKeys, ctx -> ConsoleAuth.caller(ctx).user(), clock, config.idempotencyTtl());
    // every method: a POST-only route here would turn 404s under /api/ into 405s
    for (String prefix : List.of("/api/*", "/hooks/*")) {
      r.route(prefix).handler(idempotency.bodyReader());
      r.route(prefix).handler(idempotency);
    }
    r.get("/api/v1/templates")
        .handler(ctx -> ok(ctx, slos.withControllerView(SnapshotJson.templates(snapshot()))));
    r.get("/api/v1/pools").handler(ctx -> ok(ctx, SnapshotJson.pools(snapshot())));
    r.get("/api/v1/namespaces").handler(ctx -> ok(ctx, SnapshotJson.namespaces(snapshot())));
    r.get("/api/v1/templates/:ns/:name")
        .handler(
            ctx -> ok(ctx, slos.withControllerView(SnapshotJson.item(find(ctx, Scope.TEMPLATE)))));
    r.get("/api/v1/pools/:ns/:name")
        .handler(ctx -> ok(ctx, SnapshotJson.item(find(ctx, Scope.POOL))));
    org.sandboxslo.console.routes.HistoryRoutes.mount(
        r, sources, store, config.snapshotInterval(), clock);
    r.get("/api/v1/templates/:ns/:name/history").handler(ctx -> history(ctx, Scope.TEMPLATE));
    r.get("/api/v1/pools/:ns/:name/history").handler(ctx -> history(ctx, Scope.POOL));
    r.get("/api/v1/status").handler(this::status);
    r.get("/api/v1/findings").handler(this::findings);
    alertmanager.mount(
        r, org.sandboxslo.console.hooks.AlertmanagerClient.create(vertx, config.alertmanager()));
    org.sandboxslo.console.hooks.Silences silences =
        org.sandboxslo.console.hooks.Silences.mount(
            r, vertx, config.alertmanager(), remediationService, clock);
    notifier =
        org.sandboxslo.console.chatops.ChannelNotifier.create(
            vertx, config.chatops(), config.externalUrl().base());
    if (notifier != null && remediationService != null) {
      remediationService.addListener(notifier);
    }
    org.sandboxslo.console.chatops.Chatops.mount(
        r,
        vertx,
        config.chatops(),
        config.externalUrl().base(),
        config.alertmanager().maxSilence(),
        sources,
        remediationService,
        silences,
        store,
        clock);
    org.sandboxslo.console.routes.PoolRoutes.mount(r, vertx, sources, clock);
    org.sandboxslo.console.routes.ClaimRoutes.mount(r, vertx, sources);
    org.sandboxslo.console.routes.FindingRoutes.mount(r, sources);
    org.sandboxslo.console.routes.IncidentRoutes.mount(r, sloRegistry, sources, store, clock);
    org.sandboxslo.console.routes.WhoamiRoutes.mount(r, remediationService);
    org.sandboxslo.console.routes.BudgetRoutes.mount(r, sloRegistry, store, clock);
    org.sandboxslo.console.routes.PageRoutes.mount(r);
    r.get("/api/v1/stream").handler(this::stream);
    r.get("/api/v1/openapi.yaml")
        .handler(ctx -> ctx.response().putHeader("Content-Type", "application/yaml").end(OPENAPI));
    ManagementRoutes.mount(r, sources, registry, database);
    slos.mount(r);
    remediation.mount(r);
    new org.sandboxslo.console.routes.ProbeRoutes(sources::events, clock).mount(r);
    new org.sandboxslo.console.routes.UnservedClaimRoutes(sources::unservedClaims).mount(r);
    org.sandboxslo.console.routes.WhatIfRoutes.mount(r, vertx);
    StaticHandler page = StaticHandler.create("webroot").setCachingEnabled(false);
    // one route for both methods: separate GET and HEAD routes would turn unknown GETs into 405s
    r.route("/*").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(page);
    jsonErrors(r);
    return r;
  }

  /**
   * Installs the JSON failure handler and JSON 404/405 answers on {@code router}: an {@link
   * ApiException} gives its own status and body; anything else a 500 {@code {"error":"internal
   * error","reason":...}} (logged at ERROR once, never sent with a stack trace).
   */
  static void jsonErrors(Router router) {
    router.route().failureHandler(ConsoleVerticle::failure);
    router.errorHandler(
        404,
        ctx ->
            ManagementRoutes.json(
                ctx,
                404,
                new ApiException(
                        404,
                        "not found",
                        null,
                        "no route " + ctx.request().method() + " " + ctx.request().path())
                    .toJson()));
    router.errorHandler(
        405,
        ctx ->
            ManagementRoutes.json(
                ctx,
                405,
                new ApiException(
                        405,
                        "method not allowed",
                        null,
                        ctx.request().method() + " is not allowed on " + ctx.request().path())
                    .toJson()));
  }

  private static void failure(RoutingContext ctx) {
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    Throwable t = ctx.failure();
    ApiException e;
    java.util.Optional<String> down = StoreErrors.unavailable(t);
    if (t instanceof ApiException a) {
      e = a;
    } else if ((t == null || t instanceof HttpException) && statusOf(ctx, t) == 413) {
      Object limit = ctx.get(JsonBody.LIMIT_KEY);
      e =
          new ApiException(
              413,
              "payload too large",
              "body",
              "the request body exceeds the limit of "
                  + (limit == null ? "this route" : limit + " bytes"));
    } else if (down.isPresent()) {
      // no host names, no stack trace: the database is down or frozen, the caller retries later
      e =
          new ApiException(
              503,
              "database unavailable",
              null,
              down.get() + "; the request was not completed, retry later");
      ctx.response().putHeader("Retry-After", "5");
    } else if (t instanceof HttpException h && h.getStatusCode() >= 400) {
      e =
          new ApiException(
              h.getStatusCode(),
              HttpResponseStatus.valueOf(h.getStatusCode()).reasonPhrase().toLowerCase(Locale.ROOT),
              null,
              h.getPayload() != null ? h.getPayload() : h.getMessage());
    } else if (t == null) {
      int code = ctx.statusCode() < 400 ? 500 : ctx.statusCode();
      e =
          new ApiException(
              code,
              code >= 500 ? "internal error" : "bad request",
              null,
              "request " + ctx.request().method() + " " + ctx.request().path() + " failed");
    } else {
      LOG.error("{} {} failed", ctx.request().method(), ctx.request().path(), t);
      e =
          new ApiException(
              500,
              "internal error",
              null,
              t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage()));
    }
    ManagementRoutes.json(ctx, e.status(), e.toJson());
  }

  private static int statusOf(RoutingContext ctx, Throwable t) {
    return t instanceof HttpException h ? h.getStatusCode() : ctx.statusCode();
  }

  /**
   * Puts the request's {@link Deadline} into the context: {@code sloconsole.http.request-timeout}
   * from now, or an earlier {@code X-Request-Deadline}; 503 at once when that has passed. A request
   * still unanswered at its deadline is answered 503 (the SSE stream excepted).
   */
  private void deadline(RoutingContext ctx) {
    Instant now = clock.instant();
    Instant at = now.plus(config.requestTimeout());
    Instant asked;
    try {
      asked = Deadline.header(ctx.request().getHeader(Deadline.HEADER));
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    if (asked != null && asked.isBefore(at)) {
      at = asked;
    }
    java.util.concurrent.atomic.AtomicBoolean gone =
        new java.util.concurrent.atomic.AtomicBoolean();
    Deadline d = new Deadline(at, clock, gone::get);
    if (d.expired()) {
      ctx.fail(
          new ApiException(
              503,
              "deadline passed",
              Deadline.HEADER,
              "the request's deadline " + at + " had passed when it arrived; nothing was done"));
      return;
    }
    ctx.put(Deadline.KEY, d);
    if (!ctx.normalizedPath().equals("/api/v1/stream")) {
      ctx.response().closeHandler(v -> gone.set(true));
      long ms = Math.max(1, Duration.between(now, at).toMillis());
      long timer =
          vertx.setTimer(
              ms,
              id -> {
                if (!ctx.response().ended() && !ctx.response().headWritten()) {
                  ctx.fail(
                      new ApiException(
                          503,
                          "deadline passed",
                          Deadline.HEADER,
                          "no answer within the request's deadline; a change not yet applied will"
                              + " not be applied"));
                }
              });
      ctx.addEndHandler(v -> vertx.cancelTimer(timer));
    }
    ctx.next();
  }

  private FleetSnapshot snapshot() {
    FleetSnapshot s = sources.snapshot();
    if (s == null) {
      throw ApiException.notReady("no fleet snapshot has been computed yet");
    }
    return s;
  }

  private SliSnapshot find(RoutingContext ctx, Scope scope) {
    FleetSnapshot s = snapshot();
    String ns = ctx.pathParam("ns");
    String name = ctx.pathParam("name");
    List<SliSnapshot> items = scope == Scope.POOL ? s.pools() : s.templates();
    for (SliSnapshot i : items) {
      if (i.key().namespace().equals(ns) && i.key().name().equals(name)) {
        return i;
      }
    }
    String kind = scope == Scope.POOL ? "SandboxWarmPool" : "SandboxTemplate";
    throw ApiException.notFound("name", "no " + kind + " " + ns + "/" + name + " is known");
  }

  private void history(RoutingContext ctx, Scope scope) {
    String ns = ctx.pathParam("ns");
    String name = ctx.pathParam("name");
    SliName sli = sli(ctx.queryParams().get("sli"));
    String window = window(sli, ctx.queryParams().get("window"));
    Instant to = time("to", ctx.queryParams().get("to"), clock.instant());
    Instant from = time("from", ctx.queryParams().get("from"), to.minus(DEFAULT_HISTORY));
    if (from.isAfter(to)) {
      throw ApiException.badRequest("from", "from " + from + " is after to " + to);
    }
    if (store == null) {
      throw ApiException.notReady("history needs the SLI store, which is not configured");
    }
    store
        .history(scope, ns, name, sli.wireName(), window, from, to)
        .map(
            points -> {
              JsonArray array = new JsonArray();
              for (HistoryPoint p : points) {
                array.add(new JsonObject().put("at", p.at().toString()).put("value", p.value()));
              }
              return new JsonObject()
                  .put("namespace", ns)
                  .put("name", name)
                  .put("sli", sli.wireName())
                  .put("window", window)
                  .put("from", from.toString())
                  .put("to", to.toString())
                  .put("points", array);
            })
        .onSuccess(body -> ok(ctx, body))
        .onFailure(ctx::fail);
  }

  private static SliName sli(String value) {
    String known = String.join(", ", SliName.wireNames());
    if (value == null || value.isEmpty()) {
      throw ApiException.badRequest("sli", "sli is required; known: " + known);
    }
    return SliName.byWireName(value)
        .orElseThrow(
            () -> ApiException.badRequest("sli", "unknown SLI '" + value + "'; known: " + known));
  }

  private String window(SliName sli, String value) {
    if (sli.poolState()) {
      if (value == null || value.isEmpty() || value.equals(SliName.NOW_WINDOW)) {
        return SliName.NOW_WINDOW;
      }
      throw ApiException.badRequest(
          "window",
          "SLI '"
              + sli.wireName()
              + "' is a point-in-time pool SLI; its only window is 'now', got '"
              + value
              + "'");
    }
    List<String> known = sources.windows().stream().map(Durations::format).toList();
    if (value == null || value.isEmpty()) {
      return known.get(0);
    }
    if (!known.contains(value)) {
      throw ApiException.badRequest(
          "window", "unknown window '" + value + "'; known: " + String.join(", ", known));
    }
    return value;
  }

  /** RFC 3339 ({@code 2026-11-29T08:00:00Z}) or unix seconds ({@code 1795939200}, {@code 1.5}). */
  public static Instant time(String field, String value, Instant dflt) {
    return Json.instant(field, value, dflt);
  }

  private void status(RoutingContext ctx) {
    FleetSnapshot s = sources.snapshot();
    JsonObject body =
        SnapshotJson.informers(s)
            .put("watchLag", SnapshotJson.watchLag(sources.watchLag()))
            .put("suspectStale", SnapshotJson.suspectStale(sources.suspectStale()))
            .put("ready", sources.ready() && sources.suspectStale().isEmpty())
            .put("ingestErrors", SnapshotJson.ingestErrors(sources.ingestErrors()))
            .put("leader", leaderJson(leadership));
    Future<JsonObject> storeJson =
        store == null
            ? Future.succeededFuture(
                new JsonObject().put("enabled", false).put("rows", null).put("error", null))
            : store
                .count()
                .map(n -> new JsonObject().put("enabled", true).put("rows", n).put("error", null))
                .recover(
                    e ->
                        Future.succeededFuture(
                            new JsonObject()
                                .put("enabled", true)
                                .put("rows", null)
                                .put("error", e.getMessage())));
    storeJson
        .onSuccess(j -> ok(ctx, body.put("store", j).put("slos", slos.status())))
        .onFailure(ctx::fail);
  }

  private static final java.util.List<String> FINDING_STATES =
      java.util.List.of("open", "closed", "all");

  /**
   * {@code GET /api/v1/findings?kind=&severity=&subject=&state=open|closed|all}: tracked findings,
   * open first, most severe first. {@code severity} keeps findings at or above it; {@code subject}
   * matches a substring of the subject (e.g. {@code team-a/pool-py}). 400 for an unknown kind,
   * severity or state.
   */
  private void findings(RoutingContext ctx) {
    String kind = ctx.request().getParam("kind");
    String severity = ctx.request().getParam("severity");
    String subject = ctx.request().getParam("subject");
    String state = ctx.request().getParam("state", "open");
    if (kind != null && org.sandboxslo.engine.finding.FindingKind.ofWireName(kind) == null) {
      java.util.List<String> known = new java.util.ArrayList<>();
      for (org.sandboxslo.engine.finding.FindingKind k :
          org.sandboxslo.engine.finding.FindingKind.values()) {
        known.add(k.wireName());
      }
      throw new ApiException(
          400,
          "bad request",
          "kind",
          "unknown finding kind '" + kind + "'; known: " + String.join(", ", known));
    }
    org.sandboxslo.engine.finding.Severity min = null;
    if (severity != null) {
      for (org.sandboxslo.engine.finding.Severity x :
          org.sandboxslo.engine.finding.Severity.values()) {
        if (x.wireName().equals(severity)) {
          min = x;
        }
      }
      if (min == null) {
        throw new ApiException(
            400,
            "bad request",
            "severity",
            "unknown severity '" + severity + "'; known: info, ticket, high, page, critical");
      }
    }
    if (!FINDING_STATES.contains(state)) {
      throw new ApiException(
          400, "bad request", "state", "unknown state '" + state + "'; known: open, closed, all");
    }
    io.vertx.core.json.JsonArray items = new io.vertx.core.json.JsonArray();
    for (FindingState f : sources.findings()) {
      if ((kind == null || f.finding().kind().wireName().equals(kind))
          && (min == null || f.finding().severity().compareTo(min) >= 0)
          && (subject == null || f.finding().subject().contains(subject))
          && (state.equals("all") || state.equals("open") == f.open())) {
        items.add(SnapshotJson.finding(f));
      }
    }
    ok(ctx, new JsonObject().put("items", items));
  }

  private void stream(RoutingContext ctx) {
    HttpServerResponse res = ctx.response();
    res.setChunked(true)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    long interval = config.streamInterval().toMillis();
    // bounded: the oldest stream is closed for a new one beyond sloconsole.http.max-stream-clients
    while (streams.size() >= config.maxStreamClients()) {
      HttpServerResponse oldest = streams.pollFirst();
      drops.dropped("stream-client", "cap");
      if (!oldest.ended() && !oldest.closed()) {
        oldest.end();
      }
    }
    streams.addLast(res);
    res.write("retry: " + interval + "\n\n");
    sendSnapshot(res);
    long timer = vertx.setPeriodic(interval, id -> sendSnapshot(res));
    res.closeHandler(
        v -> {
          vertx.cancelTimer(timer);
          streams.remove(res);
        });
    res.endHandler(
        v -> {
          vertx.cancelTimer(timer);
          streams.remove(res);
        });
    res.exceptionHandler(e -> vertx.cancelTimer(timer));
  }

  private void sendSnapshot(HttpServerResponse res) {
    if (res.closed() || res.ended() || res.writeQueueFull()) {
      return; // a slow client skips snapshots instead of buffering them
    }
    FleetSnapshot s = sources.snapshot();
    if (s == null) {
      res.write(": not ready, no fleet snapshot yet\n\n");
      return;
    }
    res.write("event: snapshot\ndata: " + SnapshotJson.templates(s).encode() + "\n\n");
  }

  private static Buffer resource(String name) {
    try (InputStream in = ConsoleVerticle.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing from the classpath");
      }
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("resource " + name + " could not be read", e);
    }
  }

  private static void ok(RoutingContext ctx, JsonObject body) {
    ManagementRoutes.json(ctx, 200, body);
  }
}
