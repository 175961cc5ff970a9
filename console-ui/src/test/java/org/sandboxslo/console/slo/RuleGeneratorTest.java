package org.sandboxslo.console.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.api.ConsoleLinks;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloDefinitions;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** Rule files as YAML structures, console links, the PrometheusRule wrapper. */
class RuleGeneratorTest {
  static final Duration PERIOD = Duration.ofDays(28);
  static final ConsoleLinks LINKS = ConsoleLinks.parse("k", "https://slo.example.com/console/");

  /** The default SLOs as generate-rules uses them: no selector, grouped per template. */
  static List<SloDefinition> defaults() {
    List<SloDefinition> out = new ArrayList<>();
    for (Map<String, Object> b : SloDefaults.bodies(null, null, PERIOD, Duration.ofSeconds(1))) {
      out.add(SloDefinitions.parse(b).definition());
    }
    return out;
  }

  static SloDefinition parse(Map<String, Object> body) {
    SloDefinitions.Parsed p = SloDefinitions.parse(body);
    assertTrue(p.isValid(), String.valueOf(p.errors()));
    return p.definition();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> load(String yaml) {
    return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(yaml);
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> rulesOf(Map<String, Object> file) {
    List<Map<String, Object>> groups = (List<Map<String, Object>>) file.get("groups");
    assertEquals(1, groups.size());
    return (List<Map<String, Object>>) groups.get(0).get("rules");
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> annotations(Map<String, Object> rule) {
    return (Map<String, String>) rule.get("annotations");
  }

  @Test
  void aDefaultSloIsOneGroupOfRecordingRulesAndOneAlertPerTier() {
    SloDefinition warm = defaults().get(0);
    List<Map<String, Object>> rules = rulesOf(load(RuleGenerator.rules(warm, LINKS)));
    // windows for 28d: 5m, the tier windows scaled by 28/30 (56m/4m40s, 5h36m/28m, 22h24m/1h52m,
    // 2d19h12m/5h36m - 5h36m twice) and the period: 9 distinct; 9 error ratios + 9 burn rates
    // + 1 budget remaining + 4 tiers = 23
    assertEquals(23, rules.size());
    assertEquals("slo:sli_error:ratio_rate4m40s", rules.get(0).get("record"));
    assertEquals(Map.of("slo", "warm-hit"), rules.get(0).get("labels"));
    assertEquals("slo:burn_rate:ratio", rules.get(9).get("record"));
    assertEquals(
        "slo:sli_error:ratio_rate4m40s{slo=\"warm-hit\"} / 0.05", rules.get(9).get("expr"));
    assertEquals(
        "1 - slo:sli_error:ratio_rate28d{slo=\"warm-hit\"} / 0.05", rules.get(18).get("expr"));
    assertEquals(Map.of("slo", "warm-hit"), rules.get(18).get("labels"));
    assertEquals(Map.of("slo", "warm-hit", "window", "4m40s"), rules.get(9).get("labels"));
    Map<String, Object> fast = rules.get(19);
    assertEquals("SloErrorBudgetBurn", fast.get("alert"));
    // threshold 14.4 x budget 0.05 = 0.72, long window 56m and short 4m40s
    assertEquals(
        "slo:sli_error:ratio_rate56m{slo=\"warm-hit\"} > 0.72\n"
            + "and\n"
            + "slo:sli_error:ratio_rate4m40s{slo=\"warm-hit\"} > 0.72\n",
        fast.get("expr"));
    assertEquals(
        Map.of("severity", "page", "slo", "warm-hit", "slo_tier", "fast"), fast.get("labels"));
    assertEquals(
        "https://slo.example.com/console/slos/warm-hit-{{ $labels.namespace }}-"
            + "{{ reReplaceAll \"[^a-z0-9-]\" \"-\" $labels.sandbox_template }}",
        annotations(fast).get("console_url"));
    // the multi-line PromQL is a literal block, as a person would write it
    assertTrue(
        RuleGenerator.rules(warm, LINKS)
            .contains(
                "        expr: |\n          (\n            sum by (namespace, sandbox_template)"),
        RuleGenerator.rules(warm, LINKS));
  }

  @Test
  void theConsoleUrlOfABurnAlertIsTheSloPageOfItsSubject() {
    SloDefinition defaultWarm = defaults().get(0);
    // a default SLO grouped per template: the console's per-template SLO, named like SloDefaults
    // does; a dot in the template name becomes '-'
    assertEquals("warm-hit-team-a-tpl-py-3", SloDefaults.name("warm-hit", "team-a", "tpl.py.3"));
    assertEquals(
        "warm-hit-team-a-tpl-py-3", RuleGenerator.consoleSloId(defaultWarm, "team-a", "tpl.py.3"));
    // an SLO with a template selector is evaluated under its own name
    SloDefinition perTemplate =
        SloDefaults.forTemplate("team-a", "tpl-py", PERIOD, Duration.ofSeconds(1)).get(0);
    assertEquals("warm-hit-team-a-tpl-py", perTemplate.name());
    Map<String, Object> alert = rulesOf(load(RuleGenerator.rules(perTemplate, LINKS))).get(19);
    assertEquals(
        "https://slo.example.com/console/slos/warm-hit-team-a-tpl-py",
        annotations(alert).get("console_url"));
    // so is a user SLO without selector (the console has one SLO of that name)
    SloDefinition checkout =
        parse(Map.of("name", "checkout", "sli", "warm_hit_ratio", "objective", 99));
    assertEquals("checkout", RuleGenerator.consoleSloId(checkout, "{{ $labels.namespace }}", "x"));
  }

  @Test
  void promtoolTestsExpectTheExpandedLinks() {
    SloDefinition warm = defaults().get(0);
    Map<String, Object> tests = load(RuleGenerator.tests(warm, "warm-hit.rules.yml", LINKS));
    assertEquals(List.of("warm-hit.rules.yml"), tests.get("rule_files"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> groups = (List<Map<String, Object>>) tests.get("tests");
    assertEquals(3, groups.size());
    @SuppressWarnings("unchecked")
    Map<String, Object> alertTest =
        ((List<Map<String, Object>>) groups.get(0).get("alert_rule_test")).get(0);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> expected = (List<Map<String, Object>>) alertTest.get("exp_alerts");
    assertEquals(4, expected.size());
    assertEquals(
        "https://slo.example.com/console/slos/warm-hit-team-a-tpl-py",
        annotations(Map.of("annotations", (Object) expected.get(0).get("exp_annotations")))
            .get("console_url"));
    // burn rate of a total outage: error ratio 1 / budget 0.05 = 20, a YAML number
    @SuppressWarnings("unchecked")
    Map<String, Object> sample =
        ((List<Map<String, Object>>)
                ((List<Map<String, Object>>) groups.get(0).get("promql_expr_test"))
                    .get(0)
                    .get("exp_samples"))
            .get(0);
    assertEquals(20, sample.get("value"));
  }

  @Test
  void namesThatYaml11ReadersTakeForBooleansAreQuoted() {
    SloDefinition yes = parse(Map.of("name", "on", "sli", "warm_hit_ratio", "objective", 99));
    String rules = RuleGenerator.rules(yes, LINKS);
    assertTrue(rules.contains("          slo: \"on\"\n"), rules);
    assertTrue(rules.contains("  - name: slo-on\n"), rules);
  }

  @Test
  @SuppressWarnings("unchecked")
  void thePrometheusRuleHoldsTheSameGroupsUnderSpec() {
    List<SloDefinition> slos = defaults();
    Map<String, Object> pr =
        load(RuleGenerator.prometheusRule(slos, LINKS, PrometheusRuleMetadata.defaults()));
    assertEquals("monitoring.coreos.com/v1", pr.get("apiVersion"));
    assertEquals("PrometheusRule", pr.get("kind"));
    assertEquals(
        Map.of(
            "name",
            "sandbox-slo-console-slos",
            "labels",
            Map.of("app.kubernetes.io/name", "sandbox-slo-console")),
        pr.get("metadata"));
    List<Object> groups = (List<Object>) ((Map<String, Object>) pr.get("spec")).get("groups");
    List<Object> want = new ArrayList<>();
    for (SloDefinition d : slos) {
      want.addAll((List<Object>) load(RuleGenerator.rules(d, LINKS)).get("groups"));
    }
    assertEquals(want, groups);
    assertEquals(4, groups.size());

    Map<String, Object> namespaced =
        load(
            RuleGenerator.prometheusRule(
                slos.subList(0, 1),
                LINKS,
                new PrometheusRuleMetadata("slo-rules", "monitoring", Map.of("release", "prom"))));
    assertEquals(
        Map.of("name", "slo-rules", "namespace", "monitoring", "labels", Map.of("release", "prom")),
        namespaced.get("metadata"));
    assertEquals(
        "SLO warm-hit is defined twice",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    RuleGenerator.prometheusRule(
                        List.of(slos.get(0), slos.get(0)),
                        LINKS,
                        PrometheusRuleMetadata.defaults()))
            .getMessage());
  }

  @Test
  void prometheusRuleMetadataIsCheckedLikeKubernetesDoes() {
    assertEquals(
        "name: expected a DNS-1123 subdomain (lower-case letters, digits, '-', '.'), got 'SLO_rules'",
        assertThrows(
                IllegalArgumentException.class,
                () -> new PrometheusRuleMetadata("SLO_rules", null, Map.of()))
            .getMessage());
    assertEquals(
        "namespace: expected a DNS-1123 label (lower-case letters, digits, '-'), got 'a.b'",
        assertThrows(
                IllegalArgumentException.class,
                () -> new PrometheusRuleMetadata("x", "a.b", Map.of()))
            .getMessage());
    String v64 = "v".repeat(64);
    assertThrows(
        IllegalArgumentException.class,
        () -> new PrometheusRuleMetadata("x", null, Map.of("team", v64)));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PrometheusRuleMetadata("x", null, Map.of("Example.com/team", "a")));
    // 63 characters and an empty value are allowed, a DNS prefix too
    new PrometheusRuleMetadata(
        "x", null, Map.of("team", "v".repeat(63), "prometheus.example.com/rules", ""));
  }
}
