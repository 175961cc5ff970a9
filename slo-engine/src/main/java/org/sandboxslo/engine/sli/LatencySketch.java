package org.sandboxslo.engine.sli;

import java.time.Duration;

/**
 * A latency sketch with HdrHistogram's exact layout for 2 significant digits, unit 1 (values in
 * microseconds): the same counts-array index per value, so every count, quantile and maximum equals
 * what an {@code org.HdrHistogram.Histogram(2)} fed the same values reports ({@code
 * LatencySketchTest} checks this against HdrHistogram on generated samples). It exists for the
 * engine's two hot paths, which HdrHistogram's dense arrays make slow at fleet scale:
 *
 * <ul>
 *   <li><b>memory</b>: a time bucket usually holds a handful of samples; it keeps them as a short
 *       list of indices ({@value #SPARSE_MAX} at most) and only then switches to counts, and the
 *       counts cover only the range of indices seen (a warm-latency bucket spans ~200 of the ~2,200
 *       indices up to 10 s), so a bucket costs bytes, not the ~8 KB of a resized histogram;
 *   <li><b>quantiles</b>: counts are summed per block of 128 indices (one power of two), so a
 *       quantile walks ≤ 57 block sums and one block instead of every index, and p50/p95/p99 and
 *       the maximum come from one pass — also over the sum of two sketches without merging them
 *       (all launches = warm + cold).
 * </ul>
 *
 * <p>Counts are ints per index (a window never holds 2^31 samples of one 1 % value range). Mutable,
 * not thread-safe.
 */
final class LatencySketch {
  /** HdrHistogram(2): sub-bucket half count 128 = 2^7, leading-zero base 64 − 0 − 8. */
  private static final int HALF_MAGNITUDE = 7;

  private static final int HALF = 1 << HALF_MAGNITUDE;
  private static final long SUB_BUCKET_MASK = 255;
  private static final int LEADING_ZERO_BASE = 56;

  /** A sparse sketch switches to counts beyond this many samples. */
  static final int SPARSE_MAX = 32;

  private int[] sparse;
  private int sparseSize;
  private int base;
  private int[] counts;
  private int[] blocks;
  private long total;

  private LatencySketch(boolean dense) {
    if (!dense) {
      sparse = new int[8];
    }
  }

  /** A sketch for a few samples (a time bucket): a list of indices first, counts later. */
  static LatencySketch sparse() {
    return new LatencySketch(false);
  }

  /** A sketch kept as counts from the start (a window aggregate). */
  static LatencySketch dense() {
    return new LatencySketch(true);
  }

  /** The counts-array index of HdrHistogram(2) for a value ≥ 0. */
  static int index(long value) {
    int bucket = LEADING_ZERO_BASE - Long.numberOfLeadingZeros(value | SUB_BUCKET_MASK);
    int sub = (int) (value >>> bucket);
    return ((bucket + 1) << HALF_MAGNITUDE) + (sub - HALF);
  }

  /**
   * The value HdrHistogram reports for an index through {@code medianEquivalentValue}: the middle
   * of the index's value range.
   */
  static long medianValue(int index) {
    int bucket = (index >> HALF_MAGNITUDE) - 1;
    int sub = (index & (HALF - 1)) + HALF;
    if (bucket < 0) {
      sub -= HALF;
      bucket = 0;
    }
    long lowest = (long) sub << bucket;
    return lowest + ((1L << bucket) >> 1);
  }

  long total() {
    return total;
  }

  /** Records one value (microseconds, negative taken as 0). */
  void record(long micros) {
    int i = index(Math.max(0, micros));
    total++;
    if (counts == null && sparse != null) {
      if (sparseSize < SPARSE_MAX) {
        if (sparseSize == sparse.length) {
          sparse = java.util.Arrays.copyOf(sparse, sparse.length * 2);
        }
        sparse[sparseSize++] = i;
        return;
      }
      densify();
    }
    addAt(i, 1);
  }

  private void densify() {
    int[] s = sparse;
    int n = sparseSize;
    sparse = null;
    sparseSize = 0;
    for (int k = 0; k < n; k++) {
      addAt(s[k], 1);
    }
  }

  private void addAt(int i, int n) {
    if (counts == null) {
      base = i & ~(HALF - 1);
      counts = new int[HALF];
      blocks = new int[1];
    } else if (i < base) {
      int nb = i & ~(HALF - 1);
      int[] c = new int[counts.length + (base - nb)];
      System.arraycopy(counts, 0, c, base - nb, counts.length);
      int[] b = new int[c.length >> HALF_MAGNITUDE];
      System.arraycopy(blocks, 0, b, (base - nb) >> HALF_MAGNITUDE, blocks.length);
      counts = c;
      blocks = b;
      base = nb;
    } else if (i >= base + counts.length) {
      int len = ((i >> HALF_MAGNITUDE) + 1 << HALF_MAGNITUDE) - base;
      counts = java.util.Arrays.copyOf(counts, len);
      blocks = java.util.Arrays.copyOf(blocks, len >> HALF_MAGNITUDE);
    }
    counts[i - base] += n;
    blocks[(i - base) >> HALF_MAGNITUDE] += n;
  }

  /** Adds every sample of {@code o} to this sketch. */
  void add(LatencySketch o) {
    merge(o, 1);
  }

  /**
   * Removes every sample of {@code o}, which must have been added before (a window aggregate losing
   * a bucket that slid out).
   */
  void subtract(LatencySketch o) {
    merge(o, -1);
  }

  private void merge(LatencySketch o, int sign) {
    if (o == null || o.total == 0) {
      return;
    }
    if (counts == null && sparse != null) {
      if (sign > 0 && o.counts == null && sparseSize + o.sparseSize <= SPARSE_MAX) {
        if (sparseSize + o.sparseSize > sparse.length) {
          sparse =
              java.util.Arrays.copyOf(
                  sparse, Math.max(sparse.length * 2, sparseSize + o.sparseSize));
        }
        System.arraycopy(o.sparse, 0, sparse, sparseSize, o.sparseSize);
        sparseSize += o.sparseSize;
        total += o.total;
        return;
      }
      densify();
    }
    total += sign * o.total;
    if (o.counts == null) {
      for (int k = 0; k < o.sparseSize; k++) {
        addAt(o.sparse[k], sign);
      }
      return;
    }
    int[] oc = o.counts;
    for (int k = 0; k < oc.length; k++) {
      if (oc[k] != 0) {
        addAt(o.base + k, sign * oc[k]);
      }
    }
  }

  private int countAt(int i) {
    if (counts == null) {
      return 0;
    }
    int k = i - base;
    return k < 0 || k >= counts.length ? 0 : counts[k];
  }

  private int blockAt(int block) {
    if (blocks == null) {
      return 0;
    }
    int k = block - (base >> HALF_MAGNITUDE);
    return k < 0 || k >= blocks.length ? 0 : blocks[k];
  }

  /** HdrHistogram's count at a percentile: max(1, ceil(nextDown(p) × total / 100)). */
  private static long countAtPercentile(double percentile, long total) {
    double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0), 100);
    return Math.max(1, (long) Math.ceil(p * total / 100.0));
  }

  private static final double[] PERCENTILES = {50, 95, 99};

  /**
   * p50/p95/p99/max of the samples of {@code a} and {@code b} together (either may be null or
   * sparse), with HdrHistogram's {@code medianEquivalentValue(getValueAtPercentile(p))} and {@code
   * medianEquivalentValue(getMaxValue())}; null when both are empty ("no data").
   */
  static LatencySummary summary(LatencySketch a, LatencySketch b) {
    a = a != null && a.counts == null && a.total > 0 ? a.denseCopy() : a;
    b = b != null && b.counts == null && b.total > 0 ? b.denseCopy() : b;
    long total = (a == null ? 0 : a.total) + (b == null ? 0 : b.total);
    if (total == 0) {
      return null;
    }
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    for (LatencySketch s : new LatencySketch[] {a, b}) {
      if (s != null && s.counts != null) {
        lo = Math.min(lo, s.base >> HALF_MAGNITUDE);
        hi = Math.max(hi, (s.base + s.counts.length) >> HALF_MAGNITUDE);
      }
    }
    long[] targets = new long[PERCENTILES.length];
    for (int q = 0; q < targets.length; q++) {
      targets[q] = countAtPercentile(PERCENTILES[q], total);
    }
    int[] at = new int[targets.length];
    int found = 0;
    long cum = 0;
    for (int blk = lo; blk < hi && found < targets.length; blk++) {
      long bs = block(a, blk) + block(b, blk);
      if (cum + bs < targets[found]) {
        cum += bs;
        continue;
      }
      int first = blk << HALF_MAGNITUDE;
      for (int i = first; i < first + HALF && found < targets.length; i++) {
        cum += count(a, i) + count(b, i);
        while (found < targets.length && cum >= targets[found]) {
          at[found++] = i;
        }
      }
    }
    int max = -1;
    for (int blk = hi - 1; blk >= lo && max < 0; blk--) {
      if (block(a, blk) + block(b, blk) == 0) {
        continue;
      }
      int first = blk << HALF_MAGNITUDE;
      for (int i = first + HALF - 1; i >= first; i--) {
        if (count(a, i) + count(b, i) != 0) {
          max = i;
          break;
        }
      }
    }
    return new LatencySummary(total, micros(at[0]), micros(at[1]), micros(at[2]), micros(max));
  }

  private LatencySketch denseCopy() {
    LatencySketch d = dense();
    d.add(this);
    return d;
  }

  private static long block(LatencySketch s, int blk) {
    return s == null ? 0 : s.blockAt(blk);
  }

  private static long count(LatencySketch s, int i) {
    return s == null ? 0 : s.countAt(i);
  }

  private static Duration micros(int index) {
    return Duration.ofNanos(medianValue(index) * 1_000);
  }

  /** Approximate retained bytes (for memory accounting). */
  long footprintBytes() {
    long b = 40;
    if (sparse != null) {
      b += 16 + 4L * sparse.length;
    }
    if (counts != null) {
      b += 32 + 4L * counts.length + 4L * blocks.length;
    }
    return b;
  }
}
