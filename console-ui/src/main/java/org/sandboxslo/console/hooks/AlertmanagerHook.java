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
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.engine.time.Rfc3339;

/**
 * The Alertmanager webhook receiver ({@code POST /hooks/alertmanager}, payload version "4",
 * reference slo-alerting §4.1) and the alerts it has seen ({@code GET /api/v1/alerts}). Alerts are
 * keyed by {@code fingerprint}; a redelivered notification (Alertmanager retries on 5xx, repeats
 * every repeat_interval) updates the same alert and never duplicates it. Resolved alerts are kept
 * (most recent {@value #KEPT}) so on-call sees what just cleared. Each alert links to the console
 * subject its labels name ({@code namespace} + {@code sandbox_template}, {@code slo}).
 *
 * <p>Bad payloads get 400 with the field and reason (415 unless {@code application/json}, as
 * Alertmanager sends); nothing of a bad payload is stored.
 */
public final class AlertmanagerHook {
  static final int KEPT = 1000;

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
      int notifications) {}

  private final Map<String, Alert> alerts = new LinkedHashMap<>();

  /** Persists each received payload's alerts before the 200 (a failure answers 500); or null. */
  private final java.util.function.Function<
          List<org.sandboxslo.store.IncidentRow>, io.vertx.core.Future<?>>
      persist;

  /** Keeps alerts in memory only. */
  public AlertmanagerHook() {
    this(null);
  }

  /**
   * @param persistOrNull called with every accepted payload's alerts as incident rows; the webhook
   *     answers 200 once its Future succeeds and 500 when it fails, so Alertmanager retries
   */
  public AlertmanagerHook(
      java.util.function.Function<List<org.sandboxslo.store.IncidentRow>, io.vertx.core.Future<?>>
          persistOrNull) {
    this.persist = persistOrNull;
  }

  /** Mounts the webhook and the alerts list on {@code router}. */
  public void mount(Router router) {
    router
        .post("/hooks/alertmanager")
        .handler(JsonBody.reader(4 * 1024 * 1024))
        .handler(this::receive);
    router.get("/api/v1/alerts").handler(this::list);
  }

  private void receive(RoutingContext ctx) {
    JsonObject body = JsonBody.object(ctx, "an Alertmanager webhook payload");
    if (!"4"
        .equals(
            body.getValue("version") == null ? null : String.valueOf(body.getValue("version")))) {
      throw new ApiException(
          400, "bad request", "version", "expected \"4\", got " + body.getValue("version"));
    }
    Object raw = body.getValue("alerts");
    if (!(raw instanceof JsonArray arr)) {
      throw new ApiException(400, "bad request", "alerts", "must be a list");
    }
    String receiver = body.getString("receiver", "");
    Instant now = Instant.now();
    List<Alert> parsed = new ArrayList<>();
    for (int i = 0; i < arr.size(); i++) {
      parsed.add(parse(arr.getValue(i), "alerts[" + i + "]", receiver, now));
    }
    int created = 0;
    for (Alert a : parsed) {
      Alert prev = alerts.remove(a.fingerprint());
      if (prev == null) {
        created++;
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
                  prev.notifications() + 1));
    }
    while (alerts.size() > KEPT) {
      String oldest = alerts.keySet().iterator().next();
      alerts.remove(oldest);
    }
    JsonObject answer =
        new JsonObject()
            .put("received", parsed.size())
            .put("new", created)
            .put("truncatedAlerts", body.getValue("truncatedAlerts"));
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
    stored
        .onSuccess(
            x ->
                ctx.response()
                    .setStatusCode(200)
                    .putHeader("Content-Type", "application/json")
                    .end(answer.encode()))
        .onFailure(ctx::fail);
  }

  private static Alert parse(Object v, String field, String receiver, Instant now) {
    if (!(v instanceof JsonObject a)) {
      throw new ApiException(400, "bad request", field, "must be an object");
    }
    String status = a.getString("status");
    if (!"firing".equals(status) && !"resolved".equals(status)) {
      throw new ApiException(
          400, "bad request", field + ".status", "expected firing or resolved, got " + status);
    }
    String fp = a.getString("fingerprint");
    if (fp == null || fp.isBlank()) {
      throw new ApiException(400, "bad request", field + ".fingerprint", "missing");
    }
    JsonObject labels = a.getJsonObject("labels");
    if (labels == null || labels.getString("alertname") == null) {
      throw new ApiException(400, "bad request", field + ".labels.alertname", "missing");
    }
    return new Alert(
        fp,
        status,
        labels,
        a.getJsonObject("annotations", new JsonObject()),
        time(a.getString("startsAt"), field + ".startsAt"),
        time(a.getString("endsAt"), field + ".endsAt"),
        a.getString("generatorURL"),
        receiver,
        now,
        1);
  }

  private static Instant time(String s, String field) {
    if (s == null || s.startsWith("0001-01-01")) {
      return null; // Alertmanager's zero time: still firing
    }
    try {
      return Rfc3339.parse(field, s);
    } catch (DateTimeParseException e) {
      throw new ApiException(400, "bad request", field, "not an RFC 3339 time: '" + s + "'");
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
    ctx.response()
        .putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("items", items).encode());
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
