package org.sandboxslo.engine.scrape;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parser for the Prometheus text exposition format (version 0.0.4): {@code # HELP}/{@code # TYPE}
 * and other comments are skipped; label values may contain escaped {@code \"}, {@code \\} and
 * {@code \n}; an optional trailing timestamp is ignored.
 */
public final class PromText {
  private PromText() {}

  /**
   * Parses exposition text.
   *
   * @return samples in input order; empty for empty text
   * @throws IllegalArgumentException "line N: reason" for a malformed sample line
   */
  public static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        out.add(parseLine(line));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static Sample parseLine(String line) {
    int pos = 0;
    while (pos < line.length()
        && line.charAt(pos) != '{'
        && !Character.isWhitespace(line.charAt(pos))) {
      pos++;
    }
    String name = line.substring(0, pos);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("missing metric name");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (pos < line.length() && line.charAt(pos) == '{') {
      pos++;
      while (true) {
        while (pos < line.length() && (line.charAt(pos) == ',' || line.charAt(pos) == ' ')) {
          pos++;
        }
        if (pos >= line.length()) {
          throw new IllegalArgumentException("unterminated label set");
        }
        if (line.charAt(pos) == '}') {
          pos++;
          break;
        }
        int eq = line.indexOf('=', pos);
        if (eq < 0) {
          throw new IllegalArgumentException("label without '='");
        }
        String key = line.substring(pos, eq).strip();
        pos = eq + 1;
        if (pos >= line.length() || line.charAt(pos) != '"') {
          throw new IllegalArgumentException("label value of '" + key + "' must be quoted");
        }
        pos++;
        StringBuilder v = new StringBuilder();
        while (true) {
          if (pos >= line.length()) {
            throw new IllegalArgumentException("unterminated value of label '" + key + "'");
          }
          char c = line.charAt(pos++);
          if (c == '\\' && pos < line.length()) {
            char n = line.charAt(pos++);
            v.append(n == 'n' ? '\n' : n);
          } else if (c == '"') {
            break;
          } else {
            v.append(c);
          }
        }
        labels.put(key, v.toString());
      }
    }
    String[] rest = line.substring(pos).strip().split("\\s+");
    if (rest.length == 0 || rest[0].isEmpty()) {
      throw new IllegalArgumentException("missing value for " + name);
    }
    return new Sample(name, labels, parseValue(rest[0]));
  }

  static double parseValue(String s) {
    return switch (s) {
      case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> {
        try {
          yield Double.parseDouble(s);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("value '" + s + "' is not a number");
        }
      }
    };
  }
}
