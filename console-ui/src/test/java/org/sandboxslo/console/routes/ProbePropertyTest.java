package org.sandboxslo.console.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.sandboxslo.console.RouterFixture;
import org.sandboxslo.console.auth.AuthConfig;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.engine.model.FleetEvent;

/**
 * Issue 9: no 5xx for bad input on {@code POST /api/v1/probes}. Arbitrary probe-shaped bodies
 * (wrong types in every field, NUL characters, huge and negative numbers, bad names and times) and
 * arbitrary text with any media type are answered 202 (and reach the engine) or 4xx with a JSON
 * reason and no Java class name (and reach nothing), never 5xx.
 */
class ProbePropertyTest {
  static final String TOKEN = "probe-property-operator-token";
  static final Instant NOW = Instant.parse("2026-10-05T09:30:00Z");
  static final List<FleetEvent> RECEIVED = new CopyOnWriteArrayList<>();
  static RouterFixture app;

  @BeforeContainer
  static void start() throws Exception {
    app =
        RouterFixture.start(
            AuthConfig.ofTokens(
                Map.of(TOKEN, new Caller("olga", Set.of("operator:team-a"))), false),
            (vertx, r) ->
                new ProbeRoutes(() -> RECEIVED::add, Clock.fixed(NOW, ZoneOffset.UTC)).mount(r));
  }

  @AfterContainer
  static void stop() {
    app.close();
  }

  static HttpResponse<Buffer> post(String body, String contentType) throws Exception {
    return RouterFixture.send(
        app.post("/api/v1/probes")
            .putHeader("Content-Type", contentType)
            .putHeader("Authorization", "Bearer " + TOKEN),
        Buffer.buffer(body),
        10);
  }

  /** 202 adds exactly one event; 4xx adds none and names a reason without Java internals. */
  static void assertAcceptedOrClientError(String body, String contentType) throws Exception {
    int before = RECEIVED.size();
    HttpResponse<Buffer> res = post(body, contentType);
    int s = res.statusCode();
    assertTrue(s == 202 || (s >= 400 && s < 500), s + " for " + body + ": " + res.bodyAsString());
    if (s == 202) {
      assertEquals(before + 1, RECEIVED.size(), body);
    } else {
      assertEquals(before, RECEIVED.size(), body);
      RouterFixture.assertRefusalNamesAReason(res);
    }
  }

  @Property(tries = 300)
  void probeBodiesAreAcceptedOrRefusedWith4xx(@ForAll("probes") Map<String, Object> probe)
      throws Exception {
    assertAcceptedOrClientError(Json.encode(probe), "application/json");
  }

  @Property(tries = 150)
  void arbitraryTextIsA4xx(@ForAll("texts") String text, @ForAll("mediaTypes") String type)
      throws Exception {
    assertAcceptedOrClientError(text, type);
  }

  /** Negative control: a well-formed probe of the caller's namespace is accepted. */
  @Property(tries = 20)
  void wellFormedProbesOfTheCallersNamespaceAreAccepted(
      @ForAll("names") String name, @ForAll("hashes") String hash) throws Exception {
    int before = RECEIVED.size();
    String body =
        new JsonObject().put("sandbox", "team-a/" + name).put("randomSampleHash", hash).encode();
    HttpResponse<Buffer> res = post(body, "application/json");
    assertEquals(202, res.statusCode(), res.bodyAsString());
    assertEquals(before + 1, RECEIVED.size());
  }

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(20);
  }

  @Provide
  Arbitrary<String> hashes() {
    return Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(64);
  }

  @Provide
  Arbitrary<String> mediaTypes() {
    return Arbitraries.of(
        "application/json",
        "text/plain",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded");
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(200),
        Arbitraries.of("{", "[]", "null", "\"probe\"", "{\"sandbox\":{}}", "\u0000", ""));
  }

  @Provide
  Arbitrary<Map<String, Object>> probes() {
    Arbitrary<Object> sandbox =
        Arbitraries.oneOf(
            Arbitraries.of(
                (Object) "team-a/sbx-1",
                "team-b/sbx-1",
                "sbx-1",
                "/",
                "team-a/",
                "a/b/c",
                "\u0000/x"),
            anything());
    Arbitrary<Object> hash =
        Arbitraries.oneOf(Arbitraries.of((Object) "9f2c", "", "\u0000"), anything());
    Arbitrary<Object> delay =
        Arbitraries.oneOf(
            Arbitraries.of((Object) "800ms", "-1s", "200000d", "1e308s", "soon"), anything());
    Arbitrary<Object> time =
        Arbitraries.oneOf(
            Arbitraries.of(
                (Object) "2026-10-05T09:29:00Z",
                "0001-01-01T00:00:00Z",
                "+999999999-12-31T23:59:59Z",
                "yesterday"),
            anything());
    Arbitrary<Object> flag = Arbitraries.oneOf(Arbitraries.of((Object) true, false), anything());
    return Combinators.combine(sandbox, hash, delay, time, flag, anything())
        .as(
            (sb, h, d, t, vm, extra) -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("sandbox", sb);
              m.put("randomSampleHash", h);
              m.put("probeDelay", d);
              m.put("observedAt", t);
              m.put("vmgenidPresent", vm);
              m.put("snapshot", extra);
              m.put("kernel", extra);
              m.put("bootId", extra);
              return m;
            });
  }

  Arbitrary<Object> anything() {
    return Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(8).map(s -> (Object) s),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.doubles().map(d -> (Object) d),
            Arbitraries.of((Object) true, "\u0000", List.of(1), Map.of("a", 1)))
        .injectNull(0.2);
  }
}
