package org.sandboxslo.engine.sli;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-subject sliding-window state: time buckets of counts and latency sketches. Mutable, not
 * thread-safe; owned by {@link org.sandboxslo.engine.FleetEngine}.
 *
 * <p>Latencies are recorded in microseconds in sketches with HdrHistogram's layout for 2
 * significant digits ({@link LatencySketch}). Quantiles are reported as the median equivalent value
 * of the sketch bucket, so the relative error is at most 0.4 %.
 *
 * <p><b>Cost.</b> Recording is O(1): the bucket last written is remembered (consecutive events
 * almost always land in the same 10 s bucket, so the sorted map is searched once per bucket, not
 * once per claim), and each tracked window keeps a running aggregate (counts and sketches of the
 * buckets inside it) that the sample is added to as well. Moving a window forward subtracts the
 * buckets that slid out, and rolling fine buckets up into coarse ones happens when {@link
 * #maintain} is called, touching only the buckets that changed. A window read is then one pass over
 * its aggregate, independent of how many buckets it spans. Windows that are not tracked are merged
 * from the buckets on demand.
 */
public final class SliSeries {
  static final int SIGNIFICANT_DIGITS = 2;

  private static final double[] LATENCY_BOUNDS_SECONDS =
      Totals.LATENCY_BUCKETS_SECONDS.stream().mapToDouble(Double::doubleValue).toArray();

  private final long bucketNanos;

  /** Buckets older than this span behind the newest data are rolled up into coarse buckets. */
  private final long fineSpanNanos;

  /** Width of the rolled-up buckets (a multiple of the bucket width); equal to it when off. */
  private final long coarseNanos;

  private final TreeMap<Long, Bucket> buckets = new TreeMap<>();

  /** The bucket written last and its key (a one-entry cache in front of the sorted map). */
  private long lastKey = Long.MIN_VALUE;

  private Bucket last;

  /** The map key of {@link #last} (its start; earlier than {@link #lastKey} for a coarse one). */
  private long lastMapKey;

  /** No fine bucket starts before this (roll-ups look from here on, not from the first bucket). */
  private long lowestFine = Long.MIN_VALUE;

  /** Running aggregates of the tracked windows: Σ buckets whose key ≥ {@code from}. */
  private final Aggregate[] tracked;

  private long warmTotal;
  private long coldTotal;
  private long resumeSuccessTotal;
  private long resumeErrorTotal;
  private long resumeTimeoutTotal;
  private long eligibleWarmTotal;
  private long eligibleColdTotal;
  private final long[] warmLatencyBuckets = new long[LATENCY_BOUNDS_SECONDS.length + 1];
  private final long[] coldLatencyBuckets = new long[LATENCY_BOUNDS_SECONDS.length + 1];
  private double warmLatencySumSeconds;
  private double coldLatencySumSeconds;

  /** The kind of latency sample. */
  public enum Sample {
    CLAIM_WARM,
    CLAIM_COLD,
    COLD_START,
    RESUME
  }

  /** How a resume ended. */
  public enum ResumeResult {
    SUCCESS,
    ERROR,
    TIMEOUT
  }

  public SliSeries(Duration bucketWidth) {
    this(bucketWidth, Duration.ZERO, bucketWidth);
  }

  /**
   * A series that keeps {@code bucketWidth} resolution for the newest {@code fineSpan} and rolls
   * older buckets up into {@code coarseWidth} buckets, so long windows cost a fraction of the
   * memory and merge time. Windows no longer than {@code fineSpan} keep the fine resolution.
   *
   * @throws IllegalArgumentException when {@code coarseWidth} is not a multiple of the bucket width
   */
  public SliSeries(Duration bucketWidth, Duration fineSpan, Duration coarseWidth) {
    this(bucketWidth, fineSpan, coarseWidth, List.of());
  }

  /**
   * As {@link #SliSeries(Duration, Duration, Duration)}, with running aggregates for {@code
   * windows} (the engine's configured windows), so reading them costs one pass each.
   *
   * @throws IllegalArgumentException when {@code coarseWidth} is not a multiple of the bucket width
   */
  public SliSeries(
      Duration bucketWidth, Duration fineSpan, Duration coarseWidth, List<Duration> windows) {
    this.bucketNanos = bucketWidth.toNanos();
    this.fineSpanNanos = fineSpan.toNanos();
    this.coarseNanos = coarseWidth.toNanos();
    if (coarseNanos < bucketNanos || coarseNanos % bucketNanos != 0) {
      throw new IllegalArgumentException(
          "coarse width " + coarseWidth + " must be a multiple of the bucket width " + bucketWidth);
    }
    this.tracked = new Aggregate[windows.size()];
    for (int i = 0; i < tracked.length; i++) {
      tracked[i] = new Aggregate(windows.get(i));
    }
  }

  /** Counts and sketches of one bucket, or of a window (the sum of its buckets). */
  private static class Counts {
    long warm;
    long cold;
    long resumeAttempts;
    long resumeErrors;
    LatencySketch claimWarm;
    LatencySketch claimCold;
    LatencySketch coldStart;
    LatencySketch resume;

    /** Any change since the last read (windows only; buckets ignore it). */
    boolean changed = true;

    void add(Counts o, int sign) {
      changed = true;
      warm += sign * o.warm;
      cold += sign * o.cold;
      resumeAttempts += sign * o.resumeAttempts;
      resumeErrors += sign * o.resumeErrors;
      claimWarm = merge(claimWarm, o.claimWarm, sign);
      claimCold = merge(claimCold, o.claimCold, sign);
      coldStart = merge(coldStart, o.coldStart, sign);
      resume = merge(resume, o.resume, sign);
    }

    private static LatencySketch merge(LatencySketch into, LatencySketch from, int sign) {
      if (from == null || from.total() == 0) {
        return into;
      }
      LatencySketch out = into != null ? into : LatencySketch.dense();
      if (sign > 0) {
        out.add(from);
      } else {
        out.subtract(from);
      }
      return out;
    }
  }

  private static final class Bucket extends Counts {
    final long width;

    Bucket(long width) {
      this.width = width;
    }

    /** Absorbs a bucket rolled up into this one (its sketches may be taken over). */
    void absorb(Bucket o) {
      warm += o.warm;
      cold += o.cold;
      resumeAttempts += o.resumeAttempts;
      resumeErrors += o.resumeErrors;
      claimWarm = take(claimWarm, o.claimWarm);
      claimCold = take(claimCold, o.claimCold);
      coldStart = take(coldStart, o.coldStart);
      resume = take(resume, o.resume);
    }

    private static LatencySketch take(LatencySketch into, LatencySketch from) {
      if (from == null) {
        return into;
      }
      if (into == null) {
        return from;
      }
      into.add(from);
      return into;
    }
  }

  /** A tracked window: the sum of the buckets whose key is ≥ {@code from}. */
  private static final class Aggregate extends Counts {
    final Duration window;
    long from = Long.MIN_VALUE;

    /** The SLIs last read, valid while nothing changed. */
    WindowSlis read;

    Aggregate(Duration window) {
      this.window = window;
    }
  }

  /** Buckets are keyed by their start (epoch nanos); fine and coarse ones share the map. */
  private Bucket bucket(Instant at) {
    long start = Math.floorDiv(nanos(at), bucketNanos) * bucketNanos;
    if (start == lastKey && last != null) {
      return last;
    }
    Map.Entry<Long, Bucket> floor = buckets.floorEntry(start);
    Bucket b;
    long key;
    if (floor != null
        && floor.getValue().width > bucketNanos
        && start < floor.getKey() + floor.getValue().width) {
      b = floor.getValue(); // a late event for an already rolled-up period
      key = floor.getKey();
    } else if (floor != null && floor.getKey() == start) {
      b = floor.getValue();
      key = start;
    } else {
      b = new Bucket(bucketNanos);
      buckets.put(start, b);
      key = start;
      lowestFine = Math.min(lowestFine, start);
      if (start < maintainedLimit || start < maintainedStart) {
        bucketBelowMaintained = true;
      }
    }
    lastKey = start;
    last = b;
    lastMapKey = key;
    return b;
  }

  /** The map key of the bucket {@link #bucket} returned last. */
  private long keyOf(Bucket b) {
    return lastMapKey;
  }

  /** Rolls fine buckets that ended more than the fine span before {@code now} into coarse ones. */
  private void rollUp(Instant now) {
    if (coarseNanos == bucketNanos || fineSpanNanos <= 0) {
      return;
    }
    long limit = Math.floorDiv(nanos(now) - fineSpanNanos - bucketNanos, coarseNanos) * coarseNanos;
    if (limit <= lowestFine) {
      return;
    }
    List<Long> old = new ArrayList<>();
    for (Map.Entry<Long, Bucket> e : buckets.subMap(lowestFine, true, limit, false).entrySet()) {
      if (e.getValue().width == bucketNanos) {
        old.add(e.getKey());
      }
    }
    lowestFine = limit; // every fine bucket below the limit is rolled up now
    if (old.isEmpty()) {
      return;
    }
    invalidateLast();
    for (Long start : old) {
      Bucket fine = buckets.remove(start);
      long cs = Math.floorDiv(start, coarseNanos) * coarseNanos;
      for (Aggregate a : tracked) {
        if (start >= a.from && cs < a.from) {
          a.add(fine, -1); // its data now sits in a bucket that starts before the window
        }
      }
      Bucket coarse = buckets.get(cs);
      if (coarse == null) {
        coarse = new Bucket(coarseNanos);
        buckets.put(cs, coarse);
      }
      coarse.absorb(fine);
    }
  }

  private void invalidateLast() {
    last = null;
    lastKey = Long.MIN_VALUE;
  }

  /**
   * Records a claim that became Ready at {@code readyAt}.
   *
   * @param warm served by an adopted warm member
   * @param latency claim first seen → Ready; null when unknown (counted, not sketched); negative
   *     values (clock skew) are recorded as 0
   */
  public void recordClaim(Instant readyAt, boolean warm, Duration latency) {
    recordClaim(readyAt, warm, latency, true);
  }

  /**
   * Records a claim that became Ready at {@code readyAt}.
   *
   * @param eligible the claim set neither env nor volumeClaimTemplates, so a pool could serve it
   */
  public void recordClaim(Instant readyAt, boolean warm, Duration latency, boolean eligible) {
    totals = null;
    if (eligible) {
      if (warm) {
        eligibleWarmTotal++;
      } else {
        eligibleColdTotal++;
      }
    }
    long micros = -1;
    if (latency != null) {
      long nanos = Math.max(0, latency.toNanos());
      micros = nanos / 1_000;
      double secs = nanos / 1e9;
      if (warm) {
        warmLatencySumSeconds += secs;
      } else {
        coldLatencySumSeconds += secs;
      }
      int i = 0;
      while (i < LATENCY_BOUNDS_SECONDS.length && secs > LATENCY_BOUNDS_SECONDS[i]) {
        i++;
      }
      (warm ? warmLatencyBuckets : coldLatencyBuckets)[i]++;
    }
    if (warm) {
      warmTotal++;
    } else {
      coldTotal++;
    }
    Bucket b = bucket(readyAt);
    long key = keyOf(b);
    recordClaim(b, warm, micros);
    for (Aggregate a : tracked) {
      if (key >= a.from) {
        recordClaim(a, warm, micros);
      }
    }
  }

  private static void recordClaim(Counts c, boolean warm, long micros) {
    c.changed = true;
    if (warm) {
      c.warm++;
      if (micros >= 0) {
        c.claimWarm = record(c.claimWarm, micros, c instanceof Bucket);
      }
    } else {
      c.cold++;
      if (micros >= 0) {
        c.claimCold = record(c.claimCold, micros, c instanceof Bucket);
      }
    }
  }

  /** Records a pool member that became Ready {@code latency} after it was created. */
  public void recordColdStart(Instant readyAt, Duration latency) {
    long micros = Math.max(0, latency.toNanos() / 1_000);
    Bucket b = bucket(readyAt);
    long key = keyOf(b);
    b.coldStart = record(b.coldStart, micros, true);
    for (Aggregate a : tracked) {
      if (key >= a.from) {
        a.changed = true;
        a.coldStart = record(a.coldStart, micros, false);
      }
    }
  }

  /**
   * Records the end of a resume.
   *
   * @param latency mode flip seen → Ready seen, for {@link ResumeResult#SUCCESS}; ignored otherwise
   */
  public void recordResume(Instant endedAt, ResumeResult result, Duration latency) {
    totals = null;
    switch (result) {
      case SUCCESS -> resumeSuccessTotal++;
      case ERROR -> resumeErrorTotal++;
      case TIMEOUT -> resumeTimeoutTotal++;
    }
    long micros =
        result == ResumeResult.SUCCESS && latency != null
            ? Math.max(0, latency.toNanos() / 1_000)
            : -1;
    Bucket b = bucket(endedAt);
    long key = keyOf(b);
    recordResume(b, result, micros);
    for (Aggregate a : tracked) {
      if (key >= a.from) {
        recordResume(a, result, micros);
      }
    }
  }

  private static void recordResume(Counts c, ResumeResult result, long micros) {
    c.changed = true;
    c.resumeAttempts++;
    if (result != ResumeResult.SUCCESS) {
      c.resumeErrors++;
    } else if (micros >= 0) {
      c.resume = record(c.resume, micros, c instanceof Bucket);
    }
  }

  private static LatencySketch record(LatencySketch s, long micros, boolean bucket) {
    LatencySketch out = s != null ? s : bucket ? LatencySketch.sparse() : LatencySketch.dense();
    out.record(micros);
    return out;
  }

  /** Drops buckets that start before {@code oldest}. */
  public void evictBefore(Instant oldest) {
    long start = Math.floorDiv(nanos(oldest), bucketNanos) * bucketNanos;
    if (buckets.isEmpty() || buckets.firstKey() >= start) {
      return;
    }
    // a coarse bucket is dropped once it has ended before {@code oldest}
    var it = buckets.headMap(start, false).entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Long, Bucket> e = it.next();
      if (e.getKey() + e.getValue().width <= start) {
        for (Aggregate a : tracked) {
          if (e.getKey() >= a.from) {
            a.add(e.getValue(), -1);
          }
        }
        if (e.getValue() == last) {
          invalidateLast();
        }
        it.remove();
      }
    }
  }

  /**
   * Housekeeping at {@code now}: rolls old fine buckets up and drops buckets older than {@code
   * oldest}.
   */
  public void maintain(Instant now, Instant oldest) {
    long limit =
        coarseNanos == bucketNanos || fineSpanNanos <= 0
            ? Long.MIN_VALUE
            : Math.floorDiv(nanos(now) - fineSpanNanos - bucketNanos, coarseNanos) * coarseNanos;
    long start = Math.floorDiv(nanos(oldest), bucketNanos) * bucketNanos;
    if (limit == maintainedLimit && start == maintainedStart && !bucketBelowMaintained) {
      return; // same bucket boundaries as last time and no bucket created below them since
    }
    rollUp(now);
    evictBefore(oldest);
    maintainedLimit = limit;
    maintainedStart = start;
    bucketBelowMaintained = false;
  }

  /** Roll-up limit and eviction start of the last {@link #maintain}. */
  private long maintainedLimit = Long.MIN_VALUE;

  private long maintainedStart = Long.MIN_VALUE;

  /** A bucket was created below those since (a late event): the next maintain must run. */
  private boolean bucketBelowMaintained;

  public boolean isEmpty() {
    return buckets.isEmpty() && warmTotal == 0 && coldTotal == 0 && resumeAttempts() == 0;
  }

  private long resumeAttempts() {
    return resumeSuccessTotal + resumeErrorTotal + resumeTimeoutTotal;
  }

  /** The totals last built, valid until the next sample. */
  private Totals totals;

  public Totals totals() {
    if (totals == null) {
      totals = buildTotals();
    }
    return totals;
  }

  private Totals buildTotals() {
    return new Totals(
        warmTotal,
        coldTotal,
        resumeSuccessTotal,
        resumeErrorTotal,
        resumeTimeoutTotal,
        eligibleWarmTotal,
        eligibleColdTotal,
        boxed(warmLatencyBuckets),
        boxed(coldLatencyBuckets),
        warmLatencySumSeconds,
        coldLatencySumSeconds);
  }

  private static List<Long> boxed(long[] a) {
    List<Long> out = new ArrayList<>(a.length);
    for (long x : a) {
      out.add(x);
    }
    return out;
  }

  /**
   * The SLIs over {@code (now - window, now]} at bucket resolution: buckets whose start is at or
   * after {@code now - window} (and any later ones).
   */
  public WindowSlis window(Instant now, Duration window) {
    long from =
        Math.floorDiv(nanos(now.minus(window)) + bucketNanos - 1, bucketNanos) * bucketNanos;
    for (Aggregate a : tracked) {
      if (a.window == window || a.window.equals(window)) {
        slide(a, from);
        if (a.changed || a.read == null) {
          a.read = slis(window, a);
          a.changed = false;
        }
        return a.read;
      }
    }
    Counts sum = new Counts();
    for (Bucket b : buckets.tailMap(from, true).values()) {
      sum.add(b, 1);
    }
    return slis(window, sum);
  }

  /** Moves a tracked window's start to {@code from}: buckets that left go, buckets that came in. */
  private void slide(Aggregate a, long from) {
    if (from > a.from) {
      for (Bucket b : buckets.subMap(a.from, true, from, false).values()) {
        a.add(b, -1);
      }
    } else if (from < a.from) {
      for (Bucket b : buckets.subMap(from, true, a.from, false).values()) {
        a.add(b, 1);
      }
    }
    a.from = from;
  }

  private static WindowSlis slis(Duration window, Counts c) {
    long launches = c.warm + c.cold;
    return new WindowSlis(
        window,
        c.warm,
        c.cold,
        launches == 0 ? null : (double) c.warm / launches,
        LatencySketch.summary(c.claimWarm, c.claimCold),
        LatencySketch.summary(c.claimWarm, null),
        LatencySketch.summary(c.claimCold, null),
        LatencySketch.summary(c.coldStart, null),
        c.resumeAttempts,
        c.resumeErrors,
        c.resumeAttempts == 0 ? null : (double) c.resumeErrors / c.resumeAttempts,
        LatencySketch.summary(c.resume, null));
  }

  private static long nanos(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }

  /** Buckets currently held (for tests and memory accounting). */
  public int bucketCount() {
    return buckets.size();
  }
}
