package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.ContainerStatusView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PodView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;

/** A hand-written timeline driven through the engine's public API (no doubles). */
final class Timeline {
  static final Instant T0 = Instant.parse("2026-09-01T10:00:00Z");
  static final String NS = "team-a";

  final FleetEngine engine = new FleetEngine(EngineConfig.defaults());
  DiagnosisSettings settings = DiagnosisSettings.defaults();
  private int rv;

  static Instant at(double seconds) {
    return T0.plusNanos((long) (seconds * 1e9));
  }

  static Map<String, Object> spec(String image) {
    return Map.of(
        "podTemplate",
        Map.of("spec", Map.of("containers", List.of(Map.of("name", "main", "image", image)))));
  }

  String rv() {
    return "rv" + (++rv);
  }

  void up(ObjectView v, double s) {
    engine.apply(new FleetEvent.Upserted(v, null, at(s)));
  }

  void apply(FleetEvent e) {
    engine.apply(e);
  }

  void syncAll(double s) {
    for (Kind k : Kind.values()) {
      engine.apply(new FleetEvent.Synced(k, at(s)));
    }
  }

  TemplateView template(String name, String image, long generation) {
    Map<String, Object> spec = spec(image);
    return new TemplateView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv(),
        generation,
        Blueprints.digest(spec),
        null,
        null,
        Blueprints.images(spec),
        Blueprints.canonical(spec));
  }

  PoolView pool(String name, String template, int replicas, Integer ready, String updateStrategy) {
    return new PoolView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv(),
        1,
        template,
        replicas,
        updateStrategy,
        replicas,
        ready);
  }

  /** A Sandbox owned by {@code ownerKind ownerName}, built from {@code image}. */
  SandboxView sandbox(
      String name,
      String ownerKind,
      String ownerName,
      String template,
      String image,
      double createdS,
      Double readyS,
      boolean deleting) {
    Map<String, Object> spec = spec(image);
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv(),
        at(createdS),
        ownerKind == null ? null : new OwnerView(ownerKind, ownerName, "uid-" + ownerName),
        "warm",
        "controller",
        template,
        "h",
        null,
        Blueprints.digest(spec),
        "Running",
        readyS == null
            ? new ConditionView("False", "DependenciesNotReady", at(createdS))
            : new ConditionView("True", "DependenciesReady", at(readyS)),
        new ConditionView("False", "NotSuspended", at(createdS)),
        null,
        null,
        deleting,
        null,
        Blueprints.images(spec),
        Blueprints.canonical(spec),
        List.of());
  }

  /** A Sandbox with explicit mode and conditions (null owner: created directly). */
  SandboxView sandbox(
      String name,
      OwnerView owner,
      String template,
      String mode,
      ConditionView ready,
      ConditionView suspended) {
    Map<String, Object> spec = spec("img:1");
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv(),
        at(0),
        owner,
        owner == null ? null : "cold",
        owner == null ? "go-client" : "controller",
        template,
        null,
        null,
        Blueprints.digest(spec),
        mode,
        ready,
        suspended,
        null,
        null,
        false,
        null,
        Blueprints.images(spec),
        Blueprints.canonical(spec),
        List.of());
  }

  static ConditionView cond(String status, String reason, double s) {
    return new ConditionView(status, reason, at(s));
  }

  SandboxView member(String name, String pool, String image, double createdS, Double readyS) {
    return sandbox(name, "SandboxWarmPool", pool, "tpl", image, createdS, readyS, false);
  }

  /** A warm claim that adopted {@code sandbox}: first seen at seenS, Ready at readyS. */
  ClaimView claim(String name, String pool, String sandbox, double seenS, double readyS) {
    return new ClaimView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv(),
        at(Math.floor(seenS)),
        at(seenS),
        at(readyS),
        pool,
        sandbox,
        false,
        false,
        "python-client",
        new ConditionView("True", "DependenciesReady", at(Math.floor(readyS))),
        null,
        null,
        null,
        null);
  }

  /** The Pod of a Sandbox with one container in {@code waitingReason} (null: running). */
  PodView pod(String sandbox, String waitingReason, String message, int restarts) {
    return new PodView(
        new ObjectRef(NS, sandbox),
        "pod-uid-" + sandbox,
        rv(),
        null,
        sandbox,
        null,
        waitingReason == null ? "Running" : "Pending",
        List.of(
            new ContainerStatusView(
                "main",
                false,
                waitingReason == null,
                restarts,
                waitingReason,
                message,
                restarts > 0 ? "Error" : null,
                restarts > 0 ? 1 : null,
                null)),
        null,
        null,
        "node-1",
        null,
        false);
  }

  void pod(PodView p, double s) {
    engine.apply(new FleetEvent.PodUpserted(p, at(s)));
  }

  List<Finding> findings(double nowS) {
    return engine.findings(at(nowS), DiagnosisConfig.defaults(), settings);
  }

  List<Finding> findings(double nowS, FindingKind kind) {
    List<Finding> out = new ArrayList<>();
    for (Finding f : findings(nowS)) {
      if (f.kind() == kind) {
        out.add(f);
      }
    }
    return out;
  }

  static Duration secs(long s) {
    return Duration.ofSeconds(s);
  }
}
