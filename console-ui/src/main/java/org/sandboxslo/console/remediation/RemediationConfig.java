package org.sandboxslo.console.remediation;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.engine.time.Durations;

/**
 * Configuration of plans, execution and identity. Keys:
 *
 * <ul>
 *   <li>{@code sloconsole.auth.tokens}: {@code user:token:role+role,...}, e.g. {@code
 *       alice:token-a:operator+approver,bob:token-b:approver:team-a+viewer}; roles are {@code
 *       viewer|operator|approver|slo-owner|admin}, optionally scoped {@code role:namespace}.
 *       Default empty: in demo mode random tokens for user {@code admin} (role {@code admin}) and
 *       user {@code reviewer} (a second approver, for the two-person rule) are generated and
 *       printed once ({@link #withDemoAdmin()}); otherwise every call is 401.
 *   <li>{@code sloconsole.auth.two-person} (default {@code true}): destructive actions
 *       (PacedRecreate, ShardPool, DeleteExpiredClaims, ScalePool down) must be approved by a
 *       different user than the planner
 *   <li>{@code sloconsole.auth.approver-roles} (default every action {@code approver}): {@code
 *       Action:role+role,...}, e.g. {@code DeleteExpiredClaims:admin}; who may approve which action
 *   <li>{@code sloconsole.remediation.max-unavailable-fraction} (default 0.34): paced Recreate
 *       batch = max(1, floor(f × replicas))
 *   <li>{@code sloconsole.remediation.poll-interval} (default 500ms): executor tick
 *   <li>{@code sloconsole.remediation.workers} (default 2): threads of the worker pool {@code
 *       sloconsole-remediation} that runs blocking Kubernetes calls
 *   <li>{@code sloconsole.remediation.step-attempts}, {@code .retry-backoff-max}, {@code
 *       .wait-timeout}: see {@link ExecutorConfig}
 * </ul>
 *
 * @param tokens token → caller
 * @param twoPerson see above
 * @param maxUnavailableFraction in (0, 1]
 * @param pollInterval &gt; 0
 * @param workers 1..16
 * @param demoToken the generated admin token, or null
 * @param approverRoles action → roles any of which may approve it (each still scoped to the
 *     subject's namespace when given as {@code role:namespace}); every action defaults to {@code
 *     approver}
 * @param executor retries, backoff and wait deadline of the executor
 */
public record RemediationConfig(
    Map<String, Caller> tokens,
    boolean twoPerson,
    double maxUnavailableFraction,
    Duration pollInterval,
    int workers,
    String demoToken,
    Map<PlanAction, List<String>> approverRoles,
    ExecutorConfig executor) {
  public static final String TOKENS = "sloconsole.auth.tokens";
  public static final String TWO_PERSON = "sloconsole.auth.two-person";
  public static final String MAX_UNAVAILABLE = "sloconsole.remediation.max-unavailable-fraction";
  public static final String POLL = "sloconsole.remediation.poll-interval";
  public static final String WORKERS = "sloconsole.remediation.workers";
  public static final String APPROVER_ROLES = "sloconsole.auth.approver-roles";

  /** The keys this record reads (the executor's included). */
  public static final Set<String> KEYS = keys();

  private static Set<String> keys() {
    Set<String> k =
        new java.util.HashSet<>(
            Set.of(TOKENS, TWO_PERSON, MAX_UNAVAILABLE, POLL, WORKERS, APPROVER_ROLES));
    k.addAll(ExecutorConfig.KEYS);
    return Set.copyOf(k);
  }

  public RemediationConfig {
    tokens = Map.copyOf(tokens);
    EnumMap<PlanAction, List<String>> roles = new EnumMap<>(PlanAction.class);
    roles.putAll(approverRoles);
    approverRoles = Collections.unmodifiableMap(roles);
    java.util.Objects.requireNonNull(executor, "executor");
    if (!(maxUnavailableFraction > 0 && maxUnavailableFraction <= 1)) {
      throw new IllegalArgumentException(
          MAX_UNAVAILABLE + ": expected a number in (0, 1], got " + maxUnavailableFraction);
    }
    if (pollInterval.isZero() || pollInterval.isNegative()) {
      throw new IllegalArgumentException(POLL + ": must be > 0, got " + pollInterval);
    }
    if (workers < 1 || workers > 16) {
      throw new IllegalArgumentException(WORKERS + ": expected 1..16, got " + workers);
    }
  }

  /**
   * Reads the keys above; unknown keys under {@code sloconsole.auth.} and {@code
   * sloconsole.remediation.} are rejected.
   *
   * @throws IllegalArgumentException naming the key and the bad value
   */
  public static RemediationConfig fromMap(Map<String, String> m) {
    for (String k : m.keySet()) {
      if ((k.startsWith("sloconsole.auth.") || k.startsWith("sloconsole.remediation."))
          && !KEYS.contains(k)
          && !org.sandboxslo.console.auth.AuthConfig.KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    Map<String, Caller> tokens = parseTokens(m.getOrDefault(TOKENS, ""));
    String tp = m.getOrDefault(TWO_PERSON, "true");
    if (!tp.equals("true") && !tp.equals("false")) {
      throw new IllegalArgumentException(TWO_PERSON + ": expected true or false, got '" + tp + "'");
    }
    double f;
    try {
      f = Double.parseDouble(m.getOrDefault(MAX_UNAVAILABLE, "0.34"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          MAX_UNAVAILABLE + ": expected a number in (0, 1], got '" + m.get(MAX_UNAVAILABLE) + "'");
    }
    int workers;
    try {
      workers = Integer.parseInt(m.getOrDefault(WORKERS, "2"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          WORKERS + ": expected 1..16, got '" + m.get(WORKERS) + "'");
    }
    return new RemediationConfig(
        tokens,
        tp.equals("true"),
        f,
        Durations.parse(POLL, m.getOrDefault(POLL, "500ms")),
        workers,
        null,
        parseApproverRoles(m.getOrDefault(APPROVER_ROLES, "")),
        ExecutorConfig.fromMap(m));
  }

  static Map<PlanAction, List<String>> parseApproverRoles(String s) {
    Map<PlanAction, List<String>> out = new EnumMap<>(PlanAction.class);
    for (PlanAction a : PlanAction.values()) {
      out.put(a, List.of("approver"));
    }
    if (s.isBlank()) {
      return out;
    }
    for (String entry : s.split(",")) {
      String[] p = entry.trim().split(":", 2);
      PlanAction action = PlanAction.ofWireName(p[0]).orElse(null);
      if (p.length != 2 || action == null || p[1].isEmpty()) {
        throw new IllegalArgumentException(
            APPROVER_ROLES
                + ": expected Action:role+role with an action of "
                + String.join(", ", PlanAction.wireNames())
                + ", got '"
                + entry.trim()
                + "'");
      }
      List<String> roles = List.of(p[1].split("\\+"));
      for (String r : roles) {
        if (!Caller.ROLES.contains(r)) {
          throw new IllegalArgumentException(
              APPROVER_ROLES
                  + ": unknown role '"
                  + r
                  + "' for "
                  + p[0]
                  + "; roles: "
                  + String.join(", ", Caller.ROLES));
        }
      }
      out.put(action, roles);
    }
    return out;
  }

  /** The roles that may approve {@code action}. */
  public List<String> approversOf(PlanAction action) {
    return approverRoles.getOrDefault(action, List.of("approver"));
  }

  static Map<String, Caller> parseTokens(String s) {
    Map<String, Caller> out = new HashMap<>();
    if (s.isBlank()) {
      return out;
    }
    for (String entry : s.split(",")) {
      String[] p = entry.trim().split(":", 3);
      if (p.length != 3 || p[0].isEmpty() || p[1].isEmpty() || p[2].isEmpty()) {
        throw new IllegalArgumentException(
            TOKENS + ": expected user:token:role+role, got '" + mask(entry.trim()) + "'");
      }
      Set<String> roles = new java.util.HashSet<>();
      for (String r : p[2].split("\\+")) {
        String name = r.contains(":") ? r.substring(0, r.indexOf(':')) : r;
        if (!Caller.ROLES.contains(name)) {
          throw new IllegalArgumentException(
              TOKENS
                  + ": unknown role '"
                  + r
                  + "' for user "
                  + p[0]
                  + "; roles: "
                  + String.join(", ", Caller.ROLES)
                  + " (optionally role:namespace)");
        }
        roles.add(r);
      }
      if (out.put(p[1], new Caller(p[0], roles)) != null) {
        throw new IllegalArgumentException(
            TOKENS + ": the same token is given twice (user " + p[0] + ")");
      }
    }
    return out;
  }

  private static String mask(String entry) {
    String[] p = entry.split(":", 3);
    return p.length == 3 ? p[0] + ":****:" + p[2] : "****";
  }

  /**
   * Without configured tokens, a copy with random demo tokens for {@code admin} (all roles; its
   * token is {@link #demoToken()}) and {@code reviewer} (approver, viewer); otherwise this.
   */
  public RemediationConfig withDemoAdmin() {
    if (!tokens.isEmpty()) {
      return this;
    }
    String token = randomToken();
    return new RemediationConfig(
        Map.of(
            token,
            new Caller("admin", Set.of("admin")),
            randomToken(),
            new Caller("reviewer", Set.of("approver", "viewer"))),
        twoPerson,
        maxUnavailableFraction,
        pollInterval,
        workers,
        token,
        approverRoles,
        executor);
  }

  /** A random token ({@code demo-} + 32 hex digits) for demo sign-in. */
  public static String randomToken() {
    byte[] b = new byte[16];
    new SecureRandom().nextBytes(b);
    return "demo-" + HexFormat.of().formatHex(b);
  }

  /** The configuration for the startup log, tokens masked. */
  public String describe() {
    Map<String, String> d = new LinkedHashMap<>();
    List<String> users =
        tokens.values().stream()
            .map(c -> c.user() + ":****:" + String.join("+", new TreeSet<>(c.roles())))
            .sorted()
            .toList();
    d.put(TOKENS, String.join(",", users));
    d.put(TWO_PERSON, String.valueOf(twoPerson));
    d.put(MAX_UNAVAILABLE, String.valueOf(maxUnavailableFraction));
    d.put(POLL, pollInterval.toMillis() + "ms");
    d.put(WORKERS, String.valueOf(workers));
    d.put(
        APPROVER_ROLES,
        approverRoles.entrySet().stream()
            .map(e -> e.getKey().wireName() + ":" + String.join("+", e.getValue()))
            .collect(java.util.stream.Collectors.joining(",")));
    d.put(ExecutorConfig.STEP_ATTEMPTS, String.valueOf(executor.stepAttempts()));
    d.put(ExecutorConfig.RETRY_BACKOFF_MAX, executor.retryBackoffMax().toMillis() + "ms");
    d.put(ExecutorConfig.WAIT_TIMEOUT, executor.waitTimeout().toMillis() + "ms");
    StringBuilder sb = new StringBuilder();
    d.forEach((k, v) -> sb.append("  ").append(k).append(" = ").append(v).append('\n'));
    return sb.toString().stripTrailing();
  }
}
