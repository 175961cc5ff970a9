package org.sandboxslo.console.api;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;

/** Small helpers shared by the route classes of this package. */
final class Json {
  private Json() {}

  static void ok(RoutingContext ctx, JsonObject body) {
    ctx.response()
        .setStatusCode(200)
        .putHeader("Content-Type", "application/json")
        .end(body.encode());
  }

  /** Answers 200 with the body, or fails the context (JSON error via the failure handler). */
  static void reply(RoutingContext ctx, Future<JsonObject> f) {
    f.onSuccess(body -> ok(ctx, body)).onFailure(ctx::fail);
  }

  static String time(Instant i) {
    return i == null ? null : i.toString();
  }

  /** Seconds with millisecond precision, or null. */
  static Double seconds(Duration d) {
    return d == null ? null : Math.round(d.toNanos() / 1e6) / 1e3;
  }

  /** A non-blank query parameter, or null. */
  static String param(RoutingContext ctx, String name) {
    String v = ctx.request().getParam(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** An integer query parameter in [min, max], else 400 naming it. */
  static int intParam(RoutingContext ctx, String name, int dflt, int min, int max) {
    String v = param(ctx, name);
    if (v == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw ApiException.badRequest(
        name, "expected an integer " + min + ".." + max + ", got '" + v + "'");
  }
}
