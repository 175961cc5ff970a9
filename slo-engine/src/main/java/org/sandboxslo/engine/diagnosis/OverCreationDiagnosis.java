package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.HealthThresholds;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;

/**
 * Control-loop runaway (fault kind 1): a pool owns ≥ {@link HealthThresholds#overCreationRatio} ×
 * spec.replicas members over {@link HealthThresholds#overCreationObservations} consecutive
 * observations at distinct times (changes of its owned count or spec.replicas, and diagnosis
 * evaluations), at least one of them a growth (a scale-down drains monotonically and is not a
 * runaway). Typical cause: members cannot become Ready (unschedulable) and a controller before the
 * expectations gate (v0.5.4, agent-sandbox#1266 fixing #1215) reads a cache that has not seen its
 * own creates. Never proposes anything that adds creates.
 */
public final class OverCreationDiagnosis {
  private OverCreationDiagnosis() {}

  /**
   * A pool that over-creates.
   *
   * @param pool the pool
   * @param owned active members owned now
   * @param replicas spec.replicas
   * @param since console time of the first observation of the streak
   * @param observations length of the streak
   * @param growths observations in the streak where the owned count grew
   */
  public record Runaway(
      PoolView pool, int owned, int replicas, Instant since, int observations, int growths) {
    public double ratio() {
      return (double) owned / replicas;
    }
  }

  /** The runaway of the pool at {@code f.now()}, or null. */
  public static Runaway detect(FleetFacts f, PoolView p) {
    HealthThresholds h = f.health();
    int replicas = p.replicas();
    if (replicas == 0) {
      return null;
    }
    int owned = f.members(p).size();
    if (owned < h.overCreationRatio() * replicas) {
      return null;
    }
    List<Observations.OwnedSample> hist = f.observations().ownedHistory(p.ref());
    int run = 0;
    int growths = 0;
    Instant since = null;
    for (int i = hist.size() - 1; i >= 0; i--) {
      Observations.OwnedSample s = hist.get(i);
      if (s.replicas() == 0 || s.owned() < h.overCreationRatio() * s.replicas()) {
        break;
      }
      if (since == null || s.at().isBefore(since)) {
        run++; // samples at the same instant (an initial list) are one observation
      }
      since = s.at();
      if (i == 0 || hist.get(i - 1).owned() < s.owned()) {
        growths++;
      }
    }
    if (run < h.overCreationObservations() || growths == 0) {
      return null;
    }
    return new Runaway(p, owned, replicas, since, run, growths);
  }

  /**
   * Findings for every over-creating pool. Records this evaluation as an observation of each pool
   * first (so a pool that stays over-populated without changes still builds a streak).
   */
  public static List<Finding> run(FleetFacts f) {
    List<Finding> out = new ArrayList<>();
    for (PoolView p : f.sortedPools()) {
      f.observations().evaluated(p.ref(), f.now());
    }
    for (PoolView p : f.sortedPools()) {
      Runaway r = detect(f, p);
      if (r != null) {
        out.add(finding(f, r));
      }
    }
    return out;
  }

  static String fmt(double d) {
    return String.format(Locale.ROOT, "%.2f", d);
  }

  private static Finding finding(FleetFacts f, Runaway r) {
    PoolView p = r.pool();
    HealthThresholds h = f.health();
    List<SandboxView> members = f.members(p);
    List<SandboxView> ready = members.stream().filter(SandboxView::isReady).toList();
    List<SandboxView> notReady = members.stream().filter(m -> !m.isReady()).toList();
    Map<String, Integer> failures = new TreeMap<>();
    int unschedulable = 0;
    for (SandboxView m : notReady) {
      if (m.podScheduled() != null && m.podScheduled().isFalse()) {
        if ("Unschedulable".equals(m.podScheduled().reason())) {
          unschedulable++;
        }
        String text =
            m.podScheduled().message() != null
                ? m.podScheduled().message()
                : m.podScheduled().reason();
        if (text != null) {
          failures.merge(text, 1, Integer::sum);
        }
      }
    }
    String version = f.controllerVersion();
    boolean preGate = version != null && VersionOrder.before(version, h.gateControllerFix());
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "ownedOverDesired",
            fmt(r.ratio()),
            r.owned()
                + " owned / "
                + r.replicas()
                + " spec.replicas ≥ "
                + fmt(h.overCreationRatio())
                + " for "
                + r.observations()
                + " consecutive observations ("
                + r.growths()
                + " growing) since "
                + r.since()));
    ev.add(
        Evidence.of(
            "excessMembers",
            r.owned() - r.replicas(),
            r.owned() + " owned − " + r.replicas() + " spec.replicas"));
    if (p.statusReplicas() != null) {
      ev.add(
          Evidence.of(
              "statusReplicas",
              p.statusReplicas(),
              "the controller's own count (status.replicas; excludes terminating members)"));
    }
    ev.add(
        Evidence.of(
            "readyMembers",
            ready.size(),
            notReady.size() + " not Ready, " + unschedulable + " unschedulable"));
    String cause = null;
    if (!failures.isEmpty()) {
      Map.Entry<String, Integer> top =
          failures.entrySet().stream()
              .max(Comparator.comparing(Map.Entry<String, Integer>::getValue))
              .orElseThrow();
      cause = top.getKey();
      ev.add(
          Evidence.of(
              "schedulingFailure",
              cause,
              "PodScheduled=False on "
                  + top.getValue()
                  + " of "
                  + notReady.size()
                  + " not-Ready members"));
    }
    ev.add(
        Evidence.of(
            "controllerVersion",
            version == null ? "unknown" : version,
            version == null
                ? "agent_sandbox_build_info not scraped; the expectations gate arrived in "
                    + h.gateControllerFix()
                : preGate
                    ? "predates the expectations gate ("
                        + h.gateControllerFix()
                        + ", agent-sandbox#1266 fixing #1215): creates are not gated on observed creates"
                    : "has the expectations gate (≥ " + h.gateControllerFix() + ")"));
    List<Proposal> proposals = new ArrayList<>();
    proposals.add(
        new Proposal(
            "PausePool",
            "Scale "
                + p.ref()
                + " to spec.replicas 0 to stop the runaway at once; the controller then deletes its"
                + " unclaimed members (Ready ones too) and claims cold-start until it is scaled back",
            List.of(
                "patch SandboxWarmPool " + p.ref() + " spec.replicas " + r.replicas() + " → 0",
                "scale back to " + r.replicas() + " once the cause below is fixed"),
            false,
            List.of(),
            false));
    List<String> deletes = excessToDelete(members, r.replicas());
    if (!deletes.isEmpty()) {
      int readyFloor = Math.min(r.replicas(), ready.size());
      List<String> steps = new ArrayList<>();
      List<String> objects = new ArrayList<>();
      for (String n : deletes) {
        steps.add("delete Sandbox " + p.ref().namespace() + "/" + n);
        objects.add(p.ref().namespace() + "/" + n);
      }
      steps.add(
          "never touch claimed Sandboxes; keep at least "
              + readyFloor
              + " Ready members (Ready now: "
              + ready.size()
              + ")");
      proposals.add(
          new Proposal(
              "DeleteExcessMembers",
              "Delete "
                  + deletes.size()
                  + " of the "
                  + (r.owned() - r.replicas())
                  + " excess unclaimed members (not-Ready first, newest first; Ready ones only"
                  + " above min(spec.replicas, Ready now) = "
                  + readyFloor
                  + ")",
              steps,
              true,
              objects,
              false));
    }
    proposals.add(
        Proposal.none(
            cause != null
                ? "Fix the template's requests or scheduling constraints so members can be scheduled: "
                    + cause
                : "Find why members do not become Ready (template requests, node capacity, image)."));
    if (version == null || preGate) {
      proposals.add(
          Proposal.none(
              "Upgrade the agent-sandbox controller to "
                  + h.gateControllerFix()
                  + " or later (expectations-gated creates, agent-sandbox#1266)"
                  + (version == null
                      ? "; the running version is unknown."
                      : "; it runs " + version + ".")));
    }
    proposals.add(
        Proposal.none(
            "Do not raise spec.replicas, change refill pacing or set updateStrategy: Recreate while"
                + " the pool over-creates: each adds creates."));
    List<String> objs = new ArrayList<>();
    objs.add("SandboxWarmPool " + p.ref());
    for (SandboxView m : notReady) {
      objs.add("Sandbox " + m.ref());
    }
    return new Finding(
        FindingKind.POOL_OVER_CREATION,
        "SandboxWarmPool " + p.ref(),
        Severity.HIGH,
        r.since(),
        f.now(),
        p.ref()
            + " owns "
            + r.owned()
            + " members for spec.replicas "
            + r.replicas()
            + " ("
            + fmt(r.ratio())
            + "×) and keeps creating"
            + (cause != null ? " while members cannot be scheduled (" + cause + ")" : "")
            + (preGate ? "; controller " + version + " predates the expectations gate." : "."),
        ev,
        objs,
        proposals);
  }

  /**
   * The excess unclaimed members to delete, by name: not-Ready ones first (newest first, as
   * upstream deletes excess), then Ready ones only above min(replicas, Ready now); at most owned −
   * replicas. Claimed Sandboxes are not pool members and never appear.
   */
  static List<String> excessToDelete(List<SandboxView> members, int replicas) {
    int excess = members.size() - replicas;
    if (excess <= 0) {
      return List.of();
    }
    Comparator<SandboxView> newestFirst =
        Comparator.comparing((SandboxView s) -> s.createdAt() == null ? Instant.MIN : s.createdAt())
            .reversed()
            .thenComparing(s -> s.ref().name());
    List<SandboxView> notReady =
        members.stream().filter(m -> !m.isReady()).sorted(newestFirst).toList();
    List<SandboxView> ready =
        members.stream().filter(SandboxView::isReady).sorted(newestFirst).toList();
    int readyDeletable = Math.max(0, ready.size() - Math.min(replicas, ready.size()));
    List<String> out = new ArrayList<>();
    for (SandboxView m : notReady) {
      if (out.size() < excess) {
        out.add(m.ref().name());
      }
    }
    for (int i = 0; i < readyDeletable && out.size() < excess; i++) {
      out.add(ready.get(i).ref().name());
    }
    return out;
  }
}
