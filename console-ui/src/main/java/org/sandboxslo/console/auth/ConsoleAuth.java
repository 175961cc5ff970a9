package org.sandboxslo.console.auth;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.console.api.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's one authentication layer: a router handler that resolves the {@link Caller} of
 * every {@code /api/} and {@code /hooks/} request once and stores it in the routing context ({@link
 * #caller}); route handlers then check roles with {@link #require}. In order:
 *
 * <ol>
 *   <li>{@code /hooks/alertmanager}: only the Alertmanager webhook secret, as {@code Authorization:
 *       Bearer <secret>} or as the password of {@code Basic} auth (caller {@code alertmanager},
 *       role none); 401 otherwise, also when no secret is configured
 *   <li>identity headers of an authenticating proxy, only with the shared secret header (compared
 *       in constant time over SHA-256 hashes); proxy headers without the right secret are 401
 *   <li>{@code Authorization: Bearer <token>}: a static token ({@link Authenticator}, constant-time
 *       over hashes), else a JWT validated against the JWKS ({@link JwtAuthenticator}); unknown →
 *       401
 *   <li>no credentials: {@link Caller#ANONYMOUS} for GET/HEAD (and the compute-only {@code POST
 *       /api/v1/whatif}) when {@code sloconsole.auth.anonymous-read=true}; 401 otherwise, and
 *       always for writes
 * </ol>
 *
 * Other paths (the web page, {@code /healthz}, {@code /readyz}, {@code /metrics}) pass unchanged.
 * Tokens and secrets are never logged. Thread-safe.
 */
public final class ConsoleAuth implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(ConsoleAuth.class);

  /**
   * The one POST that changes nothing (the capacity what-if only computes): a read for sign-in, so
   * anonymous readers may use it when anonymous reads are on.
   */
  static final String COMPUTE_ONLY = "/api/v1/whatif";

  private static final String KEY = "sloconsole.caller";
  private static final Caller ALERTMANAGER = new Caller("alertmanager", Set.of());

  private final AuthConfig config;
  private final Authenticator tokens;
  private final JwtAuthenticator jwt;
  private final byte[] proxySecret;
  private final byte[] webhookSecret;

  private ConsoleAuth(AuthConfig config, JwtAuthenticator jwtOrNull) {
    this.config = Objects.requireNonNull(config, "config");
    this.tokens = new Authenticator(config.tokens());
    this.jwt = jwtOrNull;
    this.proxySecret =
        config.proxy() == null ? null : Authenticator.sha256(config.proxy().secret());
    this.webhookSecret =
        config.webhookToken().isEmpty() ? null : Authenticator.sha256(config.webhookToken());
  }

  /**
   * Starts the authentication layer: with JWT configured, fetches the key set once (a failure is
   * logged at WARN and retried every refresh; JWTs answer 503 until keys are loaded).
   *
   * @return never fails
   */
  public static Future<ConsoleAuth> start(Vertx vertx, AuthConfig config) {
    LOG.info("console sign-in:\n{}", config.describe());
    if (config.jwt() == null) {
      return Future.succeededFuture(new ConsoleAuth(config, null));
    }
    return JwtAuthenticator.start(vertx, config.jwt()).map(j -> new ConsoleAuth(config, j));
  }

  /** Static tokens only (tests and callers that need no key set). */
  public static ConsoleAuth of(AuthConfig config) {
    if (config.jwt() != null) {
      throw new IllegalArgumentException("JWT sign-in needs ConsoleAuth.start(vertx, config)");
    }
    return new ConsoleAuth(config, null);
  }

  public AuthConfig config() {
    return config;
  }

  /** Stops the key-set refresh timer, if any. */
  public void stop() {
    if (jwt != null) {
      jwt.stop();
    }
  }

  @Override
  public void handle(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    if (!path.startsWith("/api/") && !path.startsWith("/hooks/")) {
      ctx.next();
      return;
    }
    Future<Caller> caller;
    try {
      caller = path.startsWith("/hooks/") ? Future.succeededFuture(webhook(ctx)) : resolve(ctx);
    } catch (ApiException e) {
      caller = Future.failedFuture(e);
    }
    caller
        .onSuccess(
            c -> {
              ctx.put(KEY, c);
              ctx.next();
            })
        .onFailure(
            e -> {
              if (e instanceof ApiException a && a.status() == 401) {
                ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"sandbox-slo\"");
              }
              ctx.fail(e);
            });
  }

  private Caller webhook(RoutingContext ctx) {
    if (webhookSecret == null) {
      throw unauthorized(
          "the Alertmanager webhook is disabled: set sloconsole.alertmanager.webhook-token and"
              + " send it as http_config.authorization.credentials");
    }
    String h = ctx.request().getHeader("Authorization");
    String presented = null;
    if (h != null && h.regionMatches(true, 0, "Bearer ", 0, 7)) {
      presented = h.substring(7).trim();
    } else if (h != null && h.regionMatches(true, 0, "Basic ", 0, 6)) {
      presented = basicPassword(h.substring(6).trim());
    }
    if (presented == null
        || !MessageDigest.isEqual(webhookSecret, Authenticator.sha256(presented))) {
      throw unauthorized(
          h == null
              ? "missing credentials: Alertmanager must send the webhook token (Bearer or basic"
                  + " auth password)"
              : "wrong webhook credentials");
    }
    return ALERTMANAGER;
  }

  private static String basicPassword(String b64) {
    try {
      String s = new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
      int i = s.indexOf(':');
      return i < 0 ? null : s.substring(i + 1);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private Future<Caller> resolve(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    AuthConfig.Proxy proxy = config.proxy();
    if (proxy != null
        && (req.getHeader(proxy.secretHeader()) != null
            || req.getHeader(proxy.userHeader()) != null)) {
      return Future.succeededFuture(proxyCaller(req, proxy));
    }
    String h = req.getHeader("Authorization");
    if (h != null && !h.isBlank()) {
      if (!h.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw unauthorized("expected Authorization: Bearer <token>");
      }
      String token = h.substring(7).trim();
      Caller c = tokens.find(token);
      if (c != null) {
        return Future.succeededFuture(c);
      }
      if (jwt != null && JwtAuthenticator.looksLikeJwt(token)) {
        return jwt.authenticate(token);
      }
      throw unauthorized("unknown token");
    }
    boolean read =
        req.method() == HttpMethod.GET
            || req.method() == HttpMethod.HEAD
            || (req.method() == HttpMethod.POST && COMPUTE_ONLY.equals(req.path()));
    if (read && config.anonymousRead()) {
      return Future.succeededFuture(Caller.ANONYMOUS);
    }
    throw unauthorized(
        read
            ? "missing bearer token (Authorization: Bearer <token>); anonymous reads are off"
                + " (sloconsole.auth.anonymous-read=false)"
            : "missing bearer token (Authorization: Bearer <token>); every change needs a"
                + " signed-in caller");
  }

  private Caller proxyCaller(HttpServerRequest req, AuthConfig.Proxy proxy) {
    String secret = req.getHeader(proxy.secretHeader());
    if (secret == null || !MessageDigest.isEqual(proxySecret, Authenticator.sha256(secret))) {
      throw unauthorized(
          "identity headers are trusted only from the authenticating proxy (wrong or missing "
              + proxy.secretHeader()
              + ")");
    }
    String user = req.getHeader(proxy.userHeader());
    if (user == null || user.isBlank() || user.indexOf('\0') >= 0) {
      throw unauthorized("the proxy sent no " + proxy.userHeader());
    }
    return new Caller(user.trim(), AuthConfig.roles(req.getHeader(proxy.rolesHeader())));
  }

  static ApiException unauthorized(String reason) {
    return new ApiException(401, "unauthorized", "Authorization", reason);
  }

  /**
   * The caller resolved for this request.
   *
   * @throws ApiException 401 when the request passed no authentication (a route outside {@code
   *     /api/} and {@code /hooks/})
   */
  public static Caller caller(RoutingContext ctx) {
    Caller c = ctx.get(KEY);
    if (c == null) {
      throw unauthorized("this route needs a signed-in caller");
    }
    return c;
  }

  /**
   * The caller, when it holds {@code role} for {@code namespace} ({@code null}: cluster-wide).
   *
   * @throws ApiException 403 naming the role, or 401 without a caller
   */
  public static Caller require(RoutingContext ctx, String role, String namespace) {
    Caller c = caller(ctx);
    requireRole(c, role, namespace, null);
    return c;
  }

  /**
   * Checks that {@code c} holds {@code role} for {@code namespace}.
   *
   * @param what what the role is needed for (appended to the reason), or null
   * @throws ApiException 403 {@code user carol lacks role slo-owner for namespace demo, which
   *     creating SLO x requires}
   */
  public static void requireRole(Caller c, String role, String namespace, String what) {
    if (!c.has(role, namespace)) {
      throw new ApiException(
          403,
          "forbidden",
          "role",
          "user "
              + c.user()
              + " lacks role "
              + role
              + (namespace == null ? " (cluster-wide)" : " for namespace " + namespace)
              + (what == null ? "" : ", which " + what + " requires"));
    }
  }
}
