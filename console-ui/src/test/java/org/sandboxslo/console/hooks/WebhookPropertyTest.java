package org.sandboxslo.console.hooks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.sandboxslo.console.RouterFixture;
import org.sandboxslo.console.auth.AuthConfig;

/**
 * Issue 9: no 5xx for bad input. Arbitrary JSON trees shaped like Alertmanager payloads (wrong
 * types anywhere, NUL characters, huge numbers) and arbitrary text are answered 200 or 4xx with a
 * JSON error naming a field, never 5xx and never a Java class name.
 */
class WebhookPropertyTest {
  static final String SECRET = "webhook-property-secret-0123";
  static RouterFixture app;

  @BeforeContainer
  static void start() throws Exception {
    app =
        RouterFixture.start(
            AuthConfig.ofTokens(Map.of(), false).withWebhookToken(SECRET),
            (vertx, r) -> new AlertmanagerHook().mount(r));
  }

  @AfterContainer
  static void stop() {
    app.close();
  }

  static HttpResponse<Buffer> post(String body, String contentType) throws Exception {
    return RouterFixture.send(
        app.post("/hooks/alertmanager")
            .putHeader("Content-Type", contentType)
            .putHeader("Authorization", "Bearer " + SECRET),
        Buffer.buffer(body),
        10);
  }

  static void assertClientError(HttpResponse<Buffer> res, String input) {
    int s = res.statusCode();
    assertTrue(s == 200 || (s >= 400 && s < 500), s + " for " + input + ": " + res.bodyAsString());
    if (s != 200) {
      RouterFixture.assertRefusalNamesAReason(res);
    }
  }

  @Property(tries = 400)
  void payloadsAreAcceptedOrRefusedWith4xx(@ForAll("payloads") Map<String, Object> payload)
      throws Exception {
    String body = Json.encode(payload);
    assertClientError(post(body, "application/json"), body);
  }

  @Property(tries = 200)
  void arbitraryTextIsA4xx(@ForAll("texts") String text, @ForAll("mediaTypes") String type)
      throws Exception {
    assertClientError(post(text, type), text);
  }

  @Provide
  Arbitrary<String> mediaTypes() {
    return Arbitraries.of(
        "application/json",
        "text/plain",
        "multipart/form-data; boundary=x",
        "application/json; charset=utf-8");
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(200),
        Arbitraries.of("{", "[]", "null", "\"4\"", "{\"version\":\"4\",\"alerts\":{}}", "\u0000"));
  }

  @Provide
  Arbitrary<Map<String, Object>> payloads() {
    Arbitrary<Object> alerts = alert().list().ofMaxSize(4).map(l -> (Object) new ArrayList<>(l));
    return Combinators.combine(
            Arbitraries.oneOf(Arbitraries.of((Object) "4", "3", 4, null, List.of())),
            Arbitraries.frequencyOf(Tuple.of(5, alerts), Tuple.of(1, anything(1))),
            anything(0))
        .as(
            (version, as, receiver) -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("version", version);
              m.put("alerts", as);
              m.put("receiver", receiver);
              return m;
            });
  }

  Arbitrary<Object> alert() {
    Arbitrary<Object> labels =
        Arbitraries.maps(
                Arbitraries.of("alertname", "slo", "namespace", "sandbox_template", "a\u0000"),
                Arbitraries.frequencyOf(
                    Tuple.of(4, Arbitraries.strings().ofMaxLength(10).map(s -> (Object) s)),
                    Tuple.of(1, anything(1))))
            .ofMaxSize(4)
            .map(m -> (Object) m);
    Arbitrary<Object> status = Arbitraries.of((Object) "firing", "resolved", "other", 1, true);
    Arbitrary<Object> time =
        Arbitraries.of(
            (Object) "2026-11-29T08:00:00Z",
            "0001-01-01T00:00:00Z",
            "yesterday",
            12,
            "2026-11-29T08:00:00+01:00");
    return Combinators.combine(
            status, Arbitraries.strings().ofMaxLength(6), labels, time, anything(1))
        .as(
            (st, fp, ls, t, extra) -> {
              Map<String, Object> a = new LinkedHashMap<>();
              a.put("status", st);
              a.put("fingerprint", fp);
              a.put("labels", ls);
              a.put("annotations", extra);
              a.put("startsAt", t);
              a.put("endsAt", t);
              return (Object) a;
            });
  }

  Arbitrary<Object> anything(int depth) {
    Arbitrary<Object> leaf =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(8).map(s -> (Object) s),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.doubles().map(d -> (Object) d),
            Arbitraries.of((Object) true, "\u0000"));
    if (depth == 0) {
      return leaf.injectNull(0.1);
    }
    return Arbitraries.frequencyOf(
            Tuple.of(3, leaf),
            Tuple.of(
                1,
                Arbitraries.maps(Arbitraries.strings().ofMaxLength(4), anything(depth - 1))
                    .ofMaxSize(3)
                    .map(m -> (Object) m)),
            Tuple.of(1, anything(depth - 1).list().ofMaxSize(3).map(l -> (Object) l)))
        .injectNull(0.1);
  }
}
