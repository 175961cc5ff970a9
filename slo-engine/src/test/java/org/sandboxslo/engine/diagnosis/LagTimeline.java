package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;

/**
 * Builders for hand-written timelines: times are seconds after {@link #T0}; server times inside
 * objects and receive times are given separately, so watch lag is explicit. The server time handed
 * with an upsert is the newest time the object carries (as the collector computes it).
 */
final class LagTimeline {
  static final Instant T0 = Instant.parse("2026-09-01T10:00:00Z");
  static final String NS = "team-b";

  final FleetEngine engine = new FleetEngine(EngineConfig.defaults());
  private int rv;

  static Instant at(double s) {
    return T0.plusMillis(Math.round(s * 1000));
  }

  static Map<String, Object> spec(String image) {
    return Map.of(
        "podTemplate",
        Map.of("spec", Map.of("containers", List.of(Map.of("name", "main", "image", image)))));
  }

  static TemplateView template(String name, String image) {
    Map<String, Object> spec = spec(image);
    return new TemplateView(
        new ObjectRef(NS, name),
        "uid-" + name,
        "t-" + image,
        1,
        Blueprints.digest(spec),
        null,
        null,
        Blueprints.images(spec),
        Blueprints.canonical(spec));
  }

  static PoolView pool(String name, String template, int replicas) {
    return new PoolView(
        new ObjectRef(NS, name),
        "uid-" + name,
        "p" + replicas,
        1,
        template,
        replicas,
        null,
        null,
        null);
  }

  static SandboxView member(
      String name,
      String pool,
      String image,
      double createdS,
      Double readyS,
      String unschedulable) {
    Map<String, Object> spec = spec(image);
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        null,
        at(createdS),
        new OwnerView("SandboxWarmPool", pool, "uid-" + pool),
        "warm",
        "controller",
        "tpl",
        "h",
        null,
        Blueprints.digest(spec),
        "Running",
        readyS == null
            ? new ConditionView("False", "DependenciesNotReady", at(createdS))
            : new ConditionView("True", "DependenciesReady", at(readyS)),
        null,
        unschedulable == null
            ? null
            : new ConditionView("False", "Unschedulable", at(createdS), unschedulable),
        null,
        false,
        null,
        Blueprints.images(spec),
        Blueprints.canonical(spec),
        List.of());
  }

  /** The member adopted by a claim (ownerReference → the claim), Ready since readyS. */
  static SandboxView adopted(SandboxView m, String claim, String launchType) {
    return new SandboxView(
        m.ref(),
        m.uid(),
        null,
        m.createdAt(),
        new OwnerView("SandboxClaim", claim, "uid-" + claim),
        launchType,
        m.createdBy(),
        m.templateName(),
        null,
        "uid-" + claim,
        m.blueprintDigest(),
        "Running",
        m.ready(),
        null,
        null,
        null,
        false,
        null,
        m.images(),
        m.blueprint(),
        List.of());
  }

  static ClaimView claim(
      String name, String pool, String sandbox, double seenS, Double readyS, ConditionView ready) {
    return new ClaimView(
        new ObjectRef(NS, name),
        "uid-" + name,
        null,
        at(Math.floor(seenS)),
        at(seenS),
        readyS == null ? null : at(readyS),
        pool,
        sandbox,
        false,
        false,
        "go-client",
        readyS != null ? new ConditionView("True", "DependenciesReady", at(readyS)) : ready,
        null,
        null,
        null,
        null);
  }

  static ClaimView withShutdown(ClaimView c, double shutdownS) {
    return new ClaimView(
        c.ref(),
        c.uid(),
        c.resourceVersion(),
        c.createdAt(),
        c.firstObservedAt(),
        c.firstReadyAt(),
        c.warmPoolName(),
        c.sandboxName(),
        c.setsEnv(),
        c.setsVolumeClaimTemplates(),
        c.createdBy(),
        c.ready(),
        c.finished(),
        "Delete",
        at(shutdownS),
        null);
  }

  /** Applies an upsert received at {@code receivedS}; each call gets a fresh resourceVersion. */
  LagTimeline up(ObjectView v, double receivedS) {
    return up(v, receivedS, false);
  }

  LagTimeline up(ObjectView v, double receivedS, boolean listed) {
    engine.apply(new FleetEvent.Upserted(withRv(v), serverTime(v), at(receivedS), listed));
    return this;
  }

  LagTimeline delete(ObjectView v, double receivedS, boolean finalStateUnknown) {
    engine.apply(
        new FleetEvent.Deleted(v.kind(), v.ref(), v.uid(), at(receivedS), finalStateUnknown));
    return this;
  }

  LagTimeline synced(double s) {
    for (Kind k : Kind.values()) {
      engine.apply(new FleetEvent.Synced(k, at(s)));
    }
    return this;
  }

  List<Finding> findings(double nowS, DiagnosisConfig cfg) {
    return engine.findings(at(nowS), cfg);
  }

  List<Finding> of(FindingKind k, double nowS) {
    return of(k, nowS, DiagnosisConfig.defaults());
  }

  List<Finding> of(FindingKind k, double nowS, DiagnosisConfig cfg) {
    return findings(nowS, cfg).stream().filter(f -> f.kind() == k).toList();
  }

  private ObjectView withRv(ObjectView v) {
    String r = "rv" + (++rv);
    if (v instanceof SandboxView s) {
      return new SandboxView(
          s.ref(),
          s.uid(),
          r,
          s.createdAt(),
          s.owner(),
          s.launchType(),
          s.createdBy(),
          s.templateName(),
          s.warmPoolHash(),
          s.claimUid(),
          s.blueprintDigest(),
          s.operatingMode(),
          s.ready(),
          s.suspended(),
          s.podScheduled(),
          s.shutdownTime(),
          s.deleting(),
          s.templateHashLabel(),
          s.images(),
          s.blueprint(),
          s.reservedKeys());
    }
    if (v instanceof ClaimView c) {
      return new ClaimView(
          c.ref(),
          c.uid(),
          r,
          c.createdAt(),
          c.firstObservedAt(),
          c.firstReadyAt(),
          c.warmPoolName(),
          c.sandboxName(),
          c.setsEnv(),
          c.setsVolumeClaimTemplates(),
          c.createdBy(),
          c.ready(),
          c.finished(),
          c.shutdownPolicy(),
          c.shutdownTime(),
          c.ttlSecondsAfterFinished());
    }
    if (v instanceof PoolView p) {
      return new PoolView(
          p.ref(),
          p.uid(),
          r,
          p.generation(),
          p.templateName(),
          p.replicas(),
          p.updateStrategy(),
          p.statusReplicas(),
          p.statusReadyReplicas());
    }
    if (v instanceof TemplateView t) {
      return new TemplateView(
          t.ref(),
          t.uid(),
          r,
          t.generation(),
          t.blueprintDigest(),
          t.envVarsInjectionPolicy(),
          t.volumeClaimTemplatesPolicy(),
          t.images(),
          t.blueprint());
    }
    return v;
  }

  /** Newest server time on the object, like the collector's {@code ObjectViews.serverTime}. */
  static Instant serverTime(ObjectView v) {
    Instant t = null;
    if (v instanceof SandboxView s) {
      t = max(t, s.createdAt());
      t = max(t, s.ready() == null ? null : s.ready().lastTransitionTime());
      t = max(t, s.suspended() == null ? null : s.suspended().lastTransitionTime());
      t = max(t, s.podScheduled() == null ? null : s.podScheduled().lastTransitionTime());
    } else if (v instanceof ClaimView c) {
      t = max(t, c.createdAt());
      t = max(t, c.firstObservedAt());
      t = max(t, c.firstReadyAt());
      t = max(t, c.ready() == null ? null : c.ready().lastTransitionTime());
    }
    return t;
  }

  private static Instant max(Instant a, Instant b) {
    return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
  }
}
