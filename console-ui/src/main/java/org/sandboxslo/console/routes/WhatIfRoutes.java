package org.sandboxslo.console.routes;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.engine.whatif.WhatIfComparison;
import org.sandboxslo.engine.whatif.WhatIfRequest;

/**
 * {@code POST /api/v1/whatif}: simulates a demand curve against today's and a proposed warm-pool
 * configuration ({@link WhatIfRequest} gives the body's shape) and answers both results and their
 * differences as JSON ({@link WhatIfRequest#toTree}). The simulation runs on the named worker pool
 * {@code sloconsole-whatif} ({@value #WORKERS} thread, so simulations queue instead of taking every
 * core), never on the event loop. Bad input is a 400 {@code {"error","field","reason"}}: a missing,
 * unknown or invalid field by its path ({@code current.replicas}), a body that is not a JSON
 * object, or a demand of more than {@value #MAX_CLAIMS} claims; 415 unless the body is {@code
 * application/json} and 413 over {@value #MAX_BODY} bytes ({@link JsonBody}).
 */
public final class WhatIfRoutes {
  private WhatIfRoutes() {}

  /** Body limit: a recorded demand of ~100,000 offsets fits. */
  static final long MAX_BODY = 4L * 1024 * 1024;

  /** Claims per request (≈ 5 s of one core at the simulator's speed). */
  public static final int MAX_CLAIMS = 3_000_000;

  static final int WORKERS = 1;

  /** Adds the route to {@code router}. */
  public static void mount(Router router, Vertx vertx) {
    WorkerExecutor workers =
        vertx.createSharedWorkerExecutor("sloconsole-whatif", WORKERS, 2, TimeUnit.MINUTES);
    router.post("/api/v1/whatif").handler(JsonBody.reader(MAX_BODY));
    router.post("/api/v1/whatif").handler(ctx -> handle(ctx, workers));
  }

  private static void handle(RoutingContext ctx, WorkerExecutor workers) {
    Map<String, Object> tree = tree(body(ctx));
    Future<JsonObject> f = workers.executeBlocking(() -> simulate(tree), false);
    f.onSuccess(
            o ->
                ctx.response()
                    .setStatusCode(200)
                    .putHeader("Content-Type", "application/json")
                    .end(o.encode()))
        .onFailure(ctx::fail);
  }

  /**
   * Parses and runs a request tree.
   *
   * @throws ApiException 400 naming the bad field
   */
  static JsonObject simulate(Map<String, Object> tree) {
    WhatIfRequest req;
    try {
      req = WhatIfRequest.parse(tree);
    } catch (WhatIfRequest.BadField e) {
      throw ApiException.badRequest(e.field(), e.reason());
    }
    long[] arrivals;
    try {
      arrivals = req.demand().arrivals();
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("demand", e.getMessage());
    }
    if (arrivals.length > MAX_CLAIMS) {
      throw ApiException.badRequest(
          "demand",
          "the demand makes "
              + arrivals.length
              + " claims; at most "
              + MAX_CLAIMS
              + " per request (shorten the duration or lower the rate)");
    }
    WhatIfComparison c = req.run();
    return new JsonObject(WhatIfRequest.toTree(c));
  }

  private static JsonObject body(RoutingContext ctx) {
    return JsonBody.object(ctx, "a what-if request {\"demand\",\"current\",\"proposed\"}");
  }

  /** A JSON object as plain maps and lists (what the engine's parser reads). */
  public static Map<String, Object> tree(JsonObject o) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : o) {
      m.put(e.getKey(), plain(e.getValue()));
    }
    return m;
  }

  private static Object plain(Object v) {
    if (v instanceof JsonObject o) {
      return tree(o);
    }
    if (v instanceof JsonArray a) {
      List<Object> l = new ArrayList<>(a.size());
      a.forEach(x -> l.add(plain(x)));
      return l;
    }
    if (v instanceof Map<?, ?> m) {
      return tree(new JsonObject(castMap(m)));
    }
    if (v instanceof List<?> l) {
      return plain(new JsonArray(new ArrayList<>(l)));
    }
    return v;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }
}
