package org.sandboxslo.tests.artefacts;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.sandboxslo.tests.artefacts.Artefacts.AlertRule;
import org.sandboxslo.tests.artefacts.Artefacts.RuleExpr;

/**
 * Checks every {@code alerts/**}{@code /*.rules.yml} with {@code promtool check rules}, runs every
 * {@code *_test.yml} next to them with {@code promtool test rules}, and checks that the unit tests
 * cover every alert both firing and not firing. Also checks the label/annotation contract of every
 * alert and that expressions only use contract series names.
 */
class PromtoolRulesTest {

  private static final String INSTALL = "apt-get install prometheus";

  @Test
  void rulesAndTestsExist() {
    assertFalse(Artefacts.rulesFiles().isEmpty(), "no *.rules.yml under " + Artefacts.alertsDir());
    assertFalse(Artefacts.ruleTestFiles().isEmpty(), "no *_test.yml next to the rules files");
  }

  @TestFactory
  Stream<DynamicTest> promtoolCheckRules() {
    ExternalTool promtool = ExternalTool.require("promtool", INSTALL);
    return Artefacts.rulesFiles().stream()
        .map(
            file ->
                dynamicTest(
                    relative(file),
                    () -> {
                      ExternalTool.Result r =
                          promtool.run(file.getParent(), "check", "rules", file.toString());
                      assertEquals(0, r.exitCode(), "promtool check rules failed:\n" + r.output());
                    }));
  }

  @TestFactory
  Stream<DynamicTest> promtoolTestRules() {
    ExternalTool promtool = ExternalTool.require("promtool", INSTALL);
    return Artefacts.ruleTestFiles().stream()
        .map(
            file ->
                dynamicTest(
                    relative(file),
                    () -> {
                      ExternalTool.Result r =
                          promtool.run(file.getParent(), "test", "rules", file.toString());
                      assertEquals(0, r.exitCode(), "promtool test rules failed:\n" + r.output());
                    }));
  }

  /** Every alert needs a unit-test case where it fires and one where it stays quiet. */
  @Test
  void everyAlertIsTestedFiringAndNotFiring() {
    Set<String> firing = new TreeSet<>();
    Set<String> quiet = new TreeSet<>();
    for (Path testFile : Artefacts.ruleTestFiles()) {
      for (Map<String, Object> test : Artefacts.list(Artefacts.loadYaml(testFile).get("tests"))) {
        for (Map<String, Object> alertTest : Artefacts.list(test.get("alert_rule_test"))) {
          String name = String.valueOf(alertTest.get("alertname"));
          if (Artefacts.list(alertTest.get("exp_alerts")).isEmpty()) {
            quiet.add(name);
          } else {
            firing.add(name);
          }
        }
      }
    }
    Set<String> alerts = new TreeSet<>();
    Artefacts.alertRules().forEach(a -> alerts.add(a.name()));
    assertFalse(alerts.isEmpty(), "no alerting rules found");
    List<String> missing = new ArrayList<>();
    for (String alert : alerts) {
      if (!firing.contains(alert)) {
        missing.add(alert + " has no alert_rule_test with non-empty exp_alerts");
      }
      if (!quiet.contains(alert)) {
        missing.add(alert + " has no alert_rule_test with empty exp_alerts");
      }
    }
    assertTrue(missing.isEmpty(), String.join("\n", missing));
  }

  /** severity, summary, description, runbook_url and console_url on every alert. */
  @Test
  void everyAlertCarriesSeverityAndLinks() {
    List<Executable> checks = new ArrayList<>();
    for (AlertRule a : Artefacts.alertRules()) {
      String where = relative(a.file()) + " alert " + a.name() + ": ";
      checks.add(
          () ->
              assertTrue(
                  Artefacts.SEVERITIES.contains(a.labels().get("severity")),
                  where
                      + "label severity must be one of "
                      + Artefacts.SEVERITIES
                      + ", got "
                      + a.labels().get("severity")));
      for (String key : List.of("summary", "description", "runbook_url", "console_url")) {
        checks.add(
            () ->
                assertFalse(
                    a.annotations().getOrDefault(key, "").isBlank(),
                    where + "annotation " + key + " is missing"));
      }
      checks.add(
          () ->
              assertTrue(
                  a.annotations()
                      .getOrDefault("runbook_url", "")
                      .startsWith(Artefacts.RUNBOOK_URL_PREFIX + "runbooks/"),
                  where
                      + "runbook_url must start with "
                      + Artefacts.RUNBOOK_URL_PREFIX
                      + "runbooks/"));
      checks.add(
          () ->
              assertTrue(
                  a.annotations()
                      .getOrDefault("console_url", "")
                      .startsWith(Artefacts.CONSOLE_URL_BASE),
                  where
                      + "console_url must start with "
                      + Artefacts.CONSOLE_URL_BASE
                      + " (one base, replaceable with sed; see alerts/README.md)"));
    }
    assertAll(checks);
  }

  /** Rules may only read contract series or series recorded by some rules file. */
  @Test
  void expressionsUseOnlyContractSeries() {
    Set<String> known = Artefacts.knownSeriesNames();
    Map<String, Set<String>> unknown = new TreeMap<>();
    for (RuleExpr e : Artefacts.ruleExprs()) {
      for (String name : Artefacts.seriesNamesIn(e.expr())) {
        if (!known.contains(name)) {
          unknown
              .computeIfAbsent(relative(e.file()) + " " + e.rule(), k -> new TreeSet<>())
              .add(name);
        }
      }
    }
    assertTrue(unknown.isEmpty(), "unknown series names (not in metric-contract.txt): " + unknown);
  }

  private static String relative(Path file) {
    return Artefacts.repoRoot().relativize(file).toString();
  }
}
