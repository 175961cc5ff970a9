package org.sandboxslo.engine.sli;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

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
    this.bucketNanos = bucketWidth.toNanos();
  }

  private static final class Bucket {
    long warm;
    long cold;
    long resumeAttempts;
    long resumeErrors;
    Histogram claimWarm;
    Histogram claimCold;
    Histogram coldStart;
    Histogram resume;
  }

  private Bucket bucket(Instant at) {
    long idx = Math.floorDiv(nanos(at), bucketNanos);
    return buckets.computeIfAbsent(idx, i -> new Bucket());
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
      while (i < Totals.LATENCY_BUCKETS_SECONDS.size() && secs > Totals.LATENCY_BUCKETS_SECONDS.get(i)) {
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

  private static Histogram record(Histogram h, Duration d) {
    Histogram out = h != null ? h : new Histogram(SIGNIFICANT_DIGITS);
    long micros = Math.max(0, d.toNanos() / 1_000);
    out.recordValue(micros);
    return out;
  }

  /** Drops buckets that start before {@code oldest}. */
  public void evictBefore(Instant oldest) {
    long idx = Math.floorDiv(nanos(oldest), bucketNanos);
    buckets.headMap(idx, false).clear();
  }

  public boolean isEmpty() {
    return buckets.isEmpty() && warmTotal == 0 && coldTotal == 0 && resumeAttempts() == 0;
  }

  private long resumeAttempts() {
    return resumeSuccessTotal + resumeErrorTotal + resumeTimeoutTotal;
  }

  public Totals totals() {
    return new Totals(warmTotal, coldTotal, resumeSuccessTotal, resumeErrorTotal, resumeTimeoutTotal,
        eligibleWarmTotal, eligibleColdTotal, boxed(warmLatencyBuckets), boxed(coldLatencyBuckets),
        warmLatencySumSeconds, coldLatencySumSeconds);
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
    long fromIdx = Math.floorDiv(nanos(now.minus(window)) + bucketNanos - 1, bucketNanos);
    Map<Long, Bucket> in = buckets.tailMap(fromIdx, true);
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

  private static void addIfPresent(Histogram into, Histogram h) {
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
        n, quantile(h, 50), quantile(h, 95), quantile(h, 99), micros(h.medianEquivalentValue(h.getMaxValue())));
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
