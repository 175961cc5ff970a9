package org.sandboxslo.engine.diagnosis;

import static org.sandboxslo.engine.diagnosis.DiagnosisContext.fmt;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.diagnosis.FleetObservations.MemberRecord;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ControllerDeploymentView;
import org.sandboxslo.engine.model.CrdView;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.SliKey;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;

/**
 * The controller's configuration (its Deployment's flags, reference §e; {@code
 * agent_sandbox_build_info}; the CRDs) held against what the console measures. One finding per
 * contradicting flag ({@code ControllerConfigContradictsLoad}, ticket, subject {@code Deployment
 * <ns>/<name> (--flag)}), each with the measurement and the recommended value:
 *
 * <ul>
 *   <li>{@code --sandbox-warm-pool-max-refill-rate=0} (unpaced) while one pool created at least
 *       {@code refillBurstFraction} × {@code --sandbox-warm-pool-max-batch-size} members within
 *       {@code burstWindow}: recommended rate = max(1, ⌈2 × the pool's claim rate⌉) per pool, at
 *       most 70/s (the scheduler's rate in upstream's benchmark);
 *   <li>{@code --separate-watch-connection=false} while the watch lag (largest over 5 minutes)
 *       reaches {@code watchLagHigh}: recommended {@code true};
 *   <li>{@code --sandbox-warm-pool-concurrent-workers} below the number of active pools (replicas
 *       &gt; 0): recommended = that number (one key per pool);
 *   <li>claim Events enabled ({@code --disable-claim-events=false}) at a claim rate of at least
 *       {@code claimEventsRate}: recommended {@code --disable-claim-events=true}.
 * </ul>
 *
 * And {@code CrdStorageNotMigrated} per agent-sandbox CRD whose {@code status.storedVersions} is
 * not exactly {@code [v1beta1]}: the v1.0 upgrade gate (high once the controller runs v1.0 or
 * later).
 */
public final class ControllerConfigDiagnosis implements Diagnosis {
  /** Scheduling throughput in upstream's 300-claim benchmark (reference §f), sandboxes/s. */
  static final int SCHEDULER_RATE = 70;

  @Override
  public void diagnose(DiagnosisContext ctx, List<Finding> out) {
    crds(ctx, out);
    ControllerDeploymentView d = ctx.observations().controller();
    if (d == null) {
      return;
    }
    String subject = "Deployment " + d.ref() + " (--";
    String version = ctx.controllerVersion();
    Evidence versionEv =
        Evidence.of(
            "controllerVersion",
            version == null ? "unknown" : version,
            "agent_sandbox_build_info git_version"
                + (d.image() == null ? "" : "; image " + d.image()));
    try {
      refill(ctx, d, subject, versionEv, out);
    } catch (IllegalArgumentException e) {
      out.add(unparsable(ctx, d, e.getMessage()));
    }
    try {
      watch(ctx, d, subject, versionEv, out);
      workers(ctx, d, subject, versionEv, out);
      events(ctx, d, subject, versionEv, out);
    } catch (IllegalArgumentException e) {
      out.add(unparsable(ctx, d, e.getMessage()));
    }
  }

  private static void refill(
      DiagnosisContext ctx,
      ControllerDeploymentView d,
      String subject,
      Evidence versionEv,
      List<Finding> out) {
    if (d.maxRefillRate() > 0) {
      return;
    }
    int batch = d.maxBatchSize();
    double threshold = ctx.settings().refillBurstFraction() * batch;
    Duration w = ctx.settings().burstWindow();
    PoolView worst = null;
    int worstBurst = 0;
    Instant worstAt = null;
    for (PoolView p : ctx.sortedPools()) {
      List<Instant> created = new ArrayList<>();
      for (MemberRecord m : ctx.observations().members(p.ref())) {
        if (m.createdAt() != null) {
          created.add(m.createdAt());
        }
      }
      created.sort(null);
      int j = 0;
      for (int i = 0; i < created.size(); i++) {
        while (Duration.between(created.get(j), created.get(i)).compareTo(w) >= 0) {
          j++;
        }
        int n = i - j + 1;
        if (n > worstBurst) {
          worstBurst = n;
          worst = p;
          worstAt = created.get(j);
        }
      }
    }
    if (worst == null || worstBurst < threshold) {
      return;
    }
    double rate =
        claimRate(ctx.snapshot(), SliKey.pool(worst.ref().namespace(), worst.ref().name()));
    int recommended = (int) Math.min(SCHEDULER_RATE, Math.max(1, Math.ceil(2 * rate)));
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "maxRefillRate",
            d.isSet(ControllerDeploymentView.MAX_REFILL_RATE) ? "0" : "0 (default: unpaced)",
            "--" + ControllerDeploymentView.MAX_REFILL_RATE));
    ev.add(
        Evidence.of(
            "refillBurst",
            worstBurst + " members in " + Durations.format(w),
            "SandboxWarmPool " + worst.ref() + " from " + worstAt));
    ev.add(
        Evidence.of(
            "burstThreshold",
            org.sandboxslo.engine.scrape.LatencyHistogram.num(threshold),
            fmt(ctx.settings().refillBurstFraction())
                + " × --"
                + ControllerDeploymentView.MAX_BATCH_SIZE
                + " "
                + batch));
    ev.add(
        Evidence.of(
            "poolClaimRate",
            DiagnosisContext.rate(rate) + "/s",
            "claims Ready from the pool, shortest window"));
    ev.add(
        Evidence.of(
            "recommended",
            "--" + ControllerDeploymentView.MAX_REFILL_RATE + "=" + recommended,
            "min("
                + SCHEDULER_RATE
                + ", max(1, ⌈2 × "
                + DiagnosisContext.rate(rate)
                + "⌉)) sandboxes/s per pool"));
    ev.add(versionEv);
    out.add(
        config(
            ctx,
            subject + ControllerDeploymentView.MAX_REFILL_RATE + ")",
            worstAt,
            "Refill is unpaced (--"
                + ControllerDeploymentView.MAX_REFILL_RATE
                + "=0) and "
                + worst.ref()
                + " created "
                + worstBurst
                + " members within "
                + Durations.format(w)
                + ", near the batch size "
                + batch
                + ": such bursts queue behind API priority and fairness and the scheduler.",
            ev,
            "--" + ControllerDeploymentView.MAX_REFILL_RATE + "=" + recommended));
  }

  private static void watch(
      DiagnosisContext ctx,
      ControllerDeploymentView d,
      String subject,
      Evidence versionEv,
      List<Finding> out) {
    if (d.separateWatchConnection()) {
      return;
    }
    Duration high = ctx.settings().watchLagHigh();
    List<String> lagging = new ArrayList<>();
    Duration max = Duration.ZERO;
    for (Map.Entry<Kind, FleetSnapshot.WatchLag> e : ctx.snapshot().watchLag().entrySet()) {
      Duration l = e.getValue().max5m();
      if (l.compareTo(high) >= 0) {
        lagging.add(e.getKey().kindName() + " " + Durations.format(l));
      }
      max = l.compareTo(max) > 0 ? l : max;
    }
    if (lagging.isEmpty()) {
      return;
    }
    lagging.sort(null);
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "separateWatchConnection",
            d.isSet(ControllerDeploymentView.SEPARATE_WATCH_CONNECTION)
                ? "false"
                : "false (default)",
            "informer list/watch shares the HTTP/2 connection with writes"));
    ev.add(
        Evidence.of(
            "watchLagMax5m",
            Durations.format(max),
            String.join(", ", lagging) + " ≥ " + Durations.format(high)));
    if (lagging.size() == ctx.snapshot().watchLag().size() && lagging.size() > 1) {
      ev.add(
          Evidence.of(
              "allKindsLag",
              "yes",
              "every watched kind lags: rule out the console's own connection first"));
    }
    ev.add(
        Evidence.of(
            "recommended", "--" + ControllerDeploymentView.SEPARATE_WATCH_CONNECTION + "=true"));
    ev.add(versionEv);
    out.add(
        config(
            ctx,
            subject + ControllerDeploymentView.SEPARATE_WATCH_CONNECTION + ")",
            ctx.now(),
            "Watch events arrive up to "
                + Durations.format(max)
                + " late while the controller keeps its watches on the same connection as its"
                + " writes (--"
                + ControllerDeploymentView.SEPARATE_WATCH_CONNECTION
                + "=false).",
            ev,
            "--" + ControllerDeploymentView.SEPARATE_WATCH_CONNECTION + "=true"));
  }

  private static void workers(
      DiagnosisContext ctx,
      ControllerDeploymentView d,
      String subject,
      Evidence versionEv,
      List<Finding> out) {
    int workers = d.warmPoolWorkers();
    List<String> active = new ArrayList<>();
    for (PoolView p : ctx.sortedPools()) {
      if (p.replicas() > 0) {
        active.add(p.ref().toString());
      }
    }
    if (workers >= active.size()) {
      return;
    }
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "warmPoolWorkers",
            workers + (d.isSet(ControllerDeploymentView.WARM_POOL_WORKERS) ? "" : " (default)"),
            "--" + ControllerDeploymentView.WARM_POOL_WORKERS));
    ev.add(Evidence.of("activePools", active.size(), String.join(", ", active)));
    ev.add(
        Evidence.of(
            "recommended",
            "--" + ControllerDeploymentView.WARM_POOL_WORKERS + "=" + active.size(),
            "one worker per active pool (pools reconcile in parallel only with more than one)"));
    ev.add(versionEv);
    out.add(
        config(
            ctx,
            subject + ControllerDeploymentView.WARM_POOL_WORKERS + ")",
            ctx.now(),
            active.size()
                + " active pools share "
                + workers
                + " warm-pool worker(s): their refills wait for each other.",
            ev,
            "--" + ControllerDeploymentView.WARM_POOL_WORKERS + "=" + active.size()));
  }

  private static void events(
      DiagnosisContext ctx,
      ControllerDeploymentView d,
      String subject,
      Evidence versionEv,
      List<Finding> out) {
    if (d.disableClaimEvents()) {
      return;
    }
    double rate = 0;
    long claims = 0;
    Duration window = null;
    for (SliSnapshot s : ctx.snapshot().namespaces()) {
      WindowSlis w = s.windows().get(0);
      claims += w.warmLaunches() + w.coldLaunches();
      window = w.window();
    }
    if (window == null || claims == 0) {
      return;
    }
    rate = (double) claims / window.toSeconds();
    if (rate < ctx.settings().claimEventsRate()) {
      return;
    }
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "disableClaimEvents",
            d.isSet(ControllerDeploymentView.DISABLE_CLAIM_EVENTS) ? "false" : "false (default)",
            "one Event (SandboxAdopted / SandboxProvisioned) written per claim"));
    ev.add(
        Evidence.of(
            "claimRate",
            fmt(rate) + "/s",
            claims
                + " claims / "
                + window.toSeconds()
                + " s ≥ "
                + fmt(ctx.settings().claimEventsRate())
                + "/s"));
    ev.add(
        Evidence.of(
            "recommended",
            "--" + ControllerDeploymentView.DISABLE_CLAIM_EVENTS + "=true",
            "saves ≈ " + fmt(rate) + " Event writes/s on the API server"));
    ev.add(versionEv);
    out.add(
        config(
            ctx,
            subject + ControllerDeploymentView.DISABLE_CLAIM_EVENTS + ")",
            ctx.now(),
            "At "
                + fmt(rate)
                + " claims/s the claim controller also writes "
                + fmt(rate)
                + " Events/s, competing with claim writes for API server seats.",
            ev,
            "--" + ControllerDeploymentView.DISABLE_CLAIM_EVENTS + "=true"));
  }

  private static void crds(DiagnosisContext ctx, List<Finding> out) {
    boolean v1 =
        !DiagnosisContext.versionBefore(ctx.controllerVersion(), 1, 0, 0)
            && ctx.controllerVersion() != null;
    for (CrdView c : ctx.observations().crds().values()) {
      boolean ours = false;
      for (Kind k : Kind.values()) {
        ours |= k.crdName().equals(c.name());
      }
      if (!ours || c.storedVersions().equals(List.of(Kind.VERSION))) {
        continue;
      }
      List<Evidence> ev = new ArrayList<>();
      ev.add(
          Evidence.of(
              "storedVersions",
              c.storedVersions().toString(),
              "status.storedVersions; the v1.0 upgrade gate needs exactly [" + Kind.VERSION + "]"));
      if (c.storageVersion() != null) {
        ev.add(Evidence.of("storageVersion", c.storageVersion()));
      }
      ev.add(
          Evidence.of(
              "controllerVersion",
              ctx.controllerVersion() == null ? "unknown" : ctx.controllerVersion()));
      ev.add(Evidence.of("recommended", "status.storedVersions: [" + Kind.VERSION + "]"));
      out.add(
          new Finding(
              FindingKind.CRD_STORAGE_NOT_MIGRATED,
              "CustomResourceDefinition " + c.name(),
              v1 ? Severity.HIGH : Severity.TICKET,
              ctx.now(),
              ctx.now(),
              c.name()
                  + " still lists "
                  + c.storedVersions()
                  + " as stored versions: objects written as an older version may remain in"
                  + " etcd, so the upgrade to v1.0 is blocked until they are rewritten.",
              ev,
              List.of("CustomResourceDefinition " + c.name()),
              List.of(
                  new Proposal(
                      "None",
                      "Rewrite every object, then record that only "
                          + Kind.VERSION
                          + " is stored (no automatic remediation)",
                      List.of(
                          "rewrite every object of the CRD in place (a no-op update through the API"
                              + " server, e.g. a storage version migration); rewritten objects"
                              + " carry agents.x-k8s.io/storage-migrated-at",
                          "then: kubectl patch crd "
                              + c.name()
                              + " --subresource=status --type=merge -p"
                              + " '{\"status\":{\"storedVersions\":[\""
                              + Kind.VERSION
                              + "\"]}}'"),
                      false))));
    }
  }

  static double claimRate(FleetSnapshot snap, SliKey key) {
    for (SliSnapshot s : snap.pools()) {
      if (s.key().equals(key)) {
        WindowSlis w = s.windows().get(0);
        return (double) (w.warmLaunches() + w.coldLaunches()) / w.window().toSeconds();
      }
    }
    return 0;
  }

  private static Finding config(
      DiagnosisContext ctx,
      String subject,
      Instant firstSeen,
      String explanation,
      List<Evidence> ev,
      String recommended) {
    return new Finding(
        FindingKind.CONTROLLER_CONFIG_CONTRADICTS_LOAD,
        subject,
        Severity.TICKET,
        firstSeen,
        ctx.now(),
        explanation,
        ev,
        List.of(subject.substring(0, subject.indexOf(" (--"))),
        List.of(
            new Proposal(
                "SetControllerFlag",
                "Set "
                    + recommended
                    + " on the controller (a rollout of its Deployment; needs"
                    + " confirmation)",
                List.of(
                    "add or change "
                        + recommended
                        + " in the controller container's args (Helm: controller.extraArgs)",
                    "the controller restarts with a leader handover; watch the lease and refill"
                        + " after it"),
                false)));
  }

  private static Finding unparsable(DiagnosisContext ctx, ControllerDeploymentView d, String msg) {
    return new Finding(
        FindingKind.CONTROLLER_CONFIG_CONTRADICTS_LOAD,
        "Deployment " + d.ref() + " (args)",
        Severity.INFO,
        ctx.now(),
        ctx.now(),
        "A controller flag could not be read: " + msg,
        List.of(Evidence.of("args", String.join(" ", d.args()))),
        List.of("Deployment " + d.ref()),
        List.of(Proposal.none("Check the controller's command line.")));
  }
}
