package org.sandboxslo.engine.slo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
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
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.time.Durations;

/**
 * Issue 9: no exception for bad input. Over arbitrary JSON-shaped trees and near-valid SLO bodies,
 * {@link SloDefinitions#parse} answers a definition or field errors and never throws; every
 * definition it accepts is within bounds and can be evaluated (the 200000d window once broke the
 * ledger's arithmetic). {@link Durations#parse} and {@link PromText#parse} fail only with one-line
 * {@link IllegalArgumentException}s.
 */
class InputParsersPropertyTest {
  static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");

  @Property(tries = 1000)
  void sloBodiesGiveADefinitionOrFieldErrors(@ForAll("sloBodies") Map<String, Object> body) {
    SloDefinitions.Parsed p = SloDefinitions.parse(body);
    if (!p.isValid()) {
      assertFalse(p.errors().isEmpty());
      p.errors().forEach(e -> assertFalse(e.field().isBlank()));
      return;
    }
    SloDefinition d = p.definition();
    assertTrue(d.period().compareTo(SloDefinitions.MAX_PERIOD) <= 0, d.period().toString());
    assertTrue(d.period().compareTo(Duration.ofMinutes(1)) >= 0);
    SloLedger ledger = new SloLedger(d);
    ledger.record(NOW.minusSeconds(30), 3, 4);
    assertNotNull(ledger.evaluate(NOW));
  }

  @Property(tries = 500)
  void arbitraryTreesNeverThrow(@ForAll("trees") Map<String, Object> body) {
    SloDefinitions.Parsed p = SloDefinitions.parse(body);
    assertTrue(p.isValid() || !p.errors().isEmpty());
    SloDefinitions.Parsed o = SloDefinitions.fromOpenSlo(body);
    assertTrue(o.isValid() || !o.errors().isEmpty());
  }

  @Property(tries = 1000)
  void durationsParseOrSayWhy(@ForAll("durationTexts") String text) {
    try {
      Durations.parse("window", text);
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage().startsWith("window: "), e.getMessage());
      assertFalse(e.getMessage().contains("\n"));
    }
  }

  @Property(tries = 1000)
  void scrapeTextParsesOrNamesTheLine(@ForAll("scrapeTexts") String text) {
    try {
      PromText.parse(text);
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage().startsWith("line "), e.getMessage());
    }
  }

  @Provide
  Arbitrary<String> durationTexts() {
    Arbitrary<String> number =
        Arbitraries.oneOf(
            Arbitraries.longs().map(String::valueOf),
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(30));
    Arbitrary<String> unit = Arbitraries.of("ms", "s", "m", "h", "d", "w", "", "y", "D");
    return Arbitraries.oneOf(
        Combinators.combine(number, unit).as((n, u) -> n + u),
        Arbitraries.strings().ofMaxLength(20),
        Arbitraries.of("PT1H", "PT99999999999999999999H", "P-1D", "-5m", " 5m ", "NaN"));
  }

  @Provide
  Arbitrary<String> scrapeTexts() {
    Arbitrary<String> name =
        Arbitraries.of("agent_sandbox_claim_creation_total", "up", "x", "", "1x");
    Arbitrary<String> labels =
        Arbitraries.oneOf(
            Arbitraries.just(""),
            Arbitraries.strings().ofMaxLength(30).map(s -> "{" + s + "}"),
            Arbitraries.of(
                "{a=\"b\"}", "{a=\"b\\\"c\"}", "{a=\"unterminated}", "{=\"x\"}", "{a=b}"));
    Arbitrary<String> value =
        Arbitraries.oneOf(
            Arbitraries.doubles().map(String::valueOf),
            Arbitraries.of("NaN", "+Inf", "-Inf", "1e999", "", "abc", "1 2 3"));
    Arbitrary<String> line =
        Arbitraries.oneOf(
            Combinators.combine(name, labels, value).as((n, l, v) -> n + l + " " + v),
            Arbitraries.strings().ofMaxLength(60),
            Arbitraries.of("# HELP x y", "# TYPE x counter", "\u0000", "\r"));
    return line.list().ofMaxSize(8).map(l -> String.join("\n", l));
  }

  /** Near-valid console-shape SLO bodies: each key present or not, values often out of bounds. */
  @Provide
  Arbitrary<Map<String, Object>> sloBodies() {
    Arbitrary<Object> duration =
        Arbitraries.of(
            "5m",
            "1h",
            "28d",
            "366d",
            "367d",
            "200000d",
            "99999999999999999999d",
            "0s",
            "-1h",
            "1w",
            "PT1H",
            "abc",
            7,
            1.5,
            true);
    Arbitrary<Object> number =
        Arbitraries.oneOf(
            Arbitraries.doubles().map(d -> (Object) d),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.of(0, 100, 99.9, -1, "95", "NaN", "Infinity", "1e400", true));
    Arbitrary<Object> tier =
        Combinators.combine(duration, duration, number)
            .as(
                (l, s, f) -> {
                  Map<String, Object> t = new LinkedHashMap<>();
                  t.put("long", l);
                  t.put("short", s);
                  t.put("factor", f);
                  return (Object) t;
                });
    Arbitrary<Object> alerting =
        tier.list()
            .ofMaxSize(3)
            .map(
                ts -> {
                  Map<String, Object> a = new LinkedHashMap<>();
                  a.put("pageBurnRates", new ArrayList<>(ts));
                  return (Object) a;
                });
    Map<String, Arbitrary<Object>> fields = new LinkedHashMap<>();
    fields.put("name", Arbitraries.of("ok-slo", "Bad Name", "", "a".repeat(70), 5));
    fields.put(
        "sli",
        Arbitraries.of(
            "warm_hit_ratio",
            "claim_to_ready_latency",
            "pool_ready_fraction",
            "resume_success",
            "nope",
            3));
    fields.put("objective", number);
    fields.put("window", duration);
    fields.put("latencyThreshold", duration);
    fields.put("readyFloor", number);
    fields.put("minEvents", number);
    fields.put("eligibleOnly", Arbitraries.of(true, false, "yes"));
    fields.put("alerting", alerting);
    fields.put("description", Arbitraries.of("x", "d".repeat(2000), 5));
    List<Arbitrary<Map.Entry<String, Object>>> entries = new ArrayList<>();
    fields.forEach(
        (k, v) ->
            entries.add(
                Arbitraries.oneOf(
                        v.map(x -> Map.entry(k, x)), Arbitraries.just(Map.entry(k, (Object) "")))
                    .injectNull(0.3)));
    return Combinators.combine(entries)
        .as(
            es -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("name", "ok-slo");
              m.put("sli", "warm_hit_ratio");
              m.put("objective", 95);
              for (Map.Entry<String, Object> e : es) {
                if (e != null) {
                  m.put(e.getKey(), e.getValue());
                }
              }
              return m;
            });
  }

  @Provide
  Arbitrary<Map<String, Object>> trees() {
    return map(3);
  }

  private Arbitrary<Map<String, Object>> map(int depth) {
    Arbitrary<String> key =
        Arbitraries.oneOf(
            Arbitraries.of(
                "name",
                "sli",
                "objective",
                "window",
                "selector",
                "alerting",
                "metadata",
                "spec",
                "objectives",
                "timeWindow",
                "apiVersion",
                "kind"),
            Arbitraries.strings().ofMaxLength(8));
    return Arbitraries.maps(key, value(depth)).ofMaxSize(5);
  }

  private Arbitrary<Object> value(int depth) {
    Arbitrary<Object> leaf =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(12).map(s -> (Object) s),
            Arbitraries.doubles().map(d -> (Object) d),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.of(true, false, "openslo/v1", "SLO", "28d", "warm_hit_ratio"));
    if (depth == 0) {
      return leaf.injectNull(0.1);
    }
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(4, leaf),
            net.jqwik.api.Tuple.of(1, Arbitraries.lazy(() -> map(depth - 1)).map(m -> (Object) m)),
            net.jqwik.api.Tuple.of(
                1,
                Arbitraries.lazy(() -> value(depth - 1)).list().ofMaxSize(3).map(l -> (Object) l)))
        .injectNull(0.1);
  }
}
