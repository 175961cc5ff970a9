package org.sandboxslo.console.chatops;

import static org.sandboxslo.console.chatops.SlackMessages.escape;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.routes.FindingRoutes;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.store.PlanRow;

/** The read answers (status, explain) and plan summaries as Slack messages; pure formatting. */
final class ChatReplies {
  static final int MAX_TEMPLATES = 15;
  static final int MAX_FINDINGS = 5;

  private ChatReplies() {}

  static String help() {
    StringBuilder sb = new StringBuilder("*Sandbox SLO console* — commands:\n");
    ChatCommand.USAGE.forEach(u -> sb.append("• `").append(u.replace(" — ", "` — ")).append('\n'));
    sb.append(
        "Writes answer with a dry run and Confirm / Cancel buttons; nothing changes before Confirm.");
    return sb.toString();
  }

  /** {@code status}: every template (worst warm-hit first), or one. */
  static JsonObject status(
      FleetSnapshot snap, List<FindingState> findings, String templateOrNull, Links links) {
    if (snap == null) {
      return SlackMessages.text(
          "The console has no fleet snapshot yet (informers still syncing); try again shortly.",
          List.of(new SlackMessages.Link("Health", links.link("/health"))));
    }
    if (templateOrNull != null) {
      for (SliSnapshot t : snap.templates()) {
        String ref = t.key().namespace() + "/" + t.key().name();
        if (ref.equals(templateOrNull)) {
          StringBuilder sb = new StringBuilder("*SandboxTemplate ").append(ref).append("*\n");
          sb.append(line(t)).append('\n');
          List<FindingState> open = about(findings, ref, t.related(), t.key().namespace());
          sb.append(open.isEmpty() ? "No open findings." : "Open findings:\n");
          open.stream().limit(MAX_FINDINGS).forEach(f -> sb.append(findingLine(f)).append('\n'));
          return SlackMessages.text(
              sb.toString().strip(),
              List.of(new SlackMessages.Link("Template " + ref, links.link("/templates/" + ref))));
        }
      }
      return SlackMessages.text(
          "No SandboxTemplate " + escape(templateOrNull) + " is known. `status` lists them.",
          List.of(new SlackMessages.Link("Fleet", links.link("/"))));
    }
    List<SliSnapshot> ts = new ArrayList<>(snap.templates());
    ts.sort(
        java.util.Comparator.comparing(
            (SliSnapshot t) -> {
              Double w = first(t) == null ? null : first(t).warmHitRatio();
              return w == null ? 2.0 : w;
            }));
    long open = findings.stream().filter(FindingState::open).count();
    StringBuilder sb =
        new StringBuilder("*Fleet* — ")
            .append(ts.size())
            .append(" templates, ")
            .append(open)
            .append(" open findings\n");
    ts.stream()
        .limit(MAX_TEMPLATES)
        .forEach(
            t ->
                sb.append("• `")
                    .append(t.key().namespace())
                    .append('/')
                    .append(t.key().name())
                    .append("` ")
                    .append(line(t))
                    .append('\n'));
    if (ts.size() > MAX_TEMPLATES) {
      sb.append("… and ").append(ts.size() - MAX_TEMPLATES).append(" more in the console\n");
    }
    return SlackMessages.text(
        sb.toString().strip(),
        List.of(
            new SlackMessages.Link("Fleet", links.link("/")),
            new SlackMessages.Link("Findings", links.link("/findings"))));
  }

  private static WindowSlis first(SliSnapshot t) {
    return t.windows().isEmpty() ? null : t.windows().get(0);
  }

  private static String line(SliSnapshot t) {
    WindowSlis w = first(t);
    PoolGauge p = t.pool();
    List<String> parts = new ArrayList<>();
    if (w != null) {
      String window = org.sandboxslo.engine.time.Durations.format(w.window());
      parts.add(
          "warm-hit "
              + window
              + " "
              + (w.warmHitRatio() == null ? "no data" : pct(w.warmHitRatio())));
      parts.add(
          "claim-to-ready p95 "
              + (w.claimToReady() == null ? "no data" : seconds(w.claimToReady().p95())));
    }
    if (p != null) {
      parts.add("pool Ready " + p.readyMembers() + "/" + p.replicas());
      if (p.staleMembers() > 0) {
        parts.add(p.staleMembers() + " stale members");
      }
    }
    return String.join(", ", parts);
  }

  private static String pct(double d) {
    return String.format(Locale.ROOT, "%.1f %%", d * 100);
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.2f s", d.toNanos() / 1e9);
  }

  /** Open findings whose subject names {@code ref}, one of its related objects, or it exactly. */
  static List<FindingState> about(
      List<FindingState> findings, String ref, List<String> related, String ns) {
    List<String> subjects = new ArrayList<>();
    subjects.add(ref);
    related.forEach(r -> subjects.add(ns + "/" + r));
    return findings.stream()
        .filter(FindingState::open)
        .filter(
            f ->
                subjects.stream()
                    .anyMatch(
                        s ->
                            f.finding().subject().equals(s)
                                || f.finding().subject().endsWith(" " + s)))
        .toList();
  }

  static String findingLine(FindingState f) {
    Finding x = f.finding();
    return "• *"
        + x.kind().wireName()
        + "* ("
        + x.severity().wireName()
        + ") "
        + escape(x.subject())
        + " — `"
        + FindingRoutes.id(x)
        + "`";
  }

  /** {@code explain}: a finding by id, or the findings of a template/pool. */
  static JsonObject explain(
      FleetSnapshot snap, List<FindingState> findings, String target, Links links) {
    for (FindingState f : findings) {
      if (FindingRoutes.id(f.finding()).equalsIgnoreCase(target)) {
        return explainOne(f, links);
      }
    }
    if (target.contains("/")) {
      List<String> related = List.of();
      if (snap != null) {
        for (SliSnapshot s : snap.templates()) {
          if ((s.key().namespace() + "/" + s.key().name()).equals(target)) {
            related = s.related();
          }
        }
      }
      List<FindingState> open = about(findings, target, related, target.split("/", 2)[0]);
      if (open.size() == 1) {
        return explainOne(open.get(0), links);
      }
      StringBuilder sb = new StringBuilder();
      if (open.isEmpty()) {
        sb.append("No open findings for ").append(escape(target)).append('.');
      } else {
        sb.append(open.size()).append(" open findings for ").append(escape(target)).append(":\n");
        open.stream().limit(MAX_FINDINGS).forEach(f -> sb.append(findingLine(f)).append('\n'));
        sb.append("`explain <finding-id>` shows one with its evidence.");
      }
      return SlackMessages.text(
          sb.toString().strip(),
          List.of(new SlackMessages.Link("Findings", links.link("/findings?subject=" + target))));
    }
    return SlackMessages.text(
        "No finding `"
            + escape(target)
            + "` is known (ids look like StalePoolMembers-1a2b3c4d). `status` lists open findings"
            + " per template.",
        List.of(new SlackMessages.Link("Findings", links.link("/findings"))));
  }

  private static JsonObject explainOne(FindingState f, Links links) {
    Finding x = f.finding();
    String id = FindingRoutes.id(x);
    StringBuilder sb =
        new StringBuilder("*")
            .append(x.kind().wireName())
            .append("* (")
            .append(x.severity().wireName())
            .append(f.open() ? ", open" : ", closed")
            .append(") on ")
            .append(escape(x.subject()))
            .append('\n')
            .append(escape(x.explanation()))
            .append('\n');
    for (Evidence e : x.evidence()) {
      sb.append("• ")
          .append(escape(e.name()))
          .append(" = ")
          .append(escape(e.value()))
          .append(e.arithmetic().isEmpty() ? "" : " (" + escape(e.arithmetic()) + ")")
          .append('\n');
    }
    for (Proposal p : x.proposals()) {
      sb.append("Proposal: *")
          .append(escape(p.action()))
          .append("* — ")
          .append(escape(p.summary()))
          .append('\n');
    }
    return SlackMessages.text(
        sb.toString().strip(),
        List.of(new SlackMessages.Link("Finding " + id, links.link("/findings/" + id))));
  }

  /** A dry run (plan preview) as text. */
  static String dryRun(String action, String subject, JsonObject dry) {
    StringBuilder sb =
        new StringBuilder("*Dry run: ")
            .append(action)
            .append(' ')
            .append(escape(subject))
            .append("* — nothing has changed yet.\n");
    JsonArray steps = dry.getJsonArray("steps", new JsonArray());
    for (int i = 0; i < steps.size() && i < 10; i++) {
      JsonObject s = steps.getJsonObject(i);
      sb.append(s.getValue("n"))
          .append(". ")
          .append(escape(s.getString("description")))
          .append('\n');
    }
    if (steps.size() > 10) {
      sb.append("… ").append(steps.size() - 10).append(" more steps in the console\n");
    }
    JsonObject predicted = dry.getJsonObject("predicted");
    if (predicted != null && predicted.getValue("note") != null) {
      sb.append("_").append(escape(String.valueOf(predicted.getValue("note")))).append("_\n");
    }
    if (predicted != null && predicted.getValue("warning") != null) {
      sb.append("⚠ ").append(escape(String.valueOf(predicted.getValue("warning")))).append('\n');
    }
    if (dry.getBoolean("destructive", false)) {
      sb.append("Destructive: a second person must approve it (two-person rule).\n");
    }
    return sb.toString().strip();
  }

  /** One plan as text: id, action, subject, state, who. */
  static String plan(PlanRow p) {
    return "*"
        + p.id()
        + "* "
        + p.action()
        + " "
        + escape(p.subject())
        + " — "
        + p.state()
        + " (planned by "
        + p.plannedBy()
        + (p.approvedBy() == null ? "" : ", approved by " + p.approvedBy())
        + (p.executedBy() == null ? "" : ", executed by " + p.executedBy())
        + ")"
        + (p.result() == null ? "" : "\nResult: " + escape(p.result()))
        + "\nReason: "
        + escape(p.reason());
  }
}
