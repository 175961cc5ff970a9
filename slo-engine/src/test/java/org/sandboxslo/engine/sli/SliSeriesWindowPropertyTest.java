package org.sandboxslo.engine.sli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The running window aggregates (windows the series tracks) answer exactly what merging the buckets
 * answers (windows it does not track), whatever the order of late events, roll-ups, evictions and
 * reads — also when a read goes back in time.
 */
class SliSeriesWindowPropertyTest {
  static final Duration BUCKET = Duration.ofSeconds(10);
  static final Duration FINE = Duration.ofMinutes(5);
  static final Duration COARSE = Duration.ofMinutes(1);
  static final List<Duration> WINDOWS = List.of(Duration.ofMinutes(5), Duration.ofHours(1));
  static final Instant T0 = Instant.parse("2026-09-01T10:00:00Z");

  /** One step: {@code kind} 0–3 records (claim warm/cold, cold start, resume), 4 reads. */
  record Op(int kind, long atSeconds, long latencyMillis, int result) {}

  @Property(tries = 200)
  void trackedWindowsEqualMergedBuckets(@ForAll("ops") List<Op> ops) {
    SliSeries tracked = new SliSeries(BUCKET, FINE, COARSE, WINDOWS);
    SliSeries merged = new SliSeries(BUCKET, FINE, COARSE);
    for (Op op : ops) {
      Instant at = T0.plusSeconds(op.atSeconds());
      Duration lat = Duration.ofMillis(op.latencyMillis());
      switch (op.kind()) {
        case 0, 1 -> {
          tracked.recordClaim(at, op.kind() == 0, lat, op.result() != 0);
          merged.recordClaim(at, op.kind() == 0, lat, op.result() != 0);
        }
        case 2 -> {
          tracked.recordColdStart(at, lat);
          merged.recordColdStart(at, lat);
        }
        case 3 -> {
          SliSeries.ResumeResult r = SliSeries.ResumeResult.values()[op.result()];
          tracked.recordResume(at, r, lat);
          merged.recordResume(at, r, lat);
        }
        default -> {
          Instant oldest = at.minus(Duration.ofHours(1)).minus(BUCKET);
          tracked.maintain(at, oldest);
          merged.maintain(at, oldest);
          for (Duration w : WINDOWS) {
            assertEquals(merged.window(at, w), tracked.window(at, w), "window " + w + " at " + at);
          }
        }
      }
    }
  }

  @Test
  void aLateClaimIntoARolledUpMinuteCountsInTheHourOnly() {
    // claims at 10:00:05 and 10:20:05; maintain at 10:30 rolls 10:00:00–10:24:00 into minutes.
    // A late claim for 10:00:15 then lands in the coarse 10:00 bucket: the 1 h window at 10:30
    // (from 09:30) holds 3 claims, the 5 m window (from 10:25) none.
    SliSeries s = new SliSeries(BUCKET, FINE, COARSE, WINDOWS);
    s.recordClaim(T0.plusSeconds(5), true, Duration.ofMillis(200));
    s.recordClaim(T0.plusSeconds(1205), false, Duration.ofSeconds(3));
    Instant now = T0.plus(Duration.ofMinutes(30));
    s.maintain(now, now.minus(Duration.ofHours(1)));
    assertEquals(1, s.window(now, Duration.ofHours(1)).warmLaunches());
    s.recordClaim(T0.plusSeconds(15), true, Duration.ofMillis(300));
    WindowSlis hour = s.window(now, Duration.ofHours(1));
    assertEquals(2, hour.warmLaunches());
    assertEquals(1, hour.coldLaunches());
    assertEquals(2.0 / 3, hour.warmHitRatio());
    assertEquals(0, s.window(now, Duration.ofMinutes(5)).warmLaunches());
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> op =
        Combinators.combine(
                Arbitraries.integers().between(0, 4),
                Arbitraries.longs().between(0, 3 * 3600),
                Arbitraries.longs().between(0, 20_000),
                Arbitraries.integers().between(0, 2))
            .as(Op::new);
    return op.list().ofMinSize(1).ofMaxSize(300);
  }
}
