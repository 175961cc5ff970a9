package org.sandboxslo.engine.slo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Good/valid event counts of one SLO in time buckets, and their evaluation. Mutable, not
 * thread-safe (owned by the engine). Two resolutions keep memory bounded: fine buckets (the largest
 * of 1 s, 2 s, 5 s, 10 s, 15 s, 30 s, 1 m, … not above the shortest short window / 5) for the
 * burn-rate windows, and coarse buckets (the smallest such width ≥ period / 672, a multiple of the
 * fine width: 1 h for 28 d) for the budget over the whole period. Exclusions apply to whole buckets
 * by their start time. Events are attributed to the bucket holding their time, so windows have
 * bucket resolution.
 */
public final class SloLedger {
  private final SloDefinition definition;
  private final long fineNanos;
  private final long coarseNanos;
  private final Duration fineRetention;
  private final TreeMap<Long, long[]> fine = new TreeMap<>();
  private final TreeMap<Long, long[]> coarse = new TreeMap<>();
  private final List<BudgetExclusion> exclusions = new ArrayList<>();

  /** Time slices: slice index → {sampled, bad}. */
  private final TreeMap<Long, boolean[]> slices = new TreeMap<>();

  /** Bucket widths that align with wall-clock minutes and hours, so exclusions align too. */
  private static final long[] NICE =
      java.util.stream.LongStream.of(1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600)
          .map(x -> x * 1_000_000_000L)
          .toArray();

  public SloLedger(SloDefinition definition) {
    this.definition = Objects.requireNonNull(definition, "definition");
    Duration shortest =
        definition.tiers().stream()
            .map(BurnRateTier::shortWindow)
            .min(Duration::compareTo)
            .orElse(definition.period());
    long fineWanted = Math.max(NICE[0], shortest.toNanos() / 5);
    long f = NICE[0];
    for (long n : NICE) {
      if (n <= fineWanted) {
        f = n;
      }
    }
    this.fineNanos = f;
    long coarseWanted = Math.max(fineNanos, definition.period().toNanos() / 672);
    long c = -1;
    for (long n : NICE) {
      if (n >= coarseWanted && n % fineNanos == 0) {
        c = n;
        break;
      }
    }
    if (c < 0) {
      long hour = NICE[NICE.length - 1];
      c = (coarseWanted + hour - 1) / hour * hour;
    }
    this.coarseNanos = c;
    Duration longest =
        definition.tiers().stream()
            .map(BurnRateTier::longWindow)
            .max(Duration::compareTo)
            .orElse(Duration.ZERO);
    this.fineRetention = longest.plusNanos(fineNanos);
  }

  public SloDefinition definition() {
    return definition;
  }

  /** Width of the fine buckets (burn-rate window resolution). */
  public Duration resolution() {
    return Duration.ofNanos(fineNanos);
  }

  /** Adds a maintenance window; events inside it stop counting (also retroactively). */
  public void exclude(BudgetExclusion e) {
    exclusions.add(Objects.requireNonNull(e, "exclusion"));
  }

  /** Removes a maintenance window (revoked); its events count again. False when not present. */
  public boolean revoke(BudgetExclusion e) {
    return exclusions.remove(e);
  }

  public List<BudgetExclusion> exclusions() {
    return List.copyOf(exclusions);
  }

  /**
   * Records events at {@code at}.
   *
   * @param good good events, 0 ≤ good ≤ valid
   * @param valid valid events, ≥ 0
   */
  public void record(Instant at, long good, long valid) {
    if (good < 0 || valid < 0 || good > valid) {
      throw new IllegalArgumentException(
          "need 0 <= good <= valid, got good=" + good + " valid=" + valid);
    }
    add(fine, idx(at, fineNanos), good, valid);
    add(coarse, idx(at, coarseNanos), good, valid);
  }

  /**
   * Records one sample of a time-slice SLO: the fine bucket holding {@code at} is a slice; it is
   * valid once sampled, and bad if any sample in it was bad.
   */
  public void recordSlice(Instant at, boolean good) {
    long i = idx(at, fineNanos);
    boolean[] s = slices.computeIfAbsent(i, x -> new boolean[2]);
    boolean wasCounted = s[0];
    boolean wasBad = s[1];
    s[0] = true;
    s[1] = s[1] || !good;
    // keep the count buckets in step: undo the previous contribution of this slice
    if (wasCounted) {
      add(fine, i, wasBad ? 0 : -1, -1);
      add(coarse, idx(at, coarseNanos), wasBad ? 0 : -1, -1);
    }
    record(Instant.ofEpochSecond(0, 0).plusNanos(i * fineNanos), s[1] ? 0 : 1, 1);
  }

  private static void add(TreeMap<Long, long[]> m, long i, long good, long valid) {
    long[] c = m.computeIfAbsent(i, x -> new long[2]);
    c[0] += good;
    c[1] += valid;
  }

  private static long idx(Instant t, long width) {
    return Math.floorDiv(
        Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano()), width);
  }

  private long[] sum(TreeMap<Long, long[]> m, long width, Instant now, Duration window) {
    long from = Math.floorDiv(idx(now.minus(window), 1) + width - 1, width);
    long good = 0;
    long valid = 0;
    for (Map.Entry<Long, long[]> e : m.tailMap(from, true).entrySet()) {
      Instant start = Instant.ofEpochSecond(0).plusNanos(e.getKey() * width);
      if (excluded(start)) {
        continue;
      }
      good += e.getValue()[0];
      valid += e.getValue()[1];
    }
    return new long[] {good, valid};
  }

  private boolean excluded(Instant t) {
    for (BudgetExclusion x : exclusions) {
      if (x.covers(t)) {
        return true;
      }
    }
    return false;
  }

  /** Evaluates the SLO at {@code now} and evicts buckets no window needs any more. */
  public SloStatus evaluate(Instant now) {
    evict(now);
    long[] p = sum(coarse, coarseNanos, now, definition.period());
    long good = p[0];
    long valid = p[1];
    double budget = definition.errorBudget();
    Double sli = valid == 0 ? null : (double) good / valid;
    Double consumed = valid == 0 ? null : (valid - good) / (valid * budget);
    Double remaining = consumed == null ? null : 1 - consumed;
    List<SloStatus.TierStatus> tiers = new ArrayList<>();
    boolean firing = false;
    Double fastBurn = null;
    for (BurnRateTier t : definition.tiers()) {
      SloStatus.WindowBurn lw = burn(now, t.longWindow());
      SloStatus.WindowBurn sw = burn(now, t.shortWindow());
      boolean f =
          lw.sufficient()
              && sw.sufficient()
              && lw.burnRate() != null
              && sw.burnRate() != null
              && lw.burnRate() >= t.factor()
              && sw.burnRate() >= t.factor();
      firing |= f;
      if (fastBurn == null && lw.burnRate() != null) {
        fastBurn = lw.burnRate();
      }
      tiers.add(new SloStatus.TierStatus(t, lw, sw, f));
    }
    SloStatus.State state;
    Duration tte = null;
    if (valid == 0) {
      state = SloStatus.State.NO_DATA;
    } else if (remaining <= 0) {
      state = SloStatus.State.EXHAUSTED;
      tte = Duration.ZERO;
    } else {
      state = firing ? SloStatus.State.BURNING : SloStatus.State.OK;
      if (fastBurn != null && fastBurn > 0) {
        tte = Duration.ofMillis((long) (remaining * definition.period().toMillis() / fastBurn));
      }
    }
    return new SloStatus(definition, now, good, valid, sli, consumed, remaining, tiers, tte, state);
  }

  private SloStatus.WindowBurn burn(Instant now, Duration window) {
    long[] c = sum(fine, fineNanos, now, window);
    long good = c[0];
    long valid = c[1];
    Double ratio = valid == 0 ? null : (double) (valid - good) / valid;
    Double rate = ratio == null ? null : ratio / definition.errorBudget();
    return new SloStatus.WindowBurn(
        window, good, valid, ratio, rate, valid > 0 && valid >= definition.minEvents());
  }

  private void evict(Instant now) {
    fine.headMap(idx(now.minus(fineRetention), fineNanos), false).clear();
    slices.headMap(idx(now.minus(fineRetention), fineNanos), false).clear();
    coarse
        .headMap(idx(now.minus(definition.period()).minusNanos(coarseNanos), coarseNanos), false)
        .clear();
  }

  /**
   * One stored bucket (budget history): counts of events whose time falls in {@code [start, start +
   * width)}.
   *
   * @param resolution {@code fine} (burn-rate windows) or {@code coarse} (the period)
   * @param start bucket start
   * @param width bucket width, &gt; 0
   * @param good good events, 0 ≤ good ≤ valid
   * @param valid valid events
   */
  public record Bucket(String resolution, Instant start, Duration width, long good, long valid) {
    public Bucket {
      Objects.requireNonNull(resolution, "resolution");
      Objects.requireNonNull(start, "start");
      if (!resolution.equals("fine") && !resolution.equals("coarse")) {
        throw new IllegalArgumentException("resolution must be fine or coarse, got " + resolution);
      }
      if (width == null || width.isZero() || width.isNegative()) {
        throw new IllegalArgumentException("bucket width must be > 0, got " + width);
      }
      if (good < 0 || valid < 0 || good > valid) {
        throw new IllegalArgumentException(
            "need 0 <= good <= valid, got good=" + good + " valid=" + valid);
      }
    }
  }

  /** Width of the coarse buckets (period budget resolution). */
  public Duration coarseResolution() {
    return Duration.ofNanos(coarseNanos);
  }

  /**
   * The fine and coarse buckets that end after {@code since} (all when null), oldest first within
   * each resolution, for persisting the budget history.
   */
  public List<Bucket> buckets(Instant since) {
    List<Bucket> out = new ArrayList<>();
    export(out, "fine", fine, fineNanos, since);
    export(out, "coarse", coarse, coarseNanos, since);
    return out;
  }

  private static void export(
      List<Bucket> out, String res, TreeMap<Long, long[]> m, long width, Instant since) {
    long from = since == null ? Long.MIN_VALUE : Math.floorDiv(idx(since, 1), width);
    for (Map.Entry<Long, long[]> e : m.tailMap(from, true).entrySet()) {
      long[] c = e.getValue();
      if (c[1] > 0 || c[0] > 0) {
        out.add(
            new Bucket(
                res,
                Instant.ofEpochSecond(0).plusNanos(e.getKey() * width),
                Duration.ofNanos(width),
                Math.max(0, c[0]),
                Math.max(0, c[1])));
      }
    }
  }

  /**
   * Re-feeds a stored bucket after a restart. A bucket whose width is not this ledger's fine or
   * coarse width (the definition changed) is ignored and false returned. When the ledger already
   * counts events in that bucket (re-listed objects fed again), the pair with more valid events is
   * kept, so history and re-fed events are not counted twice.
   */
  public boolean restore(Bucket b) {
    long w = b.width().toNanos();
    TreeMap<Long, long[]> m = b.resolution().equals("fine") ? fine : coarse;
    long width = b.resolution().equals("fine") ? fineNanos : coarseNanos;
    if (w != width) {
      return false;
    }
    long i = idx(b.start(), width);
    long[] c = m.computeIfAbsent(i, x -> new long[2]);
    if (b.valid() > c[1]) {
      c[0] = b.good();
      c[1] = b.valid();
    }
    return true;
  }

  /** Buckets held (memory accounting). */
  public int bucketCount() {
    return fine.size() + coarse.size() + slices.size();
  }
}
