package org.sandboxslo.console.api;

import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The deadline of a request: the server's {@code sloconsole.http.request-timeout} after arrival, or
 * the earlier {@code X-Request-Deadline} (RFC 3339) the client sent. Services call {@link #check}
 * right before a change is applied, so a change whose client has given up (deadline passed or
 * connection closed, e.g. while the database was frozen) is refused instead of applied late.
 * Cancels are never checked: a cancel is always applied.
 *
 * @param at the deadline
 * @param clock the console clock
 * @param clientGone true once the client closed its connection
 */
public record Deadline(Instant at, Clock clock, BooleanSupplier clientGone) {
  /** No deadline (internal callers, tests). */
  public static final Deadline NONE = new Deadline(Instant.MAX, Clock.systemUTC(), () -> false);

  /** Routing-context key of the request's deadline. */
  public static final String KEY = "sloconsole.deadline";

  /** The header a client may send to shorten the deadline. */
  public static final String HEADER = "X-Request-Deadline";

  public Deadline {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(clientGone, "clientGone");
  }

  /** The deadline of this request ({@link #NONE} when the request passed no deadline handler). */
  public static Deadline of(RoutingContext ctx) {
    Deadline d = ctx.get(KEY);
    return d == null ? NONE : d;
  }

  /**
   * Parses {@link #HEADER}.
   *
   * @return the deadline, or null when the header is absent
   * @throws ApiException 400 naming the header for a value that is not an RFC 3339 time
   */
  public static Instant header(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(value.trim()).toInstant();
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          HEADER, "expected an RFC 3339 time such as 2026-11-29T09:00:05Z");
    }
  }

  /** True when the deadline passed or the client has gone. */
  public boolean expired() {
    return clientGone.getAsBoolean() || !clock.instant().isBefore(at);
  }

  /**
   * Throws when the request should not change anything any more.
   *
   * @param what the change about to be applied, for the reason
   * @throws ApiException 503 {@code deadline passed} (the client gave up; nothing was applied)
   */
  public void check(String what) {
    if (expired()) {
      throw new ApiException(
          503,
          "deadline passed",
          HEADER,
          (clientGone.getAsBoolean()
                  ? "the client closed the connection"
                  : "the deadline " + at + " passed")
              + " before "
              + what
              + "; nothing was applied");
    }
  }
}
