package org.sandboxslo.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.ConsoleVerticleAccess;

/**
 * The console's sign-in: JWTs validated against a JWKS served by a local Vert.x server (keys
 * generated here), identity headers only with the proxy's shared secret, static tokens, and
 * anonymous reads only when enabled, never for writes.
 */
class ConsoleAuthTest {
  static final String ISSUER = "https://idp.test";
  static final String AUDIENCE = "sandbox-slo-console";
  static final String PROXY_SECRET = "proxy-shared-secret-0123456789";
  static Vertx vertx;
  static HttpServer jwks;
  static HttpServer console;
  static WebClient web;
  static JWTAuth signer;
  static JWTAuth otherSigner;
  static ConsoleAuth auth;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    KeyPair key = rsa();
    KeyPair other = rsa();
    signer = signer(key, "k1");
    otherSigner = signer(other, "k1"); // same kid, another key: a forgery
    Router keys = Router.router(vertx);
    keys.get("/jwks")
        .handler(
            ctx ->
                ctx.response()
                    .putHeader("Content-Type", "application/json")
                    .end(
                        new JsonObject()
                            .put("keys", new JsonArray().add(jwk((RSAPublicKey) key.getPublic())))
                            .encode()));
    jwks = await(vertx.createHttpServer().requestHandler(keys).listen(0, "127.0.0.1"));
    Map<String, String> settings =
        Map.of(
            AuthConfig.JWKS_URL, "http://127.0.0.1:" + jwks.actualPort() + "/jwks",
            AuthConfig.JWT_ISSUER, ISSUER,
            AuthConfig.JWT_AUDIENCE, AUDIENCE,
            AuthConfig.JWT_ROLES_CLAIM, "realm_access.roles",
            AuthConfig.PROXY_SECRET, PROXY_SECRET);
    auth =
        await(
            ConsoleAuth.start(
                vertx,
                AuthConfig.fromMap(
                    settings,
                    Map.of("static-token-0123456789", new Caller("sam", Set.of("operator"))),
                    false,
                    Set.of())));
    Router r = Router.router(vertx);
    r.route().handler(auth);
    r.route("/api/whoami")
        .handler(
            ctx -> {
              Caller c = ConsoleAuth.caller(ctx);
              ctx.json(
                  new JsonObject()
                      .put("user", c.user())
                      .put(
                          "roles", new JsonArray(List.copyOf(new java.util.TreeSet<>(c.roles())))));
            });
    ConsoleVerticleAccess.jsonErrors(r);
    console = await(vertx.createHttpServer().requestHandler(r).listen(0, "127.0.0.1"));
    web = WebClient.create(vertx);
  }

  @AfterAll
  static void stop() {
    auth.stop();
    vertx.close();
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static KeyPair rsa() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    return g.generateKeyPair();
  }

  static JWTAuth signer(KeyPair key, String kid) {
    String pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder().encodeToString(key.getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    return JWTAuth.create(
        vertx,
        new JWTAuthOptions()
            .addPubSecKey(new PubSecKeyOptions().setAlgorithm("RS256").setBuffer(pem).setId(kid)));
  }

  static JsonObject jwk(RSAPublicKey k) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return new JsonObject()
        .put("kty", "RSA")
        .put("kid", "k1")
        .put("use", "sig")
        .put("alg", "RS256")
        .put("n", b64.encodeToString(unsigned(k.getModulus())))
        .put("e", b64.encodeToString(unsigned(k.getPublicExponent())));
  }

  static byte[] unsigned(BigInteger i) {
    byte[] b = i.toByteArray();
    return b[0] == 0 ? java.util.Arrays.copyOfRange(b, 1, b.length) : b;
  }

  static String token(JWTAuth by, JsonObject claims) {
    return by.generateToken(claims, new JWTOptions().setAlgorithm("RS256"));
  }

  static JsonObject claims() {
    long now = System.currentTimeMillis() / 1000;
    return new JsonObject()
        .put("sub", "u-123")
        .put("preferred_username", "olga")
        .put("iss", ISSUER)
        .put("aud", AUDIENCE)
        .put("iat", now)
        .put("exp", now + 300)
        .put(
            "realm_access",
            new JsonObject()
                .put("roles", new JsonArray().add("slo-owner:team-a").add("superuser")));
  }

  static HttpResponse<Buffer> call(String method, Map<String, String> headers) throws Exception {
    var req =
        web.request(
            io.vertx.core.http.HttpMethod.valueOf(method),
            console.actualPort(),
            "127.0.0.1",
            "/api/whoami");
    headers.forEach(req::putHeader);
    return await(req.send());
  }

  @Test
  void aJwtSignedByTheKeySetSignsInWithRolesFromTheClaim() throws Exception {
    HttpResponse<Buffer> res =
        call("POST", Map.of("Authorization", "Bearer " + token(signer, claims())));
    assertEquals(200, res.statusCode(), res.bodyAsString());
    // unknown roles ("superuser") are dropped; the scoped role is kept
    assertEquals(
        new JsonObject().put("user", "olga").put("roles", new JsonArray().add("slo-owner:team-a")),
        res.bodyAsJsonObject());
  }

  @Test
  void forgedExpiredOrMisaddressedJwtsAre401() throws Exception {
    long now = System.currentTimeMillis() / 1000;
    Map<String, String> bad =
        Map.of(
            "another key", token(otherSigner, claims()),
            "wrong issuer", token(signer, claims().put("iss", "https://evil.test")),
            "wrong audience", token(signer, claims().put("aud", "another-app")),
            "expired", token(signer, claims().put("exp", now - 3600).put("iat", now - 7200)),
            "no exp", token(signer, withoutExp()),
            "alg none",
                b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + b64(claims().encode()) + ".");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      HttpResponse<Buffer> res = call("GET", Map.of("Authorization", "Bearer " + e.getValue()));
      assertEquals(401, res.statusCode(), e.getKey() + ": " + res.bodyAsString());
      assertEquals("Authorization", res.bodyAsJsonObject().getString("field"), e.getKey());
    }
  }

  static JsonObject withoutExp() {
    JsonObject c = claims();
    c.remove("exp");
    return c;
  }

  static String b64(String s) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void proxyHeadersAreTrustedOnlyWithTheSharedSecret() throws Exception {
    Map<String, String> identity =
        Map.of("X-Forwarded-User", "pat", "X-Forwarded-Roles", "approver, viewer");
    assertEquals(401, call("POST", identity).statusCode());
    java.util.Map<String, String> wrong = new java.util.HashMap<>(identity);
    wrong.put("X-Proxy-Secret", "guess");
    assertEquals(401, call("POST", wrong).statusCode());
    java.util.Map<String, String> right = new java.util.HashMap<>(identity);
    right.put("X-Proxy-Secret", PROXY_SECRET);
    HttpResponse<Buffer> res = call("POST", right);
    assertEquals(200, res.statusCode(), res.bodyAsString());
    assertEquals(
        new JsonObject()
            .put("user", "pat")
            .put("roles", new JsonArray().add("approver").add("viewer")),
        res.bodyAsJsonObject());
  }

  @Test
  void staticTokensStillWorkAndNothingIsAnonymousWhenReadsAreClosed() throws Exception {
    HttpResponse<Buffer> sam =
        call("POST", Map.of("Authorization", "Bearer static-token-0123456789"));
    assertEquals(200, sam.statusCode());
    assertEquals("sam", sam.bodyAsJsonObject().getString("user"));
    assertEquals(401, call("GET", Map.of()).statusCode());
    assertEquals(401, call("POST", Map.of()).statusCode());
    assertEquals(401, call("GET", Map.of("Authorization", "Basic c2FtOnB3")).statusCode());
    HttpResponse<Buffer> unknown = call("GET", Map.of("Authorization", "Bearer nope"));
    assertEquals("unknown token", unknown.bodyAsJsonObject().getString("reason"));
    assertTrue(unknown.getHeader("WWW-Authenticate").startsWith("Bearer"));
  }

  @Test
  void anonymousReadsWhenEnabledButNeverWrites() throws Exception {
    Router r = Router.router(vertx);
    r.route().handler(ConsoleAuth.of(AuthConfig.ofTokens(Map.of(), true)));
    r.route("/api/whoami")
        .handler(ctx -> ctx.json(new JsonObject().put("user", ConsoleAuth.caller(ctx).user())));
    ConsoleVerticleAccess.jsonErrors(r);
    HttpServer open = await(vertx.createHttpServer().requestHandler(r).listen(0, "127.0.0.1"));
    try {
      HttpResponse<Buffer> read =
          await(web.get(open.actualPort(), "127.0.0.1", "/api/whoami").send());
      assertEquals(200, read.statusCode());
      assertEquals("anonymous", read.bodyAsJsonObject().getString("user"));
      for (String m : List.of("POST", "PUT", "DELETE", "PATCH")) {
        HttpResponse<Buffer> write =
            await(
                web.request(
                        io.vertx.core.http.HttpMethod.valueOf(m),
                        open.actualPort(),
                        "127.0.0.1",
                        "/api/whoami")
                    .send());
        assertEquals(401, write.statusCode(), m);
      }
    } finally {
      await(open.close());
    }
  }
}
