package org.sandboxslo.server.replay;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sandboxslo.console.api.SnapshotJson;
import org.sandboxslo.engine.diagnosis.InformerHealth;
import org.sandboxslo.engine.diagnosis.KindLag;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.scrape.ControllerReport;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.LatencyHistogram;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.LatencySummary;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;

/**
 * What a replay found at its clock.
 *
 * @param name the case names (or file names), joined with {@code " + "}
 * @param clock the evaluation time ({@code --at}, else the end of the recording)
 * @param events timeline entries and scrapes applied
 * @param skipped one line per entry that could not be used (malformed object, unknown type, ...)
 * @param snapshot the SLIs at the clock
 * @param findings the diagnoses at the clock
 * @param controllerView the controller-reported warm-hit over all scrapes, or null without scrapes
 * @param warnings consistency warnings (e.g. metrics that contradict the objects)
 * @param files each file with its format, e.g. {@code C14.txt (scrapes)}
 * @param evaluations how many times the diagnoses were evaluated along the timeline
 * @param step the longest replay time between two evaluations ({@link Replayer#EVALUATION_STEP}
 *     unless the recording is very long)
 * @param tracked the findings at the clock with when they appeared and when their alert fires
 * @param resolved findings that appeared and went away before the clock
 * @param watchLag watch lag per kind at the clock (watch deliveries only); kinds without a sample
 *     are absent
 * @param suspectStale kinds whose data is suspect-stale at the clock
 * @param controllerReport the controller's own view (build, warm-hit, histograms per template and
 *     launch type), or null without scrapes
 * @param scrapeOnly every file was a scrape file (the report stands on the scrapes alone)
 */
public record ReplayResult(
    String name,
    Instant clock,
    int events,
    List<String> skipped,
    FleetSnapshot snapshot,
    List<Finding> findings,
    ControllerView.WarmHit controllerView,
    List<String> warnings,
    List<String> files,
    int evaluations,
    Duration step,
    List<FindingTimeline.Tracked> tracked,
    List<FindingTimeline.Resolved> resolved,
    Map<Kind, KindLag> watchLag,
    Map<Kind, InformerHealth.Suspicion> suspectStale,
    ControllerReport controllerReport,
    boolean scrapeOnly) {
  public ReplayResult {
    skipped = List.copyOf(skipped);
    findings = List.copyOf(findings);
    warnings = List.copyOf(warnings);
    files = List.copyOf(files);
    tracked = List.copyOf(tracked);
    resolved = List.copyOf(resolved);
    watchLag = Map.copyOf(watchLag);
    suspectStale = Map.copyOf(suspectStale);
  }

  /** The tracked state of one finding at the clock, or null. */
  public FindingTimeline.Tracked tracked(Finding f) {
    for (FindingTimeline.Tracked t : tracked) {
      if (t.finding().kind() == f.kind() && t.finding().subject().equals(f.subject())) {
        return t;
      }
    }
    return null;
  }

  // ---- JSON

  public JsonObject toJson() {
    JsonArray fs = new JsonArray();
    for (Finding f : findings) {
      JsonObject j = SnapshotJson.finding(f);
      FindingTimeline.Tracked t = tracked(f);
      if (t != null) {
        j.put("appearedAt", t.appearedAt().toString())
            .put("alert", t.alert() == null ? null : t.alert().name())
            .put("alertFiresAt", t.firesAt() == null ? null : t.firesAt().toString())
            .put("alertFiring", t.firing(clock));
      }
      fs.add(j);
    }
    JsonArray res = new JsonArray();
    for (FindingTimeline.Resolved r : resolved) {
      res.add(
          new JsonObject()
              .put("kind", r.kind())
              .put("subject", r.subject())
              .put("appearedAt", r.appearedAt().toString())
              .put("resolvedAt", r.resolvedAt().toString())
              .put("worstSeverity", r.worst().wireName())
              .put("alertFiredAt", r.alertFiredAt() == null ? null : r.alertFiredAt().toString()));
    }
    JsonObject out =
        new JsonObject()
            .put("case", name)
            .put("clock", clock.toString())
            .put("files", new JsonArray(files))
            .put("events", events)
            .put("evaluations", evaluations)
            .put("evaluationStepSeconds", step.toSeconds())
            .put("skipped", new JsonArray(skipped))
            .put("templates", SnapshotJson.templates(snapshot).getJsonArray("items"))
            .put("pools", SnapshotJson.pools(snapshot).getJsonArray("items"))
            .put("watchLag", watchLagJson())
            .put("suspectStale", suspectJson())
            .put("findings", fs)
            .put("resolvedFindings", res)
            .put("warnings", new JsonArray(warnings));
    if (controllerView != null) {
      out.put(
          "controllerView",
          new JsonObject()
              .put("warmLaunches", controllerView.warm())
              .put("coldLaunches", controllerView.cold())
              .put("warmHitRatio", controllerView.ratio())
              .put("partial", controllerView.partial())
              .put(
                  "restarts",
                  new JsonArray(
                      controllerView.restarts().stream().map(r -> r.at().toString()).toList())));
    }
    out.put("controllerReport", controllerReport == null ? null : reportJson(controllerReport));
    return out;
  }

  private JsonObject watchLagJson() {
    JsonObject o = new JsonObject();
    for (Kind k : Kind.values()) {
      KindLag l = watchLag.get(k);
      o.put(
          k.kindName(),
          l == null
              ? null
              : new JsonObject()
                  .put("lastSeconds", l.last() == null ? null : SnapshotJson.seconds(l.last()))
                  .put("lastAt", l.lastAt() == null ? null : l.lastAt().toString())
                  .put("max5mSeconds", SnapshotJson.seconds(l.max5m()))
                  .put("samples5m", l.samples5m())
                  .put(
                      "lastDeliveryAt",
                      l.lastDeliveryAt() == null ? null : l.lastDeliveryAt().toString()));
    }
    return o;
  }

  private JsonArray suspectJson() {
    JsonArray a = new JsonArray();
    suspectStale.values().stream()
        .sorted((x, y) -> x.kind().compareTo(y.kind()))
        .forEach(
            s ->
                a.add(
                    new JsonObject()
                        .put("kind", s.kind().kindName())
                        .put("since", s.since().toString())
                        .put("reason", s.reason())));
    return a;
  }

  /** The controller report as JSON; ms stay ms (the controller's unit), lower bounds flagged. */
  static JsonObject reportJson(ControllerReport r) {
    JsonArray warm = new JsonArray();
    for (ControllerReport.WarmHitRow w : r.warmHit()) {
      warm.add(
          new JsonObject()
              .put("template", w.template())
              .put("warmLaunches", w.warmHit().warm())
              .put("coldLaunches", w.warmHit().cold())
              .put("warmHitRatio", w.warmHit().ratio())
              .put("partial", w.warmHit().partial()));
    }
    JsonArray hs = new JsonArray();
    for (LatencyHistogram h : r.histograms()) {
      JsonObject j =
          new JsonObject()
              .put("metric", h.metric())
              .put("template", h.template())
              .put("launchType", h.launchType())
              .put("count", h.count())
              .put("status", h.status().name().toLowerCase(Locale.ROOT))
              .put("display", h.display())
              .put("quantiles", quantiles(h.quantiles()))
              .put(
                  "good",
                  h.good() == null
                      ? null
                      : new JsonObject()
                          .put("thresholdMs", h.good().thresholdMs())
                          .put("good", h.good().good())
                          .put("total", h.good().total())
                          .put("ratio", h.good().ratio()))
              .put("partial", h.partial());
      LatencyHistogram.Overcount oc = h.overcount();
      j.put(
          "overcount",
          oc == null
              ? null
              : new JsonObject()
                  .put("claims", oc.claims())
                  .put("basis", oc.basis().text())
                  .put("excess", oc.excess())
                  .put("corrected", quantiles(oc.corrected())));
      hs.add(j);
    }
    return new JsonObject()
        .put("from", r.from().toString())
        .put("to", r.to().toString())
        .put("scrapes", r.scrapes())
        .put("targets", new JsonArray(r.targets()))
        .put("build", r.build() == null ? null : r.build().gitVersion())
        .put("warmHit", warm)
        .put("histograms", hs)
        .put("restarts", r.restarts().size())
        .put("notes", new JsonArray(r.notes()));
  }

  private static JsonArray quantiles(List<LatencyHistogram.QuantileValue> qs) {
    JsonArray a = new JsonArray();
    for (LatencyHistogram.QuantileValue q : qs) {
      a.add(
          new JsonObject()
              .put("q", q.q())
              .put("valueMs", q.valueMs())
              .put("lowerBound", q.lowerBound())
              .put("display", q.display()));
    }
    return a;
  }

  // ---- text

  public String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append("replay ")
        .append(name)
        .append(" at ")
        .append(clock)
        .append(": ")
        .append(events)
        .append(" events");
    if (!skipped.isEmpty()) {
      sb.append(", ").append(skipped.size()).append(" skipped");
    }
    sb.append('\n');
    sb.append("  files: ").append(String.join(", ", files)).append('\n');
    sb.append("  diagnoses evaluated ")
        .append(evaluations)
        .append(" times, at every receive time and at least every ")
        .append(Durations.format(step))
        .append('\n');
    for (String s : skipped) {
      sb.append("  skipped: ").append(s).append('\n');
    }
    if (!scrapeOnly || !snapshot.templates().isEmpty()) {
      templates(sb);
      lag(sb);
    }
    if (controllerReport != null) {
      controllerReport.lines().forEach(l -> sb.append(l).append('\n'));
      controllerReport
          .restarts()
          .forEach(
              x ->
                  sb.append("  restart at ")
                      .append(x.at())
                      .append(": increments after ")
                      .append(x.lostFrom())
                      .append(" were never scraped\n"));
    }
    for (String w : warnings) {
      sb.append("warning: ").append(w).append('\n');
    }
    findings(sb);
    return sb.toString();
  }

  private void templates(StringBuilder sb) {
    sb.append("templates\n");
    if (snapshot.templates().isEmpty()) {
      sb.append("  (none)\n");
    }
    for (SliSnapshot t : snapshot.templates()) {
      sb.append("  ")
          .append(t.key().namespace())
          .append('/')
          .append(t.key().name())
          .append("  pools=")
          .append(String.join(",", t.related()))
          .append("  ready(current)=")
          .append(ratio(t.pool().readyFractionCurrentTemplate()))
          .append(" ready(upstream)=")
          .append(ratio(t.pool().readyFraction()))
          .append(" members=")
          .append(t.pool().members())
          .append(" stale=")
          .append(t.pool().staleMembers())
          .append('\n');
      for (WindowSlis w : t.windows()) {
        sb.append("    ")
            .append(Durations.format(w.window()))
            .append(": warm-hit=")
            .append(ratio(w.warmHitRatio()))
            .append(" (")
            .append(w.warmLaunches())
            .append(" warm, ")
            .append(w.coldLaunches())
            .append(" cold)")
            .append(" claim-to-ready p95=")
            .append(p95(w.claimToReady()))
            .append(" resumes=")
            .append(w.resumeAttempts())
            .append(" errors=")
            .append(w.resumeErrors())
            .append('\n');
      }
    }
  }

  private void lag(StringBuilder sb) {
    sb.append("watch lag (watch deliveries only)\n");
    for (Kind k : Kind.values()) {
      KindLag l = watchLag.get(k);
      sb.append("  ").append(k.kindName()).append(": ");
      if (l == null) {
        sb.append("no data\n");
      } else {
        sb.append("last ")
            .append(l.last() == null ? "no data" : seconds(l.last()))
            .append(l.lastAt() == null ? "" : " at " + l.lastAt())
            .append(", max 5m ")
            .append(seconds(l.max5m()))
            .append(" (")
            .append(l.samples5m())
            .append(" samples)\n");
      }
    }
    suspectStale.values().stream()
        .sorted((x, y) -> x.kind().compareTo(y.kind()))
        .forEach(
            s ->
                sb.append("  suspect-stale ")
                    .append(s.kind().kindName())
                    .append(" since ")
                    .append(s.since())
                    .append(": ")
                    .append(s.reason())
                    .append('\n'));
  }

  private void findings(StringBuilder sb) {
    sb.append("findings (").append(findings.size()).append(")\n");
    for (Finding f : findings) {
      sb.append("  [")
          .append(f.severity().wireName())
          .append("] ")
          .append(f.kind().wireName())
          .append(' ')
          .append(f.subject())
          .append(f.firstSeen() == null ? "" : " since " + f.firstSeen())
          .append('\n');
      FindingTimeline.Tracked t = tracked(f);
      if (t != null) {
        sb.append("    appeared ")
            .append(t.appearedAt())
            .append("; ")
            .append(alert(t))
            .append('\n');
      }
      sb.append("    ").append(f.explanation()).append('\n');
      for (Evidence e : f.evidence()) {
        sb.append("    ")
            .append(e.name())
            .append(": ")
            .append(e.value())
            .append(e.arithmetic().isEmpty() ? "" : "  (" + e.arithmetic() + ")")
            .append('\n');
      }
      for (Proposal p : f.proposals()) {
        sb.append("    ")
            .append(p.automatic() ? "plan " + p.action() : "advice")
            .append(": ")
            .append(p.summary())
            .append('\n');
        for (String s : p.steps()) {
          sb.append("      - ").append(s).append('\n');
        }
      }
      sb.append("    runbook: runbooks/").append(f.runbook()).append(".md\n");
    }
    if (!resolved.isEmpty()) {
      sb.append("resolved before the clock (").append(resolved.size()).append(")\n");
      for (FindingTimeline.Resolved r : resolved) {
        sb.append("  ")
            .append(r.kind())
            .append(' ')
            .append(r.subject())
            .append(": ")
            .append(r.appearedAt())
            .append(" .. ")
            .append(r.resolvedAt())
            .append(" (worst ")
            .append(r.worst().wireName())
            .append(r.alertFiredAt() == null ? "" : ", alert fired " + r.alertFiredAt())
            .append(")\n");
      }
    }
  }

  private String alert(FindingTimeline.Tracked t) {
    if (t.alert() == null) {
      return "no alert of its own";
    }
    String n = "alert " + t.alert().name();
    if (t.firesAt() == null) {
      return n
          + " not pending (needs severity "
          + t.alert().minSeverity().wireName()
          + " or above)";
    }
    return t.firing(clock)
        ? n + " fires at " + t.firesAt()
        : n + " would fire at " + t.firesAt() + " if it persists";
  }

  private static String p95(LatencySummary l) {
    return l == null ? "no data" : seconds(l.p95());
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.3fs", d.toNanos() / 1e9);
  }

  private static String ratio(Double d) {
    return d == null ? "no data" : String.format(Locale.ROOT, "%.2f", d);
  }
}
