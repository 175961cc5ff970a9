package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.sandboxslo.engine.diagnosis.FleetObservations.FirstReady;
import org.sandboxslo.engine.diagnosis.FleetObservations.Resume;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.scrape.ControllerReport;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.LatencyHistogram;
import org.sandboxslo.engine.scrape.Scrape;
import org.sandboxslo.engine.time.Durations;

/**
 * The controller's own histograms, cross-checked against the claims the engine saw reach their
 * first Ready. {@code ControllerHistogramOvercount} (ticket): a latency histogram counted more
 * observations in the window than claims first became Ready in it. Controllers without
 * agent-sandbox#1114 (issue #1113) record the startup histograms again on every resume, anchored at
 * the claim's original first observation, so each re-recording carries the whole suspended time;
 * the corrected figures drop the excess from the highest buckets. With #1114 a claim that was
 * suspended while the new version rolled out can still re-record once (no backfill).
 *
 * <p>The cross-check needs the claim informer synced; the window starts no earlier than the
 * engine's first event (claims Ready before it are unknown).
 */
public final class ControllerHistogramDiagnosis implements Diagnosis {
  /** Histograms recorded once per claim at its first Ready (reference §d). */
  static final List<String> ONCE_PER_CLAIM =
      List.of(
          ControllerView.CONTROLLER_STARTUP_LATENCY_MS,
          ControllerView.CLAIM_STARTUP_LATENCY_MS,
          ControllerView.CLIENT_CLAIM_STARTUP_LATENCY_MS,
          ControllerView.CREATION_LATENCY_MS);

  /**
   * The controller-reported view at {@code now} from the scrapes the engine holds, each
   * once-per-claim histogram cross-checked against first-Ready claims when the claim informer has
   * synced; null when the engine holds no scrape.
   */
  public static ControllerReport report(DiagnosisContext ctx) {
    List<Scrape> scrapes = ctx.observations().scrapes();
    if (scrapes.isEmpty()) {
      return null;
    }
    Instant from = ctx.now().minus(ctx.settings().controllerWindow());
    Instant since = ctx.observations().observingSince();
    if (since != null && since.isAfter(from)) {
      from = since;
    }
    if (from.isAfter(ctx.now())) {
      from = ctx.now();
    }
    ControllerReport r = ControllerReport.of(scrapes, from, ctx.now(), ctx.settings().histogram());
    if (!Boolean.TRUE.equals(ctx.snapshot().synced().get(Kind.SANDBOX_CLAIM))) {
      return r;
    }
    List<LatencyHistogram> checked = new ArrayList<>();
    for (LatencyHistogram h : r.histograms()) {
      checked.add(
          ONCE_PER_CLAIM.contains(h.metric()) && h.count() > 0 && h.template() != null
              ? h.withFirstReadyClaims(
                  firstReady(ctx, h.template(), h.launchType(), h.from(), h.to()),
                  ctx.settings().histogram())
              : h);
    }
    return r.withHistograms(checked);
  }

  /** Claims of the template (any namespace) and launch type whose first Ready is in (from, to]. */
  static long firstReady(
      DiagnosisContext ctx, String template, String launchType, Instant from, Instant to) {
    long n = 0;
    for (FirstReady f : ctx.observations().firstReady()) {
      if (!template.equals(f.template()) || !f.readyAt().isAfter(from) || f.readyAt().isAfter(to)) {
        continue;
      }
      if ("warm".equals(launchType) && !f.warm() || "cold".equals(launchType) && f.warm()) {
        continue;
      }
      n++;
    }
    return n;
  }

  @Override
  public void diagnose(DiagnosisContext ctx, List<Finding> out) {
    ControllerReport r = report(ctx);
    if (r == null) {
      return;
    }
    Map<String, List<LatencyHistogram>> byTemplate = new TreeMap<>();
    for (LatencyHistogram h : r.histograms()) {
      if (h.overcount() != null) {
        byTemplate.computeIfAbsent(h.template(), x -> new ArrayList<>()).add(h);
      }
    }
    String version = ctx.controllerVersion();
    byTemplate.forEach(
        (template, hs) -> {
          List<Evidence> ev = new ArrayList<>();
          Instant first = null;
          for (LatencyHistogram h : hs) {
            LatencyHistogram.Overcount oc = h.overcount();
            String row = h.metric() + "{launch_type=" + h.launchType() + "}";
            ev.add(
                Evidence.of(
                    "overcount " + row,
                    LatencyHistogram.num(oc.excess()),
                    LatencyHistogram.num(h.count())
                        + " observations − "
                        + oc.claims()
                        + " claims first Ready in ("
                        + h.from()
                        + ", "
                        + h.to()
                        + "]"));
            ev.add(Evidence.of("reported " + row, h.display()));
            ev.add(Evidence.of("corrected " + row, corrected(h, oc)));
            Instant at = firstExcess(ctx, h);
            if (at != null && (first == null || at.isBefore(first))) {
              first = at;
            }
          }
          long resumes = 0;
          for (Resume x : ctx.observations().resumes()) {
            if (template.equals(x.template())
                && x.success()
                && x.at().isAfter(r.from())
                && !x.at().isAfter(r.to())) {
              resumes++;
            }
          }
          ev.add(
              Evidence.of(
                  "resumesInWindow",
                  resumes,
                  "successful resumes of sandboxes of "
                      + template
                      + " in the last "
                      + Durations.format(java.time.Duration.between(r.from(), r.to()))));
          ev.add(
              Evidence.of(
                  "controllerVersion",
                  version == null ? "unknown" : version,
                  "agent_sandbox_build_info; fix agent-sandbox#1114 (issue #1113) records once per"
                      + " claim, guarded by claim-first-ready-at"));
          out.add(
              new Finding(
                  FindingKind.CONTROLLER_HISTOGRAM_OVERCOUNT,
                  "SandboxTemplate " + templateRef(ctx, template),
                  Severity.TICKET,
                  first != null ? first : r.to(),
                  ctx.now(),
                  "The controller's latency histograms for "
                      + template
                      + " counted more observations than claims first became Ready: the excess"
                      + " are re-recordings on resume (agent-sandbox#1113, fixed by #1114), each"
                      + " including the suspended time, which inflates the reported quantiles.",
                  ev,
                  List.of(),
                  List.of(
                      Proposal.none(
                          "Read the corrected figures (the console's own claim-to-ready SLI is not"
                              + " affected); upgrade the controller to a release with"
                              + " agent-sandbox#1114. No automatic remediation."))));
        });
  }

  private static String corrected(LatencyHistogram h, LatencyHistogram.Overcount oc) {
    List<String> parts = new ArrayList<>();
    for (LatencyHistogram.QuantileValue v : oc.corrected()) {
      parts.add("p" + LatencyHistogram.num(v.q() * 100) + " " + v.display());
    }
    if (parts.isEmpty() && oc.correctedGood() != null) {
      return oc.correctedGood().display() + " (below the minimum count: no quantile)";
    }
    if (oc.correctedGood() != null) {
      parts.add(oc.correctedGood().display());
    }
    return parts.isEmpty() ? "no data" : String.join(", ", parts);
  }

  /** The first scrape at which the cumulative count exceeded the cumulative first-Ready claims. */
  private static Instant firstExcess(DiagnosisContext ctx, LatencyHistogram h) {
    List<Instant> times = new ArrayList<>();
    for (Scrape s : ctx.observations().scrapes()) {
      if (s.at().isAfter(h.from()) && !s.at().isAfter(h.to())) {
        times.add(s.at());
      }
    }
    times.sort(null);
    for (Instant t : times) {
      ControllerView.BucketDelta d =
          ControllerView.bucketDelta(
              ctx.observations().scrapes(), h.metric(), h.template(), h.launchType(), h.from(), t);
      if (d != null && d.count() > firstReady(ctx, h.template(), h.launchType(), h.from(), t)) {
        return t;
      }
    }
    return null;
  }

  private static String templateRef(DiagnosisContext ctx, String name) {
    ObjectRef found = null;
    for (TemplateView t : ctx.templates().values()) {
      if (t.ref().name().equals(name)) {
        if (found != null) {
          return name;
        }
        found = t.ref();
      }
    }
    return found == null ? name : Objects.toString(found);
  }
}
