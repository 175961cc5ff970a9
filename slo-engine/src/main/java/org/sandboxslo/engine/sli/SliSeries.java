package org.sandboxslo.engine.sli;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Per-subject sliding-window state: time buckets of counts and HdrHistogram latency sketches.
 * Mutable, not thread-safe; owned by {@link org.sandboxslo.engine.FleetEngine}.
 *
 * <p>Latencies are recorded in microseconds in histograms with 2 significant digits (auto-resizing,
 * allocated on first use). Quantiles are reported as the median equivalent value of the sketch
 * bucket, so the relative error is at most 0.4 %.
 */
public final class SliSeries {
  static final int SIGNIFICANT_DIGITS = 2;

  private final long bucketNanos;

  /** Buckets older than this span behind the newest data are rolled up into coarse buckets. */
  private final long fineSpanNanos;

  /** Width of the rolled-up buckets (a multiple of the bucket width); equal to it when off. */
  private final long coarseNanos;

  private final TreeMap<Long, Bucket> buckets = new TreeMap<>();
  private long warmTotal;
  private long coldTotal;
  private long resumeSuccessTotal;
  private long resumeErrorTotal;
  private long resumeTimeoutTotal;
  private long eligibleWarmTotal;
  private long eligibleColdTotal;
  private final long[] warmLatencyBuckets = new long[Totals.LATENCY_BUCKETS_SECONDS.size() + 1];
  private final long[] coldLatencyBuckets = new long[Totals.LATENCY_BUCKETS_SECONDS.size() + 1];
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
    this.bucketNanos = bucketWidth.toNanos();
    this.fineSpanNanos = fineSpan.toNanos();
    this.coarseNanos = coarseWidth.toNanos();
    if (coarseNanos < bucketNanos || coarseNanos % bucketNanos != 0) {
      throw new IllegalArgumentException(
          "coarse width " + coarseWidth + " must be a multiple of the bucket width " + bucketWidth);
    }
  }

  private static final class Bucket {
    final long width;
    long warm;
    long cold;
    long resumeAttempts;
    long resumeErrors;
    AbstractHistogram claimWarm;
    AbstractHistogram claimCold;
    AbstractHistogram coldStart;
    AbstractHistogram resume;

    Bucket(long width) {
      this.width = width;
    }

    void absorb(Bucket o) {
      warm += o.warm;
      cold += o.cold;
      resumeAttempts += o.resumeAttempts;
      resumeErrors += o.resumeErrors;
      claimWarm = merge(claimWarm, o.claimWarm);
      claimCold = merge(claimCold, o.claimCold);
      coldStart = merge(coldStart, o.coldStart);
      resume = merge(resume, o.resume);
    }

    private static AbstractHistogram merge(AbstractHistogram into, AbstractHistogram from) {
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

  /** Buckets are keyed by their start (epoch nanos); fine and coarse ones share the map. */
  private Bucket bucket(Instant at) {
    long start = Math.floorDiv(nanos(at), bucketNanos) * bucketNanos;
    Map.Entry<Long, Bucket> coarse = buckets.floorEntry(start);
    if (coarse != null
        && coarse.getValue().width > bucketNanos
        && start < coarse.getKey() + coarse.getValue().width) {
      return coarse.getValue(); // a late event for an already rolled-up period
    }
    return buckets.computeIfAbsent(start, i -> new Bucket(bucketNanos));
  }

  /** Rolls fine buckets that ended more than the fine span before {@code now} into coarse ones. */
  private void rollUp(Instant now) {
    if (coarseNanos == bucketNanos || fineSpanNanos <= 0) {
      return;
    }
    long limit = Math.floorDiv(nanos(now) - fineSpanNanos - bucketNanos, coarseNanos) * coarseNanos;
    List<Long> old = new ArrayList<>();
    for (Map.Entry<Long, Bucket> e : buckets.headMap(limit, false).entrySet()) {
      if (e.getValue().width == bucketNanos) {
        old.add(e.getKey());
      }
    }
    for (Long start : old) {
      Bucket fine = buckets.remove(start);
      long cs = Math.floorDiv(start, coarseNanos) * coarseNanos;
      buckets.computeIfAbsent(cs, i -> new Bucket(coarseNanos)).absorb(fine);
    }
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
    if (eligible) {
      if (warm) {
        eligibleWarmTotal++;
      } else {
        eligibleColdTotal++;
      }
    }
    if (latency != null) {
      double secs = Math.max(0, latency.toNanos()) / 1e9;
      if (warm) {
        warmLatencySumSeconds += secs;
      } else {
        coldLatencySumSeconds += secs;
      }
      int i = 0;
      while (i < Totals.LATENCY_BUCKETS_SECONDS.size()
          && secs > Totals.LATENCY_BUCKETS_SECONDS.get(i)) {
        i++;
      }
      (warm ? warmLatencyBuckets : coldLatencyBuckets)[i]++;
    }
    Bucket b = bucket(readyAt);
    if (warm) {
      b.warm++;
      warmTotal++;
    } else {
      b.cold++;
      coldTotal++;
    }
    if (latency != null) {
      if (warm) {
        b.claimWarm = record(b.claimWarm, latency);
      } else {
        b.claimCold = record(b.claimCold, latency);
      }
    }
  }

  /** Records a pool member that became Ready {@code latency} after it was created. */
  public void recordColdStart(Instant readyAt, Duration latency) {
    Bucket b = bucket(readyAt);
    b.coldStart = record(b.coldStart, latency);
  }

  /**
   * Records the end of a resume.
   *
   * @param latency mode flip seen → Ready seen, for {@link ResumeResult#SUCCESS}; ignored otherwise
   */
  public void recordResume(Instant endedAt, ResumeResult result, Duration latency) {
    Bucket b = bucket(endedAt);
    b.resumeAttempts++;
    switch (result) {
      case SUCCESS -> {
        resumeSuccessTotal++;
        if (latency != null) {
          b.resume = record(b.resume, latency);
        }
      }
      case ERROR -> {
        b.resumeErrors++;
        resumeErrorTotal++;
      }
      case TIMEOUT -> {
        b.resumeErrors++;
        resumeTimeoutTotal++;
      }
    }
  }

  /** Per-bucket sketches count in ints (a bucket never sees 2^31 samples): half the memory. */
  private static AbstractHistogram record(AbstractHistogram h, Duration d) {
    AbstractHistogram out = h != null ? h : new IntCountsHistogram(SIGNIFICANT_DIGITS);
    long micros = Math.max(0, d.toNanos() / 1_000);
    out.recordValue(micros);
    return out;
  }

  /** Drops buckets that start before {@code oldest}. */
  public void evictBefore(Instant oldest) {
    long start = Math.floorDiv(nanos(oldest), bucketNanos) * bucketNanos;
    // a coarse bucket is dropped once it has ended before {@code oldest}
    buckets
        .headMap(start, false)
        .entrySet()
        .removeIf(e -> e.getKey() + e.getValue().width <= start);
  }

  /**
   * Housekeeping at {@code now}: rolls old fine buckets up and drops buckets older than {@code
   * oldest}.
   */
  public void maintain(Instant now, Instant oldest) {
    rollUp(now);
    evictBefore(oldest);
  }

  public boolean isEmpty() {
    return buckets.isEmpty() && warmTotal == 0 && coldTotal == 0 && resumeAttempts() == 0;
  }

  private long resumeAttempts() {
    return resumeSuccessTotal + resumeErrorTotal + resumeTimeoutTotal;
  }

  public Totals totals() {
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
    Map<Long, Bucket> in = buckets.tailMap(from, true);
    long warm = 0;
    long cold = 0;
    long attempts = 0;
    long errors = 0;
    Histogram warmH = new Histogram(SIGNIFICANT_DIGITS);
    Histogram coldH = new Histogram(SIGNIFICANT_DIGITS);
    Histogram coldStartH = new Histogram(SIGNIFICANT_DIGITS);
    Histogram resumeH = new Histogram(SIGNIFICANT_DIGITS);
    for (Bucket b : in.values()) {
      warm += b.warm;
      cold += b.cold;
      attempts += b.resumeAttempts;
      errors += b.resumeErrors;
      addIfPresent(warmH, b.claimWarm);
      addIfPresent(coldH, b.claimCold);
      addIfPresent(coldStartH, b.coldStart);
      addIfPresent(resumeH, b.resume);
    }
    Histogram allH = new Histogram(SIGNIFICANT_DIGITS);
    allH.add(warmH);
    allH.add(coldH);
    long launches = warm + cold;
    return new WindowSlis(
        window,
        warm,
        cold,
        launches == 0 ? null : (double) warm / launches,
        summary(allH),
        summary(warmH),
        summary(coldH),
        summary(coldStartH),
        attempts,
        errors,
        attempts == 0 ? null : (double) errors / attempts,
        summary(resumeH));
  }

  private static void addIfPresent(Histogram into, AbstractHistogram h) {
    if (h != null) {
      into.add(h);
    }
  }

  /** Quantiles of a sketch; null when it holds no sample ("no data"). */
  static LatencySummary summary(Histogram h) {
    long n = h.getTotalCount();
    if (n == 0) {
      return null;
    }
    return new LatencySummary(
        n,
        quantile(h, 50),
        quantile(h, 95),
        quantile(h, 99),
        micros(h.medianEquivalentValue(h.getMaxValue())));
  }

  private static Duration quantile(Histogram h, double percentile) {
    return micros(h.medianEquivalentValue(h.getValueAtPercentile(percentile)));
  }

  private static Duration micros(long us) {
    return Duration.ofNanos(us * 1_000);
  }

  private static long nanos(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }

  /** Buckets currently held (for tests and memory accounting). */
  public int bucketCount() {
    return buckets.size();
  }
}
