package org.sandboxslo.server.replay;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.sandboxslo.console.api.SnapshotJson;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;

/**
 * What a replay found at the timeline's clock.
 *
 * @param name the case name (or file name)
 * @param clock the evaluation time
 * @param events events applied
 * @param skipped one line per timeline entry that could not be used (malformed object, ...)
 * @param snapshot the SLIs
 * @param findings the diagnoses
 * @param controllerView the controller-reported warm-hit over the scrapes, or null without scrapes
 * @param warnings consistency warnings (e.g. metrics that contradict the objects)
 */
public record ReplayResult(
    String name,
    Instant clock,
    int events,
    List<String> skipped,
    FleetSnapshot snapshot,
    List<Finding> findings,
    ControllerView.WarmHit controllerView,
    List<String> warnings) {

  public JsonObject toJson() {
    JsonArray fs = new JsonArray();
    for (Finding f : findings) {
      fs.add(SnapshotJson.finding(f));
    }
    JsonObject out =
        new JsonObject()
            .put("case", name)
            .put("clock", clock.toString())
            .put("events", events)
            .put("skipped", new JsonArray(List.copyOf(skipped)))
            .put("templates", SnapshotJson.templates(snapshot).getJsonArray("items"))
            .put("pools", SnapshotJson.pools(snapshot).getJsonArray("items"))
            .put("findings", fs)
            .put("warnings", new JsonArray(List.copyOf(warnings)));
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
    return out;
  }

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
    for (String s : skipped) {
      sb.append("  skipped: ").append(s).append('\n');
    }
    sb.append("templates\n");
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
            .append(org.sandboxslo.engine.time.Durations.format(w.window()))
            .append(": warm-hit=")
            .append(ratio(w.warmHitRatio()))
            .append(" (")
            .append(w.warmLaunches())
            .append(" warm, ")
            .append(w.coldLaunches())
            .append(" cold)")
            .append(" claim-to-ready p95=")
            .append(
                w.claimToReady() == null
                    ? "no data"
                    : String.format(Locale.ROOT, "%.3fs", w.claimToReady().p95().toNanos() / 1e9))
            .append('\n');
      }
    }
    if (controllerView != null) {
      sb.append("controller view: warm-hit=")
          .append(ratio(controllerView.ratio()))
          .append(" (")
          .append(fmt(controllerView.warm()))
          .append(" warm, ")
          .append(fmt(controllerView.cold()))
          .append(" cold)")
          .append(controllerView.partial() ? " partial" : "")
          .append('\n');
    }
    for (String w : warnings) {
      sb.append("warning: ").append(w).append('\n');
    }
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
    return sb.toString();
  }

  private static String ratio(Double d) {
    return d == null ? "no data" : String.format(Locale.ROOT, "%.2f", d);
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
