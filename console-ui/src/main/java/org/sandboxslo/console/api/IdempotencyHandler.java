package org.sandboxslo.console.api;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code Idempotency-Key} on every POST (after sign-in; keys are per caller): the first request
 * with a key runs and its response (2xx/4xx) is stored with the fingerprint of method, path and
 * body; a retry with the same key gets that response again (header {@code Idempotent-Replayed:
 * true}) and changes nothing. A retry while the first is still running gets 409; the same key with
 * another request 422; a key that is not 1..200 printable ASCII characters 400. A 5xx frees the key
 * so the retry can run. Keys are kept for {@code sloconsole.http.idempotency-ttl}.
 *
 * <p>A POST with a key has its body read here (up to {@value #MAX_BODY_BYTES} bytes, never to
 * disk); each route's own limit is still enforced by {@link JsonBody#object}.
 */
public final class IdempotencyHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(IdempotencyHandler.class);
  public static final String HEADER = "Idempotency-Key";
  static final long MAX_BODY_BYTES = 4L * 1024 * 1024;
  private static final Pattern KEY = Pattern.compile("[\\x21-\\x7e]{1,200}");
  private static final String PENDING = "sloconsole.idempotency";

  private record Pending(IdempotencyKeys keys, String caller, String key) {}

  private final IdempotencyKeys keys;
  private final Function<RoutingContext, String> caller;
  private final Clock clock;
  private final Duration ttl;
  private final BodyHandler body =
      BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES).setDeleteUploadedFilesOnEnd(true);

  /**
   * @param caller the signed-in caller's name of a request (keys are per caller)
   */
  public IdempotencyHandler(
      IdempotencyKeys keys, Function<RoutingContext, String> caller, Clock clock, Duration ttl) {
    this.keys = Objects.requireNonNull(keys, "keys");
    this.caller = Objects.requireNonNull(caller, "caller");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ttl = Objects.requireNonNull(ttl, "ttl");
  }

  /**
   * Mount before this handler: for a POST with a key and a body, checks the media type (415) and
   * reads the body (never to disk); anything else passes.
   */
  public Handler<RoutingContext> bodyReader() {
    return ctx -> {
      String key = ctx.request().getHeader(HEADER);
      String length = ctx.request().getHeader("Content-Length");
      boolean hasBody =
          ctx.request().getHeader("Transfer-Encoding") != null
              || (length != null && !length.trim().equals("0"));
      if (ctx.request().method() != HttpMethod.POST || key == null || !hasBody) {
        ctx.next();
        return;
      }
      try {
        JsonBody.requireJson(ctx.request().getHeader("Content-Type"));
      } catch (ApiException e) {
        ctx.fail(e);
        return;
      }
      ctx.put(JsonBody.LIMIT_KEY, MAX_BODY_BYTES);
      body.handle(ctx);
    };
  }

  @Override
  public void handle(RoutingContext ctx) {
    String key = ctx.request().getHeader(HEADER);
    if (ctx.request().method() != HttpMethod.POST || key == null) {
      ctx.next();
      return;
    }
    if (!KEY.matcher(key).matches()) {
      ctx.fail(ApiException.badRequest(HEADER, "expected 1..200 printable ASCII characters"));
      return;
    }
    claim(ctx, caller.apply(ctx), key);
  }

  private void claim(RoutingContext ctx, String who, String key) {
    String hash =
        sha256(
            ctx.request().method()
                + " "
                + ctx.normalizedPath()
                + "\n"
                + (ctx.body() == null || ctx.body().buffer() == null ? "" : ctx.body().asString()));
    Instant now = clock.instant();
    keys.claim(who, key, hash, now, now.plus(ttl))
        .onFailure(
            e -> {
              LOG.warn("Idempotency-Key store failed: {}", e.getMessage());
              ctx.fail(
                  new ApiException(
                      503,
                      "not ready",
                      HEADER,
                      "the Idempotency-Key store is unavailable; retry later"));
            })
        .onSuccess(
            held -> {
              if (held == null) {
                Pending p = new Pending(keys, who, key);
                ctx.put(PENDING, p);
                ctx.addEndHandler(
                    v -> {
                      if (ctx.get(PENDING) == p) {
                        keys.release(who, key); // answered without a stored response
                      }
                    });
                ctx.next();
              } else if (!held.requestHash().equals(hash)) {
                ctx.fail(
                    new ApiException(
                        422,
                        "unprocessable entity",
                        HEADER,
                        "Idempotency-Key " + key + " was used with another request"));
              } else if (!held.answered()) {
                ctx.fail(
                    new ApiException(
                        409,
                        "conflict",
                        HEADER,
                        "a request with Idempotency-Key " + key + " is still in progress"));
              } else {
                ctx.response().putHeader("Idempotent-Replayed", "true");
                ctx.response().setStatusCode(held.status());
                if (held.body() == null) {
                  ctx.response().end();
                } else {
                  ctx.response().putHeader("Content-Type", held.contentType()).end(held.body());
                }
              }
            });
  }

  /**
   * Called by {@link Replies#json} before the response is sent: stores a 2xx/4xx response for the
   * request's key, frees the key for a 5xx.
   */
  static void answered(RoutingContext ctx, int status, String body) {
    Pending p = ctx.get(PENDING);
    if (p == null) {
      return;
    }
    ctx.remove(PENDING);
    if (status >= 500) {
      p.keys().release(p.caller(), p.key());
    } else {
      p.keys()
          .complete(p.caller(), p.key(), status, body)
          .onFailure(
              e -> LOG.warn("storing the Idempotency-Key response failed: {}", e.getMessage()));
    }
  }

  static String sha256(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
