package org.sandboxslo.engine.scrape;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the agent-sandbox controller says about itself over a window, from scrapes of its {@code
 * /metrics} alone (reference §d): the build, warm-hit per template, every latency histogram per
 * template × launch type ({@link LatencyHistogram}: lower bounds, no data, good events below the
 * minimum count), the {@code pod_condition} split (reported, never judged), the {@code
 * agent_sandboxes} gauge at the last scrape, restarts and notes. Pure; scrapes of several targets
 * (controller replicas) are computed per target and summed.
 *
 * <p>This is the entry point for a replay of scrape files only: {@link #ofScrapeFiles}. The engine
 * adds the cross-check against claims ({@code FleetEngine#controllerReport}).
 *
 * @param from start of the window
 * @param to end of the window (the clock)
 * @param scrapes scrapes inside the window
 * @param targets scrape targets seen, sorted
 * @param build {@code agent_sandbox_build_info} of the newest scrape that has it, or null
 * @param warmHit one row per {@code sandbox_template} with claims in the window, sorted
 * @param histograms one per histogram × template × launch type with series in the window
 * @param podCondition increases of {@code agent_sandbox_claim_creation_total} by template, launch
 *     type and {@code pod_condition}
 * @param sandboxes {@code agent_sandboxes} at the newest scrape, by label set
 * @param restarts counter resets seen (their windows are partial)
 * @param notes one-line explanations of what the figures cannot say
 */
public record ControllerReport(
    Instant from,
    Instant to,
    int scrapes,
    List<String> targets,
    BuildInfo build,
    List<WarmHitRow> warmHit,
    List<LatencyHistogram> histograms,
    List<PodConditionRow> podCondition,
    List<GaugeRow> sandboxes,
    List<CounterIncrease.Restart> restarts,
    List<String> notes) {
  public ControllerReport {
    targets = List.copyOf(targets);
    warmHit = List.copyOf(warmHit);
    histograms = List.copyOf(histograms);
    podCondition = List.copyOf(podCondition);
    sandboxes = List.copyOf(sandboxes);
    restarts = List.copyOf(restarts);
    notes = List.copyOf(notes);
  }

  /** Histograms read for every report, in this order. */
  public static final List<String> HISTOGRAMS =
      List.of(
          ControllerView.CONTROLLER_STARTUP_LATENCY_MS,
          ControllerView.CLAIM_STARTUP_LATENCY_MS,
          ControllerView.CLIENT_CLAIM_STARTUP_LATENCY_MS,
          ControllerView.CREATION_LATENCY_MS);

  /** The note that comes with every {@code pod_condition} figure. */
  public static final String POD_CONDITION_NOTE =
      "pod_condition is the candidate's Ready at the moment of adoption (cold launches are always"
          + " not_ready): a snapshot taken at creation time, not a health signal";

  /**
   * {@code agent_sandbox_build_info}.
   *
   * @param gitVersion label {@code git_version}, e.g. {@code v0.5.2}
   * @param gitCommit label {@code git_commit}
   * @param buildDate label {@code build_date}
   * @param goVersion label {@code go_version}
   */
  public record BuildInfo(
      String gitVersion, String gitCommit, String buildDate, String goVersion) {}

  /**
   * Warm-hit of one template.
   *
   * @param template label {@code sandbox_template}
   * @param warmHit Δwarm, Δcold, ratio (null = no data), partial
   */
  public record WarmHitRow(String template, ControllerView.WarmHit warmHit) {}

  /**
   * Claims created by {@code pod_condition} ({@link #POD_CONDITION_NOTE}).
   *
   * @param template label {@code sandbox_template}
   * @param launchType label {@code launch_type}
   * @param podCondition {@code ready} or {@code not_ready}
   * @param increase Δ over the window
   */
  public record PodConditionRow(
      String template, String launchType, String podCondition, double increase) {}

  /**
   * One {@code agent_sandboxes} series at the newest scrape.
   *
   * @param labels the label set (namespace, ready_condition, expired, launch_type,
   *     sandbox_template, owned_by, created_by)
   * @param value the gauge value
   */
  public record GaugeRow(Map<String, String> labels, double value) {
    public GaugeRow {
      labels = Map.copyOf(labels);
    }
  }

  /**
   * The report of scrape files alone (the format of {@code # SCRAPE <RFC3339> target=<t>} blocks).
   *
   * @param fileTexts each file's text
   * @param at the clock; null means the newest scrape
   * @param window how far back from {@code at}; null means from the oldest scrape
   * @throws IllegalArgumentException "file N: line M: reason" for a malformed file, or when no
   *     scrape is found
   */
  public static ControllerReport ofScrapeFiles(
      List<String> fileTexts, Instant at, Duration window, LatencyHistogram.Options options) {
    List<Scrape> all = new ArrayList<>();
    for (int i = 0; i < fileTexts.size(); i++) {
      try {
        all.addAll(Scrape.parseFile(fileTexts.get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("file " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    if (all.isEmpty()) {
      throw new IllegalArgumentException("no '# SCRAPE <RFC3339> target=<name>' block found");
    }
    Instant newest = all.stream().map(Scrape::at).max(Instant::compareTo).orElseThrow();
    Instant oldest = all.stream().map(Scrape::at).min(Instant::compareTo).orElseThrow();
    Instant to = at != null ? at : newest;
    Instant from = window != null ? to.minus(window) : oldest;
    return of(all, from, to, options);
  }

  /**
   * The report over the scrapes with {@code from ≤ at ≤ to}.
   *
   * @throws IllegalArgumentException when {@code from} is after {@code to}
   */
  public static ControllerReport of(
      List<Scrape> scrapes, Instant from, Instant to, LatencyHistogram.Options options) {
    Objects.requireNonNull(options, "options");
    if (from.isAfter(to)) {
      throw new IllegalArgumentException("window start " + from + " is after its end " + to);
    }
    Map<String, List<Scrape>> byTarget = new TreeMap<>();
    int inWindow = 0;
    for (Scrape s : scrapes) {
      if (!s.at().isBefore(from) && !s.at().isAfter(to)) {
        byTarget.computeIfAbsent(s.target(), t -> new ArrayList<>()).add(s);
        inWindow++;
      }
    }
    List<Scrape> window = new ArrayList<>();
    byTarget.values().forEach(window::addAll);
    window.sort((a, b) -> a.at().compareTo(b.at()));

    BuildInfo build = null;
    for (Scrape s : window) {
      for (Sample x : s.samples()) {
        if (x.name().equals(ControllerView.BUILD_INFO)) {
          build =
              new BuildInfo(
                  x.labels().get("git_version"),
                  x.labels().get("git_commit"),
                  x.labels().get("build_date"),
                  x.labels().get("go_version"));
        }
      }
    }

    List<WarmHitRow> warm = new ArrayList<>();
    SortedSet<String> templates =
        ControllerView.labelValues(
            window, ControllerView.CLAIM_CREATION_TOTAL, "sandbox_template", from, to);
    List<CounterIncrease.Restart> restarts = new ArrayList<>();
    for (String t : templates) {
      double w = 0;
      double c = 0;
      boolean partial = false;
      List<CounterIncrease.Restart> rs = new ArrayList<>();
      for (List<Scrape> ts : byTarget.values()) {
        ControllerView.WarmHit h = ControllerView.warmHit(ts, null, t, from, to);
        w += h.warm();
        c += h.cold();
        partial |= h.partial();
        rs.addAll(h.restarts());
      }
      warm.add(
          new WarmHitRow(
              t, new ControllerView.WarmHit(w, c, w + c == 0 ? null : w / (w + c), partial, rs)));
    }
    for (List<Scrape> ts : byTarget.values()) {
      CounterIncrease.Result r =
          CounterIncrease.over(ts, ControllerView.CLAIM_CREATION_TOTAL, from, to);
      for (CounterIncrease.Restart x : r.restarts()) {
        if (!restarts.contains(x)) {
          restarts.add(x);
        }
      }
    }

    List<LatencyHistogram> histograms = new ArrayList<>();
    Map<String, Double> countByMetric = new LinkedHashMap<>();
    for (String metric : HISTOGRAMS) {
      String bucket = metric + "_bucket";
      TreeSet<String> keys = new TreeSet<>();
      for (Scrape s : window) {
        for (Sample x : s.samples()) {
          if (x.name().equals(bucket)) {
            keys.add(
                x.labels().getOrDefault("sandbox_template", "")
                    + "\u0000"
                    + x.labels().getOrDefault("launch_type", ""));
          }
        }
      }
      for (String k : keys) {
        String[] p = k.split("\u0000", -1);
        String template = p[0].isEmpty() ? null : p[0];
        String launch = p[1].isEmpty() ? null : p[1];
        ControllerView.BucketDelta sum = null;
        for (List<Scrape> ts : byTarget.values()) {
          sum = merge(sum, ControllerView.bucketDelta(ts, metric, template, launch, from, to));
        }
        LatencyHistogram h = LatencyHistogram.of(metric, template, launch, sum, options);
        histograms.add(h);
        countByMetric.merge(metric, h.count(), Double::sum);
        for (CounterIncrease.Restart x :
            sum == null ? List.<CounterIncrease.Restart>of() : sum.restarts()) {
          if (!restarts.contains(x)) {
            restarts.add(x);
          }
        }
      }
    }

    List<PodConditionRow> pc = new ArrayList<>();
    TreeMap<String, Double> pcSum = new TreeMap<>();
    for (List<Scrape> ts : byTarget.values()) {
      CounterIncrease.Result r =
          CounterIncrease.over(ts, ControllerView.CLAIM_CREATION_TOTAL, from, to);
      Map<String, Sample> series =
          CounterIncrease.seriesOf(ts, ControllerView.CLAIM_CREATION_TOTAL);
      r.increase()
          .forEach(
              (id, inc) -> {
                Sample s = series.get(id);
                if (s != null && s.labels().get("pod_condition") != null) {
                  pcSum.merge(
                      s.labels().getOrDefault("sandbox_template", "")
                          + "\u0000"
                          + s.labels().getOrDefault("launch_type", "")
                          + "\u0000"
                          + s.labels().get("pod_condition"),
                      inc,
                      Double::sum);
                }
              });
    }
    pcSum.forEach(
        (k, v) -> {
          String[] p = k.split("\u0000", -1);
          pc.add(new PodConditionRow(p[0], p[1], p[2], v));
        });

    List<GaugeRow> gauge = new ArrayList<>();
    for (List<Scrape> ts : byTarget.values()) {
      Scrape last = ts.get(ts.size() - 1);
      for (Sample x : last.samples()) {
        if (x.name().equals(ControllerView.SANDBOXES)) {
          gauge.add(new GaugeRow(x.labels(), x.value()));
        }
      }
    }

    List<String> notes = new ArrayList<>();
    if (inWindow < 2) {
      notes.add(
          "fewer than two scrapes in the window: increases need two, so every counter and histogram"
              + " figure is no data");
    }
    if (countByMetric.getOrDefault(ControllerView.CLAIM_STARTUP_LATENCY_MS, -1.0) == 0
        && countByMetric.getOrDefault(ControllerView.CONTROLLER_STARTUP_LATENCY_MS, 0.0) > 0) {
      notes.add(
          ControllerView.CLAIM_STARTUP_LATENCY_MS
              + " is observed only when a mutating webhook stamps webhook-first-observed-at: its"
              + " no data is expected; read "
              + ControllerView.CONTROLLER_STARTUP_LATENCY_MS);
    }
    if (!pc.isEmpty()) {
      notes.add(POD_CONDITION_NOTE);
    }
    if (!restarts.isEmpty()) {
      notes.add(
          restarts.size()
              + " controller restart(s) in the window: increments between the last scrape before a"
              + " restart and the restart were never scraped (partial window)");
    }
    if (byTarget.size() > 1) {
      notes.add(
          byTarget.size()
              + " targets: increases are computed per target and summed (only the leader records)");
    }
    return new ControllerReport(
        from,
        to,
        inWindow,
        List.copyOf(byTarget.keySet()),
        build,
        warm,
        histograms,
        pc,
        gauge,
        restarts,
        notes);
  }

  private static ControllerView.BucketDelta merge(
      ControllerView.BucketDelta a, ControllerView.BucketDelta b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    TreeMap<Double, Double> byLe = new TreeMap<>();
    a.buckets().forEach(x -> byLe.merge(x.le(), x.count(), Double::sum));
    b.buckets().forEach(x -> byLe.merge(x.le(), x.count(), Double::sum));
    List<HistogramQuantile.Bucket> out = new ArrayList<>();
    byLe.forEach((le, c) -> out.add(new HistogramQuantile.Bucket(le, c)));
    List<CounterIncrease.Restart> rs = new ArrayList<>(a.restarts());
    rs.addAll(b.restarts());
    return new ControllerView.BucketDelta(
        out,
        a.partial() || b.partial(),
        rs,
        a.firstScrape().isBefore(b.firstScrape()) ? a.firstScrape() : b.firstScrape(),
        a.lastScrape().isAfter(b.lastScrape()) ? a.lastScrape() : b.lastScrape());
  }

  /**
   * The report as text lines for a terminal: the build, warm-hit per template (no data when no
   * claim), each histogram (lower bounds, no data, good events below the minimum count, and
   * corrected figures after an overcount), the pod_condition split and the notes.
   */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(
        "controller view "
            + from
            + " .. "
            + to
            + " ("
            + scrapes
            + " scrapes"
            + (targets.isEmpty() ? "" : " of " + String.join(", ", targets))
            + ")");
    out.add(
        "  build: "
            + (build == null || build.gitVersion() == null
                ? "unknown (no agent_sandbox_build_info)"
                : build.gitVersion() + " (" + build.gitCommit() + ")"));
    for (WarmHitRow w : warmHit) {
      ControllerView.WarmHit h = w.warmHit();
      out.add(
          "  warm-hit "
              + w.template()
              + ": "
              + (h.ratio() == null
                  ? "no data"
                  : String.format(java.util.Locale.ROOT, "%.3f", h.ratio()))
              + " ("
              + LatencyHistogram.num(h.warm())
              + " warm / "
              + LatencyHistogram.num(h.warm() + h.cold())
              + ")"
              + (h.partial() ? " partial" : ""));
    }
    for (LatencyHistogram h : histograms) {
      StringBuilder sb =
          new StringBuilder("  ")
              .append(h.metric())
              .append(" {sandbox_template=")
              .append(h.template())
              .append(", launch_type=")
              .append(h.launchType())
              .append("}: ")
              .append(h.display());
      if (h.count() > 0) {
        sb.append(" [").append(LatencyHistogram.num(h.count())).append(" observations]");
      }
      if (h.partial()) {
        sb.append(" partial");
      }
      if (h.overcount() != null) {
        LatencyHistogram.Overcount oc = h.overcount();
        sb.append("; overcount ")
            .append(LatencyHistogram.num(oc.excess()))
            .append(" (")
            .append(oc.claims())
            .append(' ')
            .append(oc.basis().text())
            .append("), corrected: ");
        List<String> parts = new ArrayList<>();
        oc.corrected()
            .forEach(v -> parts.add("p" + LatencyHistogram.num(v.q() * 100) + " " + v.display()));
        if (oc.correctedGood() != null) {
          parts.add(oc.correctedGood().display());
        }
        sb.append(parts.isEmpty() ? "no data" : String.join(", ", parts));
      }
      out.add(sb.toString());
    }
    for (PodConditionRow r : podCondition) {
      out.add(
          "  claims created "
              + r.template()
              + " "
              + r.launchType()
              + " pod_condition="
              + r.podCondition()
              + ": "
              + LatencyHistogram.num(r.increase()));
    }
    for (String n : notes) {
      out.add("  note: " + n);
    }
    return out;
  }

  /**
   * The scrape-only cross-check: each histogram of {@link #HISTOGRAMS} (all recorded once per claim
   * at its first Ready) with a template and a {@code warm}/{@code cold} launch type is checked
   * against the claims the controller counted as created over the same window ({@link #warmHit}:
   * Δ{@code agent_sandbox_claim_creation_total} of that template and launch type, all namespaces).
   * A count above it is an overcount on {@link LatencyHistogram.Basis#CREATED}; a note says what
   * that basis cannot tell apart. Use it only when no claim stream is available (a replay of scrape
   * files alone); with claims, {@code FleetEngine#controllerReport} checks against first-Ready
   * claims instead.
   */
  public ControllerReport crossCheckedWithCreations(LatencyHistogram.Options options) {
    Objects.requireNonNull(options, "options");
    List<LatencyHistogram> checked = new ArrayList<>();
    boolean any = false;
    for (LatencyHistogram h : histograms) {
      Long created = created(h.template(), h.launchType());
      LatencyHistogram c =
          created == null || h.count() <= 0
              ? h
              : h.withClaims(created, LatencyHistogram.Basis.CREATED, options);
      any |= c.overcount() != null;
      checked.add(c);
    }
    List<String> n = new ArrayList<>(notes);
    if (any) {
      n.add(
          "overcounts are against claims created in the window"
              + " (agent_sandbox_claim_creation_total): a claim created before the window start and"
              + " Ready inside it also adds one; older controllers record again on every resume"
              + " (agent-sandbox#1113, fixed by #1114)");
    }
    return new ControllerReport(
        from, to, scrapes, targets, build, warmHit, checked, podCondition, sandboxes, restarts, n);
  }

  private Long created(String template, String launchType) {
    if (template == null || !("warm".equals(launchType) || "cold".equals(launchType))) {
      return null;
    }
    for (WarmHitRow w : warmHit) {
      if (w.template().equals(template)) {
        return Math.round("warm".equals(launchType) ? w.warmHit().warm() : w.warmHit().cold());
      }
    }
    return null; // the counter was not scraped for this template: nothing to check against
  }

  /** The histogram reading of one metric × template × launch type, or null. */
  public LatencyHistogram histogram(String metric, String template, String launchType) {
    for (LatencyHistogram h : histograms) {
      if (h.metric().equals(metric)
          && Objects.equals(h.template(), template)
          && Objects.equals(h.launchType(), launchType)) {
        return h;
      }
    }
    return null;
  }

  /** The same report with each histogram replaced (used for the claim cross-check). */
  public ControllerReport withHistograms(List<LatencyHistogram> replaced) {
    return new ControllerReport(
        from,
        to,
        scrapes,
        targets,
        build,
        warmHit,
        replaced,
        podCondition,
        sandboxes,
        restarts,
        notes);
  }
}
