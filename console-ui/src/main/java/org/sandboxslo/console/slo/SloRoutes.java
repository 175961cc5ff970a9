package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Deadline;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.console.api.Replies;
import org.sandboxslo.console.auth.ConsoleAuth;

/**
 * SLO routes on the console router, answered by the {@link SloRegistry} given to the constructor
 * (503 for every route without one):
 *
 * <ul>
 *   <li>{@code GET /api/v1/slos}: {@code {"items":[slo...]}} (see {@link SloJson})
 *   <li>{@code POST /api/v1/slos}: {@code application/json} body in the console shape (else 415) →
 *       201 with the SLO and {@code Location}; 400 {@code {"error":"bad request","field","reason"}}
 *       (C12: objective 100)
 *   <li>{@code GET /api/v1/slos/{id}}: one SLO; 404 unknown
 *   <li>{@code DELETE /api/v1/slos/{id}}: 204; 404 unknown; 409 for default/file SLOs
 *   <li>{@code POST /api/v1/slos/{id}/exclusions}: {@code {from,to,reason}} → 201 with the audited
 *       exclusion (author = the signed-in caller)
 *   <li>{@code DELETE /api/v1/slos/{id}/exclusions/{exclusionId}?reason=}: 200 with the revoked
 *       exclusion; 404 unknown or already revoked
 * </ul>
 *
 * Writes need a signed-in caller with role {@code slo-owner} for the SLO's namespace (401/403, see
 * {@link org.sandboxslo.console.auth.ConsoleAuth}) and are audited with that caller.
 */
public final class SloRoutes {
  private final SloRegistry registry;
  private final ControllerViewVerticle controllerView;

  /**
   * @param registryOrNull the registry; null when the SLO service does not run
   * @param controllerViewOrNull the controller view added to template items; null when off
   */
  public SloRoutes(SloRegistry registryOrNull, ControllerViewVerticle controllerViewOrNull) {
    this.registry = registryOrNull;
    this.controllerView = controllerViewOrNull;
  }

  /** Adds the routes. */
  public void mount(Router router) {
    router.post("/api/v1/slos").handler(JsonBody.reader(JsonBody.DEFAULT_LIMIT_BYTES));
    router
        .post("/api/v1/slos/:id/exclusions")
        .handler(JsonBody.reader(JsonBody.DEFAULT_LIMIT_BYTES));
    router
        .get("/api/v1/slos")
        .handler(
            ctx ->
                reply(
                    ctx,
                    200,
                    registry()
                        .list()
                        .map(
                            l ->
                                new JsonObject()
                                    .put(
                                        "items",
                                        new JsonArray(l.stream().map(SloJson::slo).toList())))));
    router
        .post("/api/v1/slos")
        .handler(
            ctx -> {
              SloRegistry r = registry();
              JsonObject body = JsonBody.object(ctx, "an SLO definition");
              Future<JsonObject> f =
                  r.create(ConsoleAuth.caller(ctx), body, Deadline.of(ctx)).map(SloJson::slo);
              f.onSuccess(
                  o -> ctx.response().putHeader("Location", "/api/v1/slos/" + o.getString("id")));
              reply(ctx, 201, f);
            });
    router
        .get("/api/v1/slos/:id")
        .handler(ctx -> reply(ctx, 200, registry().get(ctx.pathParam("id")).map(SloJson::slo)));
    router
        .delete("/api/v1/slos/:id")
        .handler(
            ctx ->
                registry()
                    .delete(ConsoleAuth.caller(ctx), ctx.pathParam("id"))
                    .onSuccess(v -> Replies.json(ctx, 204, null))
                    .onFailure(ctx::fail));
    router
        .post("/api/v1/slos/:id/exclusions")
        .handler(
            ctx -> {
              SloRegistry r = registry();
              JsonObject body = JsonBody.object(ctx, "an exclusion {from,to,reason}");
              reply(
                  ctx,
                  201,
                  r.exclude(ConsoleAuth.caller(ctx), ctx.pathParam("id"), body, Deadline.of(ctx))
                      .map(SloJson::exclusion));
            });
    router
        .delete("/api/v1/slos/:id/exclusions/:exclusionId")
        .handler(
            ctx -> {
              SloRegistry r = registry();
              String raw = ctx.pathParam("exclusionId");
              long id;
              try {
                id = Long.parseLong(raw);
              } catch (NumberFormatException e) {
                throw ApiException.badRequest(
                    "exclusionId", "expected the numeric id of an exclusion, got '" + raw + "'");
              }
              String reason = ctx.request().getParam("reason");
              if (reason != null && (reason.isBlank() || reason.length() > 1024)) {
                throw ApiException.badRequest("reason", "must be 1..1024 characters");
              }
              reply(
                  ctx,
                  200,
                  r.revokeExclusion(ConsoleAuth.caller(ctx), ctx.pathParam("id"), id, reason)
                      .map(x -> SloJson.exclusion(x).put("revoked", true)));
            });
  }

  /**
   * Adds {@code controllerView} (and {@code disagreement}) to each template item of a templates
   * JSON ({@code {"items":[{"namespace","name",...}]}}) or to a single template item; unchanged
   * when no controller view runs.
   */
  public JsonObject withControllerView(JsonObject json) {
    ControllerViewVerticle v = controllerView;
    if (v == null) {
      return json;
    }
    if (json.containsKey("items")) {
      json.getJsonArray("items")
          .forEach(
              i -> {
                if (i instanceof JsonObject o) {
                  v.decorate(o);
                }
              });
    } else {
      v.decorate(json);
    }
    return json;
  }

  /**
   * The SLO part of {@code /api/v1/status}: {@code {"running", "loadErrors":[{"slo","reason"}]}}.
   */
  public JsonObject status() {
    JsonArray errors = new JsonArray();
    if (registry != null) {
      registry
          .loadErrors()
          .forEach(e -> errors.add(new JsonObject().put("slo", e.slo()).put("reason", e.reason())));
    }
    return new JsonObject().put("running", registry != null).put("loadErrors", errors);
  }

  private SloRegistry registry() {
    if (registry == null) {
      throw ApiException.notReady("the SLO service is not running");
    }
    return registry;
  }

  private static void reply(RoutingContext ctx, int status, Future<JsonObject> f) {
    f.onSuccess(o -> Replies.json(ctx, status, o)).onFailure(ctx::fail);
  }
}
