package org.sandboxslo.engine.time;

import static java.time.temporal.ChronoField.DAY_OF_MONTH;
import static java.time.temporal.ChronoField.HOUR_OF_DAY;
import static java.time.temporal.ChronoField.MINUTE_OF_HOUR;
import static java.time.temporal.ChronoField.MONTH_OF_YEAR;
import static java.time.temporal.ChronoField.NANO_OF_SECOND;
import static java.time.temporal.ChronoField.SECOND_OF_MINUTE;
import static java.time.temporal.ChronoField.YEAR;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;

/**
 * The one parser of RFC 3339 timestamps (Kubernetes {@code metav1.Time}, Go's {@code RFC3339} and
 * {@code RFC3339Nano}, Alertmanager's {@code startsAt}, API query parameters, replay timelines).
 *
 * <p>Accepted: {@code YYYY-MM-DDThh:mm:ss[.f{1,9}](Z|±hh:mm)} with a four-digit year, seconds
 * required, 1 to 9 fractional digits (nanoseconds), {@code T}/{@code Z} in either case, e.g. {@code
 * 2026-09-01T10:05:00Z}, {@code 2026-09-01T10:05:00.123456789Z}, {@code 2026-09-01T12:05:00+02:00}.
 * Rejected: a missing offset, missing seconds, more than nine fractional digits, out-of-range
 * fields ({@code 2026-02-30}, {@code 24:00:00}, leap second {@code :60}), surrounding blanks.
 */
public final class Rfc3339 {
  private Rfc3339() {}

  private static final DateTimeFormatter FORMAT =
      new DateTimeFormatterBuilder()
          .parseCaseInsensitive()
          .appendValue(YEAR, 4)
          .appendLiteral('-')
          .appendValue(MONTH_OF_YEAR, 2)
          .appendLiteral('-')
          .appendValue(DAY_OF_MONTH, 2)
          .appendLiteral('T')
          .appendValue(HOUR_OF_DAY, 2)
          .appendLiteral(':')
          .appendValue(MINUTE_OF_HOUR, 2)
          .appendLiteral(':')
          .appendValue(SECOND_OF_MINUTE, 2)
          .optionalStart()
          .appendFraction(NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .appendOffset("+HH:MM", "Z")
          .toFormatter()
          .withChronology(IsoChronology.INSTANCE)
          .withResolverStyle(ResolverStyle.STRICT);

  /**
   * Parses one RFC 3339 timestamp.
   *
   * @param field what the text is (a JSON field, query parameter or configuration key), named in
   *     the error
   * @param text the timestamp
   * @return the instant (the offset applied)
   * @throws DateTimeParseException "{@code field}: expected an RFC 3339 time like
   *     2026-09-01T10:00:00Z, got 'x'" for null, blank or malformed text
   */
  public static Instant parse(String field, String text) {
    if (text == null) {
      throw new DateTimeParseException(
          field + ": expected an RFC 3339 time like 2026-09-01T10:00:00Z, got null", "", 0);
    }
    try {
      return OffsetDateTime.parse(text, FORMAT).toInstant();
    } catch (DateTimeParseException e) {
      throw new DateTimeParseException(
          field + ": expected an RFC 3339 time like 2026-09-01T10:00:00Z, got '" + text + "'",
          text,
          e.getErrorIndex(),
          e);
    }
  }
}
