package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import org.sandboxslo.engine.finding.DiagnosisConfig;
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
    DiagnosisConfig config) {
  public FleetFacts {
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(observations, "observations");
    Objects.requireNonNull(config, "config");
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
    List<SandboxView> out = new ArrayList<>();
    for (SandboxView s : sandboxes.values()) {
      if (s.ref().namespace().equals(p.ref().namespace())
          && s.ownedByPool(p.ref().name())
          && !s.deleting()
          && (p.uid() == null || s.owner().uid() == null || p.uid().equals(s.owner().uid()))) {
        out.add(s);
      }
    }
    out.sort(Comparator.comparing(s -> s.ref().name()));
    return out;
  }

  /** Pools sorted by ref. */
  public List<PoolView> sortedPools() {
    return pools.values().stream().sorted(Comparator.comparing(PoolView::ref)).toList();
  }
}
