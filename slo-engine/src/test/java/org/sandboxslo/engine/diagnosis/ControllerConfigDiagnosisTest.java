package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.Timeline.at;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ControllerDeploymentView;
import org.sandboxslo.engine.model.CrdView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.scrape.Scrape;

/** Fault kind 9: the controller's flags and CRDs held against the measured load. */
class ControllerConfigDiagnosisTest {
  static final ObjectRef DEPLOY = new ObjectRef("agent-sandbox-system", "agent-sandbox-controller");

  /**
   * pool-py (100 replicas) creates members m0..m59 within 6 s from 100 s; 225 claims become Ready
   * from the pool between 110 and 334 s (0.75/s over the 5 m window at 400 s); pools pool-b and
   * pool-c (replicas 2) and pool-d (replicas 0) exist too.
   */
  static Timeline load(String... args) {
    Timeline tl = new Timeline();
    tl.settings = tl.settings.withClaimEventsRate(0.5);
    tl.up(tl.template("tpl", "img:1", 1), 0);
    tl.up(tl.pool("pool-py", "tpl", 100, 100, null), 0);
    tl.up(tl.pool("pool-b", "tpl", 2, 2, null), 0);
    tl.up(tl.pool("pool-c", "tpl", 2, 2, null), 0);
    tl.up(tl.pool("pool-d", "tpl", 0, 0, null), 0);
    for (int i = 0; i < 60; i++) {
      double c = 100 + i * 0.1;
      tl.up(tl.member("m" + i, "pool-py", "img:1", c, c + 3), c + 3);
    }
    for (int i = 0; i < 225; i++) {
      double ready = 110 + i;
      // the Sandbox stream delivers the claimed sandbox each claim names (adoption moves its owner
      // to the claim), so the
      // console's own data stays healthy (InformerHealth) and the finding is not held back
      tl.up(
          tl.sandbox(
              "pool-py-x" + i, "SandboxClaim", "c" + i, "tpl", "img:1", ready - 1, ready, false),
          ready);
      tl.up(tl.claim("c" + i, "pool-py", "pool-py-x" + i, ready - 1, ready), ready);
    }
    tl.apply(
        new FleetEvent.ControllerObserved(
            new ControllerDeploymentView(DEPLOY, "registry/agent-sandbox:v0.5.1", List.of(args)),
            at(300)));
    return tl;
  }

  static Finding flag(Timeline tl, String flag) {
    for (Finding f : tl.findings(400, FindingKind.CONTROLLER_CONFIG_CONTRADICTS_LOAD)) {
      if (f.subject().endsWith("(--" + flag + ")")) {
        return f;
      }
    }
    return null;
  }

  @Test
  void unpacedRefillWithABurstNearTheBatchSize() {
    Timeline tl = load("--extensions", "--sandbox-warm-pool-max-batch-size=100");
    Finding f = flag(tl, ControllerDeploymentView.MAX_REFILL_RATE);
    assertEquals(Severity.TICKET, f.severity());
    assertEquals(
        "Deployment agent-sandbox-system/agent-sandbox-controller (--sandbox-warm-pool-max-refill-rate)",
        f.subject());
    assertEquals("0 (default: unpaced)", f.evidence("maxRefillRate"));
    assertEquals("60 members in 10s", f.evidence("refillBurst")); // m0..m59 within 5.9 s
    assertEquals("50", f.evidence("burstThreshold")); // 0.5 × 100
    assertEquals("0.750/s", f.evidence("poolClaimRate")); // 225 / 300 s
    // min(70, max(1, ⌈2 × 0.75⌉)) = 2
    assertEquals("--sandbox-warm-pool-max-refill-rate=2", f.evidence("recommended"));
    assertEquals(at(100), f.firstSeen());
    assertEquals("SetControllerFlag", f.proposals().get(0).action());
  }

  @Test
  void negativeControlPacedRefillOrBurstBelowTheBatchSize() {
    assertEquals(
        null,
        flag(
            load("--sandbox-warm-pool-max-refill-rate=5", "--sandbox-warm-pool-max-batch-size=100"),
            ControllerDeploymentView.MAX_REFILL_RATE));
    // default batch size 300: 60 < 150
    assertEquals(null, flag(load(), ControllerDeploymentView.MAX_REFILL_RATE));
  }

  @Test
  void tooFewWarmPoolWorkersForTheActivePools() {
    Finding f = flag(load(), ControllerDeploymentView.WARM_POOL_WORKERS);
    assertEquals("1 (default)", f.evidence("warmPoolWorkers"));
    assertEquals("3", f.evidence("activePools")); // pool-d has replicas 0
    assertEquals("--sandbox-warm-pool-concurrent-workers=3", f.evidence("recommended"));
    assertEquals(
        null,
        flag(
            load("--sandbox-warm-pool-concurrent-workers", "4"),
            ControllerDeploymentView.WARM_POOL_WORKERS));
  }

  @Test
  void claimEventsAtAHighClaimRate() {
    Finding f = flag(load(), ControllerDeploymentView.DISABLE_CLAIM_EVENTS);
    assertEquals("0.75/s", f.evidence("claimRate")); // 225 claims / 300 s ≥ 0.50/s
    assertEquals("--disable-claim-events=true", f.evidence("recommended"));
    assertEquals(
        null, flag(load("--disable-claim-events"), ControllerDeploymentView.DISABLE_CLAIM_EVENTS));
  }

  @Test
  void sharedWatchConnectionWhileWatchLagIsHigh() {
    Timeline tl = load();
    tl.apply(
        new FleetEvent.Upserted(tl.member("late", "pool-b", "img:1", 380, null), at(382), at(390)));
    Finding f = flag(tl, ControllerDeploymentView.SEPARATE_WATCH_CONNECTION);
    assertEquals("8s", f.evidence("watchLagMax5m")); // 390 − 382
    assertEquals("--separate-watch-connection=true", f.evidence("recommended"));
    Timeline ok = load("--separate-watch-connection=true");
    ok.apply(
        new FleetEvent.Upserted(ok.member("late", "pool-b", "img:1", 380, null), at(382), at(390)));
    assertEquals(null, flag(ok, ControllerDeploymentView.SEPARATE_WATCH_CONNECTION));
    // negative: lag 3 s < 5 s
    Timeline low = load();
    low.apply(
        new FleetEvent.Upserted(
            low.member("late", "pool-b", "img:1", 380, null), at(387), at(390)));
    assertEquals(null, flag(low, ControllerDeploymentView.SEPARATE_WATCH_CONNECTION));
  }

  @Test
  void crdStoredVersionsGateTheV1Upgrade() {
    Timeline tl = new Timeline();
    tl.apply(
        new FleetEvent.CrdObserved(
            new CrdView("sandboxes.agents.x-k8s.io", List.of("v1alpha1", "v1beta1"), "v1beta1"),
            at(0)));
    tl.apply(
        new FleetEvent.CrdObserved(
            new CrdView("sandboxclaims.extensions.agents.x-k8s.io", List.of("v1beta1"), "v1beta1"),
            at(0)));
    tl.apply(
        new FleetEvent.CrdObserved(
            new CrdView("widgets.example.com", List.of("v1alpha1", "v1"), "v1"), at(0)));
    List<Finding> fs = tl.findings(10, FindingKind.CRD_STORAGE_NOT_MIGRATED);
    assertEquals(1, fs.size());
    assertEquals("CustomResourceDefinition sandboxes.agents.x-k8s.io", fs.get(0).subject());
    assertEquals(Severity.TICKET, fs.get(0).severity());
    assertEquals("[v1alpha1, v1beta1]", fs.get(0).evidence("storedVersions"));
    assertEquals("status.storedVersions: [v1beta1]", fs.get(0).evidence("recommended"));
    // once the controller runs v1.0 the gate is urgent
    tl.apply(
        new FleetEvent.Scraped(
            new Scrape(
                at(20),
                "ctrl",
                PromText.parse("agent_sandbox_build_info{git_version=\"v1.0.2\"} 1\n"))));
    assertEquals(
        Severity.HIGH, tl.findings(30, FindingKind.CRD_STORAGE_NOT_MIGRATED).get(0).severity());
  }

  @Test
  void goFlagSyntaxAndBadValues() {
    ControllerDeploymentView d =
        new ControllerDeploymentView(
            DEPLOY,
            null,
            List.of(
                "/manager",
                "--extensions",
                "-kube-api-qps",
                "50",
                "--separate-watch-connection",
                "--sandbox-warm-pool-replenish-delay=1m30s",
                "--sandbox-warm-pool-max-batch-size=100"));
    assertEquals(
        Map.of(
            "extensions", "true",
            "kube-api-qps", "50",
            "separate-watch-connection", "true",
            "sandbox-warm-pool-replenish-delay", "1m30s",
            "sandbox-warm-pool-max-batch-size", "100"),
        d.flags());
    assertTrue(d.separateWatchConnection());
    assertEquals(100, d.maxBatchSize());
    assertEquals(Duration.ofSeconds(90), d.replenishDelay());
    assertEquals(1, d.warmPoolWorkers());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ControllerDeploymentView(
                        DEPLOY, null, List.of("--sandbox-warm-pool-max-refill-rate=fast"))
                    .maxRefillRate());
    assertEquals("--sandbox-warm-pool-max-refill-rate: not a number: 'fast'", e.getMessage());
    // a bad flag is reported, never thrown out of findings
    Timeline tl = load("--sandbox-warm-pool-max-refill-rate=fast");
    assertTrue(
        tl.findings(400, FindingKind.CONTROLLER_CONFIG_CONTRADICTS_LOAD).stream()
            .anyMatch(f -> f.subject().endsWith("(args)") && f.severity() == Severity.INFO));
  }
}
