package org.sandboxslo.server.replay;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.parsetools.JsonEventType;
import io.vertx.core.parsetools.JsonParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.sandboxslo.collector.ObjectViews;
import org.sandboxslo.engine.scrape.Scrape;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;

/**
 * One replay file read into time-stamped entries. Three formats, told apart by content:
 *
 * <ul>
 *   <li>{@link Format#TIMELINE}: the case YAML ({@code case}, {@code clock}, {@code config}, {@code
 *       timeline[]} of {@code at}, {@code type}, {@code object}/{@code text}/{@code probe});
 *   <li>{@link Format#WATCH_JSON}: {@code kubectl get ... --watch --output-watch-events -o json}, a
 *       stream of {@code {"type","object"}} values; the receive time of each is the object's newest
 *       server time (never earlier than the value before it);
 *   <li>{@link Format#SCRAPES}: Prometheus text exposition in blocks that each start with {@code #
 *       SCRAPE <RFC3339> target=<name>} (the controller's {@code /metrics} over time).
 * </ul>
 *
 * @param name the file name (or the case name of a timeline)
 * @param format the format
 * @param entries the entries in file order (timeline and watch entries; empty for scrapes)
 * @param scrapes the scrapes of a {@link Format#SCRAPES} file, in file order
 * @param text the file's text (scrape files are read again by {@code ControllerReport})
 * @param clock the timeline's {@code clock}, or null
 * @param config the timeline's {@code config}, empty when none
 * @param skipped entries that could not be read (bad {@code at}, not an object)
 */
record ReplayInput(
    String name,
    Format format,
    List<Entry> entries,
    List<Scrape> scrapes,
    String text,
    Instant clock,
    Map<String, Object> config,
    List<String> skipped) {
  ReplayInput {
    entries = List.copyOf(entries);
    scrapes = List.copyOf(scrapes);
    config = Map.copyOf(config);
    skipped = List.copyOf(skipped);
  }

  /** The replay file formats. */
  enum Format {
    TIMELINE,
    WATCH_JSON,
    SCRAPES
  }

  /**
   * One timeline or watch entry.
   *
   * @param at receive time
   * @param type {@code ADDED}, {@code MODIFIED}, {@code DELETED}, {@code SYNCED}, {@code SCRAPE},
   *     {@code PROBE} (others are skipped with a line)
   * @param body the entry ({@code object}, {@code text}, {@code kind}, {@code probe}, ...)
   * @param where {@code file: timeline[3]} or {@code file: event 3}, for skip lines
   */
  record Entry(Instant at, String type, Map<String, Object> body, String where) {
    Entry {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(type, "type");
    }
  }

  private static final Pattern SCRAPE_HEADER = Pattern.compile("(?m)^# SCRAPE ");

  /**
   * Reads one file's text.
   *
   * @param fileName used in entry locations
   * @throws IllegalArgumentException "reason" (one line) when the text is none of the formats or
   *     malformed as a whole
   */
  static ReplayInput parse(String fileName, String text) {
    String t = text.stripLeading();
    if (t.startsWith("{")) {
      return watchJson(fileName, text);
    }
    if (SCRAPE_HEADER.matcher(text).find()) {
      return scrapes(fileName, text);
    }
    return timeline(fileName, text);
  }

  private static ReplayInput scrapes(String fileName, String text) {
    List<Scrape> s = Scrape.parseFile(text);
    return new ReplayInput(fileName, Format.SCRAPES, List.of(), s, text, null, Map.of(), List.of());
  }

  @SuppressWarnings("unchecked")
  private static ReplayInput timeline(String fileName, String yamlText) {
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
              + String.valueOf(e.getMessage()).replaceAll("\\s+", " ")
              + " (expected a replay timeline: case, clock, timeline[])");
    }
    if (!(doc instanceof Map<?, ?> m) || !(m.get("timeline") instanceof List<?>)) {
      throw new IllegalArgumentException(
          "not a replay file: expected a timeline document with a top-level 'timeline' list,"
              + " kubectl watch JSON, or Prometheus text with '# SCRAPE <RFC3339> target=<name>'"
              + " blocks");
    }
    Map<String, Object> root = (Map<String, Object>) normalize(m);
    String name = root.get("case") != null ? String.valueOf(root.get("case")) : fileName;
    Map<String, Object> config =
        root.get("config") instanceof Map<?, ?> c ? (Map<String, Object>) c : Map.of();
    Instant clock = null;
    if (root.get("clock") != null) {
      try {
        clock = Instant.parse(String.valueOf(root.get("clock")));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("clock: bad time '" + root.get("clock") + "'");
      }
    }
    List<Entry> entries = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<Object> list = (List<Object>) root.get("timeline");
    for (int i = 0; i < list.size(); i++) {
      String where = fileName + ": timeline[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> em)) {
        skipped.add(where + ": not an object");
        continue;
      }
      Map<String, Object> e = (Map<String, Object>) em;
      Instant at;
      try {
        at = Instant.parse(String.valueOf(e.get("at")));
      } catch (RuntimeException ex) {
        skipped.add(where + ".at: bad time '" + e.get("at") + "'");
        continue;
      }
      entries.add(new Entry(at, String.valueOf(e.get("type")), e, where));
    }
    if (entries.isEmpty() && clock == null) {
      throw new IllegalArgumentException("timeline is empty and has no clock");
    }
    return new ReplayInput(
        name, Format.TIMELINE, entries, List.of(), yamlText, clock, config, skipped);
  }

  @SuppressWarnings("unchecked")
  private static ReplayInput watchJson(String fileName, String json) {
    List<JsonObject> values = new ArrayList<>();
    JsonParser p = JsonParser.newParser().objectValueMode();
    p.handler(
        ev -> {
          if (ev.type() == JsonEventType.VALUE && ev.value() instanceof JsonObject o) {
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
    try {
      p.handle(Buffer.buffer(json));
      p.end();
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "JSON parse error: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
    }
    List<Entry> entries = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    Instant last = null;
    for (int i = 0; i < values.size(); i++) {
      String where = fileName + ": event " + i;
      Map<String, Object> e = values.get(i).getMap();
      Object obj = e.get("object");
      Map<String, Object> o =
          obj instanceof JsonObject jo
              ? jo.getMap()
              : obj instanceof Map<?, ?> mm ? (Map<String, Object>) mm : null;
      if (o == null) {
        skipped.add(where + ": no object");
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
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("object", plain);
      entries.add(new Entry(at, String.valueOf(e.get("type")), body, where));
    }
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("no watch events found");
    }
    return new ReplayInput(
        fileName, Format.WATCH_JSON, entries, List.of(), json, null, Map.of(), skipped);
  }

  /** The time of the input's last entry or scrape, or null when it has none. */
  Instant last() {
    Instant out = null;
    for (Entry e : entries) {
      out = out == null || e.at().isAfter(out) ? e.at() : out;
    }
    for (Scrape s : scrapes) {
      out = out == null || s.at().isAfter(out) ? s.at() : out;
    }
    return out;
  }

  private static Instant safeServerTime(Map<String, Object> o) {
    try {
      return ObjectViews.serverTime(o);
    } catch (RuntimeException e) {
      return null;
    }
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
}
