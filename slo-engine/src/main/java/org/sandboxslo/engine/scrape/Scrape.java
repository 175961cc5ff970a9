package org.sandboxslo.engine.scrape;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import org.sandboxslo.engine.time.Rfc3339;

/**
 * One successful scrape of one target.
 *
 * @param at scrape time
 * @param target the target name (e.g. {@code agent-sandbox-controller:8080})
 * @param samples all samples of the scrape
 */
public record Scrape(Instant at, String target, List<Sample> samples) {
  public Scrape {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(target, "target");
    samples = List.copyOf(samples);
  }

  /** {@code process_start_time_seconds} of the scrape, if exposed. */
  public OptionalDouble processStart() {
    for (Sample s : samples) {
      if (s.name().equals("process_start_time_seconds") && s.labels().isEmpty()) {
        return OptionalDouble.of(s.value());
      }
    }
    return OptionalDouble.empty();
  }

  /**
   * Parses a recorded scrape file: blocks that each start with a line {@code # SCRAPE <RFC3339>
   * target=<t> [key=value ...]} followed by exposition text (the format of the handed cases).
   *
   * @throws IllegalArgumentException "line N: reason" for a bad header or sample
   */
  public static List<Scrape> parseFile(String text) {
    List<Scrape> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    Instant at = null;
    String target = null;
    int bodyStart = -1;
    StringBuilder body = new StringBuilder();
    for (int i = 0; i <= lines.length; i++) {
      String line = i < lines.length ? lines[i] : null;
      boolean header = line != null && line.startsWith("# SCRAPE ");
      if ((header || line == null) && at != null) {
        try {
          out.add(new Scrape(at, target, PromText.parse(body.toString())));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "scrape at line " + bodyStart + ": " + e.getMessage(), e);
        }
        body.setLength(0);
      }
      if (line == null) {
        break;
      }
      if (header) {
        String[] parts = line.substring("# SCRAPE ".length()).trim().split("\\s+");
        try {
          at = Rfc3339.parse("scrape time", parts[0]);
        } catch (DateTimeParseException e) {
          throw new IllegalArgumentException(
              "line " + (i + 1) + ": bad scrape time '" + parts[0] + "'");
        }
        target = "unknown";
        for (int p = 1; p < parts.length; p++) {
          if (parts[p].startsWith("target=")) {
            target = parts[p].substring("target=".length());
          }
        }
        bodyStart = i + 2;
      } else if (at != null) {
        body.append(line).append('\n');
      }
    }
    return out;
  }
}
