package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.LagTimeline.at;
import static org.sandboxslo.engine.diagnosis.LagTimeline.claim;
import static org.sandboxslo.engine.diagnosis.LagTimeline.member;
import static org.sandboxslo.engine.diagnosis.LagTimeline.pool;
import static org.sandboxslo.engine.diagnosis.LagTimeline.template;
import static org.sandboxslo.engine.diagnosis.LagTimeline.withShutdown;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.slo.BurnRateTier;
import org.sandboxslo.engine.slo.SliType;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloStatus;

/** Claims that are never served (fault kind 6). */
class UnservedClaimsTest {
  static final ConditionView REJECTED =
      new ConditionView(
          "False",
          "EnvVarsInjectionRejected",
          at(21),
          "template tpl does not allow environment variable injection");

  static LagTimeline pooled() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl", "img:1"), 0).up(pool("pool", "tpl", 1), 0).synced(0.5);
    t.up(member("m1", "pool", "img:1", 1, 3.0, null), 3.2);
    t.engine.putSlo(
        new SloDefinition(
            "claim-ready",
            SliType.CLAIM_TO_READY_LATENCY,
            LagTimeline.NS,
            null,
            99,
            Duration.ofDays(1),
            Duration.ofSeconds(5),
            0,
            false,
            1,
            BurnRateTier.defaultsFor(Duration.ofDays(1))));
    return t;
  }

  static SloStatus slo(LagTimeline t, double nowS) {
    return t.engine.slos(at(nowS)).get(0);
  }

  @Test
  void aRejectedClaimIsABadClaimReadyEventAndListedWithItsReason() {
    LagTimeline t = pooled();
    t.up(claim("ok", "pool", "m1", 10, 11.0, null), 11.2); // served in 1 s: good
    t.up(claim("env", "pool", null, 20, null, REJECTED), 21.2);
    List<UnservedClaim> us = t.engine.unservedClaims();
    assertEquals(1, us.size());
    UnservedClaim u = us.get(0);
    assertEquals("team-b/env", u.claim().toString());
    assertEquals(UnservedClaim.Outcome.REJECTED, u.outcome());
    assertEquals("EnvVarsInjectionRejected", u.reason());
    assertEquals("template tpl does not allow environment variable injection", u.message());
    assertEquals("tpl", u.template());
    assertEquals(at(21), u.endedAt());
    assertTrue(u.terminal());
    // claim-to-ready SLI: 1 good (ok) / 2 valid (ok, env)
    SloStatus s = slo(t, 30);
    assertEquals(1, s.good());
    assertEquals(2, s.valid());
    Finding f = t.of(FindingKind.CLAIMS_UNSERVED, 30).get(0);
    assertEquals("Namespace team-b", f.subject());
    assertEquals(Severity.TICKET, f.severity());
    assertEquals("1", f.evidence("unservedClaims"));
    assertEquals("1", f.evidence("reason.EnvVarsInjectionRejected"));
    assertEquals(
        List.of("SandboxClaim team-b/env (REJECTED: EnvVarsInjectionRejected)"), f.objects());
    // the same rejection seen again (a new resourceVersion) is not a second bad event
    t.up(claim("env", "pool", null, 20, null, REJECTED), 40);
    assertEquals(2, slo(t, 41).valid());
  }

  @Test
  void deletedAndExpiredBeforeReadyCountButATombstoneDoesNot() {
    LagTimeline t = pooled();
    var waiting = claim("gone", "pool", null, 10, null, null);
    var expiring = withShutdown(claim("late", "pool", null, 12, null, null), 25);
    var unknown = claim("lost", "pool", null, 14, null, null);
    t.up(waiting, 10.2).up(expiring, 12.2).up(unknown, 14.2);
    t.delete(expiring, 26, false).delete(waiting, 30, false).delete(unknown, 40, true);
    List<UnservedClaim> us = t.engine.unservedClaims();
    assertEquals(2, us.size());
    // ordered by the time the outcome was reached: late (26 s) before gone (30 s)
    assertEquals("late", us.get(0).claim().name());
    assertEquals(UnservedClaim.Outcome.EXPIRED_UNSERVED, us.get(0).outcome());
    assertEquals("gone", us.get(1).claim().name());
    assertEquals(UnservedClaim.Outcome.DELETED_BEFORE_READY, us.get(1).outcome());
    assertEquals("none", us.get(1).reason());
    // two bad events, no good one; the tombstone (final state unknown) is not counted
    assertEquals(0, slo(t, 50).good());
    assertEquals(2, slo(t, 50).valid());
  }

  @Test
  void aMissingTemplateIsUnknownBeforeTheSyncAndCriticalWhenItBlocksAClaim() {
    LagTimeline t = new LagTimeline();
    t.up(template("tpl-a", "img:1"), 0).up(template("tpl-b", "img:1"), 0);
    t.up(pool("pool", "tpl-x", 1), 0);
    ConditionView notFound =
        new ConditionView("False", "TemplateNotFound", at(5), "SandboxTemplate tpl-x not found");
    t.up(claim("c1", "pool", null, 5, null, notFound), 5.2);
    Finding before = t.of(FindingKind.TEMPLATE_MISSING, 6).get(0);
    assertEquals(Severity.INFO, before.severity());
    assertEquals("unknown", before.evidence("templateExists"));
    t.engine.apply(new FleetEvent.Synced(Kind.SANDBOX_TEMPLATE, at(7)));
    Finding f = t.of(FindingKind.TEMPLATE_MISSING, 8).get(0);
    assertEquals(Severity.CRITICAL, f.severity());
    assertEquals("no", f.evidence("templateExists"));
    assertEquals("tpl-a, tpl-b", f.evidence("existingTemplates"));
    assertEquals("1", f.evidence("blockedClaims"));
    assertEquals(List.of("SandboxWarmPool team-b/pool", "SandboxClaim team-b/c1"), f.objects());
    // a waiting claim is listed, not yet counted
    UnservedClaim u = t.engine.unservedClaims().get(0);
    assertEquals("TemplateNotFound", u.reason());
    assertFalse(u.terminal());
    Finding unserved = t.of(FindingKind.CLAIMS_UNSERVED, 8).get(0);
    assertEquals(Severity.HIGH, unserved.severity());
    assertEquals(
        List.of("SandboxClaim team-b/c1 (REJECTED: TemplateNotFound, waiting)"),
        unserved.objects());
    // the template appears and the claim is served: nothing is left
    t.up(template("tpl-x", "img:1"), 20);
    t.up(member("m1", "pool", "img:1", 20, 22.0, null), 22.2);
    t.up(claim("c1", "pool", "m1", 5, 23.0, null), 23.2);
    assertTrue(t.of(FindingKind.TEMPLATE_MISSING, 24).isEmpty());
    assertTrue(t.engine.unservedClaims().isEmpty());
    assertTrue(t.of(FindingKind.CLAIMS_UNSERVED, 24).isEmpty());
  }

  @Test
  void aServedClaimThatExpiresLaterIsNotUnserved() {
    LagTimeline t = pooled();
    t.up(claim("c1", "pool", "m1", 10, 11.0, null), 11.2);
    var expired =
        claim("c1", "pool", "m1", 10, null, new ConditionView("False", "ClaimExpired", at(60)));
    // the Ready update is replaced by Ready=False/ClaimExpired and no first-ready annotation
    t.up(expired, 60.2).delete(expired, 70, false);
    assertTrue(t.engine.unservedClaims().isEmpty());
    assertEquals(1, slo(t, 80).good());
    assertEquals(1, slo(t, 80).valid());
  }
}
