package org.sandboxslo.engine.model;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The agent-sandbox controller's Deployment (apps/v1), trimmed to its container's command line:
 * what the collector (or a person, through the console) reports so the engine can hold the flags
 * against the load it measures (reference §e). Flags not given take upstream's defaults.
 *
 * <p>Go flag syntax is accepted: {@code -flag}, {@code --flag}, {@code --flag=value}, {@code --flag
 * value} (not for boolean flags), a bare boolean flag meaning {@code true}.
 *
 * @param ref namespace/name of the Deployment (e.g. {@code
 *     agent-sandbox-system/agent-sandbox-controller})
 * @param image the controller container's image (its tag often names the version), or null
 * @param args the controller container's {@code command} + {@code args}, in order; copied
 */
public record ControllerDeploymentView(ObjectRef ref, String image, List<String> args) {
  /** Flags upstream declares as booleans (reference §e): they never consume the next argument. */
  public static final Set<String> BOOLEAN_FLAGS =
      Set.of(
          "extensions",
          "separate-watch-connection",
          "cache-label-selectors",
          "disable-claim-events",
          "disable-claim-observability-annotations",
          "enable-warm-pool-eviction",
          "leader-elect",
          "enable-tracing",
          "enable-pprof",
          "enable-pprof-debug",
          "enable-webhook",
          "manage-webhook-certs");

  public static final String MAX_REFILL_RATE = "sandbox-warm-pool-max-refill-rate";
  public static final String MAX_BATCH_SIZE = "sandbox-warm-pool-max-batch-size";
  public static final String SEPARATE_WATCH_CONNECTION = "separate-watch-connection";
  public static final String WARM_POOL_WORKERS = "sandbox-warm-pool-concurrent-workers";
  public static final String DISABLE_CLAIM_EVENTS = "disable-claim-events";
  public static final String REPLENISH_DELAY = "sandbox-warm-pool-replenish-delay";

  public ControllerDeploymentView {
    Objects.requireNonNull(ref, "ref");
    args = args == null ? List.of() : List.copyOf(args);
  }

  /** Flag name (without dashes) → value as written ({@code "true"} for a bare boolean flag). */
  public Map<String, String> flags() {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!a.startsWith("-") || a.equals("-") || a.equals("--")) {
        continue;
      }
      String body = a.startsWith("--") ? a.substring(2) : a.substring(1);
      int eq = body.indexOf('=');
      if (eq >= 0) {
        out.put(body.substring(0, eq), body.substring(eq + 1));
      } else if (BOOLEAN_FLAGS.contains(body)) {
        out.put(body, "true");
      } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("-")) {
        out.put(body, args.get(++i));
      } else {
        out.put(body, "true");
      }
    }
    return out;
  }

  /** Whether the flag is written on the command line (else upstream's default applies). */
  public boolean isSet(String flag) {
    return flags().containsKey(flag);
  }

  /**
   * {@code --sandbox-warm-pool-max-refill-rate} in sandboxes/s per pool; default 0 (unpaced).
   *
   * @throws IllegalArgumentException when the written value is not a number
   */
  public double maxRefillRate() {
    return number(MAX_REFILL_RATE, 0);
  }

  /** {@code --sandbox-warm-pool-max-batch-size}; default 300. */
  public int maxBatchSize() {
    return (int) number(MAX_BATCH_SIZE, 300);
  }

  /** {@code --separate-watch-connection}; default false. */
  public boolean separateWatchConnection() {
    return bool(SEPARATE_WATCH_CONNECTION, false);
  }

  /** {@code --sandbox-warm-pool-concurrent-workers}; default 1. */
  public int warmPoolWorkers() {
    return (int) number(WARM_POOL_WORKERS, 1);
  }

  /** {@code --disable-claim-events}; default false (Events enabled). */
  public boolean disableClaimEvents() {
    return bool(DISABLE_CLAIM_EVENTS, false);
  }

  /** {@code --sandbox-warm-pool-replenish-delay} (Go duration such as 5s, 1m30s); default 0. */
  public Duration replenishDelay() {
    String v = flags().get(REPLENISH_DELAY);
    return v == null ? Duration.ZERO : goDuration(REPLENISH_DELAY, v);
  }

  private double number(String flag, double dflt) {
    String v = flags().get(flag);
    if (v == null) {
      return dflt;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + flag + ": not a number: '" + v + "'");
    }
  }

  private boolean bool(String flag, boolean dflt) {
    String v = flags().get(flag);
    if (v == null) {
      return dflt;
    }
    return switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true", "1", "t" -> true;
      case "false", "0", "f" -> false;
      default -> throw new IllegalArgumentException("--" + flag + ": not a boolean: '" + v + "'");
    };
  }

  static Duration goDuration(String flag, String v) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)").matcher(v.trim());
    long nanos = 0;
    int end = 0;
    while (m.find()) {
      if (m.start() != end) {
        break;
      }
      double n = Double.parseDouble(m.group(1));
      long unit =
          switch (m.group(2)) {
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
          };
      nanos += (long) (n * unit);
      end = m.end();
    }
    if (v.trim().equals("0")) {
      return Duration.ZERO;
    }
    if (end != v.trim().length() || end == 0) {
      throw new IllegalArgumentException("--" + flag + ": not a duration: '" + v + "'");
    }
    return Duration.ofNanos(nanos);
  }
}
