package org.sandboxslo.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;

/** Builders for exact timelines in engine tests. */
final class Fixtures {
  private Fixtures() {}

  static final Instant T0 = Instant.parse("2026-09-01T10:00:00Z");
  static final String NS = "team-a";

  static Instant at(double seconds) {
    return T0.plusNanos((long) (seconds * 1e9));
  }

  static Map<String, Object> spec(String image) {
    return Map.of(
        "podTemplate",
        Map.of("spec", Map.of("containers", List.of(Map.of("name", "main", "image", image)))));
  }

  static TemplateView template(String name, String image, String rv) {
    return new TemplateView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv,
        1,
        Blueprints.digest(spec(image)),
        null,
        null,
        List.of(image));
  }

  static PoolView pool(String name, String template, int replicas, Integer ready) {
    return new PoolView(
        new ObjectRef(NS, name),
        "uid-" + name,
        "p" + replicas + "-" + ready,
        1,
        template,
        replicas,
        null,
        ready == null ? null : replicas,
        ready);
  }

  static SandboxView member(
      String name,
      String pool,
      String template,
      String image,
      double createdS,
      Double readyS,
      String rv) {
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv,
        at(createdS),
        new OwnerView("SandboxWarmPool", pool, "uid-" + pool),
        "warm",
        "controller",
        template,
        "hash",
        null,
        Blueprints.digest(spec(image)),
        "Running",
        readyS == null
            ? new ConditionView("False", "DependenciesNotReady", at(createdS))
            : new ConditionView("True", "DependenciesReady", at(readyS)),
        null,
        null,
        null,
        false);
  }

  static SandboxView adopted(
      String name, String claim, String template, String launchType, double readyS, String rv) {
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv,
        at(0),
        new OwnerView("SandboxClaim", claim, "uid-" + claim),
        launchType,
        "python-client",
        template,
        null,
        "uid-" + claim,
        Blueprints.digest(spec("img:1")),
        "Running",
        new ConditionView("True", "DependenciesReady", at(readyS)),
        null,
        null,
        null,
        false);
  }

  static ClaimView claim(
      String name,
      String pool,
      String sandbox,
      double seenS,
      Double readyS,
      boolean env,
      String rv) {
    return new ClaimView(
        new ObjectRef(NS, name),
        "uid-" + name,
        rv,
        at(Math.floor(seenS)),
        at(seenS),
        readyS == null ? null : at(readyS),
        pool,
        sandbox,
        env,
        false,
        "python-client",
        readyS == null
            ? null
            : new ConditionView("True", "DependenciesReady", at(Math.floor(readyS))),
        null,
        null,
        null,
        null);
  }

  static FleetEvent up(ObjectView v, double receivedS) {
    return new FleetEvent.Upserted(v, null, at(receivedS));
  }

  static Duration secs(double s) {
    return Duration.ofNanos((long) (s * 1e9));
  }
}
