package org.sandboxslo.console.auth;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.engine.time.Durations;

/**
 * How the console signs callers in, immutable. Built by {@link #fromMap}; the static tokens ({@code
 * sloconsole.auth.tokens}) are parsed by the remediation configuration and passed in. Keys:
 *
 * <ul>
 *   <li>{@code sloconsole.auth.anonymous-read} ({@code false}; the demo sets {@code true}): GETs
 *       without credentials are served as {@link Caller#ANONYMOUS} (role {@code viewer}); writes
 *       always need a signed-in caller
 *   <li>{@code sloconsole.auth.jwt.jwks-url} (empty = off): OIDC/JWT bearer tokens are validated
 *       against the JSON Web Key Set at this URL (refreshed every {@code
 *       sloconsole.auth.jwt.jwks-refresh}, 5m); {@code .issuer} and {@code .audience} (both
 *       required with a JWKS URL) must match {@code iss} and {@code aud}; the user is the claim
 *       {@code .user-claim} ({@code preferred_username}, else {@code sub}) and the roles the claim
 *       {@code .roles-claim} ({@code roles}; a dotted path such as {@code realm_access.roles}; a
 *       list or a space/comma separated string; unknown roles are ignored)
 *   <li>{@code sloconsole.auth.proxy.secret} (empty = off): identity headers of an authenticating
 *       proxy are trusted only on requests whose {@code .secret-header} ({@code X-Proxy-Secret})
 *       equals this secret (constant-time compare); the user is {@code .user-header} ({@code
 *       X-Forwarded-User}), the roles {@code .roles-header} ({@code X-Forwarded-Roles}, comma
 *       separated)
 *   <li>{@code sloconsole.alertmanager.webhook-token} (empty = the webhook answers 401): the secret
 *       Alertmanager sends with {@code http_config.authorization.credentials} (Bearer) or as the
 *       {@code basic_auth} password
 * </ul>
 *
 * @param anonymousRead see above
 * @param tokens static token → caller (demo and tests), may be empty
 * @param jwt JWT validation, or null when off
 * @param proxy proxy headers, or null when off
 * @param webhookToken the Alertmanager webhook secret, empty when unset
 */
public record AuthConfig(
    boolean anonymousRead, Map<String, Caller> tokens, Jwt jwt, Proxy proxy, String webhookToken) {
  public static final String ANONYMOUS_READ = "sloconsole.auth.anonymous-read";
  public static final String JWKS_URL = "sloconsole.auth.jwt.jwks-url";
  public static final String JWT_ISSUER = "sloconsole.auth.jwt.issuer";
  public static final String JWT_AUDIENCE = "sloconsole.auth.jwt.audience";
  public static final String JWT_ROLES_CLAIM = "sloconsole.auth.jwt.roles-claim";
  public static final String JWT_USER_CLAIM = "sloconsole.auth.jwt.user-claim";
  public static final String JWKS_REFRESH = "sloconsole.auth.jwt.jwks-refresh";
  public static final String PROXY_SECRET = "sloconsole.auth.proxy.secret";
  public static final String PROXY_SECRET_HEADER = "sloconsole.auth.proxy.secret-header";
  public static final String PROXY_USER_HEADER = "sloconsole.auth.proxy.user-header";
  public static final String PROXY_ROLES_HEADER = "sloconsole.auth.proxy.roles-header";
  public static final String WEBHOOK_TOKEN = "sloconsole.alertmanager.webhook-token";

  /** The keys this record reads (the remediation configuration accepts them too). */
  public static final Set<String> KEYS =
      Set.of(
          ANONYMOUS_READ,
          JWKS_URL,
          JWT_ISSUER,
          JWT_AUDIENCE,
          JWT_ROLES_CLAIM,
          JWT_USER_CLAIM,
          JWKS_REFRESH,
          PROXY_SECRET,
          PROXY_SECRET_HEADER,
          PROXY_USER_HEADER,
          PROXY_ROLES_HEADER,
          WEBHOOK_TOKEN);

  /**
   * JWT validation settings.
   *
   * @param jwksUrl http(s) URL of the JSON Web Key Set
   * @param issuer the required {@code iss}
   * @param audience the required {@code aud}
   * @param rolesClaim dotted path of the roles claim
   * @param userClaim the claim naming the user
   * @param refresh how often the key set is fetched again, &gt;= 1s
   */
  public record Jwt(
      URI jwksUrl,
      String issuer,
      String audience,
      String rolesClaim,
      String userClaim,
      Duration refresh) {
    public Jwt {
      Objects.requireNonNull(jwksUrl, "jwksUrl");
      Objects.requireNonNull(refresh, "refresh");
      if (issuer == null || issuer.isBlank()) {
        throw new IllegalArgumentException(JWT_ISSUER + ": required with " + JWKS_URL);
      }
      if (audience == null || audience.isBlank()) {
        throw new IllegalArgumentException(JWT_AUDIENCE + ": required with " + JWKS_URL);
      }
      if (refresh.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException(JWKS_REFRESH + ": must be >= 1s, got " + refresh);
      }
    }
  }

  /**
   * Authenticating-proxy settings.
   *
   * @param secret the shared secret (never logged)
   * @param secretHeader header carrying the secret
   * @param userHeader header naming the user
   * @param rolesHeader header listing the roles
   */
  public record Proxy(String secret, String secretHeader, String userHeader, String rolesHeader) {
    public Proxy {
      if (secret == null || secret.length() < 16) {
        throw new IllegalArgumentException(PROXY_SECRET + ": must be at least 16 characters");
      }
    }

    @Override
    public String toString() {
      return "Proxy[secretHeader=" + secretHeader + ", userHeader=" + userHeader + "]";
    }
  }

  public AuthConfig {
    tokens = Map.copyOf(tokens);
    Objects.requireNonNull(webhookToken, "webhookToken");
  }

  /** Static tokens only, as in tests: no JWT, no proxy, no webhook token. */
  public static AuthConfig ofTokens(Map<String, Caller> tokens, boolean anonymousRead) {
    return new AuthConfig(anonymousRead, tokens, null, null, "");
  }

  /** A copy with another webhook token. */
  public AuthConfig withWebhookToken(String token) {
    return new AuthConfig(anonymousRead, tokens, jwt, proxy, token);
  }

  /**
   * Reads the keys above.
   *
   * @param tokens the parsed {@code sloconsole.auth.tokens}
   * @param anonymousReadDefault the default of {@code sloconsole.auth.anonymous-read} (the demo
   *     passes true, production false)
   * @param ownedElsewhere further keys under {@code sloconsole.auth.} read by another config
   * @throws IllegalArgumentException naming the key for an unknown key under {@code
   *     sloconsole.auth.}, or a bad value (the other {@code sloconsole.alertmanager.} keys belong
   *     to the console's Alertmanager section, which checks them)
   */
  public static AuthConfig fromMap(
      Map<String, String> m,
      Map<String, Caller> tokens,
      boolean anonymousReadDefault,
      Set<String> ownedElsewhere) {
    for (String k : m.keySet()) {
      if (k.startsWith("sloconsole.auth.") && !KEYS.contains(k) && !ownedElsewhere.contains(k)) {
        Set<String> known = new TreeSet<>(KEYS);
        known.addAll(ownedElsewhere);
        throw new IllegalArgumentException("unknown configuration key " + k + "; known: " + known);
      }
    }
    String anon = m.getOrDefault(ANONYMOUS_READ, String.valueOf(anonymousReadDefault)).trim();
    if (!anon.equals("true") && !anon.equals("false")) {
      throw new IllegalArgumentException(
          ANONYMOUS_READ + ": expected true or false, got '" + anon + "'");
    }
    Jwt jwt = null;
    String url = m.getOrDefault(JWKS_URL, "").trim();
    if (!url.isEmpty()) {
      URI uri;
      try {
        uri = URI.create(url);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(JWKS_URL + ": not a URL: '" + url + "'");
      }
      if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new IllegalArgumentException(
            JWKS_URL + ": expected an http(s) URL, got '" + url + "'");
      }
      jwt =
          new Jwt(
              uri,
              m.get(JWT_ISSUER),
              m.get(JWT_AUDIENCE),
              m.getOrDefault(JWT_ROLES_CLAIM, "roles").trim(),
              m.getOrDefault(JWT_USER_CLAIM, "preferred_username").trim(),
              Durations.parse(JWKS_REFRESH, m.getOrDefault(JWKS_REFRESH, "5m")));
    }
    Proxy proxy = null;
    String secret = m.getOrDefault(PROXY_SECRET, "");
    if (!secret.isEmpty()) {
      proxy =
          new Proxy(
              secret,
              m.getOrDefault(PROXY_SECRET_HEADER, "X-Proxy-Secret").trim(),
              m.getOrDefault(PROXY_USER_HEADER, "X-Forwarded-User").trim(),
              m.getOrDefault(PROXY_ROLES_HEADER, "X-Forwarded-Roles").trim());
    }
    return new AuthConfig(
        anon.equals("true"), tokens, jwt, proxy, m.getOrDefault(WEBHOOK_TOKEN, "").trim());
  }

  /** One line per setting for the startup log; secrets masked, token users listed. */
  public String describe() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put(ANONYMOUS_READ, String.valueOf(anonymousRead));
    d.put(
        "static tokens",
        String.join(
            ",",
            tokens.values().stream()
                .map(c -> c.user() + ":****:" + String.join("+", new TreeSet<>(c.roles())))
                .sorted()
                .toList()));
    if (jwt != null) {
      d.put(JWKS_URL, jwt.jwksUrl().toString());
      d.put(JWT_ISSUER, jwt.issuer());
      d.put(JWT_AUDIENCE, jwt.audience());
      d.put(JWT_ROLES_CLAIM, jwt.rolesClaim());
      d.put(JWT_USER_CLAIM, jwt.userClaim());
    }
    if (proxy != null) {
      d.put(PROXY_SECRET, "****");
      d.put(PROXY_USER_HEADER, proxy.userHeader());
      d.put(PROXY_ROLES_HEADER, proxy.rolesHeader());
    }
    d.put(WEBHOOK_TOKEN, webhookToken.isEmpty() ? "(unset: webhook refused)" : "****");
    StringBuilder sb = new StringBuilder();
    d.forEach((k, v) -> sb.append("  ").append(k).append(" = ").append(v).append('\n'));
    return sb.toString().stripTrailing();
  }

  @Override
  public String toString() {
    return "AuthConfig[" + describe().replace('\n', ';') + "]";
  }

  /** The roles of a claim value: a list, or a comma/space separated string; unknown dropped. */
  static Set<String> roles(Object claim) {
    List<String> raw;
    if (claim instanceof List<?> l) {
      raw = l.stream().map(String::valueOf).toList();
    } else if (claim instanceof Iterable<?> it) {
      List<String> out = new java.util.ArrayList<>();
      it.forEach(x -> out.add(String.valueOf(x)));
      raw = out;
    } else if (claim instanceof String s) {
      raw = List.of(s.split("[,\\s]+"));
    } else {
      raw = List.of();
    }
    Set<String> out = new TreeSet<>();
    for (String r : raw) {
      String t = r.trim();
      String name = t.contains(":") ? t.substring(0, t.indexOf(':')) : t;
      if (Caller.ROLES.contains(name)) {
        out.add(t);
      }
    }
    return out;
  }
}
