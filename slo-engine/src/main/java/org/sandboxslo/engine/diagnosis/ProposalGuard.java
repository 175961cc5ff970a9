package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PoolView;

/**
 * The last check on every proposal of every finding (safety invariants of issue 8):
 *
 * <ul>
 *   <li>no proposal that adds creates for a pool that over-creates;
 *   <li>no proposal that deletes, recreates or scales a pool while its expectations gate blocks
 *       creates (any automatic proposal, and any that adds creates);
 *   <li>no automatic proposal, and none that adds creates, for a pool while the Sandbox or
 *       SandboxWarmPool stream is suspect-stale; no proposal that deletes Sandboxes while the
 *       SandboxClaim stream is suspect (whether they are claimed is not known).
 * </ul>
 *
 * A proposal that fails is replaced by a "None" proposal that says what was held back and why.
 */
public final class ProposalGuard {
  private ProposalGuard() {}

  /**
   * What holds plans back now.
   *
   * @param overCreating pools that over-create
   * @param gateBlocked pools whose expectations gate blocks creates, with the release time
   * @param suspect suspect-stale kinds
   */
  public record Hazards(
      Set<ObjectRef> overCreating, Map<ObjectRef, Instant> gateBlocked, Set<Kind> suspect) {
    public Hazards {
      overCreating = Set.copyOf(overCreating);
      gateBlocked = Map.copyOf(gateBlocked);
      suspect = Set.copyOf(suspect);
    }

    public static Hazards none() {
      return new Hazards(Set.of(), Map.of(), Set.of());
    }

    /**
     * Why no plan that adds creates may run for the pool now, or null.
     *
     * @param pool the pool
     */
    public String createsHazard(ObjectRef pool) {
      if (overCreating.contains(pool)) {
        return "SandboxWarmPool " + pool + " over-creates";
      }
      if (gateBlocked.containsKey(pool)) {
        return "the expectations gate of "
            + pool
            + " blocks creates until "
            + gateBlocked.get(pool);
      }
      if (suspect.contains(Kind.SANDBOX) || suspect.contains(Kind.SANDBOX_WARM_POOL)) {
        return "the Sandbox/SandboxWarmPool data is suspect-stale";
      }
      return null;
    }
  }

  /** The pools a finding's subject concerns (pool, the pools of a template, or of a namespace). */
  static Set<ObjectRef> pools(String subject, Map<ObjectRef, PoolView> pools) {
    Set<ObjectRef> out = new TreeSet<>();
    int sp = subject.indexOf(' ');
    if (sp < 0) {
      return out;
    }
    String kind = subject.substring(0, sp);
    String rest = subject.substring(sp + 1);
    try {
      switch (kind) {
        case "SandboxWarmPool" -> out.add(ObjectRef.parse(rest));
        case "SandboxTemplate" -> {
          ObjectRef t = ObjectRef.parse(rest);
          for (PoolView p : pools.values()) {
            if (p.ref().namespace().equals(t.namespace()) && p.templateName().equals(t.name())) {
              out.add(p.ref());
            }
          }
        }
        case "Namespace" -> {
          for (PoolView p : pools.values()) {
            if (p.ref().namespace().equals(rest)) {
              out.add(p.ref());
            }
          }
        }
        default -> {}
      }
    } catch (IllegalArgumentException e) {
      return out;
    }
    return out;
  }

  /** Applies the checks to every finding. */
  public static List<Finding> apply(
      List<Finding> findings, Hazards h, Map<ObjectRef, PoolView> pools) {
    Objects.requireNonNull(h, "hazards");
    if (h.overCreating().isEmpty() && h.gateBlocked().isEmpty() && h.suspect().isEmpty()) {
      return findings;
    }
    List<Finding> out = new ArrayList<>(findings.size());
    for (Finding f : findings) {
      Set<ObjectRef> ps = pools(f.subject(), pools);
      boolean changed = false;
      List<Proposal> props = new ArrayList<>();
      for (Proposal p : f.proposals()) {
        String why = violation(p, ps, h);
        if (why == null) {
          props.add(p);
        } else {
          changed = true;
          props.add(Proposal.none("Held back: " + p.action() + " — " + why + "."));
        }
      }
      out.add(
          changed
              ? new Finding(
                  f.kind(),
                  f.subject(),
                  f.severity(),
                  f.firstSeen(),
                  f.lastSeen(),
                  f.explanation(),
                  f.evidence(),
                  f.objects(),
                  props)
              : f);
    }
    return out;
  }

  /** Why the proposal may not be offered, or null. */
  static String violation(Proposal p, Set<ObjectRef> pools, Hazards h) {
    if ("None".equals(p.action())) {
      return null;
    }
    boolean acts = p.automatic() || p.addsCreates() || !p.deletes().isEmpty();
    for (ObjectRef pool : pools) {
      if (p.addsCreates() && h.overCreating().contains(pool)) {
        return "it adds creates while SandboxWarmPool " + pool + " over-creates";
      }
      if (acts && h.gateBlocked().containsKey(pool)) {
        return "the expectations gate of "
            + pool
            + " blocks creates until "
            + h.gateBlocked().get(pool)
            + "; no plan deletes, recreates or scales it meanwhile";
      }
      if (acts
          && (h.suspect().contains(Kind.SANDBOX) || h.suspect().contains(Kind.SANDBOX_WARM_POOL))) {
        return "the Sandbox/SandboxWarmPool data it depends on is suspect-stale";
      }
    }
    if (!p.deletes().isEmpty() && h.suspect().contains(Kind.SANDBOX_CLAIM)) {
      return "the SandboxClaim data is suspect-stale, so whether the Sandboxes are claimed is unknown";
    }
    if (pools.isEmpty() && p.addsCreates() && !h.suspect().isEmpty()) {
      return "informers are suspect-stale: " + h.suspect();
    }
    return null;
  }
}
