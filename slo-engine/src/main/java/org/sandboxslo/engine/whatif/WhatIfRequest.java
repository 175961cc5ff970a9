package org.sandboxslo.engine.whatif;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.sandboxslo.engine.time.Durations;

/**
 * A what-if question as the API ({@code POST /api/v1/whatif}) and the CLI ({@code sandbox-slo
 * whatif}) ask it: a demand curve, today's pool configuration, a proposed one (its keys default to
 * today's) and a seed. Parsed from a JSON-shaped tree (maps, lists, strings, numbers, booleans):
 *
 * <pre>
 * {"seed": 1,
 *  "demand": {"shape": "steady", "claimsPerSecond": 40, "duration": "1h"},
 *  "current": {"pools": 1, "replicas": 450, "refillRatePerPool": 70,
 *              "coldStartP50": "45s", "coldStartP95": "45s"},
 *  "proposed": {"pools": 4, "replicas": 450, "refillRatePerPool": 10}}
 * </pre>
 *
 * <p>Demand shapes: {@code steady} (claimsPerSecond, duration), {@code diurnal}
 * (troughClaimsPerSecond, peakClaimsPerSecond, period, duration), {@code bursts}
 * (baseClaimsPerSecond, burstSize, every, duration), {@code recorded} (offsets: durations or
 * seconds from the start, duration). Pool keys: pools, replicas (required in {@code current}),
 * maxBatch (300), refillRatePerPool (0 = unpaced), coldStartP50 (required), coldStartP95 (= p50),
 * warmAdoptionP50 (150ms), warmAdoptionP95 (400ms), watchLag (0s), expectationsGate (true),
 * expectationsTimeout (5m), pendingCandidateWait (2s), cpuMillisPerMember (0), memoryBytesPerMember
 * (0). Durations as {@code 45s}/{@code 150ms}/{@code 1h} or seconds.
 *
 * @param demand the demand curve
 * @param current today's configuration
 * @param proposed the proposal
 * @param seed the seed of both runs
 */
public record WhatIfRequest(
    DemandProfile demand, PoolConfig current, PoolConfig proposed, long seed) {
  public WhatIfRequest {
    Objects.requireNonNull(demand, "demand");
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(proposed, "proposed");
  }

  /** A field of the request that is missing or wrong: {@code field} is its path (a.b). */
  public static final class BadField extends IllegalArgumentException {
    private final String field;
    private final String reason;

    public BadField(String field, String reason) {
      super(field + ": " + reason);
      this.field = field;
      this.reason = reason;
    }

    public String field() {
      return field;
    }

    public String reason() {
      return reason;
    }
  }

  private static final Set<String> TOP = Set.of("seed", "demand", "current", "proposed");
  private static final Set<String> POOL_KEYS =
      Set.of(
          "pools",
          "replicas",
          "maxBatch",
          "refillRatePerPool",
          "coldStartP50",
          "coldStartP95",
          "warmAdoptionP50",
          "warmAdoptionP95",
          "watchLag",
          "expectationsGate",
          "expectationsTimeout",
          "pendingCandidateWait",
          "cpuMillisPerMember",
          "memoryBytesPerMember");

  /** Runs both simulations. */
  public WhatIfComparison run() {
    return WhatIfComparison.of(demand, current, proposed, seed);
  }

  /**
   * Parses a request tree.
   *
   * @throws BadField naming the first field that is missing, unknown or invalid
   */
  public static WhatIfRequest parse(Map<String, ?> body) {
    if (body == null) {
      throw new BadField("body", "expected a JSON object");
    }
    unknown("", body, TOP);
    long seed = body.containsKey("seed") ? longOf("seed", body.get("seed")) : 1;
    DemandProfile demand = demand(map("demand", body.get("demand")));
    Map<String, ?> cur = map("current", body.get("current"));
    PoolConfig current = pool("current", cur, null);
    Object p = body.get("proposed");
    PoolConfig proposed = p == null ? current : pool("proposed", map("proposed", p), current);
    return new WhatIfRequest(demand, current, proposed, seed);
  }

  private static DemandProfile demand(Map<String, ?> d) {
    String shape = string("demand.shape", d.get("shape"));
    return switch (shape) {
      case "steady" -> {
        unknown("demand.", d, Set.of("shape", "claimsPerSecond", "duration"));
        yield build(
            "demand.claimsPerSecond",
            () ->
                new DemandProfile.Steady(
                    number("demand.claimsPerSecond", d.get("claimsPerSecond")),
                    duration("demand.duration", d.get("duration"))));
      }
      case "diurnal" -> {
        unknown(
            "demand.",
            d,
            Set.of("shape", "troughClaimsPerSecond", "peakClaimsPerSecond", "period", "duration"));
        yield build(
            "demand.peakClaimsPerSecond",
            () ->
                new DemandProfile.Diurnal(
                    number("demand.troughClaimsPerSecond", d.get("troughClaimsPerSecond")),
                    number("demand.peakClaimsPerSecond", d.get("peakClaimsPerSecond")),
                    duration("demand.period", d.get("period")),
                    duration("demand.duration", d.get("duration"))));
      }
      case "bursts" -> {
        unknown(
            "demand.", d, Set.of("shape", "baseClaimsPerSecond", "burstSize", "every", "duration"));
        yield build(
            "demand.burstSize",
            () ->
                new DemandProfile.Bursts(
                    d.containsKey("baseClaimsPerSecond")
                        ? number("demand.baseClaimsPerSecond", d.get("baseClaimsPerSecond"))
                        : 0,
                    (int) longOf("demand.burstSize", d.get("burstSize")),
                    duration("demand.every", d.get("every")),
                    duration("demand.duration", d.get("duration"))));
      }
      case "recorded" -> {
        unknown("demand.", d, Set.of("shape", "offsets", "duration"));
        Object o = d.get("offsets");
        if (!(o instanceof List<?> list)) {
          throw new BadField("demand.offsets", "expected a list of durations from the start");
        }
        List<Duration> offsets = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
          offsets.add(duration("demand.offsets[" + i + "]", list.get(i)));
        }
        yield build(
            "demand.offsets",
            () ->
                new DemandProfile.Recorded(
                    offsets, duration("demand.duration", d.get("duration"))));
      }
      default ->
          throw new BadField(
              "demand.shape",
              "expected one of steady, diurnal, bursts, recorded, got '" + shape + "'");
    };
  }

  private static PoolConfig pool(String name, Map<String, ?> m, PoolConfig base) {
    unknown(name + ".", m, POOL_KEYS);
    int pools = intOr(name, m, "pools", base == null ? null : base.pools());
    int replicas = intOr(name, m, "replicas", base == null ? null : base.replicas());
    Duration coldP50 =
        durationOr(name, m, "coldStartP50", base == null ? null : base.coldStart().p50());
    Duration coldP95 =
        durationOr(
            name,
            m,
            "coldStartP95",
            m.containsKey("coldStartP50") || base == null ? coldP50 : base.coldStart().p95());
    Duration adoptP50 =
        durationOr(
            name,
            m,
            "warmAdoptionP50",
            base == null ? Duration.ofMillis(150) : base.warmAdoption().p50());
    Duration adoptP95 =
        durationOr(
            name,
            m,
            "warmAdoptionP95",
            base == null ? Duration.ofMillis(400) : base.warmAdoption().p95());
    LogNormal cold = build(name + ".coldStartP95", () -> new LogNormal(coldP50, coldP95));
    LogNormal adopt = build(name + ".warmAdoptionP95", () -> new LogNormal(adoptP50, adoptP95));
    int maxBatch =
        intOr(name, m, "maxBatch", base == null ? PoolConfig.DEFAULT_MAX_BATCH : base.maxBatch());
    double refill =
        m.containsKey("refillRatePerPool")
            ? number(name + ".refillRatePerPool", m.get("refillRatePerPool"))
            : base == null ? 0 : base.refillRatePerPool();
    Duration lag = durationOr(name, m, "watchLag", base == null ? Duration.ZERO : base.watchLag());
    boolean gate =
        m.containsKey("expectationsGate")
            ? bool(name + ".expectationsGate", m.get("expectationsGate"))
            : base == null || base.expectationsGate();
    Duration timeout =
        durationOr(
            name,
            m,
            "expectationsTimeout",
            base == null ? PoolConfig.DEFAULT_EXPECTATIONS_TIMEOUT : base.expectationsTimeout());
    Duration wait =
        durationOr(
            name,
            m,
            "pendingCandidateWait",
            base == null ? PoolConfig.DEFAULT_PENDING_WAIT : base.pendingCandidateWait());
    long cpu =
        m.containsKey("cpuMillisPerMember")
            ? longOf(name + ".cpuMillisPerMember", m.get("cpuMillisPerMember"))
            : base == null ? 0 : base.cpuMillisPerMember();
    long mem =
        m.containsKey("memoryBytesPerMember")
            ? longOf(name + ".memoryBytesPerMember", m.get("memoryBytesPerMember"))
            : base == null ? 0 : base.memoryBytesPerMember();
    return build(
        name,
        () ->
            new PoolConfig(
                pools, replicas, maxBatch, refill, cold, adopt, lag, gate, timeout, wait, cpu,
                mem));
  }

  /**
   * Runs a constructor; its IllegalArgumentException becomes a BadField: the field its message
   * starts with when that is a field of the same object ({@code "claimsPerSecond must be > 0"} →
   * {@code demand.claimsPerSecond}), else {@code fallback}.
   */
  private static <T> T build(String fallback, Supplier<T> s) {
    try {
      return s.get();
    } catch (BadField e) {
      throw e;
    } catch (IllegalArgumentException e) {
      String msg = e.getMessage() == null ? "invalid" : e.getMessage();
      int dot = fallback.lastIndexOf('.');
      String prefix = dot < 0 ? fallback + "." : fallback.substring(0, dot + 1);
      int sp = msg.indexOf(' ');
      String word = sp > 0 ? msg.substring(0, sp) : "";
      boolean known = POOL_KEYS.contains(word) || DEMAND_KEYS.contains(word);
      throw new BadField(known ? prefix + word : fallback, msg);
    }
  }

  private static final Set<String> DEMAND_KEYS =
      Set.of(
          "claimsPerSecond",
          "troughClaimsPerSecond",
          "peakClaimsPerSecond",
          "period",
          "duration",
          "baseClaimsPerSecond",
          "burstSize",
          "every",
          "offsets");

  private static void unknown(String prefix, Map<String, ?> m, Set<String> known) {
    for (String k : m.keySet()) {
      if (!known.contains(k)) {
        throw new BadField(prefix + k, "unknown field; known: " + new java.util.TreeSet<>(known));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> map(String field, Object o) {
    if (o instanceof Map<?, ?> m) {
      return (Map<String, ?>) m;
    }
    throw new BadField(field, o == null ? "missing" : "expected an object");
  }

  private static String string(String field, Object o) {
    if (o instanceof String s && !s.isBlank()) {
      return s.trim();
    }
    throw new BadField(field, o == null ? "missing" : "expected a string");
  }

  private static double number(String field, Object o) {
    if (o instanceof Number n) {
      return n.doubleValue();
    }
    if (o instanceof String s) {
      try {
        return Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        throw new BadField(field, "expected a number, got '" + s + "'");
      }
    }
    throw new BadField(field, o == null ? "missing" : "expected a number");
  }

  private static long longOf(String field, Object o) {
    double d = number(field, o);
    if (d != Math.rint(d) || Math.abs(d) > 1e15) {
      throw new BadField(field, "expected a whole number, got " + o);
    }
    return (long) d;
  }

  /** {@code m.get(key)} as an int, named {@code name.key} in errors; {@code dflt} when absent. */
  private static int intOr(String name, Map<String, ?> m, String key, Integer dflt) {
    return intOr(name + "." + key, m.get(key), dflt);
  }

  private static int intOr(String field, Object o, Integer dflt) {
    if (o == null) {
      if (dflt == null) {
        throw new BadField(field, "missing");
      }
      return dflt;
    }
    long v = longOf(field, o);
    if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
      throw new BadField(field, "out of range: " + v);
    }
    return (int) v;
  }

  private static boolean bool(String field, Object o) {
    if (o instanceof Boolean b) {
      return b;
    }
    if ("true".equals(o) || "false".equals(o)) {
      return Boolean.parseBoolean((String) o);
    }
    throw new BadField(field, "expected true or false");
  }

  private static Duration duration(String field, Object o) {
    if (o instanceof Number n) {
      if (!(n.doubleValue() >= 0) || Double.isInfinite(n.doubleValue())) {
        throw new BadField(field, "expected a duration >= 0, got " + n);
      }
      return Duration.ofNanos(Math.round(n.doubleValue() * 1e9));
    }
    if (o instanceof String s) {
      try {
        return Durations.parse(field, s);
      } catch (IllegalArgumentException e) {
        throw new BadField(
            field, "expected a duration like 500ms, 45s, 1h (or seconds), got '" + s + "'");
      }
    }
    throw new BadField(field, o == null ? "missing" : "expected a duration");
  }

  /**
   * {@code m.get(key)} as a duration, named {@code name.key} in errors; {@code dflt} when absent.
   */
  private static Duration durationOr(String name, Map<String, ?> m, String key, Duration dflt) {
    return durationOr(name + "." + key, m.get(key), dflt);
  }

  private static Duration durationOr(String field, Object o, Duration dflt) {
    if (o == null) {
      if (dflt == null) {
        throw new BadField(field, "missing");
      }
      return dflt;
    }
    return duration(field, o);
  }

  // ---- output

  /** The comparison as a JSON-shaped tree (seconds for latencies; null where there is no data). */
  public static Map<String, Object> toTree(WhatIfComparison c) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("seed", c.seed());
    out.put("claims", c.current().claims());
    out.put("durationSeconds", c.demand().duration().toNanos() / 1e9);
    out.put("current", result(c.current()));
    out.put("proposed", result(c.proposed()));
    Map<String, Object> delta = new LinkedHashMap<>();
    delta.put("warmHitRatio", diff(c.proposed().warmHitRatio(), c.current().warmHitRatio()));
    delta.put(
        "claimToReadyP95Seconds",
        diff(p95(c.proposed().claimToReady()), p95(c.current().claimToReady())));
    delta.put(
        "minReadyFraction", diff(c.proposed().minReadyFraction(), c.current().minReadyFraction()));
    delta.put("idleCpuCoreHours", c.proposed().idleCpuCoreHours() - c.current().idleCpuCoreHours());
    delta.put(
        "replicas", c.proposed().config().totalReplicas() - c.current().config().totalReplicas());
    out.put("delta", delta);
    return out;
  }

  private static Double diff(Double a, Double b) {
    return a == null || b == null ? null : a - b;
  }

  private static Double p95(WhatIfResult.Quantiles q) {
    return q == null ? null : seconds(q.p95());
  }

  private static Map<String, Object> result(WhatIfResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    PoolConfig c = r.config();
    Map<String, Object> cfg = new LinkedHashMap<>();
    cfg.put("pools", c.pools());
    cfg.put("replicas", c.replicas());
    cfg.put("maxBatch", c.maxBatch());
    cfg.put("refillRatePerPool", c.refillRatePerPool());
    cfg.put("coldStartP50", Durations.format(c.coldStart().p50()));
    cfg.put("coldStartP95", Durations.format(c.coldStart().p95()));
    cfg.put("warmAdoptionP50", Durations.format(c.warmAdoption().p50()));
    cfg.put("warmAdoptionP95", Durations.format(c.warmAdoption().p95()));
    cfg.put("watchLag", Durations.format(c.watchLag()));
    cfg.put("expectationsGate", c.expectationsGate());
    cfg.put("expectationsTimeout", Durations.format(c.expectationsTimeout()));
    cfg.put("pendingCandidateWait", Durations.format(c.pendingCandidateWait()));
    cfg.put("cpuMillisPerMember", c.cpuMillisPerMember());
    cfg.put("memoryBytesPerMember", c.memoryBytesPerMember());
    m.put("config", cfg);
    m.put("warmLaunches", r.warmLaunches());
    m.put("coldLaunches", r.coldLaunches());
    m.put("warmHitRatio", r.warmHitRatio());
    m.put("claimToReadySeconds", quantiles(r.claimToReady()));
    m.put("claimToReadyWarmSeconds", quantiles(r.claimToReadyWarm()));
    m.put("claimToReadyColdSeconds", quantiles(r.claimToReadyCold()));
    m.put("minReadyFraction", r.minReadyFraction());
    m.put("meanReadyMembers", r.meanReadyMembers());
    m.put("membersCreated", r.membersCreated());
    m.put("idleCpuCoreHours", r.idleCpuCoreHours());
    m.put("idleMemoryGibHours", r.idleMemoryGibHours());
    return m;
  }

  private static Map<String, Object> quantiles(WhatIfResult.Quantiles q) {
    if (q == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", q.count());
    m.put("p50", seconds(q.p50()));
    m.put("p95", seconds(q.p95()));
    m.put("p99", seconds(q.p99()));
    return m;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  /** The comparison as text: one line per measure, current and proposed side by side. */
  public static String toText(WhatIfComparison c) {
    StringBuilder b = new StringBuilder();
    WhatIfResult cur = c.current();
    WhatIfResult pro = c.proposed();
    b.append(
        String.format(
            Locale.ROOT,
            "what-if: %d claims over %s (seed %d)%n",
            cur.claims(),
            Durations.format(c.demand().duration()),
            c.seed()));
    row(b, "", "current", "proposed");
    row(b, "pools × replicas", shape(cur.config()), shape(pro.config()));
    row(
        b,
        "refill per pool",
        refill(cur.config().refillRatePerPool()),
        refill(pro.config().refillRatePerPool()));
    row(b, "warm-hit ratio", pct(cur.warmHitRatio()), pct(pro.warmHitRatio()));
    row(b, "claim-to-ready p50", q(cur.claimToReady(), 50), q(pro.claimToReady(), 50));
    row(b, "claim-to-ready p95", q(cur.claimToReady(), 95), q(pro.claimToReady(), 95));
    row(b, "claim-to-ready p99", q(cur.claimToReady(), 99), q(pro.claimToReady(), 99));
    row(b, "min ready fraction", pct(cur.minReadyFraction()), pct(pro.minReadyFraction()));
    row(
        b,
        "idle cost (cpu core-h)",
        String.format(Locale.ROOT, "%.1f", cur.idleCpuCoreHours()),
        String.format(Locale.ROOT, "%.1f", pro.idleCpuCoreHours()));
    row(
        b,
        "idle cost (memory GiB-h)",
        String.format(Locale.ROOT, "%.1f", cur.idleMemoryGibHours()),
        String.format(Locale.ROOT, "%.1f", pro.idleMemoryGibHours()));
    return b.toString();
  }

  private static void row(StringBuilder b, String name, String cur, String pro) {
    b.append(String.format(Locale.ROOT, "%-26s %14s %14s%n", name, cur, pro));
  }

  private static String shape(PoolConfig c) {
    return c.pools() + " × " + c.replicas();
  }

  private static String refill(double r) {
    return r == 0 ? "unpaced" : String.format(Locale.ROOT, "%.0f/s", r);
  }

  private static String pct(Double d) {
    return d == null ? "no data" : String.format(Locale.ROOT, "%.1f %%", 100 * d);
  }

  private static String q(WhatIfResult.Quantiles q, int p) {
    if (q == null) {
      return "no data";
    }
    Duration d = p == 50 ? q.p50() : p == 95 ? q.p95() : q.p99();
    return String.format(Locale.ROOT, "%.3f s", d.toNanos() / 1e9);
  }
}
