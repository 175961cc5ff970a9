package org.sandboxslo.console.routes;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.slo.SloJson;
import org.sandboxslo.console.slo.SloRegistry;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.store.IncidentRow;
import org.sandboxslo.store.IncidentStore;
import org.sandboxslo.store.SliStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Incidents: alerts received by the Alertmanager webhook, persisted in PostgreSQL ({@link
 * IncidentStore}, one row per firing episode) and joined to their subject. {@code GET
 * /api/v1/incidents?state=firing|resolved|all&namespace=&template=&since=&limit=&cursor=}, newest
 * first, paged ({@code limit} default 200, at most 2000; {@code next} is the {@code cursor} of the
 * following page, null on the last):
 *
 * <pre>{@code
 * {"items":[{"id":"<fingerprint>@<startsAt>","fingerprint","alertname","status","severity",
 *   "namespace","template","pool","slo","summary","description","labels","annotations",
 *   "startsAt","endsAt","durationSeconds","firstReceivedAt","lastReceivedAt","notifications",
 *   "links":{"template":"/templates/ns/t","pool":"/pools/ns/p","slo":"/slos/x",
 *            "findings":"/findings?subject=ns/t"},
 *   "findings":[{"id","kind","severity","subject","state"}],
 *   "sloStatus":{"status","budgetRemaining","firingTiers"}|null}],"next":"<cursor>"|null}
 * }</pre>
 *
 * Findings are joined when their subject names the alert's template or one of its pools (or the
 * alert's pool). 400 naming the field for a bad filter; 503 without a store.
 */
public final class IncidentRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(IncidentRoutes.class);

  private IncidentRoutes() {}

  /** What the Alertmanager webhook calls with each accepted payload; null without a store. */
  public static Function<List<IncidentRow>, Future<?>> persister(SliStore storeOrNull) {
    if (storeOrNull == null) {
      return null;
    }
    IncidentStore store = new IncidentStore(storeOrNull.pool());
    return rows ->
        store
            .record(rows)
            .onFailure(
                e -> LOG.warn("incidents not stored (Alertmanager will retry): {}", e.toString()));
  }

  /**
   * @param slosOrNull the SLO registry (joins each incident to its SLO's status), or null
   */
  public static void mount(
      Router router,
      SloRegistry slosOrNull,
      ConsoleSources sources,
      SliStore storeOrNull,
      Clock clock) {
    IncidentStore store = storeOrNull == null ? null : new IncidentStore(storeOrNull.pool());
    router.get("/api/v1/incidents").handler(ctx -> list(ctx, slosOrNull, sources, store, clock));
  }

  private static void list(
      RoutingContext ctx,
      SloRegistry slos,
      ConsoleSources sources,
      IncidentStore store,
      Clock clock) {
    String state = ctx.request().getParam("state", "all");
    if (!List.of("firing", "resolved", "all").contains(state)) {
      throw ApiException.badRequest(
          "state", "unknown state '" + state + "'; known: firing, resolved, all");
    }
    String namespace = Json.param(ctx, "namespace");
    String template = Json.param(ctx, "template");
    String sinceText = Json.param(ctx, "since");
    Instant since;
    try {
      since = sinceText == null ? null : Instant.parse(sinceText);
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          "since", "expected an RFC 3339 time like 2026-11-29T09:00:00Z, got '" + sinceText + "'");
    }
    int limit = Json.intParam(ctx, "limit", 200, 1, 2000);
    IncidentStore.Cursor after = cursor(Json.param(ctx, "cursor"));
    if (store == null) {
      throw ApiException.notReady("incidents need the store, which is not configured");
    }
    Future<Map<String, JsonObject>> sloStatus =
        slos == null
            ? Future.succeededFuture(Map.of())
            : slos.list()
                .map(
                    a -> {
                      Map<String, JsonObject> byId = new HashMap<>();
                      a.forEach(
                          r -> {
                            JsonObject j = SloJson.slo(r);
                            byId.put(j.getString("id"), j);
                          });
                      return byId;
                    })
                .recover(e -> Future.succeededFuture(Map.of()));
    Instant now = clock.instant();
    Json.reply(
        ctx,
        store
            .list(state.equals("all") ? null : state, namespace, template, since, limit, after)
            .compose(
                rows ->
                    sloStatus.map(
                        s ->
                            json(rows, s, sources, now)
                                .put(
                                    "next",
                                    rows.size() < limit
                                        ? null
                                        : cursor(
                                            IncidentStore.Cursor.after(
                                                rows.get(rows.size() - 1)))))));
  }

  /** The opaque page cursor: base64url of {@code startsAt|fingerprint}. */
  static String cursor(IncidentStore.Cursor c) {
    return java.util.Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(
            (c.startsAt() + "|" + c.fingerprint())
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  static IncidentStore.Cursor cursor(String text) {
    if (text == null) {
      return null;
    }
    try {
      String s =
          new String(
              java.util.Base64.getUrlDecoder().decode(text),
              java.nio.charset.StandardCharsets.UTF_8);
      int bar = s.indexOf('|');
      return new IncidentStore.Cursor(Instant.parse(s.substring(0, bar)), s.substring(bar + 1));
    } catch (IllegalArgumentException
        | DateTimeParseException
        | StringIndexOutOfBoundsException e) {
      throw ApiException.badRequest("cursor", "not a cursor from a previous page's \"next\"");
    }
  }

  static JsonObject json(
      List<IncidentRow> rows, Map<String, JsonObject> slos, ConsoleSources sources, Instant now) {
    FleetSnapshot snap = sources.snapshot();
    List<FindingState> findings = sources.findings();
    JsonArray items = new JsonArray();
    for (IncidentRow r : rows) {
      JsonObject links = new JsonObject();
      List<String> subjects = new java.util.ArrayList<>();
      if (r.namespace() != null && r.sandboxTemplate() != null) {
        String t = r.namespace() + "/" + r.sandboxTemplate();
        links.put("template", "/templates/" + t).put("findings", "/findings?subject=" + t);
        subjects.add(t);
        for (String p : poolsOf(snap, r.namespace(), r.sandboxTemplate())) {
          subjects.add(r.namespace() + "/" + p);
        }
      }
      if (r.namespace() != null && r.warmpoolName() != null) {
        links.put("pool", "/pools/" + r.namespace() + "/" + r.warmpoolName());
        subjects.add(r.namespace() + "/" + r.warmpoolName());
      }
      if (r.slo() != null) {
        links.put("slo", "/slos/" + r.slo());
      }
      JsonArray joined = new JsonArray();
      for (FindingState f : findings) {
        String subject = f.finding().subject();
        if (subjects.stream().anyMatch(s -> subject.endsWith(" " + s) || subject.equals(s))) {
          joined.add(
              new JsonObject()
                  .put("id", FindingRoutes.id(f.finding()))
                  .put("kind", f.finding().kind().wireName())
                  .put("severity", f.finding().severity().wireName())
                  .put("subject", subject)
                  .put("state", f.open() ? "open" : "closed"));
        }
      }
      JsonObject slo = r.slo() == null ? null : slos.get(r.slo());
      items.add(
          new JsonObject()
              .put("id", r.fingerprint() + "@" + r.startsAt())
              .put("fingerprint", r.fingerprint())
              .put("alertname", r.alertname())
              .put("status", r.status())
              .put("severity", r.severity())
              .put("namespace", r.namespace())
              .put("template", r.sandboxTemplate())
              .put("pool", r.warmpoolName())
              .put("slo", r.slo())
              .put("summary", r.annotations().getString("summary"))
              .put("description", r.annotations().getString("description"))
              .put("labels", r.labels())
              .put("annotations", r.annotations())
              .put("startsAt", r.startsAt().toString())
              .put("endsAt", Json.time(r.endsAt()))
              .put("durationSeconds", r.duration(now).toSeconds())
              .put("firstReceivedAt", r.firstReceivedAt().toString())
              .put("lastReceivedAt", r.lastReceivedAt().toString())
              .put("notifications", r.notifications())
              .put("links", links)
              .put("findings", joined)
              .put(
                  "sloStatus",
                  slo == null
                      ? null
                      : new JsonObject()
                          .put("status", slo.getValue("status"))
                          .put("budgetRemaining", slo.getValue("budgetRemaining"))
                          .put("firingTiers", slo.getValue("firingTiers"))));
    }
    return new JsonObject().put("items", items);
  }

  private static List<String> poolsOf(FleetSnapshot s, String ns, String template) {
    if (s == null) {
      return List.of();
    }
    for (SliSnapshot t : s.templates()) {
      if (t.key().namespace().equals(ns) && t.key().name().equals(template)) {
        return t.related();
      }
    }
    return List.of();
  }
}
