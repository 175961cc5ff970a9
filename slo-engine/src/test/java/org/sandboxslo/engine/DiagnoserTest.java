package org.sandboxslo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.Fixtures.NS;
import static org.sandboxslo.engine.Fixtures.at;
import static org.sandboxslo.engine.Fixtures.pool;
import static org.sandboxslo.engine.Fixtures.spec;
import static org.sandboxslo.engine.Fixtures.up;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.ReservedKey;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;

/** Diagnoses on hand-built timelines (the replayed cases are tested in console-ui). */
class DiagnoserTest {
  static TemplateView template(String name, Map<String, Object> spec, String env, String rv) {
    return new TemplateView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv,
        1,
        Blueprints.digest(spec),
        env,
        null,
        Blueprints.images(spec),
        Blueprints.canonical(spec));
  }

  static SandboxView member(
      String name,
      String pool,
      Map<String, Object> spec,
      Double readyS,
      ConditionView scheduled,
      String rv) {
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv,
        at(0),
        new OwnerView("SandboxWarmPool", pool, "uid-" + pool),
        "warm",
        "controller",
        "tpl",
        "h",
        null,
        Blueprints.digest(spec),
        "Running",
        readyS == null
            ? new ConditionView("False", "DependenciesNotReady", at(0))
            : new ConditionView("True", "DependenciesReady", at(readyS)),
        null,
        scheduled,
        null,
        false,
        null,
        Blueprints.images(spec),
        Blueprints.canonical(spec),
        List.of());
  }

  static List<Finding> of(FleetEngine e, FindingKind k, double nowS) {
    return e.findings(at(nowS), DiagnosisConfig.defaults()).stream()
        .filter(f -> f.kind() == k)
        .toList();
  }

  @Test
  void staleMembersAfterAnImageChangeWithAPacedPlanThatSkipsClaimedMembers() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(template("tpl", spec("img:1"), null, "1"), 0));
    e.apply(up(pool("pool", "tpl", 4, 4), 0));
    for (String m : List.of("m1", "m2", "m3", "m4")) {
      e.apply(up(member(m, "pool", spec("img:1"), 5.0, null, "1"), 5));
    }
    assertTrue(of(e, FindingKind.STALE_POOL_MEMBERS, 10).isEmpty());
    e.apply(up(template("tpl", spec("img:2"), null, "2"), 100));
    Finding early = of(e, FindingKind.STALE_POOL_MEMBERS, 200).get(0);
    assertEquals(Severity.INFO, early.severity());
    Finding f = of(e, FindingKind.STALE_POOL_MEMBERS, 100 + 900).get(0);
    assertEquals(Severity.TICKET, f.severity());
    assertEquals("m1, m2, m3, m4", f.evidence("staleMembers"));
    assertEquals("1.00", f.evidence("staleFraction"));
    assertEquals("podSpec.containers", f.evidence("differingFields"));
    // max(1, floor(0.34 × 4)) = 1 → one member per batch
    // every member is stale and Ready, none on the new template: a canary (surge of
    // maxUnavailable = 1) must be Ready before the first Ready member goes (issue 8 invariant);
    // floor = max(1, min(4 replicas, 4 Ready) − 1) = 3
    assertEquals(
        List.of(
            "scale spec.replicas 4 → 5 (surge: no member on the current template is Ready yet)",
            "wait until 1 canary is Ready on the current template",
            "delete m1",
            "wait until 1 replacement is Ready",
            "delete m2",
            "wait until 1 replacement is Ready",
            "delete m3",
            "wait until 1 replacement is Ready",
            "delete m4",
            "wait until 1 replacement is Ready",
            "scale spec.replicas back to 4",
            "never touch members owned by a claim; keep at least 3 of 4 members Ready throughout"),
        f.proposals().get(0).steps());
    FleetEngine wide = new FleetEngine(EngineConfig.defaults());
    wide.apply(up(template("tpl", spec("img:2"), null, "1"), 0));
    wide.apply(up(pool("pool", "tpl", 10, 10), 0));
    for (int i = 0; i < 7; i++) {
      wide.apply(up(member("w" + i, "pool", spec("img:1"), 5.0, null, "1"), 5));
    }
    for (int i = 7; i < 10; i++) { // three Ready members on the current template: the canaries
      wide.apply(up(member("w" + i, "pool", spec("img:2"), 5.0, null, "1"), 5));
    }
    Finding w = of(wide, FindingKind.STALE_POOL_MEMBERS, 10).get(0);
    // floor(0.34 × 10) = 3 per batch; floor Ready = max(1, min(10, 10 Ready) − 3) = 7
    assertEquals(
        "never touch members owned by a claim; keep at least 7 of 10 members Ready throughout",
        w.proposals().get(0).steps().get(w.proposals().get(0).steps().size() - 1));
    assertEquals("delete w0, w1, w2", w.proposals().get(0).steps().get(0));
    assertEquals("delete w6", w.proposals().get(0).steps().get(4));
  }

  @Test
  void unsafeTemplateNamesEveryWeakness() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    Map<String, Object> bad =
        Map.of(
            "podTemplate",
            Map.of(
                "spec",
                Map.of(
                    "hostNetwork",
                    true,
                    "automountServiceAccountToken",
                    true,
                    "containers",
                    List.of(
                        Map.of(
                            "name",
                            "main",
                            "image",
                            "img:latest",
                            "securityContext",
                            Map.of("privileged", true))))));
    e.apply(up(template("bad", bad, "Allowed", "1"), 0));
    Map<String, Object> good =
        Map.of(
            "podTemplate",
            Map.of(
                "spec",
                Map.of(
                    "runtimeClassName",
                    "gvisor",
                    "containers",
                    List.of(Map.of("name", "main", "image", "img@sha256:" + "a".repeat(64))))));
    e.apply(up(template("good", good, null, "1"), 0));
    List<Finding> fs = of(e, FindingKind.UNSAFE_TEMPLATE, 1);
    assertEquals(1, fs.size());
    Finding f = fs.get(0);
    assertEquals("SandboxTemplate team-a/bad", f.subject());
    assertEquals(Severity.HIGH, f.severity());
    assertEquals("unset", f.evidence("runtimeClassName"));
    assertEquals("true", f.evidence("automountServiceAccountToken"));
    assertEquals("true", f.evidence("hostNetwork"));
    assertEquals("main", f.evidence("privileged"));
    assertEquals("img:latest", f.evidence("imageNotPinned"));
    assertEquals("Allowed", f.evidence("envVarsInjectionPolicy"));
  }

  @Test
  void refillStallUnschedulableMembersAndMissingTemplate() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(template("tpl", spec("img:1"), null, "1"), 0));
    e.apply(up(pool("pool", "tpl", 3, 1), 0));
    e.apply(up(member("m1", "pool", spec("img:1"), 5.0, null, "1"), 5));
    e.apply(
        up(
            member(
                "m2",
                "pool",
                spec("img:1"),
                null,
                new ConditionView("False", "Unschedulable", at(1)),
                "1"),
            5));
    assertTrue(of(e, FindingKind.REFILL_STALLED, 30).isEmpty());
    Finding stall = of(e, FindingKind.REFILL_STALLED, 120).get(0);
    assertEquals("1", stall.evidence("deficit"));
    assertEquals(1, of(e, FindingKind.MEMBERS_HELD_UNSCHEDULABLE, 120).size());
    e.apply(up(pool("orphan-pool", "nope", 1, 0), 0));
    assertTrue(
        of(e, FindingKind.TEMPLATE_MISSING, 10).isEmpty(),
        "not before the template informer synced");
    e.apply(new FleetEvent.Synced(Kind.SANDBOX_TEMPLATE, at(1)));
    Finding missing = of(e, FindingKind.TEMPLATE_MISSING, 10).get(0);
    assertEquals("SandboxWarmPool team-a/orphan-pool", missing.subject());
    assertEquals(Severity.PAGE, missing.severity());
  }

  @Test
  void undersizedPoolGetsTheSizingArithmetic() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(template("tpl", spec("img:1"), null, "1"), 0));
    e.apply(up(pool("pool", "tpl", 2, 2), 0));
    // members refill in 20 s; 60 claims in the 5 m window = 0.2/s → 0.2 × 20 = 4 replicas needed
    // (m1 is delivered when created, so its Ready update 20 s later is no watch lag)
    e.apply(up(member("m1", "pool", spec("img:1"), null, null, "0"), 0.5));
    e.apply(up(member("m1", "pool", spec("img:1"), 20.0, null, "1"), 21));
    for (int i = 0; i < 60; i++) {
      e.apply(up(Fixtures.claim("c" + i, "pool", "m-x" + i, 30 + i, 31.0 + i, false, "1"), 32 + i));
    }
    Finding f = of(e, FindingKind.POOL_UNDERSIZED, 120).get(0);
    assertEquals("0.20", f.evidence("claimsPerSecond"));
    assertEquals("4 replicas in 1 pool(s) of 4", f.evidence("advice"));
    assertEquals("ScalePool", f.proposals().get(0).action());
    // the advice and the refill median as numbers for the what-if: one pool of 4, refill ≥
    // ceil(0.2/s) = 1/s; the template's one pool holds 2
    assertEquals("1", f.evidence("pools"));
    assertEquals("2", f.evidence("replicas"));
    assertEquals("1", f.evidence("advisedPools"));
    assertEquals("4", f.evidence("advisedReplicasPerPool"));
    assertEquals("1", f.evidence("advisedRefillRatePerPool"));
    // the one refill took 20 s; the sketch reports the middle of its bucket, within 0.1 %
    assertEquals(20.0, Double.parseDouble(f.evidence("refillP50Seconds")), 20.0 * 0.001);
  }

  @Test
  void subSecondRefillIsSizedAsOneSecondNotAnError() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(template("tpl", spec("img:1"), null, "1"), 0));
    e.apply(up(pool("pool", "tpl", 1, 1), 0));
    e.apply(
        up(
            member("m1", "pool", spec("img:1"), 0.0, null, "1"),
            1)); // created and Ready in the same second
    for (int i = 0; i < 600; i++) {
      e.apply(
          up(
              Fixtures.claim("c" + i, "pool", "m-x" + i, 30 + i / 4.0, 31.0 + i / 4.0, false, "1"),
              32 + i / 4.0));
    }
    // 600 claims / 300 s = 2/s × 1 s = 2 replicas needed, the pool has 1
    Finding f = of(e, FindingKind.POOL_UNDERSIZED, 200).get(0);
    assertEquals("1.00", f.evidence("refillP95Seconds"));
    assertEquals("2 replicas in 1 pool(s) of 2", f.evidence("advice"));
  }

  @Test
  void reservedKeysOnlyMatterWhenTheyClaimControllerIdentity() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(pool("pool-py", "tpl", 1, 1), 0));
    SandboxView sdk =
        new SandboxView(
            new ObjectRef(NS, "sbx-sdk"),
            "u1",
            "1",
            at(0),
            null,
            "cold",
            "go-client",
            null,
            null,
            null,
            "d",
            "Running",
            null,
            null,
            null,
            null,
            false,
            null,
            List.of(),
            null,
            List.of(
                new ReservedKey("label", "agents.x-k8s.io/launch-type", "cold"),
                new ReservedKey("label", "agents.x-k8s.io/created-by", "go-client")));
    SandboxView spoof =
        new SandboxView(
            new ObjectRef(NS, "sbx-x"),
            "u2",
            "1",
            at(0),
            null,
            "warm",
            "controller",
            null,
            "d6848635",
            null,
            "d",
            "Running",
            null,
            null,
            null,
            null,
            false,
            null,
            List.of(),
            null,
            List.of(
                new ReservedKey("label", "agents.x-k8s.io/warm-pool-sandbox", "d6848635"),
                new ReservedKey(
                    "podTemplate.label", "agents.x-k8s.io/sandbox-name-hash", "0f00ba12")));
    e.apply(up(sdk, 1));
    e.apply(up(spoof, 1));
    List<Finding> fs = of(e, FindingKind.RESERVED_LABEL_ON_USER_OBJECT, 2);
    assertEquals(1, fs.size());
    assertEquals("Sandbox team-a/sbx-x", fs.get(0).subject());
    assertEquals("pool-py", fs.get(0).evidence("poolMembershipClaimed"));
    FleetEngine old = new FleetEngine(EngineConfig.defaults());
    old.apply(up(spoof, 1));
    assertEquals(
        Severity.CRITICAL,
        old.findings(at(2), DiagnosisConfig.defaults().withControllerVersion("v0.4.9"))
            .get(0)
            .severity());
    assertEquals(
        Severity.HIGH,
        old.findings(at(2), DiagnosisConfig.defaults().withControllerVersion("v0.5.0"))
            .get(0)
            .severity());
    assertTrue(Diagnoser.versionBefore("v0.4.12", 0, 5, 0));
    assertFalse(Diagnoser.versionBefore("garbage", 0, 5, 0));
  }

  @Test
  void expiredAndNeverExpiringClaimsWithClaimHygieneCounts() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    for (int i = 0; i < 6; i++) {
      e.apply(
          up(
              new ClaimView(
                  new ObjectRef(NS, "x" + i),
                  "ux" + i,
                  "1",
                  at(-90000),
                  null,
                  null,
                  "pool",
                  null,
                  false,
                  false,
                  null,
                  new ConditionView("False", "ClaimExpired", at(-3600.0 * (i + 1))),
                  null,
                  "Retain",
                  at(-3600.0 * (i + 1)),
                  null),
              0));
    }
    e.apply(
        up(
            new ClaimView(
                new ObjectRef(NS, "f1"),
                "uf1",
                "1",
                at(-300000),
                null,
                null,
                "pool",
                null,
                false,
                false,
                null,
                new ConditionView("False", "PodSucceeded", at(-250000)),
                new ConditionView("True", "PodSucceeded", at(-250000)),
                null,
                null,
                null),
            0));
    Finding f = of(e, FindingKind.EXPIRED_CLAIMS_ACCUMULATING, 1).get(0);
    assertEquals("6", f.evidence("expiredRetainedClaims"));
    assertEquals(at(-6 * 3600.0).toString(), f.evidence("oldestExpiredAt"));
    assertEquals(1, of(e, FindingKind.NEVER_EXPIRING_FINISHED_CLAIMS, 1).size());
    long[] h = e.claimHygiene(at(1), Duration.ofHours(24)).get(NS);
    assertEquals(6, h[0]);
    assertEquals(1, h[1]);
    FleetEngine five = new FleetEngine(EngineConfig.defaults());
    e.claims().values().stream()
        .filter(c -> !c.ref().name().equals("x0") && !c.ref().name().equals("f1"))
        .forEach(c -> five.apply(up(c, 0)));
    assertTrue(
        of(five, FindingKind.EXPIRED_CLAIMS_ACCUMULATING, 1).isEmpty(), "5 is not more than 5");
  }
}
