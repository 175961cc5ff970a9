package org.sandboxslo.console.hooks;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.DropCounter;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.console.api.Replies;
import org.sandboxslo.engine.time.Rfc3339;
import org.sandboxslo.store.IncidentRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Alertmanager webhook receiver ({@code POST /hooks/alertmanager}, payload version "4",
 * reference slo-alerting §4.1), the alerts it has seen ({@code GET /api/v1/alerts}) and the groups
 * ({@code GET /api/v1/alert-groups}).
 *
 * <ul>
 *   <li>The payload is read strictly by {@link WebhookPayload} (a wrong type anywhere → 400 naming
 *       the field; 415 unless {@code application/json}); nothing of a bad payload is kept.
 *   <li>Alerts are keyed by {@code fingerprint}; each alert's own status wins over the group's; a
 *       zero {@code endsAt} means open; a resolved alert keeps its {@code endsAt}, so its incident
 *       has a duration. A redelivered identical notification (Alertmanager retries on 5xx and
 *       repeats every repeat_interval) changes nothing, here or in the store.
 *   <li>{@code truncatedAlerts > 0} (the receiver's {@code max_alerts}) marks the group incomplete.
 *       Alerts not in a notification are never resolved because of it; with {@code
 *       sloconsole.alertmanager.url} the console re-reads the group from {@code GET /api/v2/alerts}
 *       with the group's labels as filter matchers and records what it finds.
 *   <li>Resolved alerts are kept in memory (most recent {@value #KEPT}) so on-call sees what just
 *       cleared; each links to the console subject its labels name. Groups: the last {@value
 *       #KEPT_GROUPS}.
 * </ul>
 *
 * <p>Sign-in: the webhook is behind the console's authentication layer ({@code ConsoleAuth}), which
 * admits only the Alertmanager webhook secret ({@code sloconsole.alertmanager.webhook-token}, as
 * {@code Bearer} or the Basic password).
 *
 * <p>Bounded memory: at most {@value #KEPT} alerts per notification (more is a 400) and held, and
 * {@value #MAX_TOTAL_BYTES} bytes of labels and annotations in total (oldest dropped first, counted
 * as {@code sandbox_slo_dropped_total{kind="alert",reason="cap"}}); labels over {@value
 * #MAX_ALERT_BYTES} bytes are a 400 (they identify the alert), and an alert whose labels and
 * annotations exceed that keeps its labels and loses its annotations ({@code reason="oversized"}).
 */
public final class AlertmanagerHook {
  private static final Logger LOG = LoggerFactory.getLogger(AlertmanagerHook.class);
  static final int KEPT = 1000;
  static final int KEPT_GROUPS = 500;
  static final int MAX_ALERT_BYTES = 16 * 1024;
  static final long MAX_TOTAL_BYTES = 4L * 1024 * 1024;
  static final long MAX_BODY_BYTES = 4L * 1024 * 1024;
  static final int MAX_GENERATOR_CHARS = 2048;

  /** One alert as last notified. Touched only on the verticle's event loop. */
  record Alert(
      String fingerprint,
      String status,
      JsonObject labels,
      JsonObject annotations,
      Instant startsAt,
      Instant endsAt,
      String generatorUrl,
      String receiver,
      Instant receivedAt,
      int notifications,
      int bytes) {
    /** Same content as {@code o} (ignoring when and how often it was received). */
    boolean sameAs(Alert o) {
      return status.equals(o.status)
          && labels.equals(o.labels)
          && annotations.equals(o.annotations)
          && Objects.equals(startsAt, o.startsAt)
          && Objects.equals(endsAt, o.endsAt)
          && Objects.equals(generatorUrl, o.generatorUrl)
          && Objects.equals(receiver, o.receiver);
    }
  }

  /** A notification group as last notified, and its last re-read. */
  record Group(
      String groupKey,
      String receiver,
      String status,
      Map<String, String> groupLabels,
      int alerts,
      int truncatedAlerts,
      Instant receivedAt,
      Instant rereadAt,
      Integer rereadAlerts,
      String rereadError) {
    boolean incomplete() {
      return truncatedAlerts > 0;
    }

    JsonObject toJson() {
      return new JsonObject()
          .put("groupKey", groupKey)
          .put("receiver", receiver)
          .put("status", status)
          .put("groupLabels", new JsonObject(new LinkedHashMap<>(groupLabels)))
          .put("alerts", alerts)
          .put("truncatedAlerts", truncatedAlerts)
          .put("incomplete", incomplete())
          .put("receivedAt", receivedAt.toString())
          .put(
              "reread",
              rereadAt == null && rereadError == null
                  ? null
                  : new JsonObject()
                      .put("at", rereadAt == null ? null : rereadAt.toString())
                      .put("alerts", rereadAlerts)
                      .put("error", rereadError));
    }
  }

  private final Map<String, Alert> alerts = new LinkedHashMap<>();
  private final Map<String, Group> groups = new LinkedHashMap<>();
  private final DropCounter drops;
  private long totalBytes;

  /** Persists each received payload's alerts before the 200 (a failure answers 500); or null. */
  private final Function<List<IncidentRow>, Future<?>> persist;

  private final Clock clock;
  private AlertmanagerClient am;

  /** Keeps alerts in memory only and counts nothing it drops. */
  public AlertmanagerHook() {
    this(null, DropCounter.NONE);
  }

  /**
   * @param drops counts alerts dropped by the caps
   */
  public AlertmanagerHook(DropCounter drops) {
    this(null, drops);
  }

  /**
   * @param persistOrNull called with every accepted payload's alerts as incident rows; the webhook
   *     answers 200 once its Future succeeds and 500 when it fails, so Alertmanager retries
   * @param drops counts alerts dropped by the caps
   */
  public AlertmanagerHook(Function<List<IncidentRow>, Future<?>> persistOrNull, DropCounter drops) {
    this(persistOrNull, drops, Clock.systemUTC());
  }

  /** As above, with the clock that stamps received times. */
  public AlertmanagerHook(
      Function<List<IncidentRow>, Future<?>> persistOrNull, DropCounter drops, Clock clock) {
    this.persist = persistOrNull;
    this.drops = Objects.requireNonNull(drops, "drops");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Mounts the webhook and the lists on {@code router}; truncated groups are not re-read. */
  public void mount(Router router) {
    mount(router, null);
  }

  /**
   * Mounts the webhook and the lists on {@code router}.
   *
   * @param amOrNull Alertmanager's API, to re-read truncated groups; null to leave them incomplete
   */
  public void mount(Router router, AlertmanagerClient amOrNull) {
    this.am = amOrNull;
    router
        .post("/hooks/alertmanager")
        .handler(JsonBody.reader(MAX_BODY_BYTES))
        .handler(this::receive);
    router.get("/api/v1/alerts").handler(this::list);
    router.get("/api/v1/alert-groups").handler(this::groups);
  }

  /** Alerts held now. */
  int size() {
    return alerts.size();
  }

  /** Bytes of labels and annotations held now. */
  long totalBytes() {
    return totalBytes;
  }

  /**
   * An alert as held: annotations replaced by a note when labels and annotations together exceed
   * {@value #MAX_ALERT_BYTES} bytes (counted as dropped, {@code reason="oversized"}), the generator
   * link cut at {@value #MAX_GENERATOR_CHARS} characters, and its size in bytes.
   */
  private static Alert bounded(
      DropCounter drops,
      String fp,
      String status,
      JsonObject labels,
      JsonObject annotations,
      Instant startsAt,
      Instant endsAt,
      String generatorUrl,
      String receiver,
      Instant now) {
    String generator =
        generatorUrl != null && generatorUrl.length() > MAX_GENERATOR_CHARS
            ? generatorUrl.substring(0, MAX_GENERATOR_CHARS)
            : generatorUrl;
    int labelBytes = labels.encode().length();
    int bytes = labelBytes + annotations.encode().length();
    if (bytes > MAX_ALERT_BYTES) {
      drops.dropped("alert", "oversized");
      annotations =
          new JsonObject()
              .put(
                  "sloconsole",
                  "annotations dropped: "
                      + (bytes - labelBytes)
                      + " bytes, over the per-alert limit of "
                      + MAX_ALERT_BYTES);
      bytes = labelBytes + annotations.encode().length();
    }
    return new Alert(
        fp,
        status,
        labels,
        annotations,
        startsAt,
        endsAt,
        generator,
        receiver,
        now,
        1,
        bytes + fp.length() + (generator == null ? 0 : generator.length()));
  }

  /** Holds {@code a} (newest last), replacing an earlier version, then applies the caps. */
  private void hold(Alert a) {
    Alert prev = alerts.remove(a.fingerprint());
    if (prev != null) {
      totalBytes -= prev.bytes();
    }
    alerts.put(a.fingerprint(), a);
    totalBytes += a.bytes();
    while (alerts.size() > KEPT || totalBytes > MAX_TOTAL_BYTES) {
      String oldest = alerts.keySet().iterator().next();
      totalBytes -= alerts.remove(oldest).bytes();
      drops.dropped("alert", "cap");
    }
  }

  private void receive(RoutingContext ctx) {
    WebhookPayload payload =
        WebhookPayload.parse(JsonBody.object(ctx, "an Alertmanager webhook payload"));
    Instant now = clock.instant();
    List<Alert> parsed = new ArrayList<>();
    for (WebhookPayload.Alert a : payload.alerts()) {
      Instant ends = a.endsAt();
      if (a.status() == WebhookPayload.AlertStatus.RESOLVED && ends == null) {
        // resolved without an end time: the first time we heard of it, kept on redelivery
        Alert prev = alerts.get(a.fingerprint());
        ends = prev != null && prev.endsAt() != null ? prev.endsAt() : now;
      }
      parsed.add(
          bounded(
              drops,
              a.fingerprint(),
              a.status().wireName(),
              a.labels(),
              a.annotations(),
              a.startsAt(),
              ends,
              a.generatorUrl(),
              payload.receiver(),
              now));
    }
    int created = 0;
    int changed = 0;
    List<Alert> fresh = new ArrayList<>();
    for (Alert a : parsed) {
      Alert prev = alerts.get(a.fingerprint());
      if (prev != null && prev.sameAs(a)) {
        continue; // a redelivery: nothing changes
      }
      if (prev == null) {
        created++;
      } else {
        changed++;
      }
      hold(
          prev == null
              ? a
              : new Alert(
                  a.fingerprint(),
                  a.status(),
                  a.labels(),
                  a.annotations(),
                  a.startsAt(),
                  a.endsAt(),
                  a.generatorUrl(),
                  a.receiver(),
                  a.receivedAt(),
                  prev.notifications() + 1,
                  a.bytes()));
      fresh.add(a);
    }
    Group g = group(payload, now);
    boolean reread = g.incomplete() && am != null;
    JsonObject answer =
        new JsonObject()
            .put("received", parsed.size())
            .put("new", created)
            .put("changed", changed)
            .put("unchanged", parsed.size() - created - changed)
            .put("truncatedAlerts", payload.truncatedAlerts())
            .put("incomplete", g.incomplete())
            .put("reread", reread);
    Future<?> stored = persist == null ? Future.succeededFuture() : persist.apply(rows(fresh));
    stored
        .onSuccess(
            x -> {
              Replies.json(ctx, 200, answer);
              if (reread) {
                reread(g);
              }
            })
        .onFailure(ctx::fail);
  }

  private Group group(WebhookPayload p, Instant now) {
    Group prev = groups.remove(p.groupKey());
    Group g =
        new Group(
            p.groupKey(),
            p.receiver(),
            p.status().wireName(),
            p.groupLabels(),
            p.alerts().size(),
            p.truncatedAlerts(),
            now,
            prev == null ? null : prev.rereadAt(),
            prev == null ? null : prev.rereadAlerts(),
            prev == null ? null : prev.rereadError());
    groups.put(p.groupKey(), g);
    while (groups.size() > KEPT_GROUPS) {
      groups.remove(groups.keySet().iterator().next());
    }
    if (g.incomplete()) {
      LOG.info(
          "alert group {} is incomplete: {} alerts left out (max_alerts){}",
          p.groupKey(),
          p.truncatedAlerts(),
          am == null ? "; set sloconsole.alertmanager.url to re-read it" : "; re-reading it");
    }
    return g;
  }

  /** Re-reads a truncated group from Alertmanager's API v2 and records the alerts found. */
  private void reread(Group g) {
    List<SilenceMatcher> filters = new ArrayList<>();
    g.groupLabels().forEach((k, v) -> filters.add(SilenceMatcher.eq(k, v)));
    am.alerts(filters)
        .compose(
            arr -> {
              Instant now = clock.instant();
              List<Alert> found = new ArrayList<>();
              for (Object o : arr) {
                Alert a = o instanceof JsonObject j ? fromApi(j, g.receiver(), now, drops) : null;
                if (a != null) {
                  found.add(a);
                }
              }
              List<Alert> fresh = new ArrayList<>();
              for (Alert a : found) {
                Alert prev = alerts.get(a.fingerprint());
                if (prev == null || !prev.sameAs(a)) {
                  hold(a);
                  fresh.add(a);
                }
              }
              Future<?> stored =
                  persist == null ? Future.succeededFuture() : persist.apply(rows(fresh));
              return stored.map(found.size());
            })
        .onComplete(
            ar -> {
              Group now = groups.get(g.groupKey());
              if (now == null) {
                return;
              }
              groups.put(
                  g.groupKey(),
                  new Group(
                      now.groupKey(),
                      now.receiver(),
                      now.status(),
                      now.groupLabels(),
                      now.alerts(),
                      now.truncatedAlerts(),
                      now.receivedAt(),
                      ar.succeeded() ? clock.instant() : now.rereadAt(),
                      ar.succeeded() ? ar.result() : now.rereadAlerts(),
                      ar.succeeded() ? null : ar.cause().getMessage()));
              if (ar.failed()) {
                LOG.warn("alert group {} not re-read: {}", g.groupKey(), ar.cause().getMessage());
              }
            });
  }

  /**
   * An API v2 alert ({@code GET /api/v2/alerts}: only unresolved alerts) as a firing alert; null
   * when it lacks a fingerprint or alertname.
   */
  static Alert fromApi(JsonObject a, String receiver, Instant now) {
    return fromApi(a, receiver, now, DropCounter.NONE);
  }

  /**
   * As above; an alert whose labels exceed {@value #MAX_ALERT_BYTES} bytes or whose fingerprint is
   * over {@value WebhookPayload#MAX_FINGERPRINT_CHARS} characters is skipped (null, counted as
   * {@code reason="oversized"}), and the caps of the webhook apply.
   */
  static Alert fromApi(JsonObject a, String receiver, Instant now, DropCounter drops) {
    Object fp = a.getValue("fingerprint");
    Object labels = a.getValue("labels");
    if (!(fp instanceof String f)
        || !(labels instanceof JsonObject l)
        || !(l.getValue("alertname") instanceof String)) {
      return null;
    }
    if (f.length() > WebhookPayload.MAX_FINGERPRINT_CHARS
        || l.encode().length() > MAX_ALERT_BYTES) {
      drops.dropped("alert", "oversized");
      return null;
    }
    Instant starts;
    try {
      starts =
          a.getValue("startsAt") instanceof String s
              ? WebhookPayload.millis(Rfc3339.parse("startsAt", s))
              : null;
    } catch (DateTimeParseException e) {
      starts = null;
    }
    JsonObject capped = new JsonObject();
    l.forEach(
        e ->
            capped.put(
                e.getKey(),
                WebhookPayload.cap(String.valueOf(e.getValue()), WebhookPayload.MAX_LABEL_CHARS)));
    JsonObject ann = new JsonObject();
    if (a.getValue("annotations") instanceof JsonObject an) {
      an.forEach(
          e ->
              ann.put(
                  e.getKey(),
                  WebhookPayload.cap(
                      String.valueOf(e.getValue()), WebhookPayload.MAX_ANNOTATION_CHARS)));
    }
    return bounded(
        drops,
        f,
        "firing",
        capped,
        ann,
        starts,
        null,
        a.getValue("generatorURL") instanceof String g ? g : "",
        receiver,
        now);
  }

  private static List<IncidentRow> rows(List<Alert> as) {
    return as.stream()
        .map(
            a ->
                IncidentRow.of(
                    a.fingerprint(),
                    a.status(),
                    a.labels(),
                    a.annotations(),
                    a.startsAt(),
                    a.endsAt(),
                    a.generatorUrl(),
                    a.receiver(),
                    a.receivedAt()))
        .toList();
  }

  /** {@code GET /api/v1/alerts?state=firing|resolved|all} (default all), newest first. */
  private void list(RoutingContext ctx) {
    String state = ctx.request().getParam("state", "all");
    if (!List.of("firing", "resolved", "all").contains(state)) {
      throw new ApiException(
          400,
          "bad request",
          "state",
          "unknown state '" + state + "'; known: firing, resolved, all");
    }
    JsonArray items = new JsonArray();
    alerts.values().stream()
        .filter(a -> state.equals("all") || state.equals(a.status()))
        .sorted(Comparator.comparing(Alert::receivedAt).reversed())
        .forEach(a -> items.add(json(a)));
    Replies.json(ctx, 200, new JsonObject().put("items", items));
  }

  /** {@code GET /api/v1/alert-groups?incomplete=true}: the groups, newest notification first. */
  private void groups(RoutingContext ctx) {
    boolean onlyIncomplete = "true".equals(ctx.request().getParam("incomplete"));
    JsonArray items = new JsonArray();
    groups.values().stream()
        .filter(g -> !onlyIncomplete || g.incomplete())
        .sorted(Comparator.comparing(Group::receivedAt).reversed())
        .forEach(g -> items.add(g.toJson()));
    Replies.json(ctx, 200, new JsonObject().put("items", items));
  }

  static JsonObject json(Alert a) {
    JsonObject links = new JsonObject();
    String ns = a.labels().getString("namespace", a.labels().getString("exported_namespace"));
    String template = a.labels().getString("sandbox_template");
    if (ns != null && template != null) {
      links.put("template", "/api/v1/templates/" + ns + "/" + template);
      links.put("findings", "/api/v1/findings?subject=" + ns + "/" + template);
    }
    if (a.labels().getString("slo") != null) {
      links.put("slo", "/api/v1/slos/" + a.labels().getString("slo"));
    }
    return new JsonObject()
        .put("fingerprint", a.fingerprint())
        .put("alertname", a.labels().getString("alertname"))
        .put("status", a.status())
        .put("labels", a.labels())
        .put("annotations", a.annotations())
        .put("startsAt", a.startsAt() == null ? null : a.startsAt().toString())
        .put("endsAt", a.endsAt() == null ? null : a.endsAt().toString())
        .put("generatorURL", a.generatorUrl())
        .put("receiver", a.receiver())
        .put("receivedAt", a.receivedAt().toString())
        .put("notifications", a.notifications())
        .put("links", links);
  }
}
