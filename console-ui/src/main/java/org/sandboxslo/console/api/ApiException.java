package org.sandboxslo.console.api;

import io.vertx.core.json.JsonObject;

/**
 * An API error with its HTTP status and JSON body {@code {"error":..., "field":..., "reason":...}}
 * ({@code field} omitted when the error is not about one input). Thrown by handlers and turned into
 * the response by the console's failure handler; carries no stack trace.
 */
public final class ApiException extends RuntimeException {
  private final int status;
  private final String error;
  private final String field;
  private final String reason;

  /**
   * @param status HTTP status, 4xx or 5xx
   * @param error short error class, e.g. {@code bad request}, {@code not found}, {@code not ready}
   * @param field the offending input (path or query parameter), or {@code null}
   * @param reason one line saying what is wrong and what is expected
   */
  public ApiException(int status, String error, String field, String reason) {
    super(error + (field == null ? "" : " (" + field + ")") + ": " + reason, null, false, false);
    this.status = status;
    this.error = error;
    this.field = field;
    this.reason = reason;
  }

  /** 400 bad request about {@code field}. */
  public static ApiException badRequest(String field, String reason) {
    return new ApiException(400, "bad request", field, reason);
  }

  /** 404 not found about {@code field}. */
  public static ApiException notFound(String field, String reason) {
    return new ApiException(404, "not found", field, reason);
  }

  /** 503 not ready. */
  public static ApiException notReady(String reason) {
    return new ApiException(503, "not ready", null, reason);
  }

  public int status() {
    return status;
  }

  /** The response body. */
  public JsonObject toJson() {
    JsonObject o = new JsonObject().put("error", error);
    if (field != null) {
      o.put("field", field);
    }
    return o.put("reason", reason);
  }
}
