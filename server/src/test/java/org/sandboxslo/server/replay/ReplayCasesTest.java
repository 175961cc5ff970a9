package org.sandboxslo.server.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.server.cli.Main;

/**
 * The handed cases (../shared/cases) replayed through collector mapping + engine, with the stated
 * values.
 */
class ReplayCasesTest {
  static Path input(String name) {
    return Path.of(System.getProperty("shared.dir"), "cases", "inputs", name);
  }

  static Finding only(ReplayResult r, FindingKind kind) {
    List<Finding> fs = r.findings().stream().filter(f -> f.kind() == kind).toList();
    assertEquals(1, fs.size(), kind + " in " + r.toText());
    return fs.get(0);
  }

  static SliSnapshot template(ReplayResult r, String name) {
    return r.snapshot().templates().stream()
        .filter(t -> t.key().name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void c03StaleMembersUnderOnReplenish() {
    ReplayResult r = Replayer.replayFile(input("C03-stale-members-onreplenish.yaml"));
    assertEquals(List.of(), r.skipped());
    Finding f = only(r, FindingKind.STALE_POOL_MEMBERS);
    assertEquals("SandboxWarmPool team-a/pool-py", f.subject());
    assertEquals(Severity.TICKET, f.severity());
    assertEquals("OnReplenish (default)", f.evidence("updateStrategy"));
    assertEquals("pool-py-a2, pool-py-a3", f.evidence("staleMembers"));
    assertEquals("pool-py-b1", f.evidence("freshMembers"));
    assertEquals("0.67", f.evidence("staleFraction"));
    assertEquals("0.33", f.evidence("readyFractionCurrentTemplate"));
    assertEquals("1.00", f.evidence("readyFractionUpstream"));
    assertEquals("2026-09-01T10:00:00Z", f.evidence("templateChangedAt"));
    assertEquals("2026-09-01T10:15:00Z", f.evidence("alertFiresAt"));
    String served =
        f.evidence().stream()
            .filter(e -> e.name().equals("servedStale"))
            .findFirst()
            .orElseThrow()
            .arithmetic();
    assertTrue(
        served.contains(
            "python-runtime:3.11 vs template registry.example.invalid/team-a/python-runtime:3.12"),
        served);
    assertTrue(served.endsWith("adopted 300 s after the change"), served);
    Proposal paced = f.proposals().get(0);
    assertEquals("PacedRecreate", paced.action());
    assertTrue(
        paced.summary().contains("maxUnavailable = max(1, floor(0.34 × 3)) = 1"), paced.summary());
    assertEquals(
        List.of(
            "delete pool-py-a2",
            "wait until 1 replacement is Ready",
            "delete pool-py-a3",
            "wait until 1 replacement is Ready",
            "never touch members owned by a claim; keep at least 2 of 3 members Ready throughout"),
        paced.steps());
    assertFalse(String.join(" ", paced.steps()).contains("pool-py-a1"));
    assertEquals("None", f.proposals().get(1).action());
    assertTrue(
        f.proposals().get(1).summary().startsWith("Do not simply set updateStrategy: Recreate"));
    // both ready-fraction figures on the template
    SliSnapshot t = template(r, "tpl-py");
    assertEquals(1.0 / 3, t.pool().readyFractionCurrentTemplate(), 1e-12);
    assertEquals(1.0, t.pool().readyFraction());
    assertEquals(2, t.pool().staleMembers());
  }

  @Test
  void c03BeforeTheAlertTimeTheFindingIsInfoAndBeforeTheChangeNothingIsStale() throws Exception {
    String text = Files.readString(input("C03-stale-members-onreplenish.yaml"));
    ReplayResult at1010 =
        Replayer.replayCase(
            "C03", text.replace("clock: '2026-09-01T10:20:00Z'", "clock: '2026-09-01T10:10:00Z'"));
    assertEquals(Severity.INFO, only(at1010, FindingKind.STALE_POOL_MEMBERS).severity());
    // cut the timeline before the template change: the thin member specs are not stale
    int cut = text.indexOf("- at: '2026-09-01T10:00:00Z'\n  type: MODIFIED");
    ReplayResult before =
        Replayer.replayCase(
            "C03",
            text.substring(0, cut)
                .replace("clock: '2026-09-01T10:20:00Z'", "clock: '2026-09-01T09:30:00Z'"));
    assertEquals(0, template(before, "tpl-py").pool().staleMembers());
    assertTrue(
        before.findings().stream().noneMatch(f -> f.kind() == FindingKind.STALE_POOL_MEMBERS));
  }

  @Test
  void c05ForcedColdStartsAreNotAPoolSizeProblem() {
    ReplayResult r = Replayer.replayFile(input("C05-env-vct-forced-cold-start.yaml"));
    Finding f = only(r, FindingKind.SILENT_COLD_START);
    assertEquals(Severity.INFO, f.severity());
    assertEquals("0.25", f.evidence("rawWarmHit"));
    assertEquals("1.00", f.evidence("eligibleWarmHit"));
    assertEquals("3/3", f.evidence("forcedColdStarts"));
    assertEquals(
        "2 by spec.env, 1 by spec.volumeClaimTemplates",
        f.evidence().stream()
            .filter(e -> e.name().equals("forcedColdStarts"))
            .findFirst()
            .orElseThrow()
            .arithmetic());
    assertEquals("2", f.evidence("idleReadyMembersMin"));
    assertEquals("no", f.evidence("poolExhausted"));
    assertEquals(3, f.objects().size());
    String advice = f.proposals().get(0).summary();
    assertEquals("None", f.proposals().get(0).action());
    assertTrue(
        advice.contains("Move the env into the template")
            && advice.contains("do not enlarge the pool"),
        advice);
    assertTrue(
        r.findings().stream()
            .noneMatch(
                x ->
                    x.kind() == FindingKind.POOL_UNDERSIZED
                        || x.kind() == FindingKind.POOL_NEEDS_SHARDING
                        || x.kind() == FindingKind.REFILL_STALLED));
    assertEquals(0.25, template(r, "tpl-py").windows().get(0).warmHitRatio());
    assertEquals(0.25, r.controllerView().ratio());
  }

  @Test
  void c09ExpiredRetainedAndNeverExpiringClaims() {
    ReplayResult r = Replayer.replayFile(input("C09-expired-retained-claims.yaml"));
    Finding expired = only(r, FindingKind.EXPIRED_CLAIMS_ACCUMULATING);
    assertEquals(Severity.TICKET, expired.severity());
    assertEquals("6", expired.evidence("expiredRetainedClaims"));
    assertEquals("2026-08-31T08:00:00Z", expired.evidence("oldestExpiredAt"));
    Proposal delete = expired.proposals().get(0);
    assertEquals("DeleteExpiredClaims", delete.action());
    assertEquals(9, delete.steps().size());
    assertFalse(String.join(",", delete.steps()).contains("claim-900"));
    assertTrue(expired.proposals().get(1).summary().contains("ttlSecondsAfterFinished: 0"));
    assertTrue(expired.proposals().get(1).summary().contains("claimDefaults is only a proposal"));
    Finding never = only(r, FindingKind.NEVER_EXPIRING_FINISHED_CLAIMS);
    assertEquals("3", never.evidence("neverExpiringFinishedClaims"));
    assertEquals(
        List.of(
            "SandboxClaim team-a/claim-801",
            "SandboxClaim team-a/claim-802",
            "SandboxClaim team-a/claim-803"),
        never.objects());
    // none of them counts in a readiness window
    r.snapshot().templates().forEach(t -> assertNull(t.windows().get(1).claimToReady()));
  }

  @Test
  void c09BelowTheThresholdNoAccumulationFinding() throws Exception {
    String text =
        Files.readString(input("C09-expired-retained-claims.yaml"))
            .replace("expiredRetainedWarnCount: 5", "expiredRetainedWarnCount: 6");
    ReplayResult r = Replayer.replayCase("C09", text);
    assertTrue(
        r.findings().stream().noneMatch(f -> f.kind() == FindingKind.EXPIRED_CLAIMS_ACCUMULATING));
  }

  @Test
  void c10ReservedLabelsOnAnOwnerlessSandbox() {
    ReplayResult r = Replayer.replayFile(input("C10-reserved-label-spoof.yaml"));
    SliSnapshot t = template(r, "tpl-py");
    assertEquals(2, t.pool().members());
    assertEquals(1.0, t.pool().readyFractionCurrentTemplate());
    Finding f = only(r, FindingKind.RESERVED_LABEL_ON_USER_OBJECT);
    assertEquals("Sandbox team-a/sbx-x1", f.subject());
    assertEquals(Severity.HIGH, f.severity());
    assertEquals("6", f.evidence("reservedKeys"));
    assertEquals(
        "5 labels, 1 annotations",
        f.evidence().stream()
            .filter(e -> e.name().equals("reservedKeys"))
            .findFirst()
            .orElseThrow()
            .arithmetic());
    assertEquals("8cc203bf = NameHash(\"sbx-victim\")", f.evidence("selectorHijack"));
    assertEquals("None", f.proposals().get(0).action());
    assertTrue(f.proposals().get(0).summary().contains("admission policy"));
    assertEquals(1, r.warnings().size());
    assertTrue(
        r.warnings()
            .get(0)
            .startsWith(
                "metrics consistency: agent_sandboxes{launch_type=\"warm\",owned_by=\"None\"} = 1"));
    assertTrue(
        r.toText().contains("[high] ReservedLabelOnUserObject Sandbox team-a/sbx-x1"), r.toText());
  }

  @Test
  void c10OnAControllerBeforeV050IsCritical() throws Exception {
    String text = Files.readString(input("C10-reserved-label-spoof.yaml"));
    text =
        text.replace(
            "clock: '2026-09-01T10:03:00Z'",
            "clock: '2026-09-01T10:03:00Z'\nconfig:\n  controllerVersion: v0.4.2");
    ReplayResult r = Replayer.replayCase("C10", text);
    assertEquals(Severity.CRITICAL, only(r, FindingKind.RESERVED_LABEL_ON_USER_OBJECT).severity());
  }

  @Test
  void replayCliPrintsTextAndJsonAndRejectsBadFilesInOneLine() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(
        0,
        Main.run(
            new PrintWriter(out),
            new PrintWriter(err),
            "replay",
            "--json",
            input("C10-reserved-label-spoof.yaml").toString()));
    assertTrue(out.toString().contains("\"kind\" : \"ReservedLabelOnUserObject\""), out.toString());
    Path bad = Files.createTempFile("bad", ".yaml");
    Files.writeString(bad, "timeline: [");
    assertEquals(2, Main.run(new PrintWriter(out), new PrintWriter(err), "replay", bad.toString()));
    assertTrue(
        err.toString().startsWith("sandbox-slo: " + bad + ": YAML parse error"), err.toString());
    assertEquals(1, err.toString().strip().split("\n").length);
  }

  @Test
  void kubectlWatchEventsReplayWithServerTimes() {
    String stream =
        """
        {"type":"ADDED","object":{"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxWarmPool",
          "metadata":{"name":"p","namespace":"ns","uid":"u-p","resourceVersion":"1","creationTimestamp":"2026-09-01T10:00:00Z"},
          "spec":{"replicas":1,"sandboxTemplateRef":{"name":"t"}}}}
        {"type":"ADDED","object":{"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxClaim",
          "metadata":{"name":"c1","namespace":"ns","uid":"u-c1","resourceVersion":"2","creationTimestamp":"2026-09-01T10:01:00Z",
            "annotations":{"agents.x-k8s.io/controller-first-observed-at":"2026-09-01T10:01:00.100Z",
              "agents.x-k8s.io/sandbox-name":"p-abc","agents.x-k8s.io/claim-first-ready-at":"2026-09-01T10:01:00.350Z"}},
          "spec":{"warmPoolRef":{"name":"p"}},
          "status":{"conditions":[{"type":"Ready","status":"True","reason":"DependenciesReady","lastTransitionTime":"2026-09-01T10:01:00Z"}]}}}
        {"type":"ADDED","object":{"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxClaim",
          "metadata":{"name":"bad","namespace":"ns","uid":"u-bad","resourceVersion":"3"},"spec":{}}}
        """;
    ReplayResult r = Replayer.replayWatchJson("watch.json", stream);
    assertEquals(java.time.Instant.parse("2026-09-01T10:01:00.350Z"), r.clock());
    assertEquals(
        List.of("watch.json: event 2: SandboxClaim ns/bad: spec.warmPoolRef.name: missing"),
        r.skipped());
    SliSnapshot t = template(r, "t");
    assertEquals(1, t.windows().get(0).warmLaunches());
    assertEquals(0.25, t.windows().get(0).claimToReady().p50().toNanos() / 1e9, 0.25 * 0.004);
  }
}
