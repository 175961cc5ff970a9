package org.sandboxslo.engine.whatif;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * When claims arrive, relative to the start of the simulated period. A closed set of shapes; each
 * turns into a sorted array of arrival offsets (nanoseconds), the same every time (deterministic,
 * no randomness: arrivals are evenly spaced, as controller-lite's load profile creates them).
 */
public sealed interface DemandProfile {
  /** The simulated period. */
  Duration duration();

  /** Arrival offsets in nanoseconds from the start, ascending, each in [0, duration). */
  long[] arrivals();

  /**
   * A constant rate: claim k at k / rate, for every k with k / rate &lt; duration (duration × rate
   * claims when that is whole).
   *
   * @param claimsPerSecond &gt; 0
   * @param duration &gt; 0
   */
  record Steady(double claimsPerSecond, Duration duration) implements DemandProfile {
    public Steady {
      positive("claimsPerSecond", claimsPerSecond);
      positive(duration);
    }

    @Override
    public long[] arrivals() {
      long n = count(duration, claimsPerSecond);
      long[] out = new long[checkedSize(n)];
      for (int k = 0; k < out.length; k++) {
        out[k] = Math.round(k * 1e9 / claimsPerSecond);
      }
      return out;
    }
  }

  /**
   * A day-shaped rate between a trough and a peak: rate(t) = trough + (peak − trough) × (1 −
   * cos(2πt / period)) / 2 (trough at the start, peak at half a period); claim k arrives when the
   * integral of the rate reaches k.
   *
   * @param troughClaimsPerSecond ≥ 0
   * @param peakClaimsPerSecond ≥ trough, &gt; 0
   * @param period &gt; 0 (24 h for a day; shorter to compress one)
   * @param duration &gt; 0
   */
  record Diurnal(
      double troughClaimsPerSecond, double peakClaimsPerSecond, Duration period, Duration duration)
      implements DemandProfile {
    public Diurnal {
      if (!(troughClaimsPerSecond >= 0)) {
        throw new IllegalArgumentException(
            "troughClaimsPerSecond must be >= 0, got " + troughClaimsPerSecond);
      }
      positive("peakClaimsPerSecond", peakClaimsPerSecond);
      if (peakClaimsPerSecond < troughClaimsPerSecond) {
        throw new IllegalArgumentException(
            "peakClaimsPerSecond must be >= troughClaimsPerSecond ("
                + troughClaimsPerSecond
                + "), got "
                + peakClaimsPerSecond);
      }
      positive(period);
      positive(duration);
    }

    /** Claims expected in [0, t] (the integral of the rate), t in seconds. */
    double cumulative(double t) {
      double p = period.toNanos() / 1e9;
      double a = (peakClaimsPerSecond - troughClaimsPerSecond) / 2;
      return troughClaimsPerSecond * t
          + a * (t - p / (2 * Math.PI) * Math.sin(2 * Math.PI * t / p));
    }

    @Override
    public long[] arrivals() {
      double end = duration.toNanos() / 1e9;
      long n = (long) Math.floor(cumulative(end) - 1e-9) + 1;
      long[] out = new long[checkedSize(Math.max(0, n))];
      double lo = 0;
      for (int k = 0; k < out.length; k++) {
        // the cumulative count is increasing: bisect for the time it reaches k
        double a = lo;
        double b = end;
        for (int i = 0; i < 60 && b - a > 1e-9; i++) {
          double m = (a + b) / 2;
          if (cumulative(m) >= k) {
            b = m;
          } else {
            a = m;
          }
        }
        lo = b;
        out[k] = Math.min(duration.toNanos() - 1, Math.round(b * 1e9));
      }
      return out;
    }
  }

  /**
   * A base rate with bursts: claims at the base rate as {@link Steady}, plus {@code burstSize}
   * claims at once at 0, {@code every}, 2 × {@code every}, ...
   *
   * @param baseClaimsPerSecond ≥ 0
   * @param burstSize claims per burst, ≥ 1
   * @param every time between bursts, &gt; 0
   * @param duration &gt; 0
   */
  record Bursts(double baseClaimsPerSecond, int burstSize, Duration every, Duration duration)
      implements DemandProfile {
    public Bursts {
      if (!(baseClaimsPerSecond >= 0)) {
        throw new IllegalArgumentException(
            "baseClaimsPerSecond must be >= 0, got " + baseClaimsPerSecond);
      }
      if (burstSize < 1) {
        throw new IllegalArgumentException("burstSize must be >= 1, got " + burstSize);
      }
      positive(every);
      positive(duration);
    }

    @Override
    public long[] arrivals() {
      long[] base =
          baseClaimsPerSecond > 0
              ? new Steady(baseClaimsPerSecond, duration).arrivals()
              : new long[0];
      long bursts = (duration.toNanos() - 1) / every.toNanos() + 1;
      long[] out = new long[checkedSize(base.length + bursts * burstSize)];
      System.arraycopy(base, 0, out, 0, base.length);
      int i = base.length;
      for (long b = 0; b < bursts; b++) {
        for (int k = 0; k < burstSize; k++) {
          out[i++] = b * every.toNanos();
        }
      }
      Arrays.sort(out);
      return out;
    }
  }

  /**
   * Recorded claim arrivals (from history or a recording), as offsets from the start.
   *
   * @param offsets each ≥ 0 and &lt; duration; any order
   * @param duration &gt; 0
   */
  record Recorded(List<Duration> offsets, Duration duration) implements DemandProfile {
    public Recorded {
      Objects.requireNonNull(offsets, "offsets");
      positive(duration);
      offsets = List.copyOf(offsets);
      for (Duration d : offsets) {
        if (d.isNegative() || d.compareTo(duration) >= 0) {
          throw new IllegalArgumentException("offset must be in [0, " + duration + "), got " + d);
        }
      }
    }

    @Override
    public long[] arrivals() {
      long[] out = new long[offsets.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = offsets.get(i).toNanos();
      }
      Arrays.sort(out);
      return out;
    }
  }

  private static void positive(String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be > 0, got " + v);
    }
  }

  private static void positive(Duration d) {
    Objects.requireNonNull(d, "duration");
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException("duration must be > 0, got " + d);
    }
  }

  private static long count(Duration d, double perSecond) {
    return (long) Math.floor(d.toNanos() / 1e9 * perSecond - 1e-9) + 1;
  }

  /** At most 50 M claims per simulation (memory: one long per claim). */
  int MAX_CLAIMS = 50_000_000;

  private static int checkedSize(long n) {
    if (n > MAX_CLAIMS) {
      throw new IllegalArgumentException(
          "the profile makes " + n + " claims; at most " + MAX_CLAIMS + " per simulation");
    }
    return (int) n;
  }
}
