package org.sandboxslo.engine.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Handed cases C12 and C14 (../shared/cases), with the values stated there. */
class CasesScrapeTest {
  static String input(String file) throws Exception {
    return Files.readString(
        Path.of(System.getProperty("shared.dir", "../../shared"), "cases", "inputs", file));
  }

  static Instant t(String s) {
    return Instant.parse("2026-09-01T" + s + "Z");
  }

  @Test
  void c14CounterResetIsCountedExactlyAndFlaggedPartial() throws Exception {
    List<Scrape> scrapes = Scrape.parseFile(input("C14-counter-reset-restart.txt"));
    assertEquals(4, scrapes.size());
    ControllerView.WarmHit w =
        ControllerView.warmHit(scrapes, "team-a", "tpl-py", t("12:00:00"), t("12:01:30"));
    assertEquals(80.0, w.warm());
    assertEquals(5.0, w.cold());
    assertEquals(0.941, w.ratio(), 0.0005);
    assertEquals(80.0 / 85.0, w.ratio(), 1e-12);
    assertTrue(w.partial());
    assertEquals(1, w.restarts().size());
    assertEquals(t("12:00:40"), w.restarts().get(0).at());
    assertEquals(t("12:00:30"), w.restarts().get(0).lostFrom());
    // a window without the restart is exact and not partial
    ControllerView.WarmHit before =
        ControllerView.warmHit(scrapes, "team-a", "tpl-py", t("12:00:00"), t("12:00:30"));
    assertEquals(40.0, before.warm());
    assertEquals(2.0, before.cold());
    assertFalse(before.partial());
  }

  @Test
  void c12EmptyWindowsAreNoDataNotNaN() throws Exception {
    List<Scrape> scrapes = Scrape.parseFile(input("C12-no-traffic-window.txt"));
    assertEquals(4, scrapes.size());
    assertNull(
        ControllerView.warmHit(scrapes, "team-a", "tpl-py", t("02:00:00"), t("02:05:00")).ratio());
    assertNull(
        ControllerView.warmHit(scrapes, "team-a", "tpl-py", t("02:05:00"), t("02:10:00")).ratio());
    ControllerView.WarmHit last =
        ControllerView.warmHit(scrapes, "team-a", "tpl-py", t("02:10:00"), t("02:15:00"));
    assertEquals(1.0, last.ratio());
    assertEquals(1.0, last.warm());
    assertEquals(0.0, last.cold());
    ControllerView.WarmHit all =
        ControllerView.warmHit(scrapes, "team-a", "tpl-py", t("02:00:00"), t("02:15:00"));
    assertEquals(1.0, all.ratio());
  }

  @Test
  void promTextParsesEscapesInfAndRejectsGarbage() {
    List<Sample> s =
        PromText.parse("# HELP x y\nm_bucket{le=\"+Inf\",a=\"q\\\"x\"} 3 1700000000\nup 1\n");
    assertEquals(2, s.size());
    assertEquals("q\"x", s.get(0).labels().get("a"));
    assertEquals("m_bucket{a=\"q\"x\",le=\"+Inf\"}", s.get(0).seriesId());
    assertEquals(1.0, s.get(1).value());
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> PromText.parse("ok 1\nbad{a=1} 2\n"));
    assertEquals("line 2: label value of 'a' must be quoted", e.getMessage());
  }

  @Test
  void histogramQuantileFollowsPrometheus() {
    List<HistogramQuantile.Bucket> b =
        List.of(
            new HistogramQuantile.Bucket(100, 50), new HistogramQuantile.Bucket(1000, 90),
            new HistogramQuantile.Bucket(240000, 100),
                new HistogramQuantile.Bucket(Double.POSITIVE_INFINITY, 100));
    // rank 95 falls in (1000, 240000]: 1000 + 239000 * (95-90)/10
    assertEquals(new HistogramQuantile.Estimate(120500, false), HistogramQuantile.of(0.95, b));
    assertEquals(new HistogramQuantile.Estimate(100, false), HistogramQuantile.of(0.5, b));
    assertEquals(new HistogramQuantile.Estimate(50, false), HistogramQuantile.of(0.25, b));
    List<HistogramQuantile.Bucket> inf =
        List.of(
            new HistogramQuantile.Bucket(240000, 90),
            new HistogramQuantile.Bucket(Double.POSITIVE_INFINITY, 100));
    assertEquals(new HistogramQuantile.Estimate(240000, true), HistogramQuantile.of(0.95, inf));
    assertNull(
        HistogramQuantile.of(
            0.95, List.of(new HistogramQuantile.Bucket(Double.POSITIVE_INFINITY, 0))));
  }
}
