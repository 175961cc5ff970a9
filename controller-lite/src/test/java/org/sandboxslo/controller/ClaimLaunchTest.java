package org.sandboxslo.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.controller.ClaimReconciler.Launch;
import org.sandboxslo.controller.pool.UpdateStrategy;
import org.sandboxslo.engine.model.Kind;

/** The pure launch decision of the claim controller. */
class ClaimLaunchTest {
  static Map<String, Object> templateSpec(String image, Map<String, Object> extra) {
    Map<String, Object> spec = new java.util.LinkedHashMap<>(extra);
    spec.put(
        "podTemplate",
        Map.of("spec", Map.of("containers", List.of(Map.of("name", "c", "image", image)))));
    return spec;
  }

  static GenericKubernetesResource member(
      String name, String created, boolean ready, String image) {
    GenericKubernetesResource s = Resources.newObject(Kind.SANDBOX, "ns");
    s.getMetadata().setName(name);
    s.getMetadata().setCreationTimestamp(created);
    s.setAdditionalProperty("spec", PoolReconciler.blueprint(templateSpec(image, Map.of())));
    if (ready) {
      s.setAdditionalProperty(
          "status",
          Map.of(
              "conditions",
              List.of(Map.of("type", "Ready", "status", "True")),
              "podIPs",
              List.of("10.0.0.1")));
    }
    return s;
  }

  static final Map<String, Object> T = templateSpec("img:1", Map.of());
  static final Duration FRESH = Duration.ofMillis(100);

  static String decide(
      Map<String, Object> claimSpec,
      Map<String, Object> template,
      UpdateStrategy s,
      List<GenericKubernetesResource> candidates,
      Duration age) {
    Launch l = ClaimReconciler.decideLaunch(claimSpec, template, s, candidates, age);
    if (l instanceof Launch.Warm w) {
      return "warm " + w.candidate().getMetadata().getName();
    }
    if (l instanceof Launch.Cold c) {
      return "cold: " + c.why();
    }
    if (l instanceof Launch.Reject r) {
      return "reject " + r.reason();
    }
    return "wait " + ((Launch.Wait) l).after().toMillis();
  }

  @Test
  void envAndVolumesBypassTheQueueOrAreRejectedByPolicy() {
    List<GenericKubernetesResource> idle =
        List.of(member("m1", "2026-11-29T08:00:00Z", true, "img:1"));
    Map<String, Object> env = Map.of("env", List.of(Map.of("name", "A", "value", "1")));
    Map<String, Object> vct =
        Map.of("volumeClaimTemplates", List.of(Map.of("metadata", Map.of("name", "w"))));
    assertEquals(
        "reject EnvVarsInjectionRejected",
        decide(env, T, UpdateStrategy.ON_REPLENISH, idle, FRESH));
    assertEquals(
        "cold: claim sets spec.env",
        decide(
            env,
            templateSpec("img:1", Map.of("envVarsInjectionPolicy", "Allowed")),
            UpdateStrategy.ON_REPLENISH,
            idle,
            FRESH));
    assertEquals(
        "reject VolumeClaimTemplatesError",
        decide(vct, T, UpdateStrategy.ON_REPLENISH, idle, FRESH));
    assertEquals(
        "cold: claim sets spec.volumeClaimTemplates",
        decide(
            vct,
            templateSpec("img:1", Map.of("volumeClaimTemplatesPolicy", "Overrides")),
            UpdateStrategy.ON_REPLENISH,
            idle,
            FRESH));
  }

  @Test
  void readyFirstThenOldestFirst() {
    List<GenericKubernetesResource> ms =
        List.of(
            member("young", "2026-11-29T08:00:09Z", true, "img:1"),
            member("old", "2026-11-29T08:00:01Z", true, "img:1"),
            member("oldest-pending", "2026-11-29T08:00:00Z", false, "img:1"));
    assertEquals("warm old", decide(Map.of(), T, UpdateStrategy.ON_REPLENISH, ms, FRESH));
    assertEquals(
        "cold: no warm member", decide(Map.of(), T, UpdateStrategy.ON_REPLENISH, List.of(), FRESH));
  }

  @Test
  void pendingMembersAreWaitedForTwoSecondsThenCold() {
    List<GenericKubernetesResource> pending =
        List.of(member("p", "2026-11-29T08:00:00Z", false, "img:1"));
    assertEquals("wait 500", decide(Map.of(), T, UpdateStrategy.ON_REPLENISH, pending, FRESH));
    assertEquals(
        "cold: warm members still pending after 2000 ms",
        decide(Map.of(), T, UpdateStrategy.ON_REPLENISH, pending, Duration.ofSeconds(2)));
  }

  @Test
  void recreateSkipsStaleCandidatesOnReplenishHandsThemOut() {
    List<GenericKubernetesResource> stale =
        List.of(member("s", "2026-11-29T08:00:00Z", true, "img:0"));
    assertEquals(
        "cold: only stale members (Recreate)",
        decide(Map.of(), T, UpdateStrategy.RECREATE, stale, FRESH));
    assertEquals("warm s", decide(Map.of(), T, UpdateStrategy.ON_REPLENISH, stale, FRESH));
  }
}
