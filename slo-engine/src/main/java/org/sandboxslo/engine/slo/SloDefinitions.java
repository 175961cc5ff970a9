package org.sandboxslo.engine.slo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.sandboxslo.engine.time.Durations;

/**
 * Builds {@link SloDefinition}s from plain JSON/YAML trees ({@code Map}/{@code List}/scalars),
 * reporting every invalid field at once. Two input shapes:
 *
 * <ul>
 *   <li>the console's own: {@code {name, sli, selector: {namespace, sandboxTemplate}, objective
 *       (percent), window|period, latencyThreshold, readyFloor, eligibleOnly, minEvents, alerting:
 *       {pageBurnRates: [{long, short, factor}], ticketBurnRates: [...]}}};
 *   <li>OpenSLO v1 {@code kind: SLO} (see {@link #fromOpenSlo}).
 * </ul>
 */
public final class SloDefinitions {
  private SloDefinitions() {}

  public static final String OBJECTIVE_REASON =
      "objective must be > 0 and < 100; 100 leaves no error budget and an infinite burn rate";
  public static final Duration DEFAULT_PERIOD = Duration.ofDays(28);
  public static final long DEFAULT_MIN_EVENTS = 10;

  /** Longest compliance window (period): a year, leap day included. */
  public static final Duration MAX_PERIOD = Duration.ofDays(366);

  /** Longest latency threshold of a claim-to-ready SLO. */
  public static final Duration MAX_LATENCY_THRESHOLD = Duration.ofHours(1);

  /** Largest {@code minEvents}. */
  public static final long MAX_MIN_EVENTS = 1_000_000_000L;

  /** Largest burn-rate factor of an alerting tier. */
  public static final double MAX_BURN_RATE_FACTOR = 1000;

  /** Longest {@code description}, in characters. */
  public static final int MAX_DESCRIPTION = 1024;

  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  /**
   * Result of parsing: exactly one of {@code definition} and a non-empty {@code errors}.
   *
   * @param definition the valid definition, or null
   * @param errors every invalid field; empty when valid
   * @param ignored input fields that were understood but have no mapping (OpenSLO), for a notice
   */
  public record Parsed(SloDefinition definition, List<FieldError> errors, List<String> ignored) {
    public Parsed {
      errors = List.copyOf(errors);
      ignored = List.copyOf(ignored);
    }

    public boolean isValid() {
      return definition != null;
    }
  }

  /** Parses the console's own SLO shape. Unknown top-level fields are errors. */
  public static Parsed parse(Map<String, ?> in) {
    List<FieldError> errors = new ArrayList<>();
    for (String k : in.keySet()) {
      if (!List.of(
              "name",
              "sli",
              "selector",
              "objective",
              "window",
              "period",
              "latencyThreshold",
              "readyFloor",
              "eligibleOnly",
              "minEvents",
              "alerting",
              "description")
          .contains(k)) {
        errors.add(new FieldError(k, "unknown field"));
      }
    }
    String name = string(in, "name", errors, true);
    if (name != null && !NAME.matcher(name).matches()) {
      errors.add(
          new FieldError(
              "name",
              "must be a DNS-1123 label (lowercase letters, digits, '-', at most 63), got '"
                  + name
                  + "'"));
    }
    SliType sli = sliType(string(in, "sli", errors, true), "sli", errors);
    String ns = null;
    String template = null;
    Object sel = in.get("selector");
    if (sel != null && !(sel instanceof Map)) {
      errors.add(new FieldError("selector", "must be an object"));
    } else if (sel instanceof Map<?, ?> sm) {
      ns = stringField(sm.get("namespace"), "selector.namespace", errors);
      template = stringField(sm.get("sandboxTemplate"), "selector.sandboxTemplate", errors);
      if (template != null && ns == null) {
        errors.add(
            new FieldError(
                "selector.namespace", "is required when selector.sandboxTemplate is set"));
      }
    }
    Double objective = objective(in.get("objective"), "objective", errors, 1.0);
    Object win = in.containsKey("window") ? in.get("window") : in.get("period");
    String winField = in.containsKey("window") ? "window" : "period";
    Duration period = win == null ? DEFAULT_PERIOD : duration(win, winField, errors);
    if (period != null && period.compareTo(Duration.ofMinutes(1)) < 0) {
      errors.add(new FieldError(winField, "must be at least 1m, got " + Durations.format(period)));
      period = null;
    } else if (period != null && period.compareTo(MAX_PERIOD) > 0) {
      errors.add(
          new FieldError(
              winField,
              "must be at most "
                  + Durations.format(MAX_PERIOD)
                  + ", got "
                  + Durations.format(period)));
      period = null;
    }
    Object description = in.get("description");
    if (description != null
        && (!(description instanceof String d) || d.length() > MAX_DESCRIPTION)) {
      errors.add(
          new FieldError(
              "description", "must be a string of at most " + MAX_DESCRIPTION + " characters"));
    }
    Duration threshold = null;
    if (sli == SliType.CLAIM_TO_READY_LATENCY) {
      threshold =
          in.get("latencyThreshold") == null
              ? Duration.ofSeconds(1)
              : duration(in.get("latencyThreshold"), "latencyThreshold", errors);
      if (threshold != null && threshold.compareTo(MAX_LATENCY_THRESHOLD) > 0) {
        errors.add(
            new FieldError(
                "latencyThreshold",
                "must be at most "
                    + Durations.format(MAX_LATENCY_THRESHOLD)
                    + ", got "
                    + Durations.format(threshold)));
        threshold = null;
      }
    } else if (in.get("latencyThreshold") != null) {
      errors.add(new FieldError("latencyThreshold", "only applies to sli claim_to_ready_latency"));
    }
    double floor = 0.2;
    if (in.get("readyFloor") != null) {
      Double f = number(in.get("readyFloor"), "readyFloor", errors);
      if (f != null && !(f > 0 && f <= 1)) {
        errors.add(new FieldError("readyFloor", "must be in (0, 1], got " + f));
      } else if (f != null) {
        floor = f;
      }
    }
    boolean eligibleOnly = true;
    if (in.get("eligibleOnly") instanceof Boolean b) {
      eligibleOnly = b;
    } else if (in.get("eligibleOnly") != null) {
      errors.add(new FieldError("eligibleOnly", "must be true or false"));
    }
    long minEvents = DEFAULT_MIN_EVENTS;
    if (in.get("minEvents") != null) {
      Double m = number(in.get("minEvents"), "minEvents", errors);
      if (m != null && (m < 0 || m != Math.rint(m) || m > MAX_MIN_EVENTS)) {
        errors.add(
            new FieldError(
                "minEvents", "must be a whole number 0.." + MAX_MIN_EVENTS + ", got " + m));
      } else if (m != null) {
        minEvents = m.longValue();
      }
    }
    List<BurnRateTier> tiers = period == null ? List.of() : BurnRateTier.defaultsFor(period);
    Object alerting = in.get("alerting");
    if (alerting instanceof Map<?, ?> am) {
      List<BurnRateTier> custom = new ArrayList<>();
      custom.addAll(
          tiers(
              am.get("pageBurnRates"),
              "alerting.pageBurnRates",
              "page",
              List.of("fast", "medium"),
              errors));
      custom.addAll(
          tiers(
              am.get("ticketBurnRates"),
              "alerting.ticketBurnRates",
              "ticket",
              List.of("slow", "slowest"),
              errors));
      if (!custom.isEmpty()) {
        tiers = custom;
      }
    } else if (alerting != null) {
      errors.add(new FieldError("alerting", "must be an object"));
    }
    if (!errors.isEmpty() || objective == null || sli == null || name == null || period == null) {
      return new Parsed(null, errors, List.of());
    }
    return new Parsed(
        new SloDefinition(
            name,
            sli,
            ns,
            template,
            objective,
            period,
            threshold,
            floor,
            eligibleOnly,
            minEvents,
            tiers),
        List.of(),
        List.of());
  }

  /**
   * Maps an OpenSLO v1 {@code SLO} document. Mapped: {@code metadata.name}; {@code
   * spec.indicatorRef} or {@code spec.indicator.metadata.name} (must be one of our SLI names);
   * {@code spec.objectives[0].target} (a fraction, 0.95) or {@code targetPercent}; {@code
   * spec.timeWindow[0].duration} (rolling only); {@code spec.budgetingMethod} (Occurrences, or
   * Timeslices for pool_ready_fraction); {@code metadata.labels["sandboxslo.dev/namespace"]} and
   * {@code ["sandboxslo.dev/sandbox-template"]} as the selector; {@code
   * spec.objectives[0].timeSliceTarget} as the ready floor. Not mapped, reported in {@code
   * ignored}: {@code spec.service}, {@code spec.alertPolicies}, {@code spec.indicator.spec}
   * (queries: the console computes the SLI itself), calendar-aligned windows, extra objectives.
   */
  public static Parsed fromOpenSlo(Map<String, ?> doc) {
    List<FieldError> errors = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    if (!"openslo/v1".equals(doc.get("apiVersion"))) {
      errors.add(
          new FieldError("apiVersion", "must be openslo/v1, got '" + doc.get("apiVersion") + "'"));
    }
    if (!"SLO".equals(doc.get("kind"))) {
      errors.add(new FieldError("kind", "must be SLO, got '" + doc.get("kind") + "'"));
    }
    Map<?, ?> md = doc.get("metadata") instanceof Map<?, ?> m ? m : Map.of();
    Map<?, ?> spec = doc.get("spec") instanceof Map<?, ?> m ? m : Map.of();
    Map<?, ?> labels = md.get("labels") instanceof Map<?, ?> m ? m : Map.of();
    Map<String, Object> own = new java.util.LinkedHashMap<>();
    own.put("name", md.get("name"));
    Object sli = spec.get("indicatorRef");
    if (sli == null
        && spec.get("indicator") instanceof Map<?, ?> ind
        && ind.get("metadata") instanceof Map<?, ?> im) {
      sli = im.get("name");
      if (ind.get("spec") != null) {
        ignored.add("spec.indicator.spec");
      }
    }
    own.put("sli", sli);
    Map<String, Object> selector = new java.util.LinkedHashMap<>();
    if (labels.get("sandboxslo.dev/namespace") != null) {
      selector.put("namespace", labels.get("sandboxslo.dev/namespace"));
    }
    if (labels.get("sandboxslo.dev/sandbox-template") != null) {
      selector.put("sandboxTemplate", labels.get("sandboxslo.dev/sandbox-template"));
    }
    own.put("selector", selector);
    if (spec.get("objectives") instanceof List<?> objs
        && !objs.isEmpty()
        && objs.get(0) instanceof Map<?, ?> o) {
      if (o.get("targetPercent") != null) {
        own.put("objective", o.get("targetPercent"));
      } else if (o.get("target") instanceof Number n) {
        own.put("objective", n.doubleValue() * 100);
      } else {
        errors.add(
            new FieldError("spec.objectives[0].target", "is required (a fraction such as 0.95)"));
      }
      if (o.get("timeSliceTarget") != null) {
        own.put("readyFloor", o.get("timeSliceTarget"));
      }
      if (objs.size() > 1) {
        ignored.add("spec.objectives[1..]");
      }
    } else {
      errors.add(new FieldError("spec.objectives", "needs at least one objective"));
    }
    if (spec.get("timeWindow") instanceof List<?> tws
        && !tws.isEmpty()
        && tws.get(0) instanceof Map<?, ?> tw) {
      own.put("window", tw.get("duration"));
      if (Boolean.FALSE.equals(tw.get("isRolling")) || tw.get("calendar") != null) {
        errors.add(new FieldError("spec.timeWindow[0]", "only rolling windows are supported"));
      }
    }
    for (String k : List.of("service", "alertPolicies", "description")) {
      if (spec.get(k) != null) {
        ignored.add("spec." + k);
      }
    }
    Parsed own2 = parse(own);
    for (FieldError e : own2.errors()) {
      errors.add(new FieldError(openSloField(e.field()), e.reason()));
    }
    if (!errors.isEmpty()) {
      return new Parsed(null, errors, ignored);
    }
    return new Parsed(own2.definition(), List.of(), ignored);
  }

  private static String openSloField(String own) {
    return switch (own) {
      case "name" -> "metadata.name";
      case "sli" -> "spec.indicatorRef";
      case "objective" -> "spec.objectives[0].target";
      case "window" -> "spec.timeWindow[0].duration";
      case "selector.namespace" -> "metadata.labels[sandboxslo.dev/namespace]";
      case "selector.sandboxTemplate" -> "metadata.labels[sandboxslo.dev/sandbox-template]";
      default -> own;
    };
  }

  private static List<BurnRateTier> tiers(
      Object v, String field, String severity, List<String> names, List<FieldError> errors) {
    List<BurnRateTier> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    if (!(v instanceof List<?> l)) {
      errors.add(new FieldError(field, "must be a list of {long, short, factor}"));
      return out;
    }
    for (int i = 0; i < l.size(); i++) {
      String f = field + "[" + i + "]";
      if (!(l.get(i) instanceof Map<?, ?> m)) {
        errors.add(new FieldError(f, "must be an object {long, short, factor}"));
        continue;
      }
      Duration lw = duration(m.get("long"), f + ".long", errors);
      Duration sw = duration(m.get("short"), f + ".short", errors);
      Double factor = number(m.get("factor"), f + ".factor", errors);
      if (lw == null || sw == null || factor == null) {
        continue;
      }
      if (!(factor > 0 && factor <= MAX_BURN_RATE_FACTOR)) {
        errors.add(
            new FieldError(
                f + ".factor",
                "must be in (0, " + (int) MAX_BURN_RATE_FACTOR + "], got " + factor));
        continue;
      }
      if (lw.compareTo(MAX_PERIOD) > 0 || sw.compareTo(lw) > 0) {
        errors.add(
            new FieldError(
                f,
                "windows must satisfy short <= long <= "
                    + Durations.format(MAX_PERIOD)
                    + ", got long "
                    + Durations.format(lw)
                    + ", short "
                    + Durations.format(sw)));
        continue;
      }
      try {
        String tier = i < names.size() ? names.get(i) : severity + (i + 1);
        out.add(new BurnRateTier(tier, severity, lw, sw, factor));
      } catch (IllegalArgumentException e) {
        errors.add(new FieldError(f, e.getMessage()));
      }
    }
    return out;
  }

  private static SliType sliType(String s, String field, List<FieldError> errors) {
    if (s == null) {
      return null;
    }
    SliType t = SliType.ofWireName(s);
    if (t == null) {
      List<String> known = new ArrayList<>();
      for (SliType x : SliType.values()) {
        known.add(x.wireName());
      }
      errors.add(
          new FieldError(field, "unknown SLI '" + s + "'; known: " + String.join(", ", known)));
    }
    return t;
  }

  private static Double objective(Object v, String field, List<FieldError> errors, double unused) {
    if (v == null) {
      errors.add(new FieldError(field, "is required (percent, e.g. 95)"));
      return null;
    }
    Double d = number(v, field, errors);
    if (d == null) {
      return null;
    }
    if (d == 100.0) {
      errors.add(new FieldError(field, OBJECTIVE_REASON));
      return null;
    }
    if (!(d > 0 && d < 100)) {
      errors.add(new FieldError(field, "objective must be > 0 and < 100, got " + d));
      return null;
    }
    return d;
  }

  private static String string(
      Map<String, ?> in, String field, List<FieldError> errors, boolean required) {
    Object v = in.get(field);
    if (v == null) {
      if (required) {
        errors.add(new FieldError(field, "is required"));
      }
      return null;
    }
    return stringField(v, field, errors);
  }

  private static String stringField(Object v, String field, List<FieldError> errors) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      errors.add(new FieldError(field, "must be a non-empty string"));
      return null;
    }
    return s;
  }

  private static Double number(Object v, String field, List<FieldError> errors) {
    if (v instanceof Number n) {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        errors.add(new FieldError(field, "must be a finite number"));
        return null;
      }
      return d;
    }
    if (v instanceof String s) {
      try {
        return Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    errors.add(new FieldError(field, "must be a number, got '" + v + "'"));
    return null;
  }

  private static Duration duration(Object v, String field, List<FieldError> errors) {
    if (v == null) {
      errors.add(new FieldError(field, "is required (a duration like 5m, 1h, 28d)"));
      return null;
    }
    try {
      Duration d = Durations.parse(field, String.valueOf(v));
      if (d.isZero() || d.isNegative()) {
        errors.add(new FieldError(field, "must be > 0"));
        return null;
      }
      return d;
    } catch (IllegalArgumentException e) {
      errors.add(new FieldError(field, "expected a duration like 30s, 5m, 1h, got '" + v + "'"));
      return null;
    }
  }
}
