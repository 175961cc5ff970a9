package org.sandboxslo.server.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sandboxslo.collector.ReplayEvents;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.diagnosis.DiagnosisSettings;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.scrape.ControllerReport;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.Sample;
import org.sandboxslo.engine.scrape.Scrape;

/**
 * Feeds recorded files through the same collector mapping ({@link ReplayEvents}) and engine as the
 * live console, with the recorded receive times as the clock. Any mix of the formats of {@link
 * ReplayInput} (timeline YAML, kubectl watch JSON, scrape files) is merged into one timeline in
 * receive-time order (stable: file order, then entry order).
 *
 * <p>Diagnoses are evaluated along the whole timeline: after the events of every receive instant
 * (events received at the same instant are one delivery) and at least every {@link
 * #EVALUATION_STEP} of replay time in between, up to the clock. So each finding says when it first
 * appeared and when its alert fires ({@link FindingAlerts}). The clock is {@code --at} when given
 * (later entries are not applied), else the latest of the timelines' {@code clock} and the last
 * entry. A replay of scrape files alone reports the controller's view with {@link
 * ControllerReport#ofScrapeFiles}, its histograms cross-checked against the controller's own claim
 * creations.
 */
public final class Replayer {
  /** Longest stretch of replay time without an evaluation. */
  public static final Duration EVALUATION_STEP = Duration.ofSeconds(10);

  /**
   * Most evaluations between events; a longer replay evaluates less often (the step grows so the
   * replay stays bounded, e.g. a watch event without any timestamp at the epoch).
   */
  static final long MAX_STEPS = 50_000;

  private Replayer() {}

  /**
   * Replays one file.
   *
   * @throws IllegalArgumentException "FILE: reason" when the file cannot be read or is none of the
   *     formats
   */
  public static ReplayResult replayFile(Path file) {
    return replay(List.of(file), null);
  }

  /**
   * Replays files together.
   *
   * @param files one or more files, any mix of the formats
   * @param at the clock, or null for the end of the recording
   * @throws IllegalArgumentException "FILE: reason" (one line) for the first file that cannot be
   *     read or is none of the formats
   */
  public static ReplayResult replay(List<Path> files, Instant at) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no replay file given");
    }
    List<ReplayInput> inputs = new ArrayList<>();
    for (Path f : files) {
      String text;
      try {
        text = Files.readString(f);
      } catch (IOException e) {
        throw new IllegalArgumentException(f + ": cannot read: " + e.getMessage());
      } catch (RuntimeException e) { // e.g. MalformedInputException of a binary file
        throw new IllegalArgumentException(f + ": cannot read: " + e);
      }
      try {
        inputs.add(ReplayInput.parse(f.getFileName().toString(), text));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
      }
    }
    return run(inputs, at);
  }

  /** Replays a case timeline document (the clock is its {@code clock}). */
  public static ReplayResult replayCase(String fileName, String yamlText) {
    return run(List.of(ReplayInput.parse(fileName, yamlText)), null);
  }

  /** Replays {@code kubectl --watch --output-watch-events -o json} output. */
  public static ReplayResult replayWatchJson(String name, String json) {
    return run(List.of(ReplayInput.parse(name, json)), null);
  }

  /** One thing to apply at a receive time. */
  private record Item(Instant at, ReplayInput.Entry entry, Scrape scrape, Kind synced) {}

  static ReplayResult run(List<ReplayInput> inputs, Instant at) {
    Map<String, Object> config = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<Item> items = new ArrayList<>();
    Instant end = null;
    boolean scrapeOnly = true;
    for (ReplayInput in : inputs) {
      names.add(in.name());
      config.putAll(in.config());
      skipped.addAll(in.skipped());
      scrapeOnly &= in.format() == ReplayInput.Format.SCRAPES;
      in.entries().forEach(e -> items.add(new Item(e.at(), e, null, null)));
      in.scrapes().forEach(s -> items.add(new Item(s.at(), null, s, null)));
      if (in.format() == ReplayInput.Format.WATCH_JSON) {
        // kubectl's output has no sync marker: the kinds count as listed once the file is read
        for (Kind k : Kind.values()) {
          items.add(new Item(in.last(), null, null, k));
        }
      }
      end = later(end, later(in.clock(), in.last()));
    }
    if (at != null) {
      end = at;
    }
    if (end == null) {
      throw new IllegalArgumentException("nothing to replay: no entries, scrapes or clock");
    }
    items.sort(Comparator.comparing(Item::at)); // stable: file order, then entry order
    DiagnosisConfig diagnosis = diagnosisConfig(config);
    DiagnosisSettings settings = diagnosisSettings(config);

    FleetEngine engine = new FleetEngine(EngineConfig.defaults());
    FindingTimeline timeline = new FindingTimeline();
    List<Scrape> scrapes = new ArrayList<>();
    List<Finding> last = List.of();
    Duration step = step(items.isEmpty() ? end : items.get(0).at(), end);
    Instant evaluated = null;
    int events = 0;
    int i = 0;
    while (i < items.size() && !items.get(i).at().isAfter(end)) {
      Instant t = items.get(i).at();
      for (Instant tick = next(evaluated, step); tick != null && tick.isBefore(t); ) {
        last = evaluate(engine, timeline, tick, diagnosis, settings);
        evaluated = tick;
        tick = next(evaluated, step);
      }
      for (; i < items.size() && items.get(i).at().equals(t); i++) {
        Item it = items.get(i);
        if (it.scrape() != null) {
          engine.apply(new FleetEvent.Scraped(it.scrape()));
          scrapes.add(it.scrape());
          events++;
        } else if (it.synced() != null) {
          engine.apply(new FleetEvent.Synced(it.synced(), t));
        } else {
          events += apply(engine, it.entry(), scrapes, skipped);
        }
      }
      last = evaluate(engine, timeline, t, diagnosis, settings);
      evaluated = t;
    }
    for (Instant tick = next(evaluated, step); tick != null && tick.isBefore(end); ) {
      last = evaluate(engine, timeline, tick, diagnosis, settings);
      evaluated = tick;
      tick = next(evaluated, step);
    }
    if (evaluated == null || evaluated.isBefore(end)) {
      last = evaluate(engine, timeline, end, diagnosis, settings);
    }

    ControllerReport report;
    if (scrapeOnly) {
      List<String> texts = inputs.stream().map(ReplayInput::text).toList();
      Instant oldest =
          inputs.stream()
              .flatMap(x -> x.scrapes().stream())
              .map(Scrape::at)
              .min(Instant::compareTo)
              .orElse(end);
      report =
          ControllerReport.ofScrapeFiles(
                  texts, end, end.isBefore(oldest) ? Duration.ZERO : null, settings.histogram())
              .crossCheckedWithCreations(settings.histogram());
    } else {
      report = engine.controllerReport(end, diagnosis, settings);
    }
    ControllerView.WarmHit warmHit =
        scrapes.isEmpty()
            ? null
            : ControllerView.warmHit(scrapes, null, null, scrapes.get(0).at(), end);
    return new ReplayResult(
        String.join(" + ", names),
        end,
        events,
        skipped,
        engine.snapshot(end),
        last,
        warmHit,
        warnings(scrapes),
        inputs.stream().map(x -> x.name() + " (" + format(x.format()) + ")").toList(),
        timeline.evaluations(),
        step,
        timeline.current(),
        timeline.resolved(),
        engine.watchLag(end),
        engine.suspectStaleKinds(end, diagnosis),
        report,
        scrapeOnly);
  }

  private static List<Finding> evaluate(
      FleetEngine engine,
      FindingTimeline timeline,
      Instant t,
      DiagnosisConfig diagnosis,
      DiagnosisSettings settings) {
    List<Finding> fs = engine.findings(t, diagnosis, settings);
    timeline.evaluated(t, fs);
    return fs;
  }

  /** Applies one timeline/watch entry; returns the number of engine events applied. */
  private static int apply(
      FleetEngine engine, ReplayInput.Entry e, List<Scrape> scrapes, List<String> skipped) {
    List<FleetEvent> evs;
    try {
      evs = ReplayEvents.of(e.type(), e.body(), e.at());
    } catch (RuntimeException ex) { // MalformedObjectException and IllegalArgumentException
      skipped.add(e.where() + ": " + ex.getMessage());
      return 0;
    }
    for (FleetEvent ev : evs) {
      engine.apply(ev);
      if (ev instanceof FleetEvent.Scraped s) {
        scrapes.add(s.scrape());
      }
    }
    return 1;
  }

  private static Duration step(Instant first, Instant end) {
    Duration span = Duration.between(first, end);
    Duration min = span.dividedBy(MAX_STEPS);
    return min.compareTo(EVALUATION_STEP) > 0 ? min : EVALUATION_STEP;
  }

  private static Instant next(Instant evaluated, Duration step) {
    return evaluated == null ? null : evaluated.plus(step);
  }

  private static Instant later(Instant a, Instant b) {
    return a == null ? b : b == null || a.isAfter(b) ? a : b;
  }

  private static String format(ReplayInput.Format f) {
    return switch (f) {
      case TIMELINE -> "timeline";
      case WATCH_JSON -> "watch JSON";
      case SCRAPES -> "scrapes";
    };
  }

  /** The C10 consistency check on the newest scrape. */
  private static List<String> warnings(List<Scrape> scrapes) {
    List<String> warnings = new ArrayList<>();
    if (scrapes.isEmpty()) {
      return warnings;
    }
    Scrape newest = scrapes.stream().max(Comparator.comparing(Scrape::at)).orElseThrow();
    for (Sample x : newest.samples()) {
      if (x.name().equals(ControllerView.SANDBOXES)
          && "warm".equals(x.labels().get("launch_type"))
          && "None".equals(x.labels().get("owned_by"))
          && x.value() > 0) {
        warnings.add(
            "metrics consistency: agent_sandboxes{launch_type=\"warm\",owned_by=\"None\"} = "
                + (long) x.value()
                + " in namespace "
                + x.labels().get("namespace")
                + ": warm sandboxes must be owned by a claim or a pool (spoofed labels or a leak)");
      }
    }
    return warnings;
  }

  static DiagnosisConfig diagnosisConfig(Map<String, Object> c) {
    DiagnosisConfig d = DiagnosisConfig.defaults();
    if (c.get("staleWarnAfterSeconds") instanceof Number n) {
      d = d.withStaleWarnAfter(Duration.ofSeconds(n.longValue()));
    }
    if (c.get("rolloutMaxUnavailableFraction") instanceof Number n) {
      d = d.withRolloutMaxUnavailableFraction(n.doubleValue());
    }
    if (c.get("expiredRetainedWarnCount") instanceof Number n) {
      d = d.withExpiredRetainedWarnCount(n.intValue());
    }
    if (c.get("finishedWithoutLifecycleWarnAfterHours") instanceof Number n) {
      d = d.withFinishedWithoutLifecycleWarnAfter(Duration.ofHours(n.longValue()));
    }
    if (c.get("controllerVersion") != null) {
      d = d.withControllerVersion(String.valueOf(c.get("controllerVersion")));
    }
    return d;
  }

  /** {@code config.rolloutProgressDeadlineSeconds} sets the failed-rollout progress deadline. */
  static DiagnosisSettings diagnosisSettings(Map<String, Object> c) {
    DiagnosisSettings s = DiagnosisSettings.defaults();
    if (c.get("rolloutProgressDeadlineSeconds") instanceof Number n) {
      s = s.withProgressDeadline(Duration.ofSeconds(n.longValue()));
    }
    return s;
  }
}
