package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.Timeline.at;
import static org.sandboxslo.engine.diagnosis.Timeline.cond;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.scrape.Scrape;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;

/** Fault kind 5: Ready is authoritative; Sandboxes created directly are fleet objects too. */
class DirectSandboxDiagnosisTest {
  static final OwnerView POOL = new OwnerView("SandboxWarmPool", "pool-py", "uid-pool-py");

  @Test
  void suspendedLeftNextToReadyIsStaleNotStopped() {
    Timeline tl = new Timeline();
    tl.apply(
        new FleetEvent.Scraped(
            new Scrape(
                at(0),
                "ctrl",
                PromText.parse("agent_sandbox_build_info{git_version=\"v0.5.1\"} 1\n"))));
    SandboxView direct =
        tl.sandbox(
            "sb-1",
            null,
            null,
            "Running",
            cond("True", "DependenciesReady", 100),
            cond("True", "PodTerminated", 50));
    SandboxView member =
        tl.sandbox(
            "pool-py-m1",
            POOL,
            "tpl",
            "Running",
            cond("True", "DependenciesReady", 130),
            cond("True", "PodTerminated", 40));
    tl.up(direct, 100);
    tl.up(member, 130);
    assertEquals(SandboxLifecycle.RUNNING, SandboxLifecycle.of(direct));
    assertTrue(SandboxLifecycle.staleSuspended(direct));

    List<Finding> fs = tl.findings(200, FindingKind.SUSPENDED_CONDITION_STALE);
    assertEquals(1, fs.size());
    Finding f = fs.get(0);
    assertEquals("Namespace team-a", f.subject());
    assertEquals(Severity.INFO, f.severity());
    assertEquals(at(100), f.firstSeen()); // the earliest Ready among them
    assertEquals(List.of("Sandbox team-a/pool-py-m1", "Sandbox team-a/sb-1"), f.objects());
    assertTrue(f.evidence("controllerVersion").equals("v0.5.1"));
    assertTrue(f.proposals().get(0).summary().contains("#1150"));
    assertEquals(List.of(direct), tl.engine.directSandboxes());
  }

  @Test
  void negativeControlSuspendedSandboxesAndPendingSuspendsAreNotStale() {
    Timeline tl = new Timeline();
    SandboxView suspended =
        tl.sandbox(
            "sb-s",
            null,
            null,
            "Suspended",
            cond("False", "SandboxSuspended", 10),
            cond("True", "PodTerminated", 20));
    // suspend requested, Ready not flipped yet: transient, not stale
    SandboxView suspending =
        tl.sandbox(
            "sb-p",
            null,
            null,
            "Suspended",
            cond("True", "DependenciesReady", 5),
            cond("False", "PodTerminating", 30));
    tl.up(suspended, 20);
    tl.up(suspending, 30);
    assertEquals(SandboxLifecycle.SUSPENDED, SandboxLifecycle.of(suspended));
    assertFalse(SandboxLifecycle.staleSuspended(suspending));
    assertEquals(List.of(), tl.findings(60, FindingKind.SUSPENDED_CONDITION_STALE));
  }

  @Test
  void resumesOfDirectSandboxesHaveSlisAndANamespaceFinding() {
    Timeline tl = new Timeline();
    for (String n : List.of("d1", "d2")) {
      tl.up(
          tl.sandbox(
              n,
              null,
              null,
              "Suspended",
              cond("False", "SandboxSuspended", 0),
              cond("True", "PodTerminated", 0)),
          0);
      tl.up(
          tl.sandbox(
              n,
              null,
              null,
              "Running",
              cond("False", "DependenciesNotReady", 100),
              cond("True", "PodTerminated", 0)),
          100);
    }
    tl.up(
        tl.sandbox(
            "d1",
            null,
            null,
            "Running",
            cond("True", "DependenciesReady", 112),
            cond("False", "NotSuspended", 105)),
        112);
    // a template-built sandbox's failure belongs to its template, not to the namespace finding
    OwnerView claim = new OwnerView("SandboxClaim", "c1", "uid-c1");
    tl.up(
        tl.sandbox(
            "t1",
            claim,
            "tpl",
            "Suspended",
            cond("False", "SandboxSuspended", 0),
            cond("True", "PodTerminated", 0)),
        0);
    tl.up(
        tl.sandbox(
            "t1",
            claim,
            "tpl",
            "Running",
            cond("False", "ReconcilerError", 150),
            cond("Unknown", "PodStateUnknown", 150)),
        150);

    // d2 not Ready within the 2 m resume timeout: 100 + 120 = 220 s
    List<Finding> fs = tl.findings(300, FindingKind.RESUME_FAILURES);
    assertEquals(
        List.of("Namespace team-a", "SandboxTemplate team-a/tpl"),
        fs.stream().map(Finding::subject).sorted().toList());
    Finding ns = fs.stream().filter(f -> f.subject().startsWith("Namespace")).findFirst().get();
    assertEquals("0.50", ns.evidence("resumeErrorRatio")); // 1 failed / 2 direct resumes
    assertEquals("d2: TIMEOUT", ns.evidence("failedResume"));
    assertEquals(at(220), ns.firstSeen());
    assertEquals(List.of("Sandbox team-a/d2"), ns.objects());

    SliSnapshot nsSli = tl.engine.snapshot(at(300)).namespaces().get(0);
    WindowSlis w = nsSli.windows().get(nsSli.windows().size() - 1);
    assertEquals(3, w.resumeAttempts()); // d1 success, d2 timeout, t1 error
    assertEquals(2, w.resumeErrors());
    assertEquals(12.0, w.resumeLatency().p50().toMillis() / 1000.0, 0.1); // 100 → 112 s

    SandboxView d2 = tl.engine.directSandboxes().get(1);
    assertEquals("d2", d2.ref().name());
    assertEquals(SandboxLifecycle.RESUMING, SandboxLifecycle.of(d2));
  }

  @Test
  void lifecycleReadsReadyFirst() {
    Timeline tl = new Timeline();
    record Row(
        String mode,
        String readyStatus,
        String readyReason,
        String susStatus,
        String susReason,
        SandboxLifecycle expected) {}
    List<Row> rows =
        List.of(
            new Row(
                "Running",
                "True",
                "DependenciesReady",
                "True",
                "PodTerminated",
                SandboxLifecycle.RUNNING),
            new Row(
                "Running",
                "False",
                "SandboxExpired",
                "False",
                "NotSuspended",
                SandboxLifecycle.EXPIRED),
            new Row(
                "Running",
                "False",
                "PodSucceeded",
                "False",
                "NotSuspended",
                SandboxLifecycle.FINISHED),
            new Row(
                "Running",
                "False",
                "ReconcilerError",
                "False",
                "NotSuspended",
                SandboxLifecycle.FAILED),
            new Row(
                "Suspended",
                "False",
                "SandboxSuspended",
                "Unknown",
                "PodStateUnknown",
                SandboxLifecycle.FAILED),
            new Row(
                "Suspended",
                "False",
                "SandboxSuspended",
                "False",
                "PodTerminating",
                SandboxLifecycle.SUSPENDING),
            new Row(
                "Suspended",
                "False",
                "SandboxSuspended",
                "True",
                "PodTerminated",
                SandboxLifecycle.SUSPENDED),
            new Row(
                "Running",
                "False",
                "DependenciesNotReady",
                "True",
                "PodTerminated",
                SandboxLifecycle.RESUMING),
            new Row(
                "Running",
                "False",
                "DependenciesNotReady",
                "False",
                "NotSuspended",
                SandboxLifecycle.STARTING));
    for (Row r : rows) {
      SandboxView s =
          tl.sandbox(
              "x",
              null,
              null,
              r.mode(),
              cond(r.readyStatus(), r.readyReason(), 0),
              cond(r.susStatus(), r.susReason(), 0));
      assertEquals(r.expected(), SandboxLifecycle.of(s), r.toString());
    }
  }
}
