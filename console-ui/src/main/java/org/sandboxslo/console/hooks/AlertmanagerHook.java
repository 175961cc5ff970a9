package org.sandboxslo.console.hooks;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.DropCounter;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.console.api.Replies;
import org.sandboxslo.engine.time.Rfc3339;

/**
 * The Alertmanager webhook receiver ({@code POST /hooks/alertmanager}, payload version "4",
 * reference slo-alerting §4.1) and the alerts it has seen ({@code GET /api/v1/alerts}). Alerts are
 * keyed by {@code fingerprint}; a redelivered notification (Alertmanager retries on 5xx, repeats
 * every repeat_interval) updates the same alert and never duplicates it. Resolved alerts are kept
 * so on-call sees what just cleared. Each alert links to the console subject its labels name
 * ({@code namespace} + {@code sandbox_template}, {@code slo}).
 *
 * <p>Sign-in: the route is behind the console's authentication layer, which admits only the
 * Alertmanager webhook secret ({@code sloconsole.alertmanager.webhook-token}).
 *
 * <p>Bounded memory: at most {@value #KEPT} alerts and {@value #MAX_TOTAL_BYTES} bytes of labels
 * and annotations in total (oldest dropped first, counted as {@code
 * sandbox_slo_dropped_total{kind="alert",reason="cap"}}); an alert whose labels and annotations
 * exceed {@value #MAX_ALERT_BYTES} bytes keeps its labels and loses its annotations ({@code
 * reason="oversized"}).
 *
 * <p>Bad payloads get 400 with the field and reason (415 unless {@code application/json}, as
 * Alertmanager sends): wrong JSON types, NUL characters, labels over the per-alert limit. Nothing
 * of a bad payload is stored.
 */
public final class AlertmanagerHook {
  static final int KEPT = 1000;
  static final int MAX_ALERT_BYTES = 16 * 1024;
  static final long MAX_TOTAL_BYTES = 4L * 1024 * 1024;
  static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

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
      int bytes) {}

  private final Map<String, Alert> alerts = new LinkedHashMap<>();
  private final DropCounter drops;
  private long totalBytes;

  /** Persists each received payload's alerts before the 200 (a failure answers 500); or null. */
  private final java.util.function.Function<
          List<org.sandboxslo.store.IncidentRow>, io.vertx.core.Future<?>>
      persist;

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
  public AlertmanagerHook(
      java.util.function.Function<List<org.sandboxslo.store.IncidentRow>, io.vertx.core.Future<?>>
          persistOrNull,
      DropCounter drops) {
    this.persist = persistOrNull;
    this.drops = java.util.Objects.requireNonNull(drops, "drops");
  }

  /** Mounts the webhook and the alerts list on {@code router}. */
  public void mount(Router router) {
    router
        .post("/hooks/alertmanager")
        .handler(JsonBody.reader(MAX_BODY_BYTES))
        .handler(this::receive);
    router.get("/api/v1/alerts").handler(this::list);
  }

  /** Alerts held now. */
  int size() {
    return alerts.size();
  }

  /** Bytes of labels and annotations held now. */
  long totalBytes() {
    return totalBytes;
  }

  private void receive(RoutingContext ctx) {
    JsonObject body = JsonBody.object(ctx, "an Alertmanager webhook payload");
    Object version = body.getValue("version");
    if (!(version instanceof String) || !"4".equals(version)) {
      throw new ApiException(
          400, "bad request", "version", "expected \"4\", got " + describe(version));
    }
    Object raw = body.getValue("alerts");
    if (!(raw instanceof JsonArray arr)) {
      throw new ApiException(400, "bad request", "alerts", "must be a list");
    }
    if (arr.size() > KEPT) {
      throw new ApiException(
          400,
          "bad request",
          "alerts",
          "at most " + KEPT + " alerts per notification, got " + arr.size());
    }
    String receiver = optionalString(body, "receiver", "receiver");
    Object truncated = body.getValue("truncatedAlerts");
    if (truncated != null && !(truncated instanceof Number)) {
      throw new ApiException(
          400, "bad request", "truncatedAlerts", "must be a number, got " + describe(truncated));
    }
    Instant now = Instant.now();
    List<Alert> parsed = new ArrayList<>();
    for (int i = 0; i < arr.size(); i++) {
      parsed.add(
          parse(arr.getValue(i), "alerts[" + i + "]", receiver == null ? "" : receiver, now));
    }
    int created = 0;
    for (Alert a : parsed) {
      Alert prev = alerts.remove(a.fingerprint());
      if (prev == null) {
        created++;
      } else {
        totalBytes -= prev.bytes();
      }
      alerts.put(
          a.fingerprint(),
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
      totalBytes += a.bytes();
    }
    while (alerts.size() > KEPT || totalBytes > MAX_TOTAL_BYTES) {
      String oldest = alerts.keySet().iterator().next();
      totalBytes -= alerts.remove(oldest).bytes();
      drops.dropped("alert", "cap");
    }
    JsonObject answer =
        new JsonObject()
            .put("received", parsed.size())
            .put("new", created)
            .put("truncatedAlerts", truncated);
    io.vertx.core.Future<?> stored =
        persist == null
            ? io.vertx.core.Future.succeededFuture()
            : persist.apply(
                parsed.stream()
                    .map(
                        a ->
                            org.sandboxslo.store.IncidentRow.of(
                                a.fingerprint(),
                                a.status(),
                                a.labels(),
                                a.annotations(),
                                a.startsAt(),
                                a.endsAt(),
                                a.generatorUrl(),
                                a.receiver(),
                                a.receivedAt()))
                    .toList());
    stored.onSuccess(x -> Replies.json(ctx, 200, answer)).onFailure(ctx::fail);
  }

  private Alert parse(Object v, String field, String receiver, Instant now) {
    if (!(v instanceof JsonObject a)) {
      throw new ApiException(400, "bad request", field, "must be an object, got " + describe(v));
    }
    String status = optionalString(a, "status", field + ".status");
    if (!"firing".equals(status) && !"resolved".equals(status)) {
      throw new ApiException(
          400, "bad request", field + ".status", "expected firing or resolved, got " + status);
    }
    String fp = optionalString(a, "fingerprint", field + ".fingerprint");
    if (fp == null || fp.isBlank() || fp.length() > 128) {
      throw new ApiException(
          400, "bad request", field + ".fingerprint", "required, 1..128 characters");
    }
    JsonObject labels = stringMap(a.getValue("labels"), field + ".labels");
    if (labels == null || labels.getString("alertname") == null) {
      throw new ApiException(400, "bad request", field + ".labels.alertname", "missing");
    }
    JsonObject annotations = stringMap(a.getValue("annotations"), field + ".annotations");
    if (annotations == null) {
      annotations = new JsonObject();
    }
    int labelBytes = labels.encode().length();
    if (labelBytes > MAX_ALERT_BYTES) {
      throw new ApiException(
          400,
          "bad request",
          field + ".labels",
          "labels are " + labelBytes + " bytes; the limit per alert is " + MAX_ALERT_BYTES);
    }
    String generator = optionalString(a, "generatorURL", field + ".generatorURL");
    if (generator != null && generator.length() > 2048) {
      generator = generator.substring(0, 2048);
    }
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
        time(optionalString(a, "startsAt", field + ".startsAt"), field + ".startsAt"),
        time(optionalString(a, "endsAt", field + ".endsAt"), field + ".endsAt"),
        generator,
        receiver,
        now,
        1,
        bytes + fp.length() + (generator == null ? 0 : generator.length()));
  }

  /** A string field or null; 400 for another JSON type or a NUL character. */
  private static String optionalString(JsonObject o, String key, String field) {
    Object v = o.getValue(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw new ApiException(400, "bad request", field, "must be a string, got " + describe(v));
    }
    checkText(s, field);
    return s;
  }

  private static void checkText(String s, String field) {
    if (s.indexOf('\0') >= 0) {
      throw new ApiException(400, "bad request", field, "must not contain NUL characters");
    }
  }

  /** A JSON object of string values, or null when absent; 400 naming the field otherwise. */
  private static JsonObject stringMap(Object v, String field) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonObject o)) {
      throw new ApiException(
          400, "bad request", field, "must be an object of strings, got " + describe(v));
    }
    for (String k : o.fieldNames()) {
      checkText(k, field);
      Object x = o.getValue(k);
      if (!(x instanceof String s)) {
        throw new ApiException(
            400, "bad request", field + "." + k, "must be a string, got " + describe(x));
      }
      checkText(s, field + "." + k);
    }
    return o;
  }

  private static String describe(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return "'" + (s.length() > 40 ? s.substring(0, 40) + "…" : s).replace('\0', '?') + "'";
    }
    if (v instanceof JsonObject) {
      return "an object";
    }
    if (v instanceof JsonArray) {
      return "a list";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    return "a number";
  }

  private static Instant time(String s, String field) {
    if (s == null || s.startsWith("0001-01-01")) {
      return null; // Alertmanager's zero time: still firing
    }
    try {
      return Rfc3339.parse(field, s);
    } catch (DateTimeParseException e) {
      throw new ApiException(400, "bad request", field, "not an RFC 3339 time: " + describe(s));
    }
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
