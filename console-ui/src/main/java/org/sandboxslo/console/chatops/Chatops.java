package org.sandboxslo.console.chatops;

import static org.sandboxslo.console.chatops.SlackMessages.escape;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.hooks.SilenceMatcher;
import org.sandboxslo.console.hooks.SilencePolicy;
import org.sandboxslo.console.hooks.Silences;
import org.sandboxslo.console.remediation.PlanAction;
import org.sandboxslo.console.remediation.PlanListener;
import org.sandboxslo.console.remediation.PlanService;
import org.sandboxslo.console.remediation.PlanState;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.IncidentRow;
import org.sandboxslo.store.IncidentStore;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.SliStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat door, Slack-compatible (reference slo-alerting §5): {@code POST /chatops/slack} (slash
 * commands, form-encoded) and {@code POST /chatops/slack/actions} (interactive payloads: the
 * Confirm / Cancel buttons). Mounted only with {@code sloconsole.chatops.slack.signing-secret}
 * (otherwise both paths are 404).
 *
 * <ul>
 *   <li>Every request is verified before anything else ({@link SlackSignature}: HMAC-SHA256 over
 *       {@code v0:timestamp:raw body}, constant-time, |now − timestamp| ≤ 300 s) and recorded in a
 *       bounded replay cache for that window. Failure: 401 {@code {"error":"unauthorized",
 *       "reason"}}, nothing done, one WARN naming the reason (never the secret). A replay carrying
 *       Slack's {@code X-Slack-Retry-Num} gets 200 and is not acted on again.
 *   <li>A verified command is answered at once (200, ephemeral acknowledgement; help and usage
 *       mistakes answered in full); the work continues asynchronously and its answer is posted to
 *       the request's {@code response_url} ({@link ResponseUrls}: ≤ 5 posts within 30 min). Nothing
 *       in the request path waits for the Kubernetes API, the database or Alertmanager.
 *   <li>Slack users map to console users ({@code sloconsole.chatops.slack.users}); a mapped user
 *       has exactly that user's roles from {@code sloconsole.auth.tokens}, and every write goes
 *       through the same {@link PlanService} / {@link Silences} as the API (namespace scoping,
 *       approver roles, two-person rule). Unmapped users may read ({@code status}, {@code explain},
 *       {@code help}).
 *   <li>Writes take two steps: the command answers with the dry run and Confirm / Cancel buttons;
 *       nothing changes until the same Slack user confirms (a confirmation token is used once and
 *       lives 30 min).
 *   <li>Idempotent: plans are keyed (subject, action, current template generation); while one such
 *       plan is unfinished, a retried or retyped command answers "already in progress: p-…" instead
 *       of a second plan; a second execute of the same plan does nothing.
 *   <li>Every write request (dry run, confirm, cancel, refusal) is audited in {@code
 *       remediation_audit} as {@code chat.<verb>} with the Slack team, channel and user.
 * </ul>
 */
public final class Chatops {
  private static final Logger LOG = LoggerFactory.getLogger(Chatops.class);
  static final long MAX_BODY_BYTES = 64 * 1024;
  static final int REPLAY_CAPACITY = 10_000;
  static final int MAX_PENDING = 1_000;
  static final Duration PENDING_LIFETIME = Duration.ofMinutes(30);
  static final String TEMPLATE_GENERATION = "templateGeneration";
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Who sent a request, from Slack's fields. */
  record Who(String team, String channel, String user) {
    String door() {
      return "slack team=" + team + " channel=" + channel + " user=" + user;
    }
  }

  /** A write waiting for Confirm. */
  private record Pending(ChatCommand command, Who who, String text, Instant until, Object detail) {}

  /** An executing plan whose end is posted to the execute interaction's response_url. */
  private record Watch(String responseUrl, Caller caller) {}

  private final Links console;
  private final ChatopsConfig config;
  private final Duration maxSilence;
  private final ConsoleSources sources;
  private final Remediation remediation;
  private final Silences silences;
  private final IncidentStore incidents;
  private final Clock clock;
  private final ReplayCache replays = new ReplayCache(REPLAY_CAPACITY);
  private final ResponseUrls urls;
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private final Map<String, Future<PlanRow>> creating = new HashMap<>();
  private final Map<String, Watch> watching = new HashMap<>();

  Chatops(
      ChatopsConfig config,
      Links links,
      Duration maxSilence,
      ConsoleSources sources,
      Remediation remediationOrNull,
      Silences silencesOrNull,
      IncidentStore incidentsOrNull,
      WebClient web,
      Clock clock) {
    this.console = links;
    this.config = config;
    this.maxSilence = maxSilence;
    this.sources = sources;
    this.remediation = remediationOrNull;
    this.silences = silencesOrNull;
    this.incidents = incidentsOrNull;
    this.clock = clock;
    this.urls = new ResponseUrls(web, config.responseUrlHosts(), clock);
  }

  /**
   * Mounts the two routes when a signing secret is configured; does nothing otherwise (404).
   *
   * @param config the chat configuration ({@code sloconsole.chatops.*})
   * @param externalUrl {@code sloconsole.http.external-url}, the base of links in messages
   * @param maxSilence {@code sloconsole.alertmanager.max-silence}, checked at the dry run
   * @param remediationOrNull plans, callers and the audit trail; without it writes answer "not
   *     running"
   * @param silencesOrNull silences; without it {@code silence}/{@code silences} answer "not
   *     available"
   * @param storeOrNull the database (incidents, to silence an alert by fingerprint), or null
   */
  public static void mount(
      Router router,
      Vertx vertx,
      ChatopsConfig config,
      java.net.URI externalUrl,
      Duration maxSilence,
      ConsoleSources sources,
      Remediation remediationOrNull,
      Silences silencesOrNull,
      SliStore storeOrNull,
      Clock clock) {
    if (!config.enabled()) {
      LOG.info("chat disabled: {} is not set", ChatopsConfig.SIGNING_SECRET);
      return;
    }
    Chatops c =
        new Chatops(
            config,
            new Links(externalUrl),
            maxSilence,
            sources,
            remediationOrNull,
            silencesOrNull,
            storeOrNull == null ? null : new IncidentStore(storeOrNull.pool()),
            WebClient.create(vertx, new WebClientOptions().setUserAgent("sandbox-slo-console")),
            clock);
    c.warnUnknownUsers();
    BodyHandler body =
        BodyHandler.create().setBodyLimit(MAX_BODY_BYTES).setHandleFileUploads(false);
    router.post("/chatops/slack").handler(body).handler(c::command);
    router.post("/chatops/slack/actions").handler(body).handler(c::interaction);
    if (remediationOrNull != null) {
      remediationOrNull.addListener(c.progress());
    }
    LOG.info("chat enabled on /chatops/slack and /chatops/slack/actions");
  }

  private void warnUnknownUsers() {
    if (remediation == null) {
      return;
    }
    Set<String> known = new HashSet<>();
    remediation.config().tokens().values().forEach(c -> known.add(c.user()));
    config
        .users()
        .forEach(
            (slack, user) -> {
              if (!known.contains(user)) {
                LOG.warn(
                    "{}: Slack user {} maps to console user {}, who has no token in"
                        + " sloconsole.auth.tokens; treated as unmapped (read only)",
                    ChatopsConfig.USERS,
                    slack,
                    user);
              }
            });
  }

  /** The console caller of a Slack user (roles of all tokens of that user), or null. */
  Caller caller(String slackUser) {
    String name = slackUser == null ? null : config.users().get(slackUser);
    if (name == null || remediation == null) {
      return null;
    }
    Set<String> roles = new HashSet<>();
    remediation.config().tokens().values().stream()
        .filter(c -> c.user().equals(name))
        .forEach(c -> roles.addAll(c.roles()));
    return roles.isEmpty() ? null : new Caller(name, roles);
  }

  // ---- verification

  /** True when the request is verified and new; otherwise the response has been sent. */
  private boolean verified(RoutingContext ctx, byte[] body) {
    Instant now = clock.instant();
    SlackSignature.Verdict v =
        SlackSignature.verify(
            config.signingSecret(),
            ctx.request().getHeader("X-Slack-Request-Timestamp"),
            ctx.request().getHeader("X-Slack-Signature"),
            body,
            now);
    if (v instanceof SlackSignature.Verdict.Refused r) {
      refuse(ctx, r.reason());
      return false;
    }
    Instant ts = ((SlackSignature.Verdict.Valid) v).timestamp();
    if (!replays.firstTime(ts, body, now)) {
      if (ctx.request().getHeader("X-Slack-Retry-Num") != null) {
        LOG.info(
            "chat request {} is Slack retry {} of one already received; not acted on again",
            ctx.request().path(),
            ctx.request().getHeader("X-Slack-Retry-Num"));
        ctx.response().setStatusCode(200).end();
        return false;
      }
      refuse(ctx, "replayed request (same timestamp and body within 300 s)");
      return false;
    }
    return true;
  }

  private static void refuse(RoutingContext ctx, String reason) {
    LOG.warn(
        "chat request refused on {} from {}: {}",
        ctx.request().path(),
        ctx.request().remoteAddress(),
        reason);
    ctx.response()
        .setStatusCode(401)
        .putHeader("Content-Type", "application/json")
        .end(
            new JsonObject()
                .put("error", "unauthorized")
                .put("field", "X-Slack-Signature")
                .put("reason", reason)
                .encode());
  }

  private static Map<String, String> form(byte[] body) {
    Map<String, String> out = new HashMap<>();
    new QueryStringDecoder(new String(body, StandardCharsets.UTF_8), StandardCharsets.UTF_8, false)
        .parameters()
        .forEach((k, v) -> out.put(k, v.isEmpty() ? "" : v.get(0)));
    return out;
  }

  private static void answer(RoutingContext ctx, JsonObject message) {
    ctx.response()
        .setStatusCode(200)
        .putHeader("Content-Type", "application/json")
        .end(message.encode());
  }

  // ---- slash commands

  private void command(RoutingContext ctx) {
    byte[] body = ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
    if (!verified(ctx, body)) {
      return;
    }
    Map<String, String> f = form(body);
    String text = f.getOrDefault("text", "").strip();
    ChatCommand cmd = ChatCommand.parse(text);
    if (cmd instanceof ChatCommand.Help) {
      answer(ctx, SlackMessages.text(ChatReplies.help(), links("Console", "/")));
      return;
    }
    if (cmd instanceof ChatCommand.Usage u) {
      answer(
          ctx,
          SlackMessages.text(escape(u.problem()) + "\n`help` lists every command.", List.of()));
      return;
    }
    String responseUrl = f.get("response_url");
    if (!urls.allowed(responseUrl)) {
      LOG.warn(
          "chat command not run: response_url host is not in {}", ChatopsConfig.RESPONSE_URL_HOSTS);
      answer(
          ctx,
          SlackMessages.text(
              "The console cannot answer this request (its response_url is not an allowed host).",
              List.of()));
      return;
    }
    urls.opened(responseUrl);
    Who who =
        new Who(
            f.getOrDefault("team_id", ""),
            f.getOrDefault("channel_id", ""),
            f.getOrDefault("user_id", ""));
    // the acknowledgement goes out before any work starts: nothing below can delay it
    answer(
        ctx,
        SlackMessages.text(
            "Working on `" + escape(f.getOrDefault("command", "/slo") + " " + text) + "`…",
            List.of()));
    run(cmd, who, text)
        .recover(e -> Future.succeededFuture(failure(e)))
        .compose(m -> urls.post(responseUrl, m))
        .onFailure(e -> LOG.warn("chat answer to {} not posted: {}", who.user(), e.getMessage()));
  }

  private Future<JsonObject> run(ChatCommand cmd, Who who, String text) {
    if (cmd instanceof ChatCommand.Status s) {
      return Future.succeededFuture(
          ChatReplies.status(sources.snapshot(), sources.findings(), s.templateOrNull(), console));
    }
    if (cmd instanceof ChatCommand.Explain e) {
      return Future.succeededFuture(
          ChatReplies.explain(sources.snapshot(), sources.findings(), e.target(), console));
    }
    Caller c = caller(who.user());
    if (c == null) {
      return refusedUnmapped(cmd, who, text);
    }
    if (cmd instanceof ChatCommand.ListSilences) {
      if (silences == null || !silences.available()) {
        return Future.succeededFuture(
            notAvailable("Silences need Alertmanager (sloconsole.alertmanager.url)."));
      }
      return silences.list(c, null).map(this::silenceList);
    }
    if (remediation == null || !remediation.running()) {
      return Future.succeededFuture(
          notAvailable("Remediation is not running here (no database or no Kubernetes client)."));
    }
    PlanService plans = remediation.plans();
    if (cmd instanceof ChatCommand.Plan p) {
      return previewPlan(c, who, text, p, plans);
    }
    if (cmd instanceof ChatCommand.Silence s) {
      return previewSilence(c, who, text, s);
    }
    String id = planIdOf(cmd);
    if (id != null) {
      return previewPlanVerb(c, who, text, cmd, id, plans, cmd.verb());
    }
    return Future.succeededFuture(SlackMessages.text(ChatReplies.help(), List.of()));
  }

  private Future<JsonObject> refusedUnmapped(ChatCommand cmd, Who who, String text) {
    String reason =
        "Slack user "
            + who.user()
            + " is not mapped to a console user ("
            + ChatopsConfig.USERS
            + "); unmapped users may only use status, explain and help";
    return audit(
            "slack:" + who.user(), cmd.verb(), planIdOf(cmd), who, text, "refused: 403 " + reason)
        .map(
            x ->
                SlackMessages.text(
                    "Refused: " + escape(reason) + ". Nothing was changed.",
                    links("Console", "/")));
  }

  private static String planIdOf(ChatCommand cmd) {
    if (cmd instanceof ChatCommand.Approve a) {
      return a.planId();
    }
    if (cmd instanceof ChatCommand.Execute e) {
      return e.planId();
    }
    if (cmd instanceof ChatCommand.Cancel c) {
      return c.planId();
    }
    return null;
  }

  private Future<JsonObject> previewPlan(
      Caller c, Who who, String text, ChatCommand.Plan p, PlanService plans) {
    String action = p.action().wireName();
    return generation(p.action(), p.subject())
        .compose(
            gen ->
                inProgress(c, p.action(), p.subject(), gen, plans)
                    .compose(
                        existing -> {
                          if (existing != null) {
                            return alreadyInProgress(c, who, text, p.verb(), existing);
                          }
                          return plans
                              .preview(c, action, p.subject(), p.params())
                              .compose(
                                  dry -> {
                                    String token = hold(new Pending(p, who, text, until(), gen));
                                    return audit(c.user(), p.verb(), null, who, text, "dry-run")
                                        .map(
                                            x ->
                                                SlackMessages.confirm(
                                                    ChatReplies.dryRun(action, p.subject(), dry)
                                                        + "\nConfirm creates the plan (state"
                                                        + " planned); it still needs approval"
                                                        + " and execute.",
                                                    links("Plans", "/plans"),
                                                    token,
                                                    false,
                                                    ""));
                                  });
                        }));
  }

  private Future<JsonObject> alreadyInProgress(
      Caller c, Who who, String text, String verb, PlanRow p) {
    return audit(c.user(), verb, p.id(), who, text, "already in progress: " + p.id())
        .map(
            x ->
                SlackMessages.text(
                    "Already in progress: *"
                        + p.id()
                        + "* ("
                        + p.action()
                        + " "
                        + escape(p.subject())
                        + ", "
                        + p.state()
                        + "). No second plan was created.",
                    links("Plan " + p.id(), "/plans/" + p.id())));
  }

  private Future<JsonObject> previewPlanVerb(
      Caller c, Who who, String text, ChatCommand cmd, String id, PlanService plans, String verb) {
    return plans
        .plan(c, id)
        .compose(
            p -> {
              String token = hold(new Pending(cmd, who, text, until(), null));
              boolean danger =
                  verb.equals("execute") && p.dryRun().getBoolean("destructive", false);
              String what =
                  switch (verb) {
                    case "approve" -> "Confirm approves it as " + c.user() + ".";
                    case "execute" -> "Confirm starts executing it now.";
                    default -> "Confirm cancels it; an executing plan stops before its next step.";
                  };
              return audit(c.user(), verb, id, who, text, "dry-run")
                  .map(
                      x ->
                          SlackMessages.confirm(
                              ChatReplies.plan(p) + "\n" + what,
                              links("Plan " + id, "/plans/" + id),
                              token,
                              danger,
                              "Execute " + p.action() + " " + p.subject() + " now?"));
            });
  }

  private Future<JsonObject> previewSilence(Caller c, Who who, String text, ChatCommand.Silence s) {
    if (silences == null || !silences.available()) {
      return Future.succeededFuture(
          notAvailable("Silences need Alertmanager (sloconsole.alertmanager.url)."));
    }
    return matchers(s.target())
        .compose(
            ms -> {
              SilencePolicy.check(
                  ms, s.duration(), s.reason(), c.user(), maxSilence, clock.instant());
              String token = hold(new Pending(s, who, text, until(), ms));
              return audit(c.user(), "silence", null, who, text, "dry-run")
                  .map(
                      x ->
                          SlackMessages.confirm(
                              "*Silence* `"
                                  + escape(
                                      String.join(
                                          ",", ms.stream().map(SilenceMatcher::toString).toList()))
                                  + "` for "
                                  + Durations.format(s.duration())
                                  + " — nothing has changed yet.\nReason: "
                                  + escape(s.reason()),
                              links("Incidents", "/incidents"),
                              token,
                              false,
                              ""));
            });
  }

  /** Matchers from text, or from a known alert's fingerprint (its alertname and subject labels). */
  private Future<List<SilenceMatcher>> matchers(String target) {
    if (target.contains("=")) {
      try {
        return Future.succeededFuture(SilenceMatcher.parseList(target, "matchers"));
      } catch (ApiException e) {
        return Future.failedFuture(e);
      }
    }
    if (incidents == null) {
      return Future.failedFuture(
          ApiException.badRequest(
              "matchers",
              "give matchers such as alertname=X,namespace=y (no incident store here)"));
    }
    return incidents
        .list("firing", null, null, null, 2000)
        .compose(
            rows -> {
              for (IncidentRow r : rows) {
                if (r.fingerprint().equals(target)) {
                  List<SilenceMatcher> ms = new ArrayList<>();
                  ms.add(SilenceMatcher.eq("alertname", r.alertname()));
                  for (String l :
                      List.of("namespace", "sandbox_template", "warmpool_name", "slo")) {
                    String v = r.labels().getString(l);
                    if (v != null && !v.isEmpty()) {
                      ms.add(SilenceMatcher.eq(l, v));
                    }
                  }
                  return Future.succeededFuture(ms);
                }
              }
              return Future.failedFuture(
                  ApiException.badRequest(
                      "matchers",
                      "no firing alert has fingerprint '"
                          + target
                          + "'; give matchers such as alertname=X,namespace=y"));
            });
  }

  // ---- interactive payloads (Confirm / Cancel)

  private void interaction(RoutingContext ctx) {
    byte[] body = ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
    if (!verified(ctx, body)) {
      return;
    }
    JsonObject payload;
    try {
      payload = new JsonObject(form(body).getOrDefault("payload", ""));
    } catch (DecodeException | ClassCastException e) {
      throw ApiException.badRequest("payload", "expected the interactive payload as JSON");
    }
    Object actions = payload.getValue("actions");
    if (!(actions instanceof JsonArray arr)
        || arr.isEmpty()
        || !(arr.getValue(0) instanceof JsonObject action)
        || !(action.getValue("action_id") instanceof String actionId)
        || !(action.getValue("value") instanceof String token)
        || !(payload.getValue("user") instanceof JsonObject user)
        || !(user.getValue("id") instanceof String userId)
        || !(payload.getValue("response_url") instanceof String responseUrl)) {
      throw ApiException.badRequest(
          "payload",
          "expected a block_actions payload with actions[0].action_id/value, user.id and response_url");
    }
    JsonObject team = payload.getJsonObject("team", new JsonObject());
    JsonObject channel = payload.getJsonObject("channel", new JsonObject());
    Who who = new Who(team.getString("id", ""), channel.getString("id", ""), userId);
    ctx.response().setStatusCode(200).end();
    if (!urls.allowed(responseUrl)) {
      LOG.warn(
          "chat interaction not run: response_url host is not in {}",
          ChatopsConfig.RESPONSE_URL_HOSTS);
      return;
    }
    urls.opened(responseUrl);
    confirm(actionId, token, who, responseUrl)
        .recover(e -> Future.succeededFuture(failure(e).put("replace_original", true)))
        .compose(m -> urls.post(responseUrl, m))
        .onFailure(e -> LOG.warn("chat answer to {} not posted: {}", who.user(), e.getMessage()));
  }

  private Future<JsonObject> confirm(String actionId, String token, Who who, String responseUrl) {
    Pending p = take(token);
    if (p == null) {
      return Future.succeededFuture(
          SlackMessages.replacing(
              "This confirmation has expired or was already used; nothing was done. Run the"
                  + " command again.",
              List.of()));
    }
    if (!p.who().user().equals(who.user())) {
      hold(token, p); // still the asker's to confirm
      return Future.succeededFuture(
          SlackMessages.text(
              "Only <@" + p.who().user() + "> who asked can confirm or cancel this.", List.of()));
    }
    Caller c = caller(who.user());
    if (c == null) {
      return refusedUnmapped(p.command(), who, p.text());
    }
    String verb = p.command().verb();
    if (actionId.equals(SlackMessages.CANCEL)) {
      return audit(
              c.user(), verb, planIdOf(p.command()), who, p.text(), "cancelled at confirmation")
          .map(x -> SlackMessages.replacing("Cancelled; nothing was changed.", List.of()));
    }
    if (!actionId.equals(SlackMessages.CONFIRM)) {
      return Future.failedFuture(
          ApiException.badRequest("action_id", "expected confirm or cancel"));
    }
    if (remediation == null || !remediation.running()) {
      return Future.succeededFuture(notAvailable("Remediation is not running here."));
    }
    PlanService plans = remediation.plans();
    Future<JsonObject> done;
    ChatCommand cmd = p.command();
    if (cmd instanceof ChatCommand.Plan x) {
      done = createPlan(c, who, p, x, (Long) p.detail(), plans);
    } else if (cmd instanceof ChatCommand.Approve x) {
      done =
          plans
              .approve(c, x.planId())
              .compose(
                  row ->
                      audit(c.user(), verb, row.id(), who, p.text(), "ok: approved")
                          .map(
                              y ->
                                  SlackMessages.replacing(
                                      ChatReplies.plan(row) + "\nNext: `execute " + row.id() + "`.",
                                      links("Plan " + row.id(), "/plans/" + row.id()))));
    } else if (cmd instanceof ChatCommand.Execute x) {
      done = execute(c, who, p, x.planId(), plans, responseUrl);
    } else if (cmd instanceof ChatCommand.Cancel x) {
      done =
          plans
              .cancel(c, x.planId())
              .compose(
                  row ->
                      audit(c.user(), verb, row.id(), who, p.text(), "ok: cancelled")
                          .map(
                              y ->
                                  SlackMessages.replacing(
                                      ChatReplies.plan(row),
                                      links("Plan " + row.id(), "/plans/" + row.id()))));
    } else if (cmd instanceof ChatCommand.Silence x) {
      @SuppressWarnings("unchecked")
      List<SilenceMatcher> ms = (List<SilenceMatcher>) p.detail();
      done =
          silences
              .create(c, ms, x.duration(), x.reason(), who.door())
              .map(
                  sl ->
                      SlackMessages.replacing(
                          "Silenced `"
                              + escape(
                                  String.join(
                                      ",",
                                      sl.getJsonArray("matchers", new JsonArray()).stream()
                                          .map(String::valueOf)
                                          .toList()))
                              + "` until "
                              + sl.getString("endsAt")
                              + " (silence "
                              + sl.getString("id")
                              + ").",
                          links("Incidents", "/incidents")));
    } else {
      done = Future.failedFuture(ApiException.badRequest("command", "nothing to confirm"));
    }
    return done.recover(
        e ->
            e instanceof ApiException a
                ? audit(
                        c.user(),
                        verb,
                        planIdOf(p.command()),
                        who,
                        p.text(),
                        "refused: " + a.status() + " " + a.getMessage())
                    .transform(y -> Future.failedFuture(e))
                : Future.failedFuture(e));
  }

  private Future<JsonObject> createPlan(
      Caller c, Who who, Pending pend, ChatCommand.Plan p, Long gen, PlanService plans) {
    String key = p.subject() + "|" + p.action().wireName() + "|" + gen;
    Future<PlanRow> inFlight = creating.get(key);
    if (inFlight != null) {
      return inFlight.compose(row -> alreadyInProgress(c, who, pend.text(), p.verb(), row));
    }
    Future<PlanRow> created =
        inProgress(c, p.action(), p.subject(), gen, plans)
            .compose(
                existing -> {
                  if (existing != null) {
                    return Future.failedFuture(new InProgress(existing));
                  }
                  JsonObject params = p.params().copy().put(TEMPLATE_GENERATION, gen);
                  return plans.create(
                      c,
                      new JsonObject()
                          .put("action", p.action().wireName())
                          .put("subject", p.subject())
                          .put("params", params)
                          .put(
                              "reason",
                              p.reasonOrNull() != null
                                  ? p.reasonOrNull()
                                  : "from Slack: " + pend.text()));
                });
    creating.put(key, created);
    created.onComplete(x -> creating.remove(key));
    return created
        .compose(
            row ->
                audit(c.user(), p.verb(), row.id(), who, pend.text(), "ok: planned " + row.id())
                    .map(
                        y ->
                            SlackMessages.replacing(
                                "Planned "
                                    + ChatReplies.plan(row)
                                    + "\nNext: an approver runs `approve "
                                    + row.id()
                                    + "`"
                                    + (row.dryRun().getBoolean("destructive", false)
                                        ? " (someone other than " + c.user() + ": two-person rule)"
                                        : "")
                                    + ".",
                                links("Plan " + row.id(), "/plans/" + row.id()))))
        .recover(
            e ->
                e instanceof InProgress ip
                    ? alreadyInProgress(c, who, pend.text(), p.verb(), ip.plan)
                    : Future.failedFuture(e));
  }

  /** Carries an unfinished plan of the same key out of a compose chain. */
  private static final class InProgress extends RuntimeException {
    final transient PlanRow plan;

    InProgress(PlanRow plan) {
      super("already in progress: " + plan.id(), null, false, false);
      this.plan = plan;
    }
  }

  private Future<JsonObject> execute(
      Caller c, Who who, Pending p, String id, PlanService plans, String responseUrl) {
    return plans
        .execute(c, id, "slack:" + id)
        .compose(
            row -> {
              watch(id, responseUrl, c);
              return audit(c.user(), "execute", id, who, p.text(), "ok: executing")
                  .map(
                      y ->
                          SlackMessages.replacing(
                              "Executing "
                                  + ChatReplies.plan(row)
                                  + "\nThe result is posted here when it ends.",
                              links("Plan " + id, "/plans/" + id)));
            })
        .recover(
            e -> {
              if (e instanceof ApiException a && a.status() == 409) {
                return plans
                    .plan(c, id)
                    .compose(
                        row ->
                            PlanState.of(row.state()) == PlanState.EXECUTING
                                    || PlanState.of(row.state()) == PlanState.SUCCEEDED
                                ? alreadyInProgress(c, who, p.text(), "execute", row)
                                : Future.failedFuture(e));
              }
              return Future.failedFuture(e);
            });
  }

  /** Registers the execute interaction's response_url for the plan's end (called on confirm). */
  private void watch(String planId, String responseUrl, Caller c) {
    synchronized (watching) {
      watching.put(planId, new Watch(responseUrl, c));
    }
  }

  private PlanListener progress() {
    return new PlanListener() {
      @Override
      public void finished(PlanRow plan, PlanState state) {
        Watch w;
        synchronized (watching) {
          w = watching.remove(plan.id());
        }
        if (w == null || remediation == null) {
          return;
        }
        remediation
            .plans()
            .plan(w.caller(), plan.id())
            .map(
                row ->
                    SlackMessages.text(
                        "Plan " + state + ": " + ChatReplies.plan(row),
                        links("Plan " + row.id(), "/plans/" + row.id())))
            .compose(m -> urls.post(w.responseUrl(), m))
            .onFailure(
                e -> LOG.warn("plan {} result not posted to chat: {}", plan.id(), e.getMessage()));
      }
    };
  }

  // ---- helpers

  /**
   * The current metadata.generation of the template of pool {@code subject} (pool actions), 0 for
   * subjects without a template, -1 when the engine cannot tell.
   */
  private Future<Long> generation(PlanAction action, String subject) {
    if (action == PlanAction.SET_REFILL_PACING || action == PlanAction.DELETE_EXPIRED_CLAIMS) {
      return Future.succeededFuture(0L);
    }
    ObjectRef ref;
    try {
      ref = ObjectRef.parse(subject);
    } catch (IllegalArgumentException e) {
      return Future.succeededFuture(0L);
    }
    return sources
        .call(
            e -> {
              var pool = e.poolState(ref);
              if (pool == null) {
                return 0L;
              }
              var gens = e.templateGenerations(new ObjectRef(ref.namespace(), pool.templateName()));
              return gens.isEmpty() ? 0L : gens.get(gens.size() - 1).generation();
            })
        .recover(e -> Future.succeededFuture(-1L));
  }

  /** An unfinished plan of the same (subject, action, template generation), or null. */
  private Future<PlanRow> inProgress(
      Caller c, PlanAction action, String subject, long gen, PlanService plans) {
    return plans
        .plans(c)
        .map(
            rows -> {
              for (PlanRow r : rows) {
                if (r.action().equals(action.wireName())
                    && r.subject().equals(subject)
                    && !PlanState.of(r.state()).finished()) {
                  Object g = r.params().getValue(TEMPLATE_GENERATION);
                  if (!(g instanceof Number n) || n.longValue() == gen) {
                    return r;
                  }
                }
              }
              return null;
            });
  }

  private Instant until() {
    return clock.instant().plus(PENDING_LIFETIME);
  }

  private String hold(Pending p) {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    String token = HexFormat.of().formatHex(b);
    hold(token, p);
    return token;
  }

  private void hold(String token, Pending p) {
    synchronized (pending) {
      Instant now = clock.instant();
      pending.values().removeIf(x -> x.until().isBefore(now));
      pending.put(token, p);
      while (pending.size() > MAX_PENDING) {
        pending.remove(pending.keySet().iterator().next());
      }
    }
  }

  private Pending take(String token) {
    synchronized (pending) {
      Pending p = pending.remove(token);
      return p == null || p.until().isBefore(clock.instant()) ? null : p;
    }
  }

  private Future<Long> audit(
      String actor, String verb, String planId, Who who, String text, String result) {
    if (remediation == null) {
      return Future.succeededFuture(0L);
    }
    return remediation
        .audit(actor, "chat." + verb, planId, who.door(), text, result)
        .recover(
            e -> {
              LOG.warn("chat audit row not written: {}", e.getMessage());
              return Future.failedFuture(e);
            });
  }

  private JsonObject silenceList(List<JsonObject> items) {
    if (items.isEmpty()) {
      return SlackMessages.text("No active or pending silences.", links("Incidents", "/incidents"));
    }
    StringBuilder sb = new StringBuilder("*Silences* (active and pending):\n");
    items.stream()
        .limit(15)
        .forEach(
            s ->
                sb.append("• `")
                    .append(s.getString("id"))
                    .append("` ")
                    .append(
                        escape(
                            String.join(
                                ",",
                                s.getJsonArray("matchers").stream().map(String::valueOf).toList())))
                    .append(" until ")
                    .append(s.getString("endsAt"))
                    .append(" by ")
                    .append(escape(s.getString("createdBy")))
                    .append(" — ")
                    .append(escape(s.getString("comment")))
                    .append('\n'));
    return SlackMessages.text(sb.toString().strip(), links("Incidents", "/incidents"));
  }

  private JsonObject notAvailable(String why) {
    return SlackMessages.text(why, List.of());
  }

  /** A failed request as a message: the console's reason for an ApiException, else one line. */
  private static JsonObject failure(Throwable e) {
    if (e instanceof ApiException a) {
      String reason = a.toJson().getString("reason", a.getMessage());
      return SlackMessages.text(
          (a.status() == 400 ? "Cannot do that: " : "Refused (" + a.status() + "): ")
              + escape(reason)
              + "\nNothing was changed.",
          List.of());
    }
    LOG.warn("chat request failed: {}", e.toString());
    return SlackMessages.text(
        "The console could not complete this ("
            + escape(e.getClass().getSimpleName())
            + "); nothing"
            + " more was done. Try again, or use the web console.",
        List.of());
  }

  private List<SlackMessages.Link> links(String label, String path) {
    return List.of(new SlackMessages.Link(label, console.link(path)));
  }
}
