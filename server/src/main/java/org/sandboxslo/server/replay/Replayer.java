package org.sandboxslo.server.replay;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.parsetools.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sandboxslo.collector.MalformedObjectException;
import org.sandboxslo.collector.ObjectViews;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.scrape.Scrape;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;

/**
 * Feeds a recorded stream through the same collector mapping and engine as the live console, with
 * the recorded receive times as the clock. Accepts the case timeline format ({@code case}, {@code
 * clock}, {@code config}, {@code timeline[]} with {@code at}, {@code type} = ADDED | MODIFIED |
 * DELETED | SYNCED | SCRAPE, {@code object} or {@code text}) and the output of {@code kubectl get
 * ... --watch --output-watch-events -o json} (a stream of {@code {"type","object"}} values; the
 * receive time is the object's newest server time).
 */
public final class Replayer {
  private Replayer() {}

  /**
   * Replays a file.
   *
   * @throws IllegalArgumentException "FILE: reason" when the file cannot be read or is neither
   *     format
   */
  public static ReplayResult replayFile(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
    }
    try {
      String t = text.stripLeading();
      if (t.startsWith("{")) {
        return replayWatchJson(file.getFileName().toString(), text);
      }
      return replayCase(file.getFileName().toString(), text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Replays a case timeline document. */
  @SuppressWarnings("unchecked")
  public static ReplayResult replayCase(String fileName, String yamlText) {
    Object doc;
    try {
      doc = new Load(LoadSettings.builder().build()).loadFromString(yamlText);
    } catch (MarkedYamlEngineException e) {
      int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(-1);
      throw new IllegalArgumentException(
          "YAML parse error at line "
              + line
              + ": "
              + e.getProblem()
              + " (expected a replay timeline: case, clock, timeline[])");
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "YAML parse error: "
              + e.getMessage().replaceAll("\\s+", " ")
              + " (expected a replay timeline: case, clock, timeline[])");
    }
    if (!(doc instanceof Map<?, ?> m) || !(m.get("timeline") instanceof List<?> timeline)) {
      throw new IllegalArgumentException(
          "not a timeline document: needs a top-level 'timeline' list");
    }
    Map<String, Object> root = (Map<String, Object>) normalize(m);
    String name = root.get("case") != null ? String.valueOf(root.get("case")) : fileName;
    Map<String, Object> config =
        root.get("config") instanceof Map<?, ?> c ? (Map<String, Object>) c : Map.of();
    Run run = new Run(diagnosisConfig(config));
    Instant last = null;
    List<Object> entries = (List<Object>) root.get("timeline");
    for (int i = 0; i < entries.size(); i++) {
      if (!(entries.get(i) instanceof Map<?, ?> em)) {
        run.skipped.add("timeline[" + i + "]: not an object");
        continue;
      }
      Map<String, Object> e = (Map<String, Object>) em;
      Instant at;
      try {
        at = Instant.parse(String.valueOf(e.get("at")));
      } catch (RuntimeException ex) {
        run.skipped.add("timeline[" + i + "].at: bad time '" + e.get("at") + "'");
        continue;
      }
      last = at;
      run.entry("timeline[" + i + "]", String.valueOf(e.get("type")), e, at);
    }
    Instant clock;
    try {
      clock = root.get("clock") != null ? Instant.parse(String.valueOf(root.get("clock"))) : last;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "clock: expected an RFC 3339 time like 2026-11-29T09:00:00Z, got '"
              + root.get("clock")
              + "'");
    }
    if (clock == null) {
      throw new IllegalArgumentException("timeline is empty and has no clock");
    }
    return run.result(name, clock);
  }

  /** Replays {@code kubectl --watch --output-watch-events -o json} output. */
  @SuppressWarnings("unchecked")
  public static ReplayResult replayWatchJson(String name, String json) {
    List<JsonObject> values = new ArrayList<>();
    JsonParser p = JsonParser.newParser().objectValueMode();
    p.handler(
        ev -> {
          if (ev.type() == io.vertx.core.parsetools.JsonEventType.VALUE
              && ev.value() instanceof JsonObject o) {
            values.add(o);
          }
        });
    p.exceptionHandler(
        ex -> {
          String m = String.valueOf(ex.getMessage()).replaceFirst("^JSON parse error: ", "");
          int cut = m.indexOf(" (start marker");
          throw new IllegalArgumentException(
              "JSON parse error: " + (cut > 0 ? m.substring(0, cut) : m).replaceAll("\\s+", " "));
        });
    p.handle(Buffer.buffer(json));
    p.end();
    Run run = new Run(DiagnosisConfig.defaults());
    Instant last = null;
    for (int i = 0; i < values.size(); i++) {
      Map<String, Object> e = values.get(i).getMap();
      Object obj = e.get("object");
      Map<String, Object> o =
          obj instanceof JsonObject jo
              ? jo.getMap()
              : obj instanceof Map<?, ?> mm ? (Map<String, Object>) mm : null;
      if (o == null) {
        run.skipped.add("event " + i + ": no object");
        continue;
      }
      Map<String, Object> plain = (Map<String, Object>) normalize(o);
      Instant at = safeServerTime(plain);
      if (at == null) {
        at = last != null ? last : Instant.EPOCH;
      }
      if (last != null && at.isBefore(last)) {
        at = last;
      }
      last = at;
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("object", plain);
      run.entry("event " + i, String.valueOf(e.get("type")), entry, at);
    }
    if (last == null) {
      throw new IllegalArgumentException("no watch events found");
    }
    for (Kind k : Kind.values()) {
      run.engine.apply(new FleetEvent.Synced(k, last));
    }
    return run.result(name, last);
  }

  private static Instant safeServerTime(Map<String, Object> o) {
    try {
      return ObjectViews.serverTime(o);
    } catch (RuntimeException e) {
      return null;
    }
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

  /** Dates parsed by YAML become RFC3339 strings; maps and lists are copied. */
  static Object normalize(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), normalize(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(normalize(x)));
      return out;
    }
    if (v instanceof io.vertx.core.json.JsonArray a) {
      return normalize(a.getList());
    }
    if (v instanceof JsonObject o) {
      return normalize(o.getMap());
    }
    if (v instanceof Date d) {
      return d.toInstant().toString();
    }
    return v;
  }

  /** One replay: engine plus scrapes plus skipped lines. */
  private static final class Run {
    final FleetEngine engine = new FleetEngine(EngineConfig.defaults());
    final DiagnosisConfig diagnosis;
    final List<String> skipped = new ArrayList<>();
    final List<Scrape> scrapes = new ArrayList<>();
    int events;

    Run(DiagnosisConfig diagnosis) {
      this.diagnosis = diagnosis;
    }

    @SuppressWarnings("unchecked")
    void entry(String where, String type, Map<String, Object> e, Instant at) {
      switch (type) {
        case "ADDED", "MODIFIED", "DELETED" -> {
          if (!(e.get("object") instanceof Map<?, ?> om)) {
            skipped.add(where + ": " + type + " without an object");
            return;
          }
          Map<String, Object> o = (Map<String, Object>) om;
          try {
            ObjectView v = ObjectViews.toView(o);
            if (type.equals("DELETED")) {
              engine.apply(new FleetEvent.Deleted(v.kind(), v.ref(), v.uid(), at));
            } else {
              engine.apply(new FleetEvent.Upserted(v, ObjectViews.serverTime(o), at));
            }
            events++;
          } catch (MalformedObjectException ex) {
            skipped.add(where + ": " + ex.getMessage());
          } catch (RuntimeException ex) {
            skipped.add(where + ": " + ex.getMessage());
          }
        }
        case "SYNCED" -> {
          Object k = e.get("kind");
          Kind kind = k == null ? null : Kind.ofKindName(String.valueOf(k));
          if (kind == null) {
            for (Kind x : Kind.values()) {
              engine.apply(new FleetEvent.Synced(x, at));
            }
          } else {
            engine.apply(new FleetEvent.Synced(kind, at));
          }
          events++;
        }
        case "SCRAPE" -> {
          try {
            scrapes.add(
                new Scrape(
                    at,
                    String.valueOf(e.getOrDefault("target", "unknown")),
                    PromText.parse(String.valueOf(e.getOrDefault("text", "")))));
            events++;
          } catch (IllegalArgumentException ex) {
            skipped.add(where + ": scrape: " + ex.getMessage());
          }
        }
        default -> skipped.add(where + ": unknown type '" + type + "'");
      }
    }

    ReplayResult result(String name, Instant clock) {
      ControllerView.WarmHit cv = null;
      if (!scrapes.isEmpty()) {
        cv = ControllerView.warmHit(scrapes, null, null, scrapes.get(0).at(), clock);
      }
      var findings = engine.findings(clock, diagnosis);
      List<String> warnings = new ArrayList<>();
      if (!scrapes.isEmpty()) {
        for (org.sandboxslo.engine.scrape.Sample x : scrapes.get(scrapes.size() - 1).samples()) {
          if (x.name().equals("agent_sandboxes")
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
      }
      return new ReplayResult(
          name, clock, events, skipped, engine.snapshot(clock), findings, cv, warnings);
    }
  }
}
