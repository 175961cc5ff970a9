package org.sandboxslo.console.routes;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.engine.diagnosis.UnservedClaim;

/**
 * {@code GET /api/v1/claims/unserved?namespace=&terminal=}: SandboxClaims that were never served
 * (fault kind 6) as of the latest diagnosis, oldest first: rejected (e.g. {@code
 * EnvVarsInjectionRejected}), blocked ({@code TemplateNotFound}, {@code WarmPoolNotFound}; {@code
 * terminal: false}, they may still be served), expired or deleted before Ready. Terminal ones are
 * the bad events the claim-to-ready SLOs counted. Read like {@code /api/v1/findings} (no token).
 *
 * <p>Item: {@code {"namespace","name","uid","warmPool","template","outcome":"rejected|
 * expired_unserved|deleted_before_ready","reason","message","firstSeen","endedAt","terminal"}}. 400
 * for {@code terminal} other than {@code true|false}.
 */
public final class UnservedClaimRoutes {
  private final Supplier<List<UnservedClaim>> claims;

  /**
   * @param claims the latest list (cheap, non-blocking)
   */
  public UnservedClaimRoutes(Supplier<List<UnservedClaim>> claims) {
    this.claims = Objects.requireNonNull(claims, "claims");
  }

  /** Adds the route to {@code router}. */
  public void mount(Router router) {
    router.get("/api/v1/claims/unserved").handler(this::list);
  }

  private void list(RoutingContext ctx) {
    String ns = ctx.request().getParam("namespace");
    String terminal = ctx.request().getParam("terminal");
    if (terminal != null && !terminal.equals("true") && !terminal.equals("false")) {
      throw ApiException.badRequest("terminal", "expected true or false, got '" + terminal + "'");
    }
    JsonArray items = new JsonArray();
    for (UnservedClaim c : claims.get()) {
      if ((ns == null || c.claim().namespace().equals(ns))
          && (terminal == null || Boolean.parseBoolean(terminal) == c.terminal())) {
        items.add(json(c));
      }
    }
    ctx.response()
        .putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("items", items).encode());
  }

  /** One unserved claim as JSON. */
  public static JsonObject json(UnservedClaim c) {
    return new JsonObject()
        .put("namespace", c.claim().namespace())
        .put("name", c.claim().name())
        .put("uid", c.uid())
        .put("warmPool", c.warmPool())
        .put("template", c.template())
        .put("outcome", c.outcome().name().toLowerCase(Locale.ROOT))
        .put("reason", c.reason())
        .put("message", c.message())
        .put("firstSeen", time(c.firstSeen()))
        .put("endedAt", time(c.endedAt()))
        .put("terminal", c.terminal());
  }

  private static String time(Instant t) {
    return t == null ? null : t.toString();
  }
}
