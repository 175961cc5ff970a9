package org.sandboxslo.engine.diagnosis;

import static org.sandboxslo.engine.diagnosis.DiagnosisContext.fmt;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.sandboxslo.engine.diagnosis.FleetObservations.MemberRecord;
import org.sandboxslo.engine.diagnosis.FleetObservations.PodFailure;
import org.sandboxslo.engine.diagnosis.FleetObservations.TemplateGeneration;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ContainerStatusView;
import org.sandboxslo.engine.model.KubeEventView;
import org.sandboxslo.engine.model.PodView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.sli.SliKey;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;

/**
 * {@code FailedRollout}: after a template change the pool's members built from the new generation
 * never become Ready (image pull errors, crash loops), while the old generation's Ready members
 * keep {@code status.readyReplicas} up, so the aggregate hides it. Upstream has no rollout status
 * (the pool's observedGeneration ignores template edits) and replaces not-Ready members after its
 * readiness grace period, so the broken generation churns quietly.
 *
 * <p>Rule: the rollout started at the observed template change (else at the first member of the new
 * generation); members of the new generation = pool members created since then whose blueprint
 * matches the template ({@link FleetObservations#builtFrom}). While none of them has ever been
 * Ready: HIGH as soon as a Pod shows a failing container, CRITICAL once the progress deadline
 * (default 10 min) has passed. Forecast: claims left before the pool hands out a broken sandbox =
 * the old generation's Ready unclaimed members (claims prefer Ready candidates, then adopt
 * not-Ready ones); time left = that ÷ the pool's claim rate over the shortest window.
 *
 * <p>Proposal: roll the template back to the newest earlier generation that was seen Ready (the
 * engine keeps every generation's blueprint), with confirmation; never a replacement of the old
 * Ready members.
 */
public final class FailedRolloutDiagnosis implements Diagnosis {
  /** The state of a rollout as the rule reads it. */
  record Rollout(
      Instant start, boolean startIsChange, List<MemberRecord> newGeneration, int everReady) {}

  @Override
  public void diagnose(DiagnosisContext ctx, List<Finding> out) {
    for (PoolView p : ctx.sortedPools()) {
      TemplateView t = ctx.templateOf(p);
      if (t == null) {
        continue;
      }
      Rollout r = rollout(ctx.observations(), p, t);
      if (r == null || r.everReady() > 0) {
        continue;
      }
      finding(ctx, p, t, r, out);
    }
  }

  /**
   * Whether the pool is in a rollout none of whose new members has become Ready yet: replacing the
   * old generation's Ready members now would only remove capacity (no canary has succeeded).
   */
  public static boolean rolloutUnproven(FleetObservations obs, PoolView p, TemplateView t) {
    Rollout r = t == null ? null : rollout(obs, p, t);
    return r != null && r.everReady() == 0;
  }

  static Rollout rollout(FleetObservations obs, PoolView p, TemplateView t) {
    List<TemplateGeneration> gens = obs.generations(t.ref());
    Instant changeAt = null;
    if (gens.size() >= 2 && gens.get(gens.size() - 1).digest().equals(t.blueprintDigest())) {
      changeAt = gens.get(gens.size() - 1).firstSeenAt();
    }
    List<MemberRecord> newGen = new ArrayList<>();
    boolean oldGenSeen = false;
    for (MemberRecord m : obs.members(p.ref())) {
      boolean current =
          FleetObservations.builtFrom(
              m.digest(), m.blueprint(), t.blueprintDigest(), t.blueprint());
      boolean afterChange =
          changeAt == null
              || m.createdAt() == null
              || !m.createdAt().isBefore(changeAt.minusSeconds(1));
      if (current && afterChange) {
        newGen.add(m);
      } else if (!current) {
        oldGenSeen = true;
      }
    }
    if (newGen.isEmpty() || (changeAt == null && !oldGenSeen)) {
      return null;
    }
    int ready = 0;
    Instant first = null;
    for (MemberRecord m : newGen) {
      if (m.readyAt() != null) {
        ready++;
      }
      if (first == null || m.firstSeenAt().isBefore(first)) {
        first = m.firstSeenAt();
      }
    }
    return new Rollout(changeAt != null ? changeAt : first, changeAt != null, newGen, ready);
  }

  private static void finding(
      DiagnosisContext ctx, PoolView p, TemplateView t, Rollout r, List<Finding> out) {
    FleetObservations obs = ctx.observations();
    String ns = p.ref().namespace();
    Duration deadline = ctx.settings().progressDeadline();
    Instant firesAt = r.start().plus(deadline);
    boolean critical = !ctx.now().isBefore(firesAt);

    List<String> podLines = new ArrayList<>();
    Map<String, Integer> reasons = new TreeMap<>();
    int maxRestarts = 0;
    int deletedNeverReady = 0;
    List<String> objects = new ArrayList<>();
    List<String> live = new ArrayList<>();
    for (MemberRecord m : r.newGeneration()) {
      if (m.deletedAt() != null) {
        deletedNeverReady++;
      } else {
        live.add(m.ref().name());
        objects.add("Sandbox " + m.ref());
      }
      PodView pod = obs.podOf(m.ref());
      List<String> lines = new ArrayList<>();
      if (pod != null && !pod.failingContainers().isEmpty()) {
        for (ContainerStatusView c : pod.failingContainers()) {
          lines.add(c.describe());
          reasons.merge(c.waitingReason(), 1, Integer::sum);
        }
        maxRestarts = Math.max(maxRestarts, pod.restarts());
        objects.add("Pod " + pod.ref());
      } else {
        List<PodFailure> fs = obs.failuresOf(m.ref());
        if (!fs.isEmpty()) {
          lines.addAll(fs.get(0).describe());
          fs.get(0).reasons().forEach(x -> reasons.merge(x, 1, Integer::sum));
          maxRestarts = Math.max(maxRestarts, fs.get(0).restarts());
        }
      }
      if (!lines.isEmpty()) {
        podLines.add(
            m.ref().name()
                + (m.deletedAt() != null ? " (deleted, never Ready)" : "")
                + ": "
                + String.join("; ", lines));
      }
    }
    if (!critical && reasons.isEmpty()) {
      return; // a rollout in progress without a failing container yet is not a finding
    }

    List<SandboxView> current = ctx.members(p);
    int oldReadyUnclaimed = 0;
    int readyCurrent = 0;
    for (SandboxView s : current) {
      boolean fresh =
          FleetObservations.builtFrom(
              s.blueprintDigest(), s.blueprint(), t.blueprintDigest(), t.blueprint());
      if (s.isReady()) {
        if (fresh) {
          readyCurrent++;
        } else {
          oldReadyUnclaimed++;
        }
      }
    }

    List<Evidence> ev = new ArrayList<>();
    TemplateGeneration lastGood = lastGood(obs.generations(t.ref()), t);
    ev.add(
        Evidence.of(
            "templateGeneration",
            t.generation(),
            "images " + String.join(", ", t.images()) + " (digest " + t.blueprintDigest() + ")"));
    ev.add(
        Evidence.of(
            r.startIsChange() ? "templateChangedAt" : "rolloutSeenSince",
            r.start(),
            r.startIsChange()
                ? "new blueprint observed"
                : "first member of the current generation observed (change not observed)"));
    ev.add(
        Evidence.of(
            "alertFiresAt",
            firesAt,
            r.start() + " + progress deadline " + Durations.format(deadline)));
    ev.add(
        Evidence.of(
            "newGenerationMembers",
            r.newGeneration().size() + " created, 0 Ready",
            live.size()
                + " present ("
                + String.join(", ", live)
                + "), "
                + deletedNeverReady
                + " deleted without ever becoming Ready"));
    if (!reasons.isEmpty()) {
      List<String> rs = new ArrayList<>();
      reasons.forEach((k, v) -> rs.add(k + " ×" + v));
      ev.add(Evidence.of("waitingReasons", String.join(", ", rs), cause(reasons)));
      ev.add(Evidence.of("maxRestarts", maxRestarts));
    } else {
      ev.add(
          Evidence.of(
              "podEvidence",
              "none",
              "no Pod of the new generation seen: is the Pod watch enabled?"));
    }
    for (String line : podLines.subList(0, Math.min(5, podLines.size()))) {
      ev.add(Evidence.of("pod", line));
    }
    for (MemberRecord m : r.newGeneration()) {
      for (KubeEventView e : warnings(obs, ns, m.ref().name())) {
        ev.add(
            Evidence.of(
                "event",
                e.involvedKind() + " " + e.involvedName() + ": " + e.reason(),
                e.message() + (e.count() > 1 ? " (×" + e.count() + ")" : "")));
      }
    }
    int replicas = p.replicas();
    if (p.statusReadyReplicas() != null && replicas > 0) {
      ev.add(
          Evidence.of(
              "readyFractionUpstream",
              fmt((double) p.statusReadyReplicas() / replicas),
              "status.readyReplicas "
                  + p.statusReadyReplicas()
                  + " / spec.replicas "
                  + replicas
                  + ": the old generation's members hide the failure"));
    }
    if (replicas > 0) {
      ev.add(
          Evidence.of(
              "readyFractionCurrentTemplate",
              fmt((double) readyCurrent / replicas),
              readyCurrent + " Ready on generation " + t.generation() + " / " + replicas));
    }
    ev.add(
        Evidence.of(
            "claimsLeftBeforeBroken",
            oldReadyUnclaimed,
            "Ready unclaimed members of the old generation; claims prefer Ready candidates, then"
                + " adopt not-Ready ones"));
    String forecast = forecast(ctx, p, oldReadyUnclaimed, ev);

    List<Proposal> proposals = new ArrayList<>();
    if (lastGood != null) {
      proposals.add(
          new Proposal(
              "RollbackTemplate",
              "Roll SandboxTemplate "
                  + t.ref()
                  + " back to generation "
                  + lastGood.generation()
                  + ", last seen Ready (needs confirmation)",
              List.of(
                  "patch SandboxTemplate "
                      + t.ref()
                      + " spec (podTemplate.spec, volumeClaimTemplates, service) to the blueprint of"
                      + " generation "
                      + lastGood.generation()
                      + " (digest "
                      + lastGood.digest()
                      + "): images "
                      + String.join(", ", t.images())
                      + " → "
                      + String.join(", ", lastGood.images()),
                  "wait until one member built from it is Ready (canary) before anything else"
                      + " changes",
                  "keep the "
                      + oldReadyUnclaimed
                      + " Ready old-generation member(s): they match the restored spec",
                  "the not-Ready members of generation "
                      + t.generation()
                      + " are replaced by the controller after its readiness grace period; no"
                      + " Ready or claimed member is deleted"),
              true));
    } else {
      SandboxView donor = null;
      for (SandboxView s : current) {
        if (s.isReady() && s.blueprint() != null && ctx.stale().test(s, t)) {
          donor = s;
          break;
        }
      }
      proposals.add(
          Proposal.none(
              donor != null
                  ? "No earlier generation of "
                      + t.ref()
                      + " was observed; Ready member "
                      + donor.ref().name()
                      + " still carries the last working blueprint (images "
                      + String.join(", ", donor.images())
                      + "): restore the template from it, with confirmation."
                  : "No earlier generation of "
                      + t.ref()
                      + " was seen Ready: fix the template forward."));
    }
    proposals.add(
        Proposal.none(
            "Do not replace the old generation's Ready members (paced or upstream Recreate): every"
                + " replacement is built from generation "
                + t.generation()
                + ", which has never become Ready, so each deletion removes capacity."));
    proposals.add(
        Proposal.none(
            "Or fix forward: correct the image reference or registry credentials (pull errors),"
                + " or the command and configuration (crash loops), in the template."));
    objects.add("SandboxTemplate " + t.ref());

    String explanation =
        "No member of generation "
            + t.generation()
            + " of "
            + t.ref()
            + " has become Ready in "
            + Durations.format(Duration.between(r.start(), ctx.now()))
            + " ("
            + r.newGeneration().size()
            + " created"
            + (reasons.isEmpty() ? "" : ", " + String.join(", ", reasons.keySet()))
            + ") while "
            + oldReadyUnclaimed
            + " Ready member(s) of the old generation keep readyReplicas up; "
            + forecast;
    out.add(
        new Finding(
            FindingKind.FAILED_ROLLOUT,
            "SandboxWarmPool " + p.ref(),
            critical ? Severity.CRITICAL : Severity.HIGH,
            r.start(),
            ctx.now(),
            explanation,
            ev,
            objects,
            proposals));
  }

  private static String forecast(
      DiagnosisContext ctx, PoolView p, int claimsLeft, List<Evidence> ev) {
    if (claimsLeft == 0) {
      ev.add(
          Evidence.of(
              "brokenSandboxesFrom",
              ctx.now(),
              "no Ready old-generation member left: the next claim gets a broken sandbox"));
      return "the pool already hands out broken sandboxes.";
    }
    WindowSlis w = null;
    for (SliSnapshot s : ctx.snapshot().pools()) {
      if (s.key().equals(SliKey.pool(p.ref().namespace(), p.ref().name()))) {
        w = s.windows().get(0);
      }
    }
    long claims = w == null ? 0 : w.warmLaunches() + w.coldLaunches();
    if (w == null || claims == 0) {
      ev.add(
          Evidence.of(
              "claimRate",
              "no data",
              "no claim became Ready in the last "
                  + (w == null ? "window" : Durations.format(w.window()))));
      return "it will hand out a broken sandbox after " + claimsLeft + " more claim(s).";
    }
    double rate = (double) claims / w.window().toSeconds();
    double seconds = claimsLeft / rate;
    Instant at = ctx.now().plusMillis(Math.round(seconds * 1000));
    ev.add(
        Evidence.of(
            "claimRate",
            DiagnosisContext.rate(rate) + "/s",
            claims + " claims / " + w.window().toSeconds() + " s"));
    ev.add(
        Evidence.of(
            "brokenSandboxesFrom",
            at,
            claimsLeft
                + " claims / "
                + DiagnosisContext.rate(rate)
                + "/s = "
                + fmt(seconds)
                + " s from now"));
    return "at the current "
        + DiagnosisContext.rate(rate)
        + " claims/s it hands out broken sandboxes in about "
        + Durations.format(Duration.ofMillis(Math.round(seconds * 1000)))
        + " ("
        + at
        + ").";
  }

  /** The newest earlier generation seen Ready, or null. */
  static TemplateGeneration lastGood(List<TemplateGeneration> gens, TemplateView t) {
    for (int i = gens.size() - 1; i >= 0; i--) {
      TemplateGeneration g = gens.get(i);
      if (!g.digest().equals(t.blueprintDigest()) && g.provenGoodAt() != null) {
        return g;
      }
    }
    return null;
  }

  private static List<KubeEventView> warnings(FleetObservations obs, String ns, String name) {
    List<KubeEventView> out = new ArrayList<>();
    for (String kind : List.of("Pod", "Sandbox")) {
      for (KubeEventView e : obs.eventsAbout(ns, kind, name)) {
        if (e.isWarning()) {
          out.add(e);
        }
      }
    }
    return out.size() > 2 ? out.subList(out.size() - 2, out.size()) : out;
  }

  static String cause(Map<String, Integer> reasons) {
    List<String> out = new ArrayList<>();
    for (String r : reasons.keySet()) {
      switch (r) {
        case "ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull" -> {
          if (!out.contains(
              "the image cannot be pulled (wrong tag or digest, or no credentials)")) {
            out.add("the image cannot be pulled (wrong tag or digest, or no credentials)");
          }
        }
        case "CrashLoopBackOff", "RunContainerError" -> {
          if (!out.contains("the container exits right after start")) {
            out.add("the container exits right after start");
          }
        }
        default -> out.add(r);
      }
    }
    return String.join("; ", out);
  }
}
