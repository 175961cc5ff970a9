package org.sandboxslo.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.sandboxslo.engine.FleetEngine.ForcedCold;
import org.sandboxslo.engine.FleetEngine.ServedStale;
import org.sandboxslo.engine.FleetEngine.TemplateChange;
import org.sandboxslo.engine.diagnosis.Contradiction;
import org.sandboxslo.engine.diagnosis.ControllerConfigDiagnosis;
import org.sandboxslo.engine.diagnosis.ControllerHistogramDiagnosis;
import org.sandboxslo.engine.diagnosis.DiagnosisContext;
import org.sandboxslo.engine.diagnosis.DiagnosisSettings;
import org.sandboxslo.engine.diagnosis.DirectSandboxDiagnosis;
import org.sandboxslo.engine.diagnosis.FailedRolloutDiagnosis;
import org.sandboxslo.engine.diagnosis.FleetFacts;
import org.sandboxslo.engine.diagnosis.InformerHealth;
import org.sandboxslo.engine.diagnosis.OverCreationDiagnosis;
import org.sandboxslo.engine.diagnosis.ProposalGuard;
import org.sandboxslo.engine.diagnosis.RefillGateDiagnosis;
import org.sandboxslo.engine.diagnosis.SnapshotCloneDiagnosis;
import org.sandboxslo.engine.diagnosis.UnservedClaimsDiagnosis;
import org.sandboxslo.engine.diagnosis.WatchLagDiagnosis;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.PoolSizing;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.ReservedKey;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.engine.upstream.NameHash;

/** Turns engine state and a snapshot into findings. Pure; called on the engine's thread. */
final class Diagnoser {
  private final FleetEngine e;
  private final DiagnosisConfig cfg;
  private final Instant now;
  private final FleetSnapshot snap;
  private final DiagnosisSettings settings;

  Diagnoser(FleetEngine e, DiagnosisConfig cfg, Instant now, FleetSnapshot snap) {
    this(e, cfg, now, snap, DiagnosisSettings.defaults());
  }

  Diagnoser(
      FleetEngine e,
      DiagnosisConfig cfg,
      Instant now,
      FleetSnapshot snap,
      DiagnosisSettings settings) {
    this.e = e;
    this.cfg = cfg;
    this.now = now;
    this.snap = snap;
    this.settings = settings;
  }

  /** The read-only context the diagnoses of package {@code diagnosis} take. */
  DiagnosisContext context() {
    e.observations().probeRetention(settings.probeRetention());
    return new DiagnosisContext(
        now,
        cfg,
        settings,
        snap,
        e.templates(),
        e.pools(),
        e.sandboxes(),
        e.claims(),
        e::isStale,
        e.observations());
  }

  /** Issue 8 part A: facts, lag picture, suspects and hazards of this evaluation. */
  private FleetFacts facts;

  private WatchLagDiagnosis.Picture lagPicture;
  private ProposalGuard.Hazards hazards = ProposalGuard.Hazards.none();
  private java.util.Set<ObjectRef> gated = java.util.Set.of();

  List<Finding> run() {
    List<Finding> out = new ArrayList<>();
    // issue 8 part A: read the data path and the control loop first, so plans can be held back
    facts = e.facts(now, cfg);
    List<Contradiction> contradictions = Contradiction.find(facts);
    lagPicture = WatchLagDiagnosis.picture(facts, contradictions);
    Map<Kind, InformerHealth.Suspicion> suspects = InformerHealth.suspects(facts, contradictions);
    List<Finding> gates = RefillGateDiagnosis.run(facts, lagPicture);
    List<Finding> runaways = OverCreationDiagnosis.run(facts);
    hazards = hazards(suspects);
    gated = new java.util.TreeSet<>();
    gates.forEach(
        g -> gated.add(ObjectRef.parse(g.subject().substring("SandboxWarmPool ".length()))));
    out.addAll(runaways);
    out.addAll(gates);
    out.addAll(WatchLagDiagnosis.findings(facts, lagPicture));
    out.addAll(UnservedClaimsDiagnosis.run(facts));
    out.addAll(InformerHealth.findings(facts, suspects));
    for (PoolView p : sorted(e.pools())) {
      stale(p, out);
      refillStalled(p, out);
      unschedulable(p, out);
    }
    for (SliSnapshot t : snap.templates()) {
      silentColdStart(t, out);
      sizing(t, out);
      resumeFailures(t, out);
    }
    for (TemplateView t : sorted(e.templates())) {
      unsafe(t, out);
    }
    expired(out);
    spoofed(out);
    DiagnosisContext ctx = context();
    new FailedRolloutDiagnosis().diagnose(ctx, out);
    new ControllerHistogramDiagnosis().diagnose(ctx, out);
    new DirectSandboxDiagnosis().diagnose(ctx, out);
    new SnapshotCloneDiagnosis().diagnose(ctx, out);
    new ControllerConfigDiagnosis().diagnose(ctx, out);
    out = InformerHealth.holdBack(ProposalGuard.apply(out, hazards, e.pools()), suspects);
    out.sort(
        Comparator.comparing((Finding f) -> f.severity())
            .reversed()
            .thenComparing(f -> f.kind().wireName())
            .thenComparing(Finding::subject));
    return out;
  }

  private ProposalGuard.Hazards hazards(Map<Kind, InformerHealth.Suspicion> suspects) {
    java.util.Set<ObjectRef> over = new java.util.TreeSet<>();
    Map<ObjectRef, Instant> gate = new TreeMap<>();
    boolean sandboxLags = lagPicture.lagging().containsKey(Kind.SANDBOX);
    for (PoolView p : sorted(e.pools())) {
      if (OverCreationDiagnosis.detect(facts, p) != null) {
        over.add(p.ref());
      }
      RefillGateDiagnosis.Gate g = RefillGateDiagnosis.detect(facts, p, sandboxLags);
      if (g != null && g.blocking(now)) {
        gate.put(p.ref(), g.releaseBy());
      }
    }
    return new ProposalGuard.Hazards(over, gate, suspects.keySet());
  }

  private static <T> List<T> sorted(Map<ObjectRef, T> m) {
    return new ArrayList<>(new TreeMap<>(m).values());
  }

  static String fmt(double d) {
    return String.format(Locale.ROOT, "%.2f", d);
  }

  /**
   * Active members of the pool by controller ownerReference, sorted by name (grouped once per run).
   */
  private List<SandboxView> members(PoolView p) {
    return e.activeMembers(p.ref());
  }

  private TemplateView template(PoolView p) {
    return e.templates().get(new ObjectRef(p.ref().namespace(), p.templateName()));
  }

  // ---- StalePoolMembers (C03)

  private void stale(PoolView p, List<Finding> out) {
    TemplateView t = template(p);
    if (t == null || !e.hasStaleMembers(p.ref(), t)) {
      return;
    }
    List<SandboxView> ms = members(p);
    List<String> stale = new ArrayList<>();
    List<String> fresh = new ArrayList<>();
    int readyCurrent = 0;
    List<String> differing = new ArrayList<>();
    List<String> staleImages = new ArrayList<>();
    for (SandboxView m : ms) {
      if (e.isStale(m, t)) {
        stale.add(m.ref().name());
        if (m.blueprint() != null && t.blueprint() != null && differing.isEmpty()) {
          differing.addAll(
              org.sandboxslo.engine.upstream.Blueprints.differingFields(
                  Map.of(
                      "podTemplate",
                      Map.of("spec", m.blueprint().getOrDefault("podSpec", Map.of()))),
                  Map.of(
                      "podTemplate",
                      Map.of("spec", t.blueprint().getOrDefault("podSpec", Map.of())))));
        }
        for (String img : m.images()) {
          if (!staleImages.contains(img)) {
            staleImages.add(img);
          }
        }
      } else {
        fresh.add(m.ref().name());
        if (m.isReady()) {
          readyCurrent++;
        }
      }
    }
    if (stale.isEmpty()) {
      return;
    }
    TemplateChange change = e.templateChanges.get(t.ref());
    Instant since = change != null ? change.at() : null;
    int replicas = p.replicas();
    String pool = p.ref().toString();
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "updateStrategy",
            p.updateStrategy() + ("OnReplenish".equals(p.updateStrategy()) ? " (default)" : ""),
            "OnReplenish keeps stale members and still hands them to claims"));
    ev.add(Evidence.of("staleMembers", String.join(", ", stale)));
    ev.add(Evidence.of("freshMembers", String.join(", ", fresh)));
    if (replicas > 0) {
      ev.add(
          Evidence.of(
              "staleFraction",
              fmt((double) stale.size() / replicas),
              stale.size() + " stale / " + replicas + " replicas"));
      ev.add(
          Evidence.of(
              "readyFractionCurrentTemplate",
              fmt((double) readyCurrent / replicas),
              readyCurrent + " Ready on the current template / " + replicas + " replicas"));
      if (p.statusReadyReplicas() != null) {
        ev.add(
            Evidence.of(
                "readyFractionUpstream",
                fmt((double) p.statusReadyReplicas() / replicas),
                "status.readyReplicas "
                    + p.statusReadyReplicas()
                    + " / spec.replicas "
                    + replicas
                    + " (counts stale members as ready)"));
      }
    }
    if (!differing.isEmpty()) {
      ev.add(Evidence.of("differingFields", String.join(", ", differing)));
    }
    ev.add(Evidence.of("staleImages", String.join(", ", staleImages)));
    ev.add(Evidence.of("templateImages", String.join(", ", t.images())));
    if (change != null) {
      ev.add(Evidence.of("templateChangedAt", change.at(), "generation " + change.generation()));
      Instant fires = change.at().plus(cfg.staleWarnAfter());
      ev.add(
          Evidence.of(
              "alertFiresAt",
              fires,
              "WarmPoolStaleMembers: stale > 0 for "
                  + cfg.staleWarnAfter().toSeconds()
                  + " s after the change"));
    }
    List<String> objects = new ArrayList<>();
    for (String s : stale) {
      objects.add("Sandbox " + p.ref().namespace() + "/" + s);
    }
    for (ServedStale s : e.servedStale) {
      if (!s.claim().namespace().equals(p.ref().namespace())) {
        continue;
      }
      ev.add(
          Evidence.of(
              "servedStale",
              "SandboxClaim " + s.claim() + " → " + s.sandbox(),
              "image "
                  + String.join(",", s.memberImages())
                  + " vs template "
                  + String.join(",", s.templateImages())
                  + (s.afterChange() == null
                      ? ""
                      : ", adopted " + s.afterChange().toSeconds() + " s after the change")));
      objects.add("SandboxClaim " + s.claim());
    }
    boolean unproven = FailedRolloutDiagnosis.rolloutUnproven(e.observations(), p, t);
    List<Proposal> proposals = new ArrayList<>();
    if (unproven) {
      proposals.add(
          Proposal.none(
              "Wait: no member built from the current template has become Ready yet (see"
                  + " FailedRollout), so replacing the "
                  + stale.size()
                  + " stale member(s) now would only remove Ready capacity."));
    } else {
      proposals.add(pacedRecreate(p));
      proposals.add(
          Proposal.none(
              "Do not simply set updateStrategy: Recreate: upstream deletes all "
                  + stale.size()
                  + " stale members at once and the pool drops to "
                  + readyCurrent
                  + "/"
                  + replicas
                  + " Ready (agent-sandbox#426)."));
    }
    Severity sev =
        since != null && !now.isBefore(since.plus(cfg.staleWarnAfter()))
            ? Severity.TICKET
            : Severity.INFO;
    out.add(
        new Finding(
            FindingKind.STALE_POOL_MEMBERS,
            "SandboxWarmPool " + pool,
            sev,
            since,
            now,
            stale.size()
                + " of "
                + replicas
                + " members of "
                + pool
                + " were built from an older blueprint of template "
                + t.ref().name()
                + "; under "
                + p.updateStrategy()
                + " they stay in the pool and are still handed to claims.",
            ev,
            objects,
            proposals));
  }

  /**
   * The paced Recreate of a pool's stale members through {@link
   * org.sandboxslo.engine.remediation.RemediationPlanner#offer}: the floor counts members Ready
   * now, a Ready member is deleted only once a replacement on the current template is Ready (a
   * surge of canaries first when there is none), and no plan while a hazard holds.
   */
  private Proposal pacedRecreate(PoolView p) {
    org.sandboxslo.engine.remediation.PoolState state = e.poolState(p.ref());
    var offer =
        org.sandboxslo.engine.remediation.RemediationPlanner.offer(
            state, cfg.rolloutMaxUnavailableFraction(), hazards.createsHazard(p.ref()));
    if (offer instanceof org.sandboxslo.engine.remediation.RemediationPlanner.Offer.Refused r) {
      return Proposal.none("No paced Recreate is offered: " + r.reason() + ".");
    }
    var planned = (org.sandboxslo.engine.remediation.RemediationPlanner.Offer.Planned) offer;
    org.sandboxslo.engine.remediation.RecreatePlan plan = planned.plan();
    int replicas = plan.replicas();
    List<String> steps = new ArrayList<>();
    if (planned.surge() > 0) {
      steps.add(
          "scale spec.replicas "
              + replicas
              + " → "
              + (replicas + planned.surge())
              + " (surge: no member on the current template is Ready yet)");
      steps.add(
          "wait until "
              + planned.surge()
              + " canar"
              + (planned.surge() > 1 ? "ies are" : "y is")
              + " Ready on the current template");
    }
    for (List<String> batch : plan.batches()) {
      steps.add("delete " + String.join(", ", batch));
      steps.add(
          "wait until "
              + batch.size()
              + " replacement"
              + (batch.size() > 1 ? "s are" : " is")
              + " Ready");
    }
    if (planned.surge() > 0) {
      steps.add("scale spec.replicas back to " + replicas);
    }
    steps.add(
        "never touch members owned by a claim; keep at least "
            + plan.floorReady()
            + " of "
            + replicas
            + " members Ready throughout");
    List<String> deletes = new ArrayList<>();
    for (String n : plan.targets()) {
      deletes.add(p.ref().namespace() + "/" + n);
    }
    return new Proposal(
        "PacedRecreate",
        "Replace the stale unclaimed members in batches of maxUnavailable = max(1, floor("
            + cfg.rolloutMaxUnavailableFraction()
            + " × "
            + replicas
            + ")) = "
            + plan.maxUnavailable()
            + ", waiting for each replacement to be Ready",
        steps,
        true,
        deletes,
        true);
  }

  // ---- SilentColdStart (C05)

  private void silentColdStart(SliSnapshot t, List<Finding> out) {
    WindowSlis w = t.windows().get(t.windows().size() - 1);
    List<ForcedCold> forced = new ArrayList<>();
    for (ForcedCold f : e.forcedCold.values()) {
      if (f.claim().namespace().equals(t.key().namespace())
          && t.key().name().equals(f.template())
          && !f.readyAt().isBefore(now.minus(w.window()))) {
        forced.add(f);
      }
    }
    if (forced.isEmpty()) {
      return;
    }
    long warm = w.warmLaunches();
    long cold = w.coldLaunches();
    long eligibleCold = Math.max(0, cold - forced.size());
    int env = 0;
    int vct = 0;
    int minIdle = Integer.MAX_VALUE;
    Map<String, Integer> byCreator = new TreeMap<>();
    List<String> objects = new ArrayList<>();
    for (ForcedCold f : forced) {
      if (f.cause().equals("spec.env")) {
        env++;
      } else {
        vct++;
      }
      minIdle = Math.min(minIdle, f.idleReadyMembers());
      byCreator.merge(f.claim().namespace() + "/" + f.createdBy(), 1, Integer::sum);
      objects.add("SandboxClaim " + f.claim() + " (" + f.cause() + ")");
    }
    objects.sort(null);
    List<Evidence> ev = new ArrayList<>();
    if (warm + cold > 0) {
      ev.add(
          Evidence.of(
              "rawWarmHit",
              fmt((double) warm / (warm + cold)),
              warm + " / (" + warm + " + " + cold + ")"));
    }
    if (warm + eligibleCold > 0) {
      ev.add(
          Evidence.of(
              "eligibleWarmHit",
              fmt((double) warm / (warm + eligibleCold)),
              warm
                  + " / ("
                  + warm
                  + " + "
                  + eligibleCold
                  + "), claims without env or volumeClaimTemplates"));
    }
    ev.add(
        Evidence.of(
            "forcedColdStarts",
            forced.size() + "/" + cold,
            env + " by spec.env, " + vct + " by spec.volumeClaimTemplates"));
    ev.add(
        Evidence.of(
            "idleReadyMembersMin",
            minIdle,
            "Ready pool members idle while those claims cold-started"));
    ev.add(Evidence.of("poolExhausted", minIdle == 0 ? "yes" : "no"));
    byCreator.forEach((k, v) -> ev.add(Evidence.of("createdBy", k + ": " + v)));
    out.add(
        new Finding(
            FindingKind.SILENT_COLD_START,
            "SandboxTemplate " + t.key().namespace() + "/" + t.key().name(),
            Severity.INFO,
            forced.get(0).readyAt(),
            now,
            forced.size()
                + " claims cold-started because they set env or volumeClaimTemplates, which bypasses the warm pool"
                + (minIdle > 0 ? " while " + minIdle + "+ Ready members sat idle" : "")
                + "; a bigger pool would not help.",
            ev,
            objects,
            List.of(
                Proposal.none(
                    "Move the env into the template (or a dedicated template and pool per env profile), and "
                        + "keep per-claim env/volumeClaimTemplates off the warm path; do not enlarge the pool or change refill pacing."))));
  }

  // ---- PoolUndersized / PoolNeedsSharding

  private void sizing(SliSnapshot t, List<Finding> out) {
    WindowSlis w = t.windows().get(0);
    if (w.coldStart() == null
        || w.warmLaunches() + w.coldLaunches() == 0
        || t.pool().replicas() == 0) {
      return;
    }
    double rate = (double) (w.warmLaunches() + w.coldLaunches()) / w.window().toSeconds();
    // refill latency comes from 1 s object timestamps: 0 means "under a second"
    double p95 = Math.max(1.0, w.coldStart().p95().toNanos() / 1e9);
    PoolSizing.Advice a = PoolSizing.advise(rate, p95, 0, 0, 0);
    boolean undersized = t.pool().replicas() < a.replicas();
    boolean shard = a.pools() > t.related().size();
    if (!undersized && !shard) {
      return;
    }
    List<Evidence> ev =
        List.of(
            Evidence.of(
                "claimsPerSecond",
                fmt(rate),
                (w.warmLaunches() + w.coldLaunches())
                    + " claims / "
                    + w.window().toSeconds()
                    + " s"),
            Evidence.of("refillP95Seconds", fmt(p95)),
            Evidence.of(
                "refillP50Seconds", fmt(Math.max(1.0, w.coldStart().p50().toNanos() / 1e9))),
            Evidence.of(
                "replicas",
                t.pool().replicas(),
                "Σ spec.replicas over " + t.related().size() + " pool(s)"),
            Evidence.of("pools", t.related().size()),
            Evidence.of(
                "advice",
                a.replicas() + " replicas in " + a.pools() + " pool(s) of " + a.replicasPerPool(),
                a.arithmetic()),
            // the advice as numbers, so a what-if can simulate its effect
            Evidence.of("advisedPools", a.pools()),
            Evidence.of("advisedReplicasPerPool", a.replicasPerPool()),
            Evidence.of("advisedRefillRatePerPool", a.refillRatePerPool()));
    FindingKind kind = shard ? FindingKind.POOL_NEEDS_SHARDING : FindingKind.POOL_UNDERSIZED;
    out.add(
        new Finding(
            kind,
            "SandboxTemplate " + t.key().namespace() + "/" + t.key().name(),
            Severity.TICKET,
            now,
            now,
            "Demand of "
                + fmt(rate)
                + " claims/s with a refill p95 of "
                + fmt(p95)
                + " s needs "
                + a.replicas()
                + " warm members; the pools hold "
                + t.pool().replicas()
                + ".",
            ev,
            List.of(),
            List.of(
                new Proposal(
                    shard ? "ShardPool" : "ScalePool",
                    shard
                        ? "Shard into "
                            + a.pools()
                            + " pools of "
                            + a.replicasPerPool()
                            + " with max-refill-rate ≥ "
                            + a.refillRatePerPool()
                            + "/s each"
                        : "Scale to " + a.replicas() + " replicas",
                    List.of(a.arithmetic()),
                    true))));
  }

  // ---- RefillStalled

  private void refillStalled(PoolView p, List<Finding> out) {
    if (gated.contains(p.ref())) {
      return; // attributed to watch lag + the expectations gate (RefillGatedByWatchLag)
    }
    List<SandboxView> ms = members(p);
    int deficit = p.replicas() - ms.size();
    if (deficit <= 0) {
      return;
    }
    Instant newest = null;
    for (SandboxView m : ms) {
      if (m.createdAt() != null && (newest == null || m.createdAt().isAfter(newest))) {
        newest = m.createdAt();
      }
    }
    if (newest == null || Duration.between(newest, now).compareTo(cfg.refillStallAfter()) < 0) {
      return;
    }
    FleetSnapshot.WatchLag lag = snap.watchLag().get(Kind.SANDBOX);
    List<Evidence> ev = new ArrayList<>();
    ev.add(Evidence.of("deficit", deficit, p.replicas() + " replicas − " + ms.size() + " members"));
    ev.add(
        Evidence.of(
            "lastMemberCreatedAt", newest, Duration.between(newest, now).toSeconds() + " s ago"));
    if (lag != null) {
      ev.add(
          Evidence.of(
              "sandboxWatchLagMax5m",
              fmt(lag.max5m().toMillis() / 1000.0) + " s",
              "last " + fmt(lag.last().toMillis() / 1000.0) + " s"));
    }
    out.add(
        new Finding(
            FindingKind.REFILL_STALLED,
            "SandboxWarmPool " + p.ref(),
            Severity.TICKET,
            newest,
            now,
            p.ref()
                + " is "
                + deficit
                + " below spec.replicas and created no member for "
                + Duration.between(newest, now).toSeconds()
                + " s: refill is stalled (expectations gate waiting for "
                + "unobserved creates, watch lag, or max-refill-rate).",
            ev,
            List.of(),
            List.of(
                new Proposal(
                    "SetRefillPacing",
                    "Check watch lag and the controller log line 'Skipping sandbox creation: waiting for in-flight creates/deletes'; "
                        + "raise --sandbox-warm-pool-max-refill-rate if pacing holds the pool back",
                    List.of(),
                    false))));
  }

  private void unschedulable(PoolView p, List<Finding> out) {
    List<String> held = new ArrayList<>();
    for (SandboxView m : members(p)) {
      if (m.podScheduled() != null
          && m.podScheduled().isFalse()
          && "Unschedulable".equals(m.podScheduled().reason())) {
        held.add("Sandbox " + m.ref());
      }
    }
    if (held.isEmpty()) {
      return;
    }
    out.add(
        new Finding(
            FindingKind.MEMBERS_HELD_UNSCHEDULABLE,
            "SandboxWarmPool " + p.ref(),
            Severity.TICKET,
            now,
            now,
            held.size()
                + " members of "
                + p.ref()
                + " cannot be scheduled; the controller holds them instead of replacing them.",
            List.of(Evidence.of("unschedulableMembers", held.size())),
            held,
            List.of(
                Proposal.none(
                    "Add capacity or fix the pod's scheduling constraints (node selectors, tolerations, requests)."))));
  }

  private void resumeFailures(SliSnapshot t, List<Finding> out) {
    WindowSlis w = t.windows().get(t.windows().size() - 1);
    if (w.resumeErrors() == 0) {
      return;
    }
    out.add(
        new Finding(
            FindingKind.RESUME_FAILURES,
            "SandboxTemplate " + t.key().namespace() + "/" + t.key().name(),
            Severity.TICKET,
            now.minus(w.window()),
            now,
            w.resumeErrors()
                + " of "
                + w.resumeAttempts()
                + " resumes failed in the last "
                + Durations.format(w.window())
                + ".",
            List.of(
                Evidence.of(
                    "resumeErrorRatio",
                    fmt(w.resumeErrorRatio()),
                    w.resumeErrors() + " / " + w.resumeAttempts()),
                Evidence.of(
                    "resumeErrorsTotal",
                    t.totals().resumeError()
                        + " error, "
                        + t.totals().resumeTimeout()
                        + " timeout")),
            List.of(),
            List.of(
                Proposal.none(
                    "Inspect the Sandboxes' Ready (ReconcilerError) and Suspended (PodStateUnknown) conditions."))));
  }

  // ---- UnsafeTemplate

  @SuppressWarnings("unchecked")
  private void unsafe(TemplateView t, List<Finding> out) {
    Map<String, Object> bp = t.blueprint();
    if (bp == null) {
      return;
    }
    Map<String, Object> pod =
        bp.get("podSpec") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    List<Evidence> ev = new ArrayList<>();
    Severity sev = Severity.TICKET;
    Object rc = pod.get("runtimeClassName");
    if (rc == null || !cfg.allowedRuntimeClasses().contains(String.valueOf(rc))) {
      ev.add(
          Evidence.of(
              "runtimeClassName",
              rc == null ? "unset" : rc,
              "allowed: " + String.join(", ", cfg.allowedRuntimeClasses())));
    }
    if (Boolean.TRUE.equals(pod.get("automountServiceAccountToken"))) {
      ev.add(
          Evidence.of(
              "automountServiceAccountToken",
              true,
              "the service-account token is mounted into every sandbox"));
    }
    for (String h : List.of("hostNetwork", "hostPID", "hostIPC")) {
      if (Boolean.TRUE.equals(pod.get(h))) {
        ev.add(Evidence.of(h, true));
        sev = Severity.HIGH;
      }
    }
    for (String key : List.of("initContainers", "containers")) {
      if (pod.get(key) instanceof List<?> cs) {
        for (Object c : cs) {
          if (c instanceof Map<?, ?> cm
              && cm.get("securityContext") instanceof Map<?, ?> sc
              && Boolean.TRUE.equals(sc.get("privileged"))) {
            ev.add(Evidence.of("privileged", cm.get("name")));
            sev = Severity.HIGH;
          }
        }
      }
    }
    for (String img : t.images()) {
      if (!img.contains("@sha256:")) {
        ev.add(Evidence.of("imageNotPinned", img, "not pinned by digest"));
      }
    }
    if (!"Disallowed".equals(t.envVarsInjectionPolicy())) {
      ev.add(
          Evidence.of(
              "envVarsInjectionPolicy",
              t.envVarsInjectionPolicy(),
              "claims may inject env (and cold-start)"));
    }
    if (!"Disallowed".equals(t.volumeClaimTemplatesPolicy())) {
      ev.add(
          Evidence.of(
              "volumeClaimTemplatesPolicy",
              t.volumeClaimTemplatesPolicy(),
              "claims may inject volumes"));
    }
    if (ev.isEmpty()) {
      return;
    }
    out.add(
        new Finding(
            FindingKind.UNSAFE_TEMPLATE,
            "SandboxTemplate " + t.ref(),
            sev,
            now,
            now,
            "Template "
                + t.ref()
                + " weakens sandbox isolation or supply-chain pinning in "
                + ev.size()
                + " way(s).",
            ev,
            List.of("SandboxTemplate " + t.ref()),
            List.of(
                Proposal.none(
                    "Set an allowed runtimeClassName, pin images by digest, leave automountServiceAccountToken unset "
                        + "or false, and allow env/volume injection only where claims need it."))));
  }

  // ---- ExpiredClaimsAccumulating / NeverExpiringFinishedClaims (C09)

  private void expired(List<Finding> out) {
    Map<String, List<ClaimView>> expiredByNs = new TreeMap<>();
    Map<String, List<ClaimView>> neverByNs = new TreeMap<>();
    for (ClaimView c : e.claims().values()) {
      if (c.ready() != null && c.ready().isFalse() && "ClaimExpired".equals(c.ready().reason())) {
        expiredByNs.computeIfAbsent(c.ref().namespace(), x -> new ArrayList<>()).add(c);
      } else if (c.finished() != null
          && c.finished().isTrue()
          && c.shutdownPolicy() == null
          && c.shutdownTime() == null
          && c.ttlSecondsAfterFinished() == null
          && c.finished().lastTransitionTime() != null
          && !c.finished()
              .lastTransitionTime()
              .plus(cfg.finishedWithoutLifecycleWarnAfter())
              .isAfter(now)) {
        neverByNs.computeIfAbsent(c.ref().namespace(), x -> new ArrayList<>()).add(c);
      }
    }
    TreeSet<String> nss = new TreeSet<>(expiredByNs.keySet());
    nss.addAll(neverByNs.keySet());
    for (String ns : nss) {
      List<ClaimView> ex = expiredByNs.getOrDefault(ns, List.of());
      List<ClaimView> never = neverByNs.getOrDefault(ns, List.of());
      List<String> all = new ArrayList<>();
      ex.stream().map(c -> "SandboxClaim " + c.ref()).sorted().forEach(all::add);
      never.stream().map(c -> "SandboxClaim " + c.ref()).sorted().forEach(all::add);
      Proposal delete =
          new Proposal(
              "DeleteExpiredClaims",
              "Dry-run list of the "
                  + all.size()
                  + " claims; deletion only on explicit confirmation",
              all,
              true);
      Proposal lifecycle =
          Proposal.none(
              "Have clients set lifecycle: {shutdownPolicy: Delete, ttlSecondsAfterFinished: 0} on "
                  + "warm-pool claims (maintainers' advice in agent-sandbox#1306); pool-level claimDefaults is only a proposal (#1420).");
      if (ex.size() > cfg.expiredRetainedWarnCount()) {
        ClaimView oldest =
            ex.stream()
                .min(
                    Comparator.comparing(
                        c ->
                            c.ready().lastTransitionTime() == null
                                ? Instant.MAX
                                : c.ready().lastTransitionTime()))
                .orElseThrow();
        out.add(
            new Finding(
                FindingKind.EXPIRED_CLAIMS_ACCUMULATING,
                "Namespace " + ns,
                Severity.TICKET,
                oldest.ready().lastTransitionTime(),
                now,
                ex.size()
                    + " expired claims under shutdownPolicy Retain are kept in "
                    + ns
                    + " and nothing deletes them.",
                List.of(
                    Evidence.of(
                        "expiredRetainedClaims",
                        ex.size(),
                        ex.size() + " > " + cfg.expiredRetainedWarnCount()),
                    Evidence.of(
                        "oldestExpiredAt",
                        oldest.ready().lastTransitionTime(),
                        "SandboxClaim " + oldest.ref()),
                    Evidence.of("excludedFromReadinessSli", all.size())),
                all,
                List.of(delete, lifecycle)));
      }
      if (!never.isEmpty()) {
        out.add(
            new Finding(
                FindingKind.NEVER_EXPIRING_FINISHED_CLAIMS,
                "Namespace " + ns,
                Severity.TICKET,
                never.stream()
                    .map(c -> c.finished().lastTransitionTime())
                    .min(Instant::compareTo)
                    .orElse(now),
                now,
                never.size()
                    + " finished claims in "
                    + ns
                    + " have no spec.lifecycle, so they never expire.",
                List.of(
                    Evidence.of(
                        "neverExpiringFinishedClaims",
                        never.size(),
                        "Finished=True for ≥ "
                            + cfg.finishedWithoutLifecycleWarnAfter().toHours()
                            + " h, no lifecycle")),
                never.stream().map(c -> "SandboxClaim " + c.ref()).sorted().toList(),
                List.of(delete, lifecycle)));
      }
    }
  }

  // ---- ReservedLabelOnUserObject (C10)

  private void spoofed(List<Finding> out) {
    // only Sandboxes without an owner can claim the controller's identity
    List<SandboxView> bare = new ArrayList<>(e.bareSandboxesWithReservedKeys());
    bare.sort(Comparator.comparing(SandboxView::ref));
    for (SandboxView s : bare) {
      if (!claimsControllerIdentity(s)) {
        continue;
      }
      List<Evidence> ev = new ArrayList<>();
      long labels = s.reservedKeys().stream().filter(ReservedKey::isLabel).count();
      long annotations = s.reservedKeys().size() - labels;
      ev.add(
          Evidence.of(
              "reservedKeys",
              s.reservedKeys().size(),
              labels + " labels, " + annotations + " annotations"));
      for (ReservedKey k : s.reservedKeys()) {
        ev.add(Evidence.of(k.location(), k.key() + "=" + k.value()));
        if (k.key().equals(Labels.SANDBOX_NAME_HASH)) {
          for (SandboxView other : e.sandboxes().values()) {
            if (other != s
                && other.ref().namespace().equals(s.ref().namespace())
                && NameHash.of(other.ref().name()).equals(k.value())) {
              ev.add(
                  Evidence.of(
                      "selectorHijack",
                      k.value() + " = NameHash(\"" + other.ref().name() + "\")",
                      "an attempt to capture " + other.ref().name() + "'s Service traffic"));
            }
          }
        }
        if (k.key().equals(Labels.WARM_POOL_SANDBOX)) {
          for (PoolView p : e.pools().values()) {
            if (p.ref().namespace().equals(s.ref().namespace())
                && NameHash.of(p.ref().name()).equals(k.value())) {
              ev.add(
                  Evidence.of(
                      "poolMembershipClaimed",
                      p.ref().name(),
                      "excluded from warm capacity and warm-hit: no ownerReference to the pool"));
            }
          }
        }
      }
      boolean old =
          cfg.controllerVersion() != null && versionBefore(cfg.controllerVersion(), 0, 5, 0);
      out.add(
          new Finding(
              FindingKind.RESERVED_LABEL_ON_USER_OBJECT,
              "Sandbox " + s.ref(),
              old ? Severity.CRITICAL : Severity.HIGH,
              now,
              now,
              "Sandbox "
                  + s.ref()
                  + " has no ownerReference but carries "
                  + s.reservedKeys().size()
                  + " reserved agents.x-k8s.io keys; membership comes from ownerReferences, so it is not counted"
                  + (old
                      ? ", and controllers before v0.5.0 copy these labels to the Pod (#894)."
                      : "."),
              ev,
              List.of("Sandbox " + s.ref()),
              List.of(
                  Proposal.none(
                      "Add an admission policy (ValidatingAdmissionPolicy) that denies agents.x-k8s.io/ and "
                          + "extensions.agents.x-k8s.io/ keys for principals other than the controller; no automatic deletion."))));
    }
  }

  /**
   * Keys only the controller sets: pool membership, blueprint hash, claim binding, the Service
   * selector hash, {@code created-by: controller} or {@code launch-type: warm}. A bare Sandbox may
   * legitimately carry {@code created-by: go-client} and {@code launch-type: cold} (SDKs set them).
   */
  static boolean claimsControllerIdentity(SandboxView s) {
    for (ReservedKey k : s.reservedKeys()) {
      switch (k.key()) {
        case Labels.WARM_POOL_SANDBOX,
            Labels.SANDBOX_TEMPLATE_HASH,
            Labels.CLAIM_UID,
            Labels.SANDBOX_NAME_HASH -> {
          return true;
        }
        case Labels.CREATED_BY -> {
          if (Labels.CREATED_BY_CONTROLLER.equals(k.value())) {
            return true;
          }
        }
        case Labels.LAUNCH_TYPE -> {
          if (Labels.LAUNCH_WARM.equals(k.value())) {
            return true;
          }
        }
        default -> {}
      }
    }
    return false;
  }

  static boolean versionBefore(String v, int major, int minor, int patch) {
    String s = v.startsWith("v") ? v.substring(1) : v;
    String[] p = s.split("[.-]");
    try {
      int[] x = {
        Integer.parseInt(p[0]),
        p.length > 1 ? Integer.parseInt(p[1]) : 0,
        p.length > 2 ? Integer.parseInt(p[2]) : 0
      };
      int[] y = {major, minor, patch};
      for (int i = 0; i < 3; i++) {
        if (x[i] != y[i]) {
          return x[i] < y[i];
        }
      }
      return false;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
