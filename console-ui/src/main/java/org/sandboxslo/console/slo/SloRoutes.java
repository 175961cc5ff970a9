package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import org.sandboxslo.console.api.ApiException;

/**
 * SLO routes on the console router (the {@link SloService} attached to the router's Vert.x instance
 * answers them; without one they answer 503):
 *
 * <ul>
 *   <li>{@code GET /api/v1/slos}: {@code {"items":[slo...]}} (see {@link SloJson})
 *   <li>{@code POST /api/v1/slos}: JSON body in the console shape → 201 with the SLO and {@code
 *       Location}; 400 {@code {"error":"bad request","field","reason"}} (C12: objective 100)
 *   <li>{@code GET /api/v1/slos/{id}}: one SLO; 404 unknown
 *   <li>{@code DELETE /api/v1/slos/{id}}: 204; 404 unknown; 409 for default/file SLOs
 *   <li>{@code POST /api/v1/slos/{id}/exclusions}: {@code {from,to,reason,author}} → 201 with the
 *       audited exclusion
 * </ul>
 */
public final class SloRoutes {
  private SloRoutes() {}

  private static final long MAX_BODY = 64 * 1024;

  /** Adds the routes. */
  public static void mount(Router router, Vertx vertx) {
    router.route("/api/v1/slos*").handler(BodyHandler.create().setBodyLimit(MAX_BODY));
    router
        .get("/api/v1/slos")
        .handler(
            ctx ->
                reply(ctx, 200, service(vertx).list().map(a -> new JsonObject().put("items", a))));
    router
        .post("/api/v1/slos")
        .handler(
            ctx -> {
              JsonObject body = body(ctx);
              Future<JsonObject> f = service(vertx).create(body);
              f.onSuccess(
                  o -> ctx.response().putHeader("Location", "/api/v1/slos/" + o.getString("id")));
              reply(ctx, 201, f);
            });
    router
        .get("/api/v1/slos/:id")
        .handler(ctx -> reply(ctx, 200, service(vertx).get(ctx.pathParam("id"))));
    router
        .delete("/api/v1/slos/:id")
        .handler(
            ctx ->
                service(vertx)
                    .delete(ctx.pathParam("id"))
                    .onSuccess(v -> ctx.response().setStatusCode(204).end())
                    .onFailure(ctx::fail));
    router
        .post("/api/v1/slos/:id/exclusions")
        .handler(ctx -> reply(ctx, 201, service(vertx).exclude(ctx.pathParam("id"), body(ctx))));
  }

  /**
   * Adds {@code controllerView} (and {@code disagreement}) to each template item of a templates
   * JSON ({@code {"items":[{"namespace","name",...}]}}) or to a single template item; unchanged
   * when no controller view runs.
   */
  public static JsonObject withControllerView(Vertx vertx, JsonObject json) {
    SloService s = SloService.attached(vertx);
    ControllerViewService v = s == null ? null : s.controllerView();
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

  private static SloService service(Vertx vertx) {
    SloService s = SloService.attached(vertx);
    if (s == null) {
      throw ApiException.notReady("the SLO service is not running");
    }
    return s;
  }

  private static JsonObject body(RoutingContext ctx) {
    String text = ctx.body().asString();
    if (text == null || text.isBlank()) {
      throw ApiException.badRequest("body", "expected a JSON object");
    }
    try {
      return new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw ApiException.badRequest(
          "body", "not a JSON object: " + e.getMessage().replace('\n', ' '));
    }
  }

  private static void reply(RoutingContext ctx, int status, Future<JsonObject> f) {
    f.onSuccess(
            o ->
                ctx.response()
                    .setStatusCode(status)
                    .putHeader("Content-Type", "application/json")
                    .end(o.encode()))
        .onFailure(ctx::fail);
  }
}
