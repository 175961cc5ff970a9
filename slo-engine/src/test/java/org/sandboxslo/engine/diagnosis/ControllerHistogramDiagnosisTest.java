package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.Timeline.at;
import static org.sandboxslo.engine.diagnosis.Timeline.cond;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.scrape.ControllerReport;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.LatencyHistogram;
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.scrape.Scrape;

/** Fault kind 4 with the claims: the controller's histogram counts checked against first Ready. */
class ControllerHistogramDiagnosisTest {
  static final String H = ControllerView.CONTROLLER_STARTUP_LATENCY_MS;
  static final String[] LE = {"500", "1000", "2500", "5000", "240000", "+Inf"};

  static Scrape scrape(double s, int notReadyAdoptions, double... cumulative) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < LE.length; i++) {
      sb.append(H)
          .append("_bucket{launch_type=\"warm\",sandbox_template=\"tpl-py\",le=\"")
          .append(LE[i])
          .append("\"} ")
          .append(cumulative[i])
          .append('\n');
    }
    sb.append(
        "agent_sandbox_build_info{git_version=\"v0.5.1\",git_commit=\"abc\",build_date=\"x\","
            + "go_version=\"go1.24\",compiler=\"gc\",platform=\"linux/amd64\"} 1\n");
    sb.append(
            "agent_sandbox_claim_creation_total{created_by=\"go-client\",launch_type=\"warm\","
                + "namespace=\"team-a\",pod_condition=\"not_ready\",sandbox_template=\"tpl-py\","
                + "warmpool_name=\"pool-py\"} ")
        .append(notReadyAdoptions)
        .append('\n');
    return new Scrape(at(s), "ctrl:8080", PromText.parse(sb.toString()));
  }

  /**
   * tpl-py / pool-py; {@code claims} warm claims first Ready: 12 in (0, 150] s, the rest in (150,
   * 300] s. Scrapes at 0, 150, 300 s: +Inf 0, 12, 23; one sandbox resumes at 200–210 s.
   */
  static Timeline timeline(int claims, boolean synced) {
    Timeline tl = new Timeline();
    tl.up(tl.template("tpl-py", "img:1", 1), 0);
    tl.up(tl.pool("pool-py", "tpl-py", 30, 30, null), 0);
    if (synced) {
      tl.syncAll(0);
    }
    tl.apply(new FleetEvent.Scraped(scrape(0, 0, 0, 0, 0, 0, 0, 0)));
    for (int i = 1; i <= claims; i++) {
      double ready = i <= 12 ? 10 * i : 160 + 5 * (i - 13);
      tl.up(tl.claim("c" + i, "pool-py", "pool-py-x" + i, ready - 1, ready), ready);
      if (i == 12) {
        tl.apply(new FleetEvent.Scraped(scrape(150, 12, 6, 10, 11, 12, 12, 12)));
      }
    }
    org.sandboxslo.engine.model.OwnerView owner =
        new org.sandboxslo.engine.model.OwnerView("SandboxClaim", "c1", "uid-c1");
    tl.up(
        tl.sandbox(
            "r1",
            owner,
            "tpl-py",
            "Suspended",
            cond("False", "SandboxSuspended", 100),
            cond("True", "PodTerminated", 110)),
        110);
    tl.up(
        tl.sandbox(
            "r1",
            owner,
            "tpl-py",
            "Running",
            cond("False", "DependenciesNotReady", 200),
            cond("False", "NotSuspended", 200)),
        200);
    tl.up(
        tl.sandbox(
            "r1",
            owner,
            "tpl-py",
            "Running",
            cond("True", "DependenciesReady", 210),
            cond("False", "NotSuspended", 200)),
        210);
    tl.apply(new FleetEvent.Scraped(scrape(300, 23, 10, 16, 19, 20, 20, 23)));
    return tl;
  }

  @Test
  void histogramCountingMoreThanFirstReadyClaimsIsAnOvercountWithCorrectedQuantiles() {
    Timeline tl = timeline(20, true);
    List<Finding> fs = tl.findings(300, FindingKind.CONTROLLER_HISTOGRAM_OVERCOUNT);
    assertEquals(1, fs.size());
    Finding f = fs.get(0);
    assertEquals("SandboxTemplate team-a/tpl-py", f.subject());
    assertEquals(Severity.TICKET, f.severity());
    // at 150 s: 12 observations, 12 claims; at 300 s: 23 > 20 → first excess at 300 s
    assertEquals(at(300), f.firstSeen());
    String row = H + "{launch_type=warm}";
    assertEquals("3", f.evidence("overcount " + row));
    assertEquals("p50 625 ms, p95 > 240000 ms, p99 > 240000 ms", f.evidence("reported " + row));
    assertEquals(
        "p50 500 ms, p95 2500 ms, p99 4500 ms, 20/20 ≤ 5000 ms", f.evidence("corrected " + row));
    assertEquals("1", f.evidence("resumesInWindow"));
    assertEquals("v0.5.1", f.evidence("controllerVersion"));

    ControllerReport r =
        tl.engine.controllerReport(at(300), DiagnosisConfig.defaults(), tl.settings);
    LatencyHistogram h = r.histogram(H, "tpl-py", "warm");
    assertEquals(20, h.overcount().claims());
    assertEquals("v0.5.1", r.build().gitVersion());
  }

  @Test
  void negativeControlCountsMatchAndNotReadyAdoptionsAreNoSignal() {
    // 23 claims first Ready: no excess; every adoption counted pod_condition=not_ready
    Timeline tl = timeline(23, true);
    assertEquals(List.of(), tl.findings(300, FindingKind.CONTROLLER_HISTOGRAM_OVERCOUNT));
    assertTrue(
        tl.findings(300).stream().noneMatch(f -> f.kind().wireName().startsWith("Controller")),
        "pod_condition=not_ready must not raise anything");
    ControllerReport r =
        tl.engine.controllerReport(at(300), DiagnosisConfig.defaults(), tl.settings);
    assertNull(r.histogram(H, "tpl-py", "warm").overcount());
    assertTrue(r.notes().contains(ControllerReport.POD_CONDITION_NOTE));
  }

  @Test
  void withoutSyncedClaimsThereIsNoCrossCheck() {
    Timeline tl = timeline(20, false);
    assertEquals(List.of(), tl.findings(300, FindingKind.CONTROLLER_HISTOGRAM_OVERCOUNT));
    ControllerReport r =
        tl.engine.controllerReport(at(300), DiagnosisConfig.defaults(), tl.settings);
    assertNotNull(r.histogram(H, "tpl-py", "warm"));
    assertEquals("> 240000 ms", r.histogram(H, "tpl-py", "warm").quantile(0.95).display());
  }

  @Test
  void aWindowWithoutObservationsIsNoDataInTheEngineView() {
    Timeline tl = timeline(20, true);
    tl.apply(new FleetEvent.Scraped(scrape(3900, 23, 10, 16, 19, 20, 20, 23)));
    tl.apply(new FleetEvent.Scraped(scrape(4200, 23, 10, 16, 19, 20, 20, 23)));
    // window (4200 − 1 h, 4200] = [600, 4200]: scrapes at 3900 and 4200, no increase
    ControllerReport r =
        tl.engine.controllerReport(at(4200), DiagnosisConfig.defaults(), tl.settings);
    assertEquals(LatencyHistogram.Status.NO_DATA, r.histogram(H, "tpl-py", "warm").status());
    assertEquals(List.of(), tl.findings(4200, FindingKind.CONTROLLER_HISTOGRAM_OVERCOUNT));
    assertEquals(Boolean.TRUE, tl.engine.snapshot(at(4200)).synced().get(Kind.SANDBOX_CLAIM));
  }
}
