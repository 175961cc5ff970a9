package org.sandboxslo.tests.artefacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.server.replay.FindingAlerts;

/**
 * The table replay uses to say when a finding's alert fires ({@code FindingAlerts}) agrees with the
 * shipped rules: the alert exists, its {@code for:} is the same, alerts on {@code
 * sandbox_slo_findings} select the finding's kind (and drop held-back {@code info} findings when
 * the table says so), and their {@code console_url} opens the findings of that kind.
 */
class FindingAlertsTest {
  record Rule(String expr, Duration forDuration, Map<String, String> annotations) {}

  static Map<String, Rule> rules() {
    Map<String, Rule> out = new HashMap<>();
    for (Path file : Artefacts.rulesFiles()) {
      for (Map<String, Object> group : Artefacts.list(Artefacts.loadYaml(file).get("groups"))) {
        for (Map<String, Object> rule : Artefacts.list(group.get("rules"))) {
          if (rule.containsKey("alert")) {
            Object f = rule.get("for");
            @SuppressWarnings("unchecked")
            Map<String, Object> ann = (Map<String, Object>) rule.get("annotations");
            Map<String, String> a = new HashMap<>();
            ann.forEach((k, v) -> a.put(k, String.valueOf(v)));
            out.put(
                String.valueOf(rule.get("alert")),
                new Rule(
                    String.valueOf(rule.get("expr")),
                    f == null ? Duration.ZERO : Durations.parse("for", String.valueOf(f)),
                    a));
          }
        }
      }
    }
    return out;
  }

  @Test
  void everyMappedAlertExistsWithTheSameForAndSelectsItsKind() {
    Map<String, Rule> rules = rules();
    FindingAlerts.all()
        .forEach(
            (kind, alert) -> {
              Rule r = rules.get(alert.name());
              assertNotNull(r, kind.wireName() + " maps to missing alert " + alert.name());
              assertEquals(alert.forDuration(), r.forDuration(), alert.name() + " for:");
              if (r.expr().contains("sandbox_slo_findings")) {
                assertTrue(
                    r.expr().contains("kind=\"" + kind.wireName() + "\""),
                    alert.name() + " must select kind " + kind.wireName() + ": " + r.expr());
                boolean dropsInfo = r.expr().contains("severity!=\"info\"");
                boolean criticalOnly = r.expr().contains("severity=\"critical\"");
                Severity expected =
                    criticalOnly ? Severity.CRITICAL : dropsInfo ? Severity.TICKET : Severity.INFO;
                assertEquals(expected, alert.minSeverity(), alert.name() + " severity filter");
              }
            });
  }

  @Test
  void theIssue8FindingsHaveAlertsThatOpenTheirFindings() {
    Map<String, Rule> rules = rules();
    for (FindingKind k :
        new FindingKind[] {
          FindingKind.POOL_OVER_CREATION,
          FindingKind.REFILL_GATED_BY_WATCH_LAG,
          FindingKind.WATCH_LAG,
          FindingKind.CLAIMS_UNSERVED,
          FindingKind.INFORMER_SUSPECT_STALE
        }) {
      FindingAlerts.Alert a = FindingAlerts.of(k);
      assertNotNull(a, k.wireName());
      // the alert is named like the finding's runbook, so both lead to the same page
      assertEquals(k.runbook(), a.name());
      assertEquals(
          Artefacts.CONSOLE_URL_BASE + "findings?kind=" + k.wireName(),
          rules.get(a.name()).annotations().get("console_url"));
    }
    assertEquals(
        "page",
        Artefacts.alertRules().stream()
            .filter(r -> r.name().equals("WarmPoolOverCreation"))
            .findFirst()
            .orElseThrow()
            .labels()
            .get("severity"));
  }
}
