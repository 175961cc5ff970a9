package org.sandboxslo.console.api;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The one way the console answers with JSON: sets status and content type, hands the response to a
 * pending {@code Idempotency-Key} ({@link IdempotencyHandler}) so a retry is answered the same, and
 * ends the response.
 */
public final class Replies {
  private Replies() {}

  /** Answers {@code status} with {@code body} (null: no body). */
  public static void json(RoutingContext ctx, int status, JsonObject body) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return; // answered already (deadline passed) or the client has gone
    }
    String text = body == null ? null : body.encode();
    IdempotencyHandler.answered(ctx, status, text);
    ctx.response().setStatusCode(status);
    if (text == null) {
      ctx.response().end();
    } else {
      ctx.response().putHeader("Content-Type", "application/json").end(text);
    }
  }
}
