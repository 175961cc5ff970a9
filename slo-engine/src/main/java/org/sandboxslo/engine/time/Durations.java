package org.sandboxslo.engine.time;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Prometheus-style durations ({@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h}, {@code
 * 28d}).
 */
public final class Durations {
  private Durations() {}

  private static final Pattern P = Pattern.compile("(\\d+)(ms|s|m|h|d|w)");

  /**
   * Parses {@code value}; also accepts ISO-8601 ({@code PT5M}).
   *
   * @param key the configuration key or field, used in the error message
   * @throws IllegalArgumentException "{@code key}: expected a duration like 30s, 5m, 1h, got 'x'"
   */
  public static Duration parse(String key, String value) {
    if (value == null) {
      throw new IllegalArgumentException(key + ": expected a duration like 30s, 5m, 1h, got null");
    }
    String v = value.trim();
    Matcher m = P.matcher(v);
    if (m.matches()) {
      try {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          case "d" -> Duration.ofDays(n);
          default -> Duration.ofDays(Math.multiplyExact(7, n));
        };
      } catch (ArithmeticException | NumberFormatException e) {
        throw new IllegalArgumentException(
            key + ": duration out of range, got '" + shown(value) + "'", e);
      }
    }
    try {
      return Duration.parse(v);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          key + ": expected a duration like 30s, 5m, 1h, got '" + shown(value) + "'");
    }
  }

  /** The value for an error message: one line, at most 40 characters. */
  private static String shown(String value) {
    String v = value.length() > 40 ? value.substring(0, 40) + "…" : value;
    return v.replaceAll("\\p{Cntrl}|\\p{Zl}|\\p{Zp}", "?");
  }

  /** Formats as Prometheus-style text: {@code 5m}, {@code 1h}, {@code 90s}. */
  public static String format(Duration d) {
    long s = d.getSeconds();
    if (d.getNano() != 0) {
      return d.toMillis() + "ms";
    }
    if (s % 86400 == 0) {
      return s / 86400 + "d";
    }
    if (s % 3600 == 0) {
      return s / 3600 + "h";
    }
    if (s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }
}
