package org.sandboxslo.console.chatops;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.sandboxslo.console.remediation.PlanAction;
import org.sandboxslo.engine.time.Durations;

/**
 * What a slash command's {@code text} asks for, parsed by {@link #parse}. Reads: {@link Help},
 * {@link Status}, {@link Explain}, {@link ListSilences}. Writes (two steps: dry run, then Confirm):
 * {@link Plan} (and {@code recreate}, a paced Recreate), {@link Approve}, {@link Execute}, {@link
 * Cancel}, {@link Silence}. A mistake is a {@link Usage} with the help for that command.
 */
public sealed interface ChatCommand {
  /** The command word, e.g. {@code recreate}. */
  String verb();

  /** Whether the command changes something (and so takes two steps and a mapped user). */
  default boolean write() {
    return false;
  }

  /** {@code help}. */
  record Help() implements ChatCommand {
    public String verb() {
      return "help";
    }
  }

  /**
   * {@code status [ns/template]}.
   *
   * @param templateOrNull namespace/template, or null for the fleet
   */
  record Status(String templateOrNull) implements ChatCommand {
    public String verb() {
      return "status";
    }
  }

  /**
   * {@code explain <finding-id | ns/template | ns/pool>}.
   *
   * @param target a finding id ({@code Kind-hash}) or a namespace/name
   */
  record Explain(String target) implements ChatCommand {
    public String verb() {
      return "explain";
    }
  }

  /**
   * {@code plan <action> <subject> [key=value ...]} and {@code recreate <ns/pool>}.
   *
   * @param verb {@code plan} or {@code recreate}
   * @param action the typed action
   * @param subject its subject (ns/pool, a namespace, controller-lite or ns/deployment)
   * @param params the parameters (numbers and booleans typed, the rest strings), without {@code
   *     reason}
   * @param reasonOrNull {@code reason=...}, or null
   */
  record Plan(
      String verb, PlanAction action, String subject, JsonObject params, String reasonOrNull)
      implements ChatCommand {
    public Plan {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(subject, "subject");
      params = params.copy();
    }

    @Override
    public boolean write() {
      return true;
    }
  }

  /**
   * {@code approve <plan>}.
   *
   * @param planId the plan id ({@code p-…})
   */
  record Approve(String planId) implements ChatCommand {
    public String verb() {
      return "approve";
    }

    @Override
    public boolean write() {
      return true;
    }
  }

  /** {@code execute <plan>}. */
  record Execute(String planId) implements ChatCommand {
    public String verb() {
      return "execute";
    }

    @Override
    public boolean write() {
      return true;
    }
  }

  /** {@code cancel <plan>}. */
  record Cancel(String planId) implements ChatCommand {
    public String verb() {
      return "cancel";
    }

    @Override
    public boolean write() {
      return true;
    }
  }

  /**
   * {@code silence <alert-or-matchers> <duration> <reason>}.
   *
   * @param target an alert fingerprint or matchers ({@code alertname=X,namespace=y})
   * @param duration how long
   * @param reason why (the rest of the line)
   */
  record Silence(String target, Duration duration, String reason) implements ChatCommand {
    public String verb() {
      return "silence";
    }

    @Override
    public boolean write() {
      return true;
    }
  }

  /** {@code silences}: the active and pending silences. */
  record ListSilences() implements ChatCommand {
    public String verb() {
      return "silences";
    }
  }

  /**
   * A mistake: what was wrong and how the command is used.
   *
   * @param problem one line, e.g. {@code recreate needs a pool: recreate <ns/pool>}
   */
  record Usage(String problem) implements ChatCommand {
    public String verb() {
      return "usage";
    }
  }

  /** One usage line per command, in the order {@code help} lists them. */
  List<String> USAGE =
      List.of(
          "status [ns/template] — SLIs and open findings (fleet, or one template)",
          "explain <finding-id | ns/template | ns/pool> — a finding with its evidence and proposals",
          "plan <action> <subject> [key=value ...] [reason=...] — dry run of a typed action ("
              + String.join(", ", PlanAction.wireNames())
              + ")",
          "recreate <ns/pool> — dry run of a paced Recreate of the pool's stale members",
          "approve <plan> — approve a plan (two-person rule for destructive actions)",
          "execute <plan> — execute an approved plan",
          "cancel <plan> — cancel a plan that has not finished",
          "silence <alert-fingerprint | matchers> <duration> <reason> — silence in Alertmanager"
              + " (matchers pin alertname and namespace or sandbox_template)",
          "silences — active and pending silences",
          "help — this list");

  /**
   * Parses the text after the slash command. Never throws: a mistake is a {@link Usage}.
   *
   * @param text the {@code text} form field (may be null or empty: help)
   */
  static ChatCommand parse(String text) {
    List<String> words = words(text == null ? "" : text);
    if (words.isEmpty()) {
      return new Help();
    }
    String verb = words.get(0).toLowerCase(Locale.ROOT);
    List<String> args = words.subList(1, words.size());
    return switch (verb) {
      case "help" -> new Help();
      case "status" ->
          args.isEmpty()
              ? new Status(null)
              : args.size() == 1 && isRef(args.get(0))
                  ? new Status(args.get(0))
                  : usage("status takes no argument or one ns/template", 0);
      case "explain" ->
          args.size() == 1
              ? new Explain(args.get(0))
              : usage("explain needs one finding id, ns/template or ns/pool", 1);
      case "plan" -> plan(args);
      case "recreate" ->
          args.size() == 1 && isRef(args.get(0))
              ? new Plan("recreate", PlanAction.PACED_RECREATE, args.get(0), new JsonObject(), null)
              : usage("recreate needs one pool as namespace/name", 3);
      case "approve", "execute", "cancel" -> planVerb(verb, args);
      case "silence" -> silence(args);
      case "silences" ->
          args.isEmpty() ? new ListSilences() : usage("silences takes no argument", 8);
      default ->
          new Usage(
              "unknown command '"
                  + truncate(words.get(0))
                  + "'; commands: status, explain, plan, recreate, approve, execute, cancel,"
                  + " silence, silences, help");
    };
  }

  private static ChatCommand plan(List<String> args) {
    if (args.size() < 2) {
      return usage("plan needs an action and a subject", 2);
    }
    PlanAction action = action(args.get(0));
    if (action == null) {
      return usage(
          "unknown action '"
              + truncate(args.get(0))
              + "'; actions: "
              + String.join(", ", PlanAction.wireNames()),
          2);
    }
    JsonObject params = new JsonObject();
    String reason = null;
    for (String kv : args.subList(2, args.size())) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        return usage("expected key=value after the subject, got '" + truncate(kv) + "'", 2);
      }
      String k = kv.substring(0, eq);
      String v = kv.substring(eq + 1);
      if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
        v = v.substring(1, v.length() - 1);
      }
      if (k.equals("reason")) {
        reason = v;
      } else {
        params.put(k, typed(v));
      }
    }
    return new Plan("plan", action, args.get(1), params, reason);
  }

  private static ChatCommand planVerb(String verb, List<String> args) {
    if (args.size() != 1 || !args.get(0).matches("(?i)p-[0-9a-f]{1,32}")) {
      return usage(verb + " needs one plan id such as p-1a2b3c4d5e6f", index(verb));
    }
    String id = args.get(0).toLowerCase(Locale.ROOT);
    return switch (verb) {
      case "approve" -> new Approve(id);
      case "execute" -> new Execute(id);
      default -> new Cancel(id);
    };
  }

  private static ChatCommand silence(List<String> args) {
    if (args.size() < 3) {
      return usage("silence needs a target, a duration and a reason", 7);
    }
    Duration d;
    try {
      d = Durations.parse("duration", args.get(1));
    } catch (IllegalArgumentException e) {
      return usage("'" + truncate(args.get(1)) + "' is not a duration such as 30m or 2h", 7);
    }
    return new Silence(args.get(0), d, String.join(" ", args.subList(2, args.size())));
  }

  private static int index(String verb) {
    return switch (verb) {
      case "approve" -> 4;
      case "execute" -> 5;
      default -> 6;
    };
  }

  private static Usage usage(String problem, int usageLine) {
    return new Usage(problem + ". Usage: " + USAGE.get(usageLine));
  }

  /** An action by wire name, case- and dash-insensitive ({@code paced-recreate}). */
  static PlanAction action(String s) {
    String n = s.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    for (PlanAction a : PlanAction.values()) {
      if (a.wireName().toLowerCase(Locale.ROOT).equals(n)) {
        return a;
      }
    }
    return null;
  }

  private static Object typed(String v) {
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    if (v.matches("-?\\d{1,9}")) {
      return Integer.parseInt(v);
    }
    if (v.matches("-?\\d{1,12}\\.\\d{1,9}")) {
      return Double.parseDouble(v);
    }
    return v;
  }

  private static boolean isRef(String s) {
    return s.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?/[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
  }

  private static String truncate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "…" : s;
  }

  /**
   * Splits on whitespace, keeping {@code "quoted text"} and {@code {...}} together (matchers may
   * contain spaces inside braces or quotes).
   */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    int braces = 0;
    for (char ch : text.strip().toCharArray()) {
      if (ch == '"') {
        quoted = !quoted;
        cur.append(ch);
      } else if (ch == '{' && !quoted) {
        braces++;
        cur.append(ch);
      } else if (ch == '}' && !quoted) {
        braces = Math.max(0, braces - 1);
        cur.append(ch);
      } else if (Character.isWhitespace(ch) && !quoted && braces == 0) {
        if (cur.length() > 0) {
          out.add(cur.toString());
          cur.setLength(0);
        }
      } else {
        cur.append(ch);
      }
    }
    if (cur.length() > 0) {
      out.add(cur.toString());
    }
    return out;
  }
}
