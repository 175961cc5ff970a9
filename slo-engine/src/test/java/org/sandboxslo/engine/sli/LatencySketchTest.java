package org.sandboxslo.engine.sli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySketchTest {

  @Test
  void oneMillisecondIsReportedAsTheMiddleOfItsFourMicrosecondRange() {
    // 1000 µs: bucket 56 − nlz(1000 | 255) = 56 − 54 = 2, sub-bucket 1000 >> 2 = 250,
    // index (2 + 1) × 128 + (250 − 128) = 506; its range is [250 << 2, +4) = [1000, 1004),
    // median 1000 + 4/2 = 1002 µs
    assertEquals(506, LatencySketch.index(1000));
    assertEquals(1002, LatencySketch.medianValue(506));
    LatencySketch s = LatencySketch.sparse();
    s.record(1000);
    LatencySummary sum = LatencySketch.summary(s, null);
    assertEquals(1, sum.count());
    assertEquals(Duration.ofNanos(1_002_000), sum.p50());
    assertEquals(Duration.ofNanos(1_002_000), sum.max());
  }

  @Test
  void smallValuesHaveUnitResolution() {
    // below 256 µs every value has its own index (bucket 0): 0 → 0, 100 → 100, 255 → 255
    assertEquals(0, LatencySketch.index(0));
    assertEquals(100, LatencySketch.index(100));
    assertEquals(255, LatencySketch.index(255));
    assertEquals(100, LatencySketch.medianValue(100));
  }

  @Test
  void emptyAndSubtractedToEmptyAreNoData() {
    assertNull(LatencySketch.summary(null, null));
    LatencySketch agg = LatencySketch.dense();
    LatencySketch b = LatencySketch.sparse();
    b.record(5_000);
    b.record(7_000);
    agg.add(b);
    assertEquals(2, agg.total());
    agg.subtract(b);
    assertEquals(0, agg.total());
    assertNull(LatencySketch.summary(agg, null));
  }

  @Test
  void quantilesOfTwoSketchesTogetherAreThoseOfTheUnion() {
    // warm 100..199 µs (unit resolution), cold 1000 µs ×100: 200 samples; rank of p50 =
    // ceil(0.5 × 200) = 100 → the 100th smallest = 199 µs; p95 rank 190 → cold → 1002 µs
    LatencySketch warm = LatencySketch.dense();
    LatencySketch cold = LatencySketch.sparse();
    for (int i = 0; i < 100; i++) {
      warm.record(100 + i);
      cold.record(1000);
    }
    LatencySummary all = LatencySketch.summary(warm, cold);
    assertEquals(200, all.count());
    assertEquals(Duration.ofNanos(199_000), all.p50());
    assertEquals(Duration.ofNanos(1_002_000), all.p95());
    assertEquals(Duration.ofNanos(1_002_000), all.max());
  }

  @Property(tries = 300)
  void sameQuantilesAsHdrHistogram(@ForAll("samples") List<Long> values) {
    Histogram h = new Histogram(SliSeries.SIGNIFICANT_DIGITS);
    LatencySketch sparse = LatencySketch.sparse();
    LatencySketch dense = LatencySketch.dense();
    for (long v : values) {
      h.recordValue(v);
      sparse.record(v);
      dense.record(v);
    }
    LatencySummary expected =
        new LatencySummary(
            h.getTotalCount(),
            us(h.medianEquivalentValue(h.getValueAtPercentile(50))),
            us(h.medianEquivalentValue(h.getValueAtPercentile(95))),
            us(h.medianEquivalentValue(h.getValueAtPercentile(99))),
            us(h.medianEquivalentValue(h.getMaxValue())));
    assertEquals(expected, LatencySketch.summary(sparse, null));
    assertEquals(expected, LatencySketch.summary(dense, null));
    // split in two halves: the pair read together equals the whole
    LatencySketch a = LatencySketch.sparse();
    LatencySketch b = LatencySketch.dense();
    for (int i = 0; i < values.size(); i++) {
      (i % 2 == 0 ? a : b).record(values.get(i));
    }
    assertEquals(expected, LatencySketch.summary(a, b));
  }

  @Property(tries = 200)
  void subtractingWhatWasAddedLeavesTheRest(
      @ForAll("samples") List<Long> keep, @ForAll("samples") List<Long> gone) {
    Histogram h = new Histogram(SliSeries.SIGNIFICANT_DIGITS);
    LatencySketch agg = LatencySketch.dense();
    LatencySketch k = LatencySketch.sparse();
    LatencySketch g = LatencySketch.sparse();
    keep.forEach(
        v -> {
          h.recordValue(v);
          k.record(v);
        });
    gone.forEach(g::record);
    agg.add(g);
    agg.add(k);
    agg.subtract(g);
    assertEquals(keep.size(), agg.total());
    assertEquals(
        us(h.medianEquivalentValue(h.getValueAtPercentile(95))),
        LatencySketch.summary(agg, null).p95());
    assertEquals(
        us(h.medianEquivalentValue(h.getMaxValue())), LatencySketch.summary(agg, null).max());
  }

  @Provide
  Arbitrary<List<Long>> samples() {
    // log-uniform-ish: a magnitude 0..34 (µs up to ~4.7 h) and a mantissa
    Arbitrary<Long> value =
        Arbitraries.integers()
            .between(0, 34)
            .flatMap(m -> Arbitraries.longs().between(0, (1L << m) * 2 - 1));
    return value.list().ofMinSize(1).ofMaxSize(400);
  }

  private static Duration us(long micros) {
    return Duration.ofNanos(micros * 1_000);
  }
}
