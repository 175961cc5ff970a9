package org.sandboxslo.engine.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fault kind 4 on scrape files alone: the controller's histograms read honestly. */
class ControllerReportTest {
  static final String H = ControllerView.CONTROLLER_STARTUP_LATENCY_MS;
  static final double[] LE = {500, 1000, 2500, 5000, 240000};

  /** One scrape block; {@code cumulative} has one count per {@link #LE} bound plus +Inf. */
  static String scrape(String at, String extra, double... cumulative) {
    StringBuilder sb = new StringBuilder("# SCRAPE 2026-09-01T" + at + "Z target=ctrl:8080\n");
    sb.append("# TYPE ").append(H).append(" histogram\n");
    for (int i = 0; i <= LE.length; i++) {
      String le = i < LE.length ? String.valueOf((long) LE[i]) : "+Inf";
      sb.append(H)
          .append("_bucket{launch_type=\"warm\",sandbox_template=\"tpl-py\",le=\"")
          .append(le)
          .append("\"} ")
          .append(cumulative[i])
          .append('\n');
    }
    sb.append(H)
        .append("_count{launch_type=\"warm\",sandbox_template=\"tpl-py\"} ")
        .append(cumulative[LE.length])
        .append('\n');
    return sb.append(extra).append('\n').toString();
  }

  static final String BUILD =
      "agent_sandbox_build_info{build_date=\"2026-06-30\",compiler=\"gc\",git_commit=\"abc123\","
          + "git_version=\"v0.5.1\",go_version=\"go1.24.4\",platform=\"linux/amd64\"} 1\n";

  static LatencyHistogram reading(String file) {
    ControllerReport r =
        ControllerReport.ofScrapeFiles(
            List.of(file), null, null, LatencyHistogram.Options.defaults());
    return r.histogram(H, "tpl-py", "warm");
  }

  @Test
  void rankInInfIsALowerBoundNeverAValue() {
    // Δ: ≤500 10, ≤1000 16, ≤2500 19, ≤5000 20, ≤240000 20, +Inf 23 (3 beyond 240 s)
    LatencyHistogram h =
        reading(
            scrape("12:00:00", BUILD, 0, 0, 0, 0, 0, 0)
                + scrape("12:05:00", BUILD, 10, 16, 19, 20, 20, 23));
    assertEquals(23.0, h.count());
    assertEquals(LatencyHistogram.Status.QUANTILES, h.status());
    // p50: rank 11.5 in (500, 1000]: 500 + 500 × (11.5 − 10) / 6 = 625
    assertEquals(new LatencyHistogram.QuantileValue(0.5, 625, false), h.quantile(0.5));
    // p95: rank 21.85 > 20 = count at 240000 → +Inf → lower bound
    assertEquals("> 240000 ms", h.quantile(0.95).display());
    assertTrue(h.quantile(0.99).lowerBound());
    // good ≤ 5000 ms: 20 of 23
    assertEquals("20/23 ≤ 5000 ms", h.good().display());
    assertEquals(20.0 / 23, h.good().ratio(), 1e-12);
  }

  @Test
  void emptyWindowIsNoDataNotZero() {
    LatencyHistogram h =
        reading(
            scrape("12:00:00", "", 4, 4, 4, 4, 4, 4) + scrape("12:05:00", "", 4, 4, 4, 4, 4, 4));
    assertEquals(LatencyHistogram.Status.NO_DATA, h.status());
    assertEquals(0.0, h.count());
    assertEquals("no data", h.display());
    assertEquals(List.of(), h.quantiles());
    assertNull(h.good());
    // a single scrape has no increase at all
    ControllerReport one =
        ControllerReport.ofScrapeFiles(
            List.of(scrape("12:00:00", "", 4, 4, 4, 4, 4, 4)),
            null,
            null,
            LatencyHistogram.Options.defaults());
    assertEquals(LatencyHistogram.Status.NO_DATA, one.histogram(H, "tpl-py", "warm").status());
    assertTrue(one.notes().get(0).startsWith("fewer than two scrapes"));
  }

  @Test
  void belowTheMinimumCountGoodEventsReplaceTheQuantile() {
    // Δ: 2, 3, 4, 4, 5, 5 → 5 observations < 20
    LatencyHistogram h =
        reading(
            scrape("12:00:00", "", 1, 1, 1, 1, 1, 1) + scrape("12:05:00", "", 3, 4, 5, 5, 6, 6));
    assertEquals(LatencyHistogram.Status.BELOW_MIN_COUNT, h.status());
    assertEquals(List.of(), h.quantiles());
    // good ≤ 5000 ms: Δ at le=5000 is 5 − 1 = 4, of 5
    assertEquals(4.0, h.good().good());
    assertEquals(0.8, h.good().ratio(), 1e-12);
    assertEquals("4/5 ≤ 5000 ms (5 observations: no quantile)", h.display());
    // a threshold between bounds uses the largest bound below it: 3000 → 2500
    LatencyHistogram t =
        LatencyHistogram.of(
            H,
            "tpl-py",
            "warm",
            ControllerView.bucketDelta(
                Scrape.parseFile(
                    scrape("12:00:00", "", 1, 1, 1, 1, 1, 1)
                        + scrape("12:05:00", "", 3, 4, 5, 5, 6, 6)),
                H,
                "tpl-py",
                "warm",
                Instant.parse("2026-09-01T12:00:00Z"),
                Instant.parse("2026-09-01T12:05:00Z")),
            new LatencyHistogram.Options(List.of(0.95), 20, 3000));
    assertEquals(2500.0, t.good().thresholdMs());
    assertEquals(4.0, t.good().good());
  }

  @Test
  void overcountDropsTheExcessFromTheTopAndRecomputes() {
    LatencyHistogram h =
        reading(
            scrape("12:00:00", "", 0, 0, 0, 0, 0, 0)
                + scrape("12:05:00", "", 10, 16, 19, 20, 20, 23));
    LatencyHistogram c = h.withFirstReadyClaims(20, LatencyHistogram.Options.defaults());
    assertEquals(3.0, c.overcount().excess());
    // per bucket 10, 6, 3, 1, 0, 3 → drop 3 from +Inf → cumulative 10, 16, 19, 20, 20, 20
    // p50: rank 10 in (0, 500]: 500 × 10/10 = 500; p95: rank 19 in (1000, 2500]:
    // 1000 + 1500 × (19 − 16)/3 = 2500; p99: rank 19.8 in (2500, 5000]: 2500 + 2500 × 0.8 = 4500
    List<LatencyHistogram.QuantileValue> q = c.overcount().corrected();
    assertEquals(500, q.get(0).valueMs(), 1e-9);
    assertEquals(2500, q.get(1).valueMs(), 1e-9);
    assertEquals(4500, q.get(2).valueMs(), 1e-9);
    assertEquals("4500 ms", q.get(2).display());
    assertTrue(q.stream().noneMatch(LatencyHistogram.QuantileValue::lowerBound));
    assertEquals("20/20 ≤ 5000 ms", c.overcount().correctedGood().display());
    // no excess: unchanged
    assertEquals(h, h.withFirstReadyClaims(23, LatencyHistogram.Options.defaults()));
    assertThrows(
        IllegalArgumentException.class,
        () -> h.withFirstReadyClaims(-1, LatencyHistogram.Options.defaults()));
  }

  @Test
  void buildInfoPodConditionGaugeAndRestartsFromScrapesAlone() {
    String creation =
        "agent_sandbox_claim_creation_total{created_by=\"go-client\",launch_type=\"warm\","
            + "namespace=\"team-a\",pod_condition=\"%s\",sandbox_template=\"tpl-py\","
            + "warmpool_name=\"pool-py\"} %d\n";
    String gauge =
        "agent_sandboxes{created_by=\"controller\",expired=\"false\",launch_type=\"warm\","
            + "namespace=\"team-a\",owned_by=\"SandboxWarmPool\",ready_condition=\"true\","
            + "sandbox_template=\"tpl-py\"} 7\n";
    String file =
        scrape(
                "12:00:00",
                BUILD
                    + "process_start_time_seconds 1788264000\n"
                    + String.format(creation, "ready", 10)
                    + String.format(creation, "not_ready", 2),
                0,
                0,
                0,
                0,
                0,
                0)
            + scrape(
                "12:01:00",
                BUILD
                    + "process_start_time_seconds 1788264000\n"
                    + String.format(creation, "ready", 12)
                    + String.format(creation, "not_ready", 30)
                    + gauge,
                1,
                2,
                2,
                2,
                2,
                2)
            // restart at 12:01:40: counters start again from 0
            + scrape(
                "12:02:00",
                BUILD
                    + "process_start_time_seconds 1788264100\n"
                    + String.format(creation, "ready", 1)
                    + String.format(creation, "not_ready", 0)
                    + gauge,
                1,
                1,
                1,
                1,
                1,
                1);
    ControllerReport r =
        ControllerReport.ofScrapeFiles(
            List.of(file),
            Instant.parse("2026-09-01T12:02:00Z"),
            Duration.ofMinutes(5),
            LatencyHistogram.Options.defaults());
    assertEquals("v0.5.1", r.build().gitVersion());
    assertEquals(3, r.scrapes());
    // warm: ready 2 + 1 (after reset), not_ready 28 + 0 → warm 31, no cold → ratio 1.0
    assertEquals(31.0, r.warmHit().get(0).warmHit().warm());
    assertEquals(1.0, r.warmHit().get(0).warmHit().ratio());
    assertTrue(r.warmHit().get(0).warmHit().partial());
    assertEquals(
        List.of(
            new ControllerReport.PodConditionRow("tpl-py", "warm", "not_ready", 28),
            new ControllerReport.PodConditionRow("tpl-py", "warm", "ready", 3)),
        r.podCondition());
    assertTrue(r.notes().contains(ControllerReport.POD_CONDITION_NOTE));
    assertEquals(1, r.restarts().size());
    assertEquals(Instant.parse("2026-09-01T12:01:40Z"), r.restarts().get(0).at());
    assertEquals(7.0, r.sandboxes().get(0).value());
    // histogram: 2 + 1 (post-reset value) = 3 observations, partial
    LatencyHistogram h = r.histogram(H, "tpl-py", "warm");
    assertEquals(3.0, h.count());
    assertTrue(h.partial());
  }

  @Test
  void malformedOrEmptyFilesAreOneLineErrors() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ControllerReport.ofScrapeFiles(
                    List.of("# SCRAPE 2026-09-01T12:00:00Z target=x\nbad{a=1} 2\n"),
                    null,
                    null,
                    LatencyHistogram.Options.defaults()));
    assertEquals(
        "file 1: scrape at line 2: line 1: label value of 'a' must be quoted", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            ControllerReport.ofScrapeFiles(
                List.of("up 1\n"), null, null, LatencyHistogram.Options.defaults()));
  }

  @Test
  void c14ScrapeFileAloneIsAValidReplay() throws Exception {
    ControllerReport r =
        ControllerReport.ofScrapeFiles(
            List.of(CasesScrapeTest.input("C14-counter-reset-restart.txt")),
            null,
            null,
            LatencyHistogram.Options.defaults());
    ControllerView.WarmHit w = r.warmHit().get(0).warmHit();
    assertEquals(80.0, w.warm()); // 40 + 15 + 25
    assertEquals(5.0, w.cold()); // 2 + 1 + 2
    assertTrue(w.partial());
    assertEquals(Instant.parse("2026-09-01T12:00:40Z"), r.restarts().get(0).at());
    assertNull(r.build());
    assertEquals(List.of(), r.histograms());
    assertEquals("  warm-hit tpl-py: 0.941 (80 warm / 85) partial", r.lines().get(2));
    assertTrue(r.lines().get(1).contains("unknown (no agent_sandbox_build_info)"));
  }

  static String created(long warm, long cold) {
    String c =
        "agent_sandbox_claim_creation_total{created_by=\"python-client\",launch_type=\"%s\","
            + "namespace=\"team-a\",pod_condition=\"not_ready\",sandbox_template=\"tpl-py\","
            + "warmpool_name=\"pool-py\"} %d\n";
    return String.format(c, "warm", warm) + String.format(c, "cold", cold);
  }

  @Test
  void scrapeOnlyOvercountIsCheckedAgainstTheControllersOwnCreations() {
    // creations Δ warm 100 → 120 = 20; histogram Δ: ≤500 10, ≤1000 16, ≤2500 19, ≤5000 20,
    // ≤240000 20, +Inf 23 → 23 observations for 20 claims created: excess 3
    String file =
        scrape("12:00:00", created(100, 5), 0, 0, 0, 0, 0, 0)
            + scrape("12:05:00", created(120, 5), 10, 16, 19, 20, 20, 23);
    ControllerReport r =
        ControllerReport.ofScrapeFiles(
                List.of(file), null, null, LatencyHistogram.Options.defaults())
            .crossCheckedWithCreations(LatencyHistogram.Options.defaults());
    LatencyHistogram h = r.histogram(H, "tpl-py", "warm");
    LatencyHistogram.Overcount oc = h.overcount();
    assertEquals(20, oc.claims());
    assertEquals(LatencyHistogram.Basis.CREATED, oc.basis());
    assertEquals(3.0, oc.excess());
    // the 3 excess observations leave the +Inf bucket: 20 remain, all ≤ 5000 ms; p95 rank 19 in
    // (1000, 2500]: 1000 + 1500 × (19 − 16) / 3 = 2500
    assertEquals("2500 ms", oc.corrected().get(1).display());
    assertEquals("20/20 ≤ 5000 ms", oc.correctedGood().display());
    assertTrue(
        r.lines().stream()
            .anyMatch(l -> l.contains("; overcount 3 (20 claims created), corrected: p50 500 ms")),
        String.join("\n", r.lines()));
    assertTrue(r.notes().get(r.notes().size() - 1).startsWith("overcounts are against claims"));
  }

  @Test
  void scrapeOnlyCrossCheckNeedsTheCounterAndFindsNoExcessWhenCountsMatch() {
    // 23 claims created and 23 observations: no overcount
    String matching =
        scrape("12:00:00", created(100, 5), 0, 0, 0, 0, 0, 0)
            + scrape("12:05:00", created(123, 5), 10, 16, 19, 20, 20, 23);
    ControllerReport m =
        ControllerReport.ofScrapeFiles(
                List.of(matching), null, null, LatencyHistogram.Options.defaults())
            .crossCheckedWithCreations(LatencyHistogram.Options.defaults());
    assertNull(m.histogram(H, "tpl-py", "warm").overcount());
    // without agent_sandbox_claim_creation_total there is nothing to check against
    String histogramOnly =
        scrape("12:00:00", "", 0, 0, 0, 0, 0, 0) + scrape("12:05:00", "", 10, 16, 19, 20, 20, 23);
    ControllerReport h =
        ControllerReport.ofScrapeFiles(
                List.of(histogramOnly), null, null, LatencyHistogram.Options.defaults())
            .crossCheckedWithCreations(LatencyHistogram.Options.defaults());
    assertNull(h.histogram(H, "tpl-py", "warm").overcount());
    assertTrue(h.notes().stream().noneMatch(n -> n.startsWith("overcounts")));
  }
}
