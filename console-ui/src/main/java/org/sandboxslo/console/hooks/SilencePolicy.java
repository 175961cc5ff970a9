package org.sandboxslo.console.hooks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.engine.time.Durations;

/**
 * The console's silence policy, pure: a silence must pin {@code alertname} and a namespace or
 * template ({@code namespace="x"} or {@code sandbox_template="x"}, equality, non-empty), last at
 * most {@code sloconsole.alertmanager.max-silence}, and carry a reason and an author. Alertmanager
 * itself only requires one matcher; this keeps a silence from muting more than one alert of one
 * subject.
 */
public final class SilencePolicy {
  /** The longest reason accepted, in characters. */
  public static final int MAX_REASON_CHARS = 1000;

  private SilencePolicy() {}

  /**
   * A silence that passed the policy.
   *
   * @param matchers the matchers, as given
   * @param startsAt now
   * @param endsAt now + duration
   * @param author the console user who asked
   * @param reason why (Alertmanager's {@code comment})
   * @param namespace the pinned namespace whose roles govern it, or null (template only:
   *     cluster-wide roles)
   */
  public record Checked(
      List<SilenceMatcher> matchers,
      Instant startsAt,
      Instant endsAt,
      String author,
      String reason,
      String namespace) {
    public Checked {
      matchers = List.copyOf(matchers);
      Objects.requireNonNull(startsAt, "startsAt");
      Objects.requireNonNull(endsAt, "endsAt");
    }
  }

  /**
   * Checks a silence request.
   *
   * @param duration how long, &gt; 0 and ≤ {@code max}
   * @param now the start
   * @throws ApiException 400 naming {@code matchers}, {@code duration}, {@code reason} or {@code
   *     author}
   */
  public static Checked check(
      List<SilenceMatcher> matchers,
      Duration duration,
      String reason,
      String author,
      Duration max,
      Instant now) {
    if (matchers == null || matchers.isEmpty()) {
      throw ApiException.badRequest("matchers", "at least one matcher is required");
    }
    if (matchers.stream().noneMatch(m -> m.pins("alertname"))) {
      throw ApiException.badRequest(
          "matchers",
          "a silence must pin alertname=\"<name>\" (equality, not a regular expression)");
    }
    String namespace =
        matchers.stream()
            .filter(m -> m.pins("namespace"))
            .map(SilenceMatcher::value)
            .findFirst()
            .orElse(null);
    boolean template = matchers.stream().anyMatch(m -> m.pins("sandbox_template"));
    if (namespace == null && !template) {
      throw ApiException.badRequest(
          "matchers",
          "a silence must also pin namespace=\"<ns>\" or sandbox_template=\"<template>\"");
    }
    if (duration == null || duration.isZero() || duration.isNegative()) {
      throw ApiException.badRequest("duration", "must be > 0, e.g. 30m or 2h");
    }
    if (duration.compareTo(max) > 0) {
      throw ApiException.badRequest(
          "duration",
          Durations.format(duration)
              + " is longer than the longest silence allowed ("
              + Durations.format(max)
              + ", sloconsole.alertmanager.max-silence)");
    }
    if (reason == null || reason.isBlank()) {
      throw ApiException.badRequest("reason", "a reason is required: why these alerts are muted");
    }
    if (reason.length() > MAX_REASON_CHARS) {
      throw ApiException.badRequest(
          "reason", "at most " + MAX_REASON_CHARS + " characters, got " + reason.length());
    }
    if (author == null || author.isBlank()) {
      throw ApiException.badRequest("author", "an author is required");
    }
    return new Checked(matchers, now, now.plus(duration), author, reason.strip(), namespace);
  }
}
