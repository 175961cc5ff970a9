package org.sandboxslo.engine.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Rfc3339Test {

  /** Epoch seconds and nanos computed by hand: 2026-09-01T10:05:00Z = 1788257100. */
  @ParameterizedTest
  @CsvSource({
    // whole seconds, UTC: 20697 days * 86400 + 10h05m (36300 s) = 1788257100
    "2026-09-01T10:05:00Z, 1788257100, 0",
    // lower-case t and z are allowed by RFC 3339 section 5.6
    "2026-09-01t10:05:00z, 1788257100, 0",
    // +02:00 at 12:05 is 10:05 UTC
    "2026-09-01T12:05:00+02:00, 1788257100, 0",
    // -05:30 at 04:35 is 10:05 UTC
    "2026-09-01T04:35:00-05:30, 1788257100, 0",
    // RFC3339Nano with trailing zeros trimmed by Go: .42 = 420 ms
    "2026-09-01T10:05:00.42Z, 1788257100, 420000000",
    // one digit
    "2026-09-01T10:05:00.5Z, 1788257100, 500000000",
    // all nine digits
    "2026-09-01T10:05:00.123456789Z, 1788257100, 123456789",
    // -00:00 ('offset unknown', RFC 3339 4.3) is UTC
    "2026-09-01T10:05:00-00:00, 1788257100, 0",
    // the epoch itself
    "1970-01-01T00:00:00Z, 0, 0",
    // a leap day: 2028-02-29T00:00:00Z = 21243 days * 86400 = 1835395200
    "2028-02-29T00:00:00Z, 1835395200, 0",
  })
  void parsesRfc3339AndRfc3339Nano(String text, long epochSecond, int nanos) {
    assertEquals(Instant.ofEpochSecond(epochSecond, nanos), Rfc3339.parse("at", text));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " 2026-09-01T10:05:00Z",
        "2026-09-01T10:05:00Z ",
        "2026-09-01T10:05:00", // no offset
        "2026-09-01T10:05Z", // no seconds
        "2026-09-01 10:05:00Z", // space instead of T
        "2026-09-01T10:05:00.Z", // empty fraction
        "2026-09-01T10:05:00.1234567891Z", // ten fractional digits
        "2026-09-01T10:05:00+02", // offset without minutes
        "2026-09-01T10:05:00+0200", // offset without colon
        "2026-02-30T10:05:00Z", // no such day
        "2026-13-01T10:05:00Z", // no such month
        "2026-09-01T24:00:00Z", // 24:00 is ISO, not RFC 3339 time-hour
        "2026-09-01T23:59:60Z", // leap second: not representable as an Instant
        "26-09-01T10:05:00Z", // two-digit year
        "+2026-09-01T10:05:00Z", // signed year
        "1788257100", // unix seconds are not RFC 3339
        "unknown",
      })
  void rejectsEverythingElseNamingTheField(String text) {
    DateTimeParseException e =
        assertThrows(DateTimeParseException.class, () -> Rfc3339.parse("alerts[0].startsAt", text));
    assertEquals(
        "alerts[0].startsAt: expected an RFC 3339 time like 2026-09-01T10:00:00Z, got '"
            + text
            + "'",
        e.getMessage());
    assertEquals(text, e.getParsedString());
  }

  @Test
  void nullIsReportedToo() {
    assertEquals(
        "since: expected an RFC 3339 time like 2026-09-01T10:00:00Z, got null",
        assertThrows(DateTimeParseException.class, () -> Rfc3339.parse("since", null))
            .getMessage());
  }
}
