package org.sandboxslo.console.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.sandboxslo.console.api.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates OIDC/JWT bearer tokens with vertx-auth-jwt against the JSON Web Key Set at {@code
 * sloconsole.auth.jwt.jwks-url}: signature by a key of the set (by {@code kid}), {@code exp}
 * required and not past (30 s leeway), {@code nbf}, {@code iss} equal to the configured issuer and
 * {@code aud} containing the configured audience. The key set is fetched at start and every refresh
 * interval; a failed fetch keeps the previous keys (WARN once per distinct error).
 */
final class JwtAuthenticator {
  private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);
  private static final Pattern JWT =
      Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");
  private static final int LEEWAY_SECONDS = 30;

  private final Vertx vertx;
  private final AuthConfig.Jwt config;
  private final WebClient web;
  private volatile JWTAuth provider;
  private volatile String lastError;
  private volatile long timer = -1;

  private JwtAuthenticator(Vertx vertx, AuthConfig.Jwt config) {
    this.vertx = vertx;
    this.config = config;
    this.web =
        WebClient.create(vertx, new WebClientOptions().setConnectTimeout(5_000).setIdleTimeout(10));
  }

  static Future<JwtAuthenticator> start(Vertx vertx, AuthConfig.Jwt config) {
    JwtAuthenticator j = new JwtAuthenticator(vertx, config);
    return j.refresh()
        .map(
            v -> {
              j.timer = vertx.setPeriodic(config.refresh().toMillis(), id -> j.refresh());
              return j;
            });
  }

  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    web.close();
  }

  static boolean looksLikeJwt(String token) {
    return token.length() < 16 * 1024 && JWT.matcher(token).matches();
  }

  /** Fetches the key set; never fails (keeps the previous keys and WARNs on errors). */
  Future<Void> refresh() {
    return web.getAbs(config.jwksUrl().toString())
        .timeout(10_000)
        .send()
        .map(
            res -> {
              if (res.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + res.statusCode());
              }
              JsonArray keys = res.bodyAsJsonObject().getJsonArray("keys");
              if (keys == null || keys.isEmpty()) {
                throw new IllegalStateException("no \"keys\" in the key set");
              }
              List<JsonObject> jwks = new ArrayList<>();
              for (Object k : keys) {
                if (k instanceof JsonObject o && "sig".equals(o.getString("use", "sig"))) {
                  jwks.add(o);
                }
              }
              return JWTAuth.create(
                  vertx,
                  new JWTAuthOptions()
                      .setJwks(jwks)
                      .setJWTOptions(
                          new JWTOptions()
                              .setIssuer(config.issuer())
                              .setAudience(List.of(config.audience()))
                              .setLeeway(LEEWAY_SECONDS)));
            })
        .onSuccess(
            p -> {
              provider = p;
              lastError = null;
            })
        .onFailure(
            e -> {
              String msg = e.getMessage() == null ? e.toString() : e.getMessage();
              if (!msg.equals(lastError)) {
                LOG.warn("JWKS {} could not be loaded: {}", config.jwksUrl(), msg);
              }
              lastError = msg;
            })
        .<Void>mapEmpty()
        .recover(e -> Future.succeededFuture());
  }

  /**
   * The caller of a JWT.
   *
   * @return fails with 401 (bad signature, expired, wrong issuer or audience, no user claim) or 503
   *     while no key set has been loaded
   */
  Future<Caller> authenticate(String token) {
    JWTAuth p = provider;
    if (p == null) {
      return Future.failedFuture(
          new ApiException(
              503,
              "not ready",
              "Authorization",
              "the signing keys from "
                  + config.jwksUrl()
                  + " are not loaded"
                  + (lastError == null ? "" : ": " + lastError)));
    }
    return p.authenticate(new TokenCredentials(token))
        .recover(
            e ->
                Future.failedFuture(
                    ConsoleAuth.unauthorized(
                        "invalid JWT: " + (e.getMessage() == null ? "rejected" : e.getMessage()))))
        .map(this::caller);
  }

  private Caller caller(User u) {
    JsonObject claims = u.attributes().getJsonObject("accessToken", new JsonObject());
    if (claims.getValue("exp") == null) {
      throw ConsoleAuth.unauthorized("invalid JWT: no exp claim");
    }
    Object user = claims.getValue(config.userClaim());
    if (!(user instanceof String) || ((String) user).isBlank()) {
      user = claims.getValue("sub");
    }
    if (!(user instanceof String name) || name.isBlank()) {
      throw ConsoleAuth.unauthorized("invalid JWT: no " + config.userClaim() + " or sub claim");
    }
    Set<String> roles = AuthConfig.roles(path(claims, config.rolesClaim()));
    return new Caller(name, roles);
  }

  /** The value at a dotted path ({@code realm_access.roles}), or null. */
  static Object path(JsonObject o, String dotted) {
    Object v = o;
    for (String part : dotted.split("\\.")) {
      if (!(v instanceof JsonObject j)) {
        return null;
      }
      v = j.getValue(part);
    }
    return v instanceof JsonArray a ? a.getList() : v;
  }
}
