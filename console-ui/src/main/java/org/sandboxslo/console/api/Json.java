package org.sandboxslo.console.api;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Small helpers shared by the route classes of this package. */
public final class Json {
  private Json() {}

  public static void ok(RoutingContext ctx, JsonObject body) {
    ctx.response()
        .setStatusCode(200)
        .putHeader("Content-Type", "application/json")
        .end(body.encode());
  }

  /** Answers 200 with the body, or fails the context (JSON error via the failure handler). */
  public static void reply(RoutingContext ctx, Future<JsonObject> f) {
    f.onSuccess(body -> ok(ctx, body)).onFailure(ctx::fail);
  }

  public static String time(Instant i) {
    return i == null ? null : i.toString();
  }

  /** Seconds with millisecond precision, or null. */
  public static Double seconds(Duration d) {
    return d == null ? null : Math.round(d.toNanos() / 1e6) / 1e3;
  }

  /** A non-blank query parameter, or null. */
  public static String param(RoutingContext ctx, String name) {
    String v = ctx.request().getParam(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** An integer query parameter in [min, max], else 400 naming it. */
  public static int intParam(RoutingContext ctx, String name, int dflt, int min, int max) {
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

  private static final java.util.regex.Pattern UNIX_SECONDS =
      java.util.regex.Pattern.compile("\\d{1,12}(\\.\\d{1,9})?");

  /**
   * A time query parameter: RFC 3339 or unix seconds (with a fraction); {@code dflt} when absent.
   *
   * @throws ApiException 400 naming {@code field} for anything else
   */
  public static Instant instant(String field, String value, Instant dflt) {
    if (value == null || value.isEmpty()) {
      return dflt;
    }
    try {
      if (UNIX_SECONDS.matcher(value).matches()) {
        BigDecimal s = new BigDecimal(value);
        return Instant.ofEpochSecond(
            s.longValue(), s.remainder(BigDecimal.ONE).movePointRight(9).longValue());
      }
      return org.sandboxslo.engine.time.Rfc3339.parse(field, value);
    } catch (DateTimeParseException | ArithmeticException e) {
      throw ApiException.badRequest(
          field,
          "expected an RFC 3339 time (2026-11-29T08:00:00Z) or unix seconds, got '" + value + "'");
    }
  }
}
