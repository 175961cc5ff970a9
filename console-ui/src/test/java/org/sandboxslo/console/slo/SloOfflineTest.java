package org.sandboxslo.console.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.engine.scrape.Scrape;
import org.sandboxslo.engine.slo.SliType;
import org.sandboxslo.engine.slo.SloDefinition;

/**
 * SLO files (own shape and OpenSLO), settings, the rule generator and the controller view, without
 * servers.
 */
class SloOfflineTest {

  @Test
  void filesLoadOwnShapeAndOpenSloMultiDocWithOneLineErrors(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("slos.yaml"),
        """
        name: warm-hit-py
        sli: warm_hit_ratio
        selector: {namespace: team-a, sandboxTemplate: tpl-py}
        objective: 97.5
        window: 7d
        ---
        apiVersion: openslo/v1
        kind: SLO
        metadata:
          name: ready-py
          labels: {sandboxslo.dev/namespace: team-a, sandboxslo.dev/sandbox-template: tpl-py}
        spec:
          service: sandboxes
          indicatorRef: claim_to_ready_latency
          budgetingMethod: Occurrences
          objectives: [{target: 0.99}]
          timeWindow: [{duration: 28d, isRolling: true}]
          alertPolicies: [page-oncall]
        ---
        name: broken
        sli: warm_hit_ratio
        objective: 100
        """);
    SloFiles.Loaded l = SloFiles.load(dir);
    assertEquals(
        List.of("warm-hit-py", "ready-py"),
        l.definitions().stream().map(SloDefinition::name).toList());
    SloDefinition own = l.definitions().get(0);
    assertEquals(97.5, own.objectivePercent());
    assertEquals(Duration.ofDays(7), own.period());
    SloDefinition open = l.definitions().get(1);
    assertEquals(SliType.CLAIM_TO_READY_LATENCY, open.sli());
    assertEquals(99.0, open.objectivePercent(), 1e-9);
    assertEquals("tpl-py", open.sandboxTemplate());
    assertEquals(Duration.ofSeconds(1), open.latencyThreshold());
    assertEquals(
        List.of(
            dir.resolve("slos.yaml")
                + "#3: objective: objective must be > 0 and < 100; 100 leaves no error budget and an infinite burn rate"),
        l.errors());
    assertEquals(
        List.of(
            dir.resolve("slos.yaml") + "#2 (ready-py): OpenSLO field not mapped: spec.service",
            dir.resolve("slos.yaml")
                + "#2 (ready-py): OpenSLO field not mapped: spec.alertPolicies"),
        l.notices());
  }

  @Test
  void settingsRejectUnknownKeysAndBadValues() {
    SloSettings d = SloSettings.fromMap(Map.of());
    assertEquals(Duration.ofDays(28), d.period());
    assertTrue(d.defaults());
    assertNull(d.controllerUrl());
    assertEquals(Duration.ofSeconds(15), d.controllerInterval());
    assertEquals(
        "unknown configuration key sloconsole.slo.perod; known: [sloconsole.controller-view.demo-port, "
            + "sloconsole.controller-view.interval, sloconsole.controller-view.tolerance, sloconsole.controller-view.url, "
            + "sloconsole.controller-view.window, sloconsole.slo.defaults, sloconsole.slo.dir, sloconsole.slo.latency-threshold, "
            + "sloconsole.slo.period, sloconsole.slo.persist-interval, sloconsole.slo.refresh-interval]",
        assertThrows(
                IllegalArgumentException.class,
                () -> SloSettings.fromMap(Map.of("sloconsole.slo.perod", "1h")))
            .getMessage());
    assertEquals(
        "sloconsole.slo.defaults: expected true or false, got 'yes'",
        assertThrows(
                IllegalArgumentException.class,
                () -> SloSettings.fromMap(Map.of("sloconsole.slo.defaults", "yes")))
            .getMessage());
    assertEquals(
        "sloconsole.slo.period: must be at least 1m, got 30s",
        assertThrows(
                IllegalArgumentException.class,
                () -> SloSettings.fromMap(Map.of("sloconsole.slo.period", "30s")))
            .getMessage());
  }

  @Test
  void defaultNamesAreDnsLabelsEvenForLongTemplates() {
    assertEquals("warm-hit-team-a-tpl-py", SloDefaults.name("warm-hit", "team-a", "tpl-py"));
    String longName =
        SloDefaults.name(
            "resume-success", "a-very-long-namespace-name", "an-even-longer-sandbox-template-name");
    assertTrue(longName.length() <= 63, longName);
    assertTrue(longName.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?"), longName);
  }

  /** The shipped alerts/generated files are exactly the generator's output for the default SLOs. */
  @Test
  void generatedRulesCarryTheContract() {
    SloDefinition warm =
        SloDefaults.forTemplate("team-a", "tpl-py", Duration.ofDays(30), Duration.ofSeconds(1))
            .get(0);
    String rules = RuleGenerator.rules(warm);
    assertTrue(
        rules.contains(
            "sandbox_slo_eligible_claim_launches_total{namespace=\"team-a\", sandbox_template=\"tpl-py\", launch_type=\"cold\"}[1h]"),
        rules);
    assertTrue(
        rules.contains(
            "slo:sli_error:ratio_rate1h{slo=\"warm-hit-team-a-tpl-py\"} > 0.72\n          and\n"
                + "          slo:sli_error:ratio_rate5m{slo=\"warm-hit-team-a-tpl-py\"} > 0.72"),
        rules);
    assertTrue(rules.contains("slo_tier: slowest"), rules);
    assertTrue(
        rules.contains(
            "- record: slo:error_budget:remaining\n        expr: 1 - slo:sli_error:ratio_rate30d{slo=\"warm-hit-team-a-tpl-py\"} / 0.05"),
        rules);
    assertEquals("2d19h12m", RuleGenerator.prom(Duration.ofDays(3).multipliedBy(28).dividedBy(30)));
    assertEquals("4m40s", RuleGenerator.prom(Duration.ofSeconds(280)));
    SloDefinition odd =
        org.sandboxslo.engine.slo.SloDefinitions.parse(
                Map.of(
                    "name",
                    "x",
                    "sli",
                    "claim_to_ready_latency",
                    "objective",
                    99,
                    "latencyThreshold",
                    "750ms"))
            .definition();
    assertEquals(
        "SLO x: latencyThreshold 0.75s is not a bucket bound of sandbox_slo_claim_to_ready_seconds "
            + "[0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0]",
        assertThrows(IllegalArgumentException.class, () -> RuleGenerator.rules(odd)).getMessage());
  }

  /** C14: a restart inside the window; increase 80 warm / 5 cold, 80/85, partial. */
  @Test
  void controllerViewOverARestartGivesC14sNumbers() throws Exception {
    List<Scrape> scrapes =
        Scrape.parseFile(
            Files.readString(
                Path.of(
                    System.getProperty("shared.dir"),
                    "cases",
                    "inputs",
                    "C14-counter-reset-restart.txt")));
    ControllerViewVerticle.View v =
        ControllerViewVerticle.compute(
            scrapes,
            "team-a",
            "tpl-py",
            Instant.parse("2026-09-01T12:00:00Z"),
            Instant.parse("2026-09-01T12:01:30Z"),
            Duration.ofSeconds(30),
            false);
    assertEquals(80.0, v.warm());
    assertEquals(5.0, v.cold());
    assertEquals(80.0 / 85.0, v.warmHitRatio(), 1e-12);
    assertEquals("0.941", String.format(java.util.Locale.ROOT, "%.3f", v.warmHitRatio()));
    assertTrue(v.partial());
    assertEquals(1, v.restarts());
    assertEquals(4, v.scrapes());
    // before the restart: complete, 40/42
    ControllerViewVerticle.View before =
        ControllerViewVerticle.compute(
            scrapes,
            "team-a",
            "tpl-py",
            Instant.parse("2026-09-01T12:00:00Z"),
            Instant.parse("2026-09-01T12:00:30Z"),
            Duration.ofSeconds(30),
            false);
    assertEquals(40.0 / 42.0, before.warmHitRatio(), 1e-12);
    assertFalse(before.partial());
    // a scrape gap (> 2 intervals between scrapes) is partial too
    ControllerViewVerticle.View gap =
        ControllerViewVerticle.compute(
            List.of(scrapes.get(0), scrapes.get(1)),
            "team-a",
            "tpl-py",
            Instant.parse("2026-09-01T12:00:00Z"),
            Instant.parse("2026-09-01T12:00:30Z"),
            Duration.ofSeconds(10),
            false);
    assertTrue(gap.partial());
    assertNull(
        ControllerViewVerticle.compute(
                scrapes,
                "team-b",
                null,
                Instant.parse("2026-09-01T12:00:00Z"),
                Instant.parse("2026-09-01T12:01:30Z"),
                Duration.ofSeconds(30),
                false)
            .warmHitRatio());
  }
}
