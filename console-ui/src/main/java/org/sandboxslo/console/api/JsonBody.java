package org.sandboxslo.console.api;

import io.vertx.core.Handler;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one JSON request-body reader of the console's write routes (SLOs, remediation plans, the
 * Alertmanager webhook). Mount {@link #reader(long)} before the route's handler, then call {@link
 * #object} in it:
 *
 * <ul>
 *   <li>415 {@code {"error":"unsupported media type","field":"Content-Type","reason"}} unless the
 *       request's {@code Content-Type} is {@code application/json} (parameters such as {@code
 *       charset} allowed);
 *   <li>400 {@code {"error":"bad request","field":"body","reason"}} for an empty body, text that is
 *       not JSON (the reason gives the parser's line and column) or JSON that is not an object;
 *   <li>413 from the reader for a body over its limit.
 * </ul>
 */
public final class JsonBody {
  /** The body limit of the console's write routes, in bytes. */
  public static final long DEFAULT_LIMIT_BYTES = 64 * 1024;

  private static final Pattern LOCATION = Pattern.compile("line: (\\d+), column: (\\d+)");

  private JsonBody() {}

  /** Routing-context key of the body limit of the route, for the 413 reason. */
  public static final String LIMIT_KEY = "sloconsole.body-limit";

  /**
   * Reads the request body, up to {@code maxBytes} (413 beyond), after checking the media type (415
   * before a byte of the body is read). File uploads are off: nothing is ever written to disk,
   * whatever the request (multipart bodies are refused with 415 here).
   */
  public static Handler<RoutingContext> reader(long maxBytes) {
    BodyHandler body =
        BodyHandler.create(false).setBodyLimit(maxBytes).setDeleteUploadedFilesOnEnd(true);
    return ctx -> {
      try {
        requireJson(ctx.request().getHeader("Content-Type"));
      } catch (ApiException e) {
        ctx.fail(e);
        return;
      }
      ctx.put(LIMIT_KEY, maxBytes);
      body.handle(ctx);
    };
  }

  /**
   * The request body as a JSON object.
   *
   * @param expected what the route expects, for the empty-body reason (e.g. {@code an SLO
   *     definition})
   * @throws ApiException 415 for another content type; 400 naming {@code body} for an empty body,
   *     invalid JSON or a JSON value that is not an object
   */
  public static JsonObject object(RoutingContext ctx, String expected) {
    requireJson(ctx.request().getHeader("Content-Type"));
    Object limit = ctx.get(LIMIT_KEY);
    if (limit instanceof Long max && ctx.body() != null && ctx.body().length() > max) {
      throw new ApiException(
          413,
          "payload too large",
          "body",
          "the request body exceeds the limit of " + max + " bytes");
    }
    String text = ctx.body() == null ? null : ctx.body().asString();
    if (text == null || text.isBlank()) {
      throw ApiException.badRequest("body", "empty body; expected " + expected);
    }
    Object value;
    try {
      value = Json.decodeValue(text);
    } catch (DecodeException e) {
      throw ApiException.badRequest("body", parseReason(e.getMessage()));
    }
    if (value instanceof JsonObject o) {
      return o;
    }
    throw ApiException.badRequest(
        "body", "expected a JSON object (" + expected + "), got " + describe(value));
  }

  /**
   * Checks a {@code Content-Type} header value.
   *
   * @throws ApiException 415 unless it is {@code application/json}
   */
  static void requireJson(String contentType) {
    String media =
        contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    if (!media.equals("application/json")) {
      throw new ApiException(
          415,
          "unsupported media type",
          "Content-Type",
          contentType == null || contentType.isBlank()
              ? "missing Content-Type; expected application/json"
              : "expected application/json, got '" + contentType + "'");
    }
  }

  /** One line: the parser's message without its source excerpt, with line and column. */
  static String parseReason(String message) {
    String m = message == null ? "" : message.replaceFirst("^Failed to decode:\\s*", "");
    Matcher at = LOCATION.matcher(m);
    String where = at.find() ? " at line " + at.group(1) + ", column " + at.group(2) : "";
    int cut = m.indexOf("\n at [Source");
    if (cut >= 0) {
      m = m.substring(0, cut);
    }
    m = m.replaceAll("\\s+", " ").strip();
    return "not valid JSON" + where + (m.isEmpty() ? "" : ": " + m);
  }

  private static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof JsonArray) {
      return "an array";
    }
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return value.getClass().getSimpleName();
  }
}
