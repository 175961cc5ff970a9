package org.sandboxslo.engine.diagnosis;

import static org.sandboxslo.engine.diagnosis.DiagnosisContext.fmt;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.sandboxslo.engine.diagnosis.FleetObservations.Resume;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.time.Durations;

/**
 * Conditions read with {@code Ready} authoritative, and Sandboxes outside pools.
 *
 * <ul>
 *   <li>{@code SuspendedConditionStale} (info, per namespace): Ready=True next to Suspended=True
 *       with operatingMode Running. The sandboxes are running and counted so; the finding only says
 *       why a dashboard that reads Suspended shows them stopped.
 *   <li>{@code ResumeFailures} with subject {@code Namespace <ns>}: resumes of Sandboxes that no
 *       template applies to (created directly: no claim, no pool, no template) that failed or timed
 *       out in the longest window; template-built ones are reported per template.
 * </ul>
 */
public final class DirectSandboxDiagnosis implements Diagnosis {
  @Override
  public void diagnose(DiagnosisContext ctx, List<Finding> out) {
    staleSuspended(ctx, out);
    directResumes(ctx, out);
  }

  private static void staleSuspended(DiagnosisContext ctx, List<Finding> out) {
    Map<String, List<SandboxView>> byNs = new TreeMap<>();
    for (SandboxView s : ctx.sandboxes().values()) {
      if (SandboxLifecycle.staleSuspended(s)) {
        byNs.computeIfAbsent(s.ref().namespace(), x -> new ArrayList<>()).add(s);
      }
    }
    String version = ctx.controllerVersion();
    boolean old = DiagnosisContext.versionBefore(version, 0, 5, 4);
    byNs.forEach(
        (ns, list) -> {
          list.sort((a, b) -> a.ref().compareTo(b.ref()));
          List<Evidence> ev = new ArrayList<>();
          List<String> objects = new ArrayList<>();
          Instant first = null;
          for (SandboxView s : list) {
            Instant readySince = s.ready().lastTransitionTime();
            ev.add(
                Evidence.of(
                    "sandbox",
                    s.ref().name() + ": lifecycle " + SandboxLifecycle.RUNNING,
                    "Ready=True ("
                        + s.ready().reason()
                        + ") since "
                        + readySince
                        + "; Suspended=True ("
                        + s.suspended().reason()
                        + ") since "
                        + s.suspended().lastTransitionTime()
                        + "; operatingMode Running"
                        + (SandboxLifecycle.direct(s) ? "; created directly" : "")));
            objects.add("Sandbox " + s.ref());
            if (readySince != null && (first == null || readySince.isBefore(first))) {
              first = readySince;
            }
          }
          if (version != null) {
            ev.add(
                Evidence.of(
                    "controllerVersion",
                    version,
                    old
                        ? "before v0.5.4, which always rewrites Suspended (agent-sandbox#1150)"
                        : "includes agent-sandbox#1150 (v0.5.4): a stale Suspended points at a"
                            + " failed status write"));
          }
          out.add(
              new Finding(
                  FindingKind.SUSPENDED_CONDITION_STALE,
                  "Namespace " + ns,
                  Severity.INFO,
                  first != null ? first : ctx.now(),
                  ctx.now(),
                  list.size()
                      + " Sandbox(es) in "
                      + ns
                      + " are Ready but still carry Suspended=True from before their resume; Ready"
                      + " is authoritative, so they are counted as running, not stopped.",
                  ev,
                  objects,
                  List.of(
                      Proposal.none(
                          "No action on the sandboxes. Dashboards and scripts should read Ready, not"
                              + " the presence of Suspended"
                              + (old
                                  ? "; upgrading the controller to v0.5.4 or later (#1150) makes"
                                      + " Suspended follow resumes."
                                  : ".")))));
        });
  }

  private static void directResumes(DiagnosisContext ctx, List<Finding> out) {
    Duration window = Duration.ZERO;
    for (SliSnapshot s : ctx.snapshot().namespaces()) {
      Duration w = s.windows().get(s.windows().size() - 1).window();
      window = w.compareTo(window) > 0 ? w : window;
    }
    if (window.isZero()) {
      window = Duration.ofHours(1);
    }
    Instant from = ctx.now().minus(window);
    Map<String, List<Resume>> byNs = new TreeMap<>();
    for (Resume r : ctx.observations().resumes()) {
      if (r.template() == null
          && r.pool() == null
          && !r.at().isBefore(from)
          && !r.at().isAfter(ctx.now())) {
        byNs.computeIfAbsent(r.sandbox().namespace(), x -> new ArrayList<>()).add(r);
      }
    }
    final Duration w = window;
    byNs.forEach(
        (ns, rs) -> {
          List<Resume> failed = rs.stream().filter(r -> !r.success()).toList();
          if (failed.isEmpty()) {
            return;
          }
          List<Evidence> ev = new ArrayList<>();
          ev.add(
              Evidence.of(
                  "resumeErrorRatio",
                  fmt((double) failed.size() / rs.size()),
                  failed.size()
                      + " / "
                      + rs.size()
                      + " resumes of Sandboxes created directly in the last "
                      + Durations.format(w)));
          List<String> objects = new ArrayList<>();
          for (Resume r : failed) {
            ev.add(
                Evidence.of(
                    "failedResume",
                    r.sandbox().name() + ": " + r.outcome(),
                    "Running requested " + r.startedAt() + ", ended " + r.at()));
            String o = "Sandbox " + r.sandbox();
            if (!objects.contains(o)) {
              objects.add(o);
            }
          }
          out.add(
              new Finding(
                  FindingKind.RESUME_FAILURES,
                  "Namespace " + ns,
                  Severity.TICKET,
                  failed.get(0).at(),
                  ctx.now(),
                  failed.size()
                      + " of "
                      + rs.size()
                      + " resumes of Sandboxes created directly in "
                      + ns
                      + " (no claim, pool or template) failed in the last "
                      + Durations.format(w)
                      + ".",
                  ev,
                  objects,
                  List.of(
                      Proposal.none(
                          "Inspect the Sandboxes' Ready (ReconcilerError) and Suspended"
                              + " (PodStateUnknown) conditions and their Pods' events; no automatic"
                              + " remediation for Sandboxes outside pools."))));
        });
  }
}
