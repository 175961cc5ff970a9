package org.sandboxslo.console.hooks;

import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credential the Alertmanager webhook requires ({@code sloconsole.alertmanager.webhook-token}),
 * as Alertmanager's receiver {@code http_config} sends it (reference slo-alerting §4.1):
 *
 * <ul>
 *   <li>{@code Authorization: Bearer <token>} ({@code http_config.authorization} or the older
 *       {@code bearer_token}), or
 *   <li>{@code Authorization: Basic base64(<any user>:<token>)} ({@code http_config.basic_auth}
 *       with the token as password).
 * </ul>
 *
 * A missing or wrong credential is answered 401 {@code {"error":"unauthorized","field":
 * "Authorization","reason":...}} with a {@code WWW-Authenticate} challenge and a WARN naming the
 * reason (never the token); nothing of the payload is read. The comparison is constant-time (over
 * SHA-256 digests, so the length of the token does not leak either). With no token configured the
 * webhook stays open and a WARN says so once at startup.
 */
public final class WebhookCredential implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookCredential.class);

  private final byte[] expected;

  private WebhookCredential(String token) {
    this.expected = sha256(token);
  }

  /**
   * The handler to put before the webhook route.
   *
   * @param tokenOrEmpty the configured token; empty leaves the webhook open (logged as a WARN)
   */
  public static Handler<RoutingContext> of(String tokenOrEmpty) {
    Objects.requireNonNull(tokenOrEmpty, "tokenOrEmpty");
    if (tokenOrEmpty.isEmpty()) {
      LOG.warn(
          "{} is not set: POST /hooks/alertmanager accepts notifications without a credential",
          AlertmanagerConfig.WEBHOOK_TOKEN);
      return RoutingContext::next;
    }
    return new WebhookCredential(tokenOrEmpty);
  }

  @Override
  public void handle(RoutingContext ctx) {
    String reason = problem(ctx.request().getHeader("Authorization"));
    if (reason == null) {
      ctx.next();
      return;
    }
    LOG.warn("Alertmanager webhook refused from {}: {}", ctx.request().remoteAddress(), reason);
    ctx.response()
        .setStatusCode(401)
        .putHeader("WWW-Authenticate", "Bearer realm=\"sandbox-slo-console\"")
        .putHeader("Content-Type", "application/json")
        .end(
            new JsonObject()
                .put("error", "unauthorized")
                .put("field", "Authorization")
                .put("reason", reason)
                .encode());
  }

  /** Null when {@code header} carries the token; otherwise why not (no secret in it). */
  String problem(String header) {
    if (header == null || header.isBlank()) {
      return "no Authorization header (expected Bearer or Basic with the webhook token)";
    }
    String h = header.strip();
    int space = h.indexOf(' ');
    String scheme = space < 0 ? h : h.substring(0, space);
    String value = space < 0 ? "" : h.substring(space + 1).strip();
    String presented;
    if (scheme.equalsIgnoreCase("Bearer")) {
      presented = value;
    } else if (scheme.equalsIgnoreCase("Basic")) {
      String decoded;
      try {
        decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return "Basic credential is not base64";
      }
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        return "Basic credential has no user:password form";
      }
      presented = decoded.substring(colon + 1);
    } else {
      return "unsupported Authorization scheme '" + scheme + "' (expected Bearer or Basic)";
    }
    return MessageDigest.isEqual(expected, sha256(presented))
        ? null
        : "wrong webhook token (" + scheme + ")";
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** For tests: a checker for {@code token}. */
  static WebhookCredential forToken(String token) {
    return new WebhookCredential(token);
  }
}
