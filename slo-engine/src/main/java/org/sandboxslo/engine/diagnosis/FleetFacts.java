package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.HealthThresholds;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;

/**
 * The engine's state as the issue-8 diagnoses read it: the current objects (read-only maps), the
 * informers' sync state, the {@link Observations}, the staleness rule and the configuration.
 *
 * @param now evaluation time
 * @param templates by ref
 * @param pools by ref
 * @param sandboxes by ref
 * @param claims by ref
 * @param synced per kind, whether its informer reported an initial sync
 * @param observations event-stream bookkeeping
 * @param stale the engine's staleness rule (member, template) → stale
 * @param config thresholds
 * @param membersByPool active pool members grouped by pool ref, each sorted by name ({@link #of}
 *     computes it once per evaluation)
 */
public record FleetFacts(
    Instant now,
    Map<ObjectRef, TemplateView> templates,
    Map<ObjectRef, PoolView> pools,
    Map<ObjectRef, SandboxView> sandboxes,
    Map<ObjectRef, ClaimView> claims,
    Map<Kind, Boolean> synced,
    Observations observations,
    BiPredicate<SandboxView, TemplateView> stale,
    DiagnosisConfig config,
    Map<ObjectRef, List<SandboxView>> membersByPool) {
  public FleetFacts {
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(observations, "observations");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(membersByPool, "membersByPool");
  }

  /** The facts, with the members grouped by pool once (O(Sandboxes)). */
  public static FleetFacts of(
      Instant now,
      Map<ObjectRef, TemplateView> templates,
      Map<ObjectRef, PoolView> pools,
      Map<ObjectRef, SandboxView> sandboxes,
      Map<ObjectRef, ClaimView> claims,
      Map<Kind, Boolean> synced,
      Observations observations,
      BiPredicate<SandboxView, TemplateView> stale,
      DiagnosisConfig config) {
    Map<ObjectRef, List<SandboxView>> byPool = new java.util.HashMap<>();
    for (SandboxView s : sandboxes.values()) {
      if (s.owner() != null && "SandboxWarmPool".equals(s.owner().kind()) && !s.deleting()) {
        ObjectRef ref = new ObjectRef(s.ref().namespace(), s.owner().name());
        PoolView p = pools.get(ref);
        if (p == null
            || p.uid() == null
            || s.owner().uid() == null
            || p.uid().equals(s.owner().uid())) {
          byPool.computeIfAbsent(ref, x -> new ArrayList<>()).add(s);
        }
      }
    }
    byPool.values().forEach(l -> l.sort(Comparator.comparing(x -> x.ref().name())));
    return new FleetFacts(
        now, templates, pools, sandboxes, claims, synced, observations, stale, config, byPool);
  }

  public HealthThresholds health() {
    return config.health();
  }

  /** The controller version: from build_info when fed, else the configured one; may be null. */
  public String controllerVersion() {
    String v = observations.controllerVersion();
    return v != null ? v : config.controllerVersion();
  }

  public boolean synced(Kind k) {
    return Boolean.TRUE.equals(synced.get(k));
  }

  public TemplateView template(PoolView p) {
    return templates.get(new ObjectRef(p.ref().namespace(), p.templateName()));
  }

  /**
   * Active members of a pool: controller ownerReference to it (UID-matched when both UIDs are
   * known), not deleting; sorted by name.
   */
  public List<SandboxView> members(PoolView p) {
    return List.copyOf(membersByPool.getOrDefault(p.ref(), List.of()));
  }

  /** Pools sorted by ref. */
  public List<PoolView> sortedPools() {
    return pools.values().stream().sorted(Comparator.comparing(PoolView::ref)).toList();
  }
}
