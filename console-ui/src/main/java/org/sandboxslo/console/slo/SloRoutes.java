package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.JsonBody;

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
 *   <li>{@code POST /api/v1/slos/{id}/exclusions}: {@code {from,to,reason,author}} → 201 with the
 *       audited exclusion
 * </ul>
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
              Future<JsonObject> f = r.create(body).map(SloJson::slo);
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
                    .delete(ctx.pathParam("id"))
                    .onSuccess(v -> ctx.response().setStatusCode(204).end())
                    .onFailure(ctx::fail));
    router
        .post("/api/v1/slos/:id/exclusions")
        .handler(
            ctx -> {
              SloRegistry r = registry();
              JsonObject body = JsonBody.object(ctx, "an exclusion {from,to,reason,author}");
              reply(ctx, 201, r.exclude(ctx.pathParam("id"), body).map(SloJson::exclusion));
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

  private SloRegistry registry() {
    if (registry == null) {
      throw ApiException.notReady("the SLO service is not running");
    }
    return registry;
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
