package org.sandboxslo.console.api;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Request guards in front of every console route:
 *
 * <ul>
 *   <li>{@link #securityHeaders}: {@code Content-Security-Policy} ({@value #CSP}), {@code
 *       X-Content-Type-Options: nosniff}, {@code Referrer-Policy: no-referrer}, {@code
 *       X-Frame-Options: DENY} on every response;
 *   <li>{@link #origin}: a state-changing request (POST, PUT, PATCH, DELETE) whose {@code Origin}
 *       is neither the console's own ({@code Host}) nor a trusted one gets 403 naming {@code
 *       Origin}; so does one a browser marks {@code Sec-Fetch-Site: cross-site} without {@code
 *       Origin}. Requests without {@code Origin} (curl, Alertmanager) pass;
 *   <li>{@link #serverOptions}/{@link #invalidRequest}: a request line over {@value
 *       #MAX_REQUEST_LINE} bytes is answered 414, headers over {@value #MAX_HEADER_BYTES} bytes
 *       431, both with a JSON body stating the limit.
 * </ul>
 */
public final class HttpGuards {
  /** Longest request line (method, URI, version) in bytes. */
  public static final int MAX_REQUEST_LINE = 8 * 1024;

  /** Largest header block in bytes. */
  public static final int MAX_HEADER_BYTES = 16 * 1024;

  /** The page loads only its own scripts and styles; nothing may frame it. */
  public static final String CSP =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  private static final Set<HttpMethod> WRITES =
      Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

  private HttpGuards() {}

  /** Options with the request-line and header limits above. */
  public static HttpServerOptions serverOptions(String host, int port) {
    return new HttpServerOptions()
        .setHost(host)
        .setPort(port)
        .setMaxInitialLineLength(MAX_REQUEST_LINE)
        .setMaxHeaderSize(MAX_HEADER_BYTES);
  }

  /** Adds the security headers to every response. */
  public static Handler<RoutingContext> securityHeaders() {
    return ctx -> {
      ctx.response()
          .putHeader("Content-Security-Policy", CSP)
          .putHeader("X-Content-Type-Options", "nosniff")
          .putHeader("Referrer-Policy", "no-referrer")
          .putHeader("X-Frame-Options", "DENY");
      ctx.next();
    };
  }

  /**
   * The Origin check of state-changing requests.
   *
   * @param trusted further allowed origins ({@code scheme://host[:port]})
   */
  public static Handler<RoutingContext> origin(List<String> trusted) {
    List<String> allowed = List.copyOf(trusted);
    return ctx -> {
      HttpServerRequest req = ctx.request();
      if (!WRITES.contains(req.method())) {
        ctx.next();
        return;
      }
      String origin = req.getHeader("Origin");
      if (origin == null) {
        if ("cross-site".equalsIgnoreCase(req.getHeader("Sec-Fetch-Site"))) {
          ctx.fail(forbiddenOrigin("a cross-site request without Origin"));
          return;
        }
        ctx.next();
        return;
      }
      String o = normalize(origin);
      String self = normalize((req.isSSL() ? "https://" : "http://") + req.authority());
      if (o != null && (o.equals(self) || allowed.contains(o))) {
        ctx.next();
        return;
      }
      ctx.fail(
          forbiddenOrigin(
              "Origin "
                  + clip(origin)
                  + " may not change state here; allowed: the console's own origin"
                  + (allowed.isEmpty() ? "" : " and " + String.join(", ", allowed))
                  + " (sloconsole.http.external-url, sloconsole.http.allowed-origins)"));
    };
  }

  private static ApiException forbiddenOrigin(String reason) {
    return new ApiException(403, "forbidden", "Origin", reason);
  }

  /** {@code scheme://host[:port]}, lower case, default port dropped; null when not an origin. */
  static String normalize(String origin) {
    try {
      URI u = URI.create(origin.trim());
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (u.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
        return null;
      }
      int port = u.getPort();
      boolean dflt =
          port < 0
              || (scheme.equals("http") && port == 80)
              || (scheme.equals("https") && port == 443);
      return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + (dflt ? "" : ":" + port);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String clip(String s) {
    String t = s.length() > 100 ? s.substring(0, 100) + "…" : s;
    return "'" + t.replaceAll("\\p{Cntrl}", "?") + "'";
  }

  /**
   * The server's handler of requests the HTTP decoder rejected: 414 / 431 with a JSON body stating
   * the limit, 400 for anything else; the connection is closed afterwards.
   */
  public static void invalidRequest(HttpServerRequest req) {
    DecoderResult r = req.decoderResult();
    Throwable cause = r == null ? null : r.cause();
    ApiException e;
    if (cause instanceof TooLongHttpLineException) {
      e =
          new ApiException(
              414,
              "uri too long",
              "uri",
              "the request line exceeds the limit of " + MAX_REQUEST_LINE + " bytes");
    } else if (cause instanceof TooLongHttpHeaderException) {
      e =
          new ApiException(
              431,
              "request header fields too large",
              "headers",
              "the request headers exceed the limit of " + MAX_HEADER_BYTES + " bytes");
    } else {
      e = new ApiException(400, "bad request", null, "malformed HTTP request");
    }
    req.response()
        .setStatusCode(e.status())
        .putHeader("Content-Type", "application/json")
        .putHeader("Connection", "close")
        .end(e.toJson().encode());
  }
}
