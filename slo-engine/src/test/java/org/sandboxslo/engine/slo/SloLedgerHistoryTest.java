package org.sandboxslo.engine.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Budget history export/import (what the console persists and re-feeds after a restart). */
class SloLedgerHistoryTest {
  static final Instant T = Instant.parse("2026-09-01T02:00:00Z");

  static SloDefinition def(String window) {
    return SloDefinitions.parse(
            Map.of("name", "w", "sli", "warm_hit_ratio", "objective", 95, "window", window))
        .definition();
  }

  @Test
  void exportedBucketsRestoreTheSameStatusInANewLedger() {
    SloLedger a = new SloLedger(def("1d"));
    for (int i = 0; i < 100; i++) {
      a.record(T.plusSeconds(i * 30), i % 10 == 0 ? 0 : 1, 1);
    }
    Instant now = T.plusSeconds(3000);
    SloStatus before = a.evaluate(now);
    List<SloLedger.Bucket> buckets = a.buckets(null);
    SloLedger b = new SloLedger(def("1d"));
    buckets.forEach(x -> assertTrue(b.restore(x)));
    SloStatus after = b.evaluate(now);
    assertEquals(90, before.good());
    assertEquals(100, before.valid());
    assertEquals(before.good(), after.good());
    assertEquals(before.valid(), after.valid());
    assertEquals(
        before.tiers().get(0).longWindow().valid(), after.tiers().get(0).longWindow().valid());
    assertEquals(before.budgetRemaining(), after.budgetRemaining(), 1e-12);
  }

  @Test
  void restoreKeepsTheLargerCountAndIgnoresOtherWidths() {
    SloLedger a = new SloLedger(def("1d"));
    a.record(T, 3, 4);
    SloLedger.Bucket fine =
        a.buckets(null).stream()
            .filter(x -> x.resolution().equals("fine"))
            .findFirst()
            .orElseThrow();
    SloLedger b = new SloLedger(def("1d"));
    b.record(T, 1, 1); // re-fed after a relist: a subset of the stored events
    assertTrue(b.restore(fine));
    assertTrue(b.restore(new SloLedger.Bucket("fine", fine.start(), fine.width(), 0, 2)));
    SloLedger.Bucket got =
        b.buckets(null).stream()
            .filter(x -> x.resolution().equals("fine"))
            .findFirst()
            .orElseThrow();
    assertEquals(3, got.good());
    assertEquals(4, got.valid());
    assertFalse(
        b.restore(new SloLedger.Bucket("fine", T, fine.width().plus(Duration.ofSeconds(1)), 1, 1)));
  }

  @Test
  void bucketsSinceSkipsOlderOnes() {
    SloLedger a = new SloLedger(def("1d"));
    a.record(T, 1, 1);
    a.record(T.plusSeconds(600), 1, 1);
    long fineAfter =
        a.buckets(T.plusSeconds(300)).stream().filter(x -> x.resolution().equals("fine")).count();
    assertEquals(1, fineAfter);
  }
}
