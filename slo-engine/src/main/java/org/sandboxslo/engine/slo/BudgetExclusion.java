package org.sandboxslo.engine.slo;

import java.time.Instant;
import java.util.Objects;

/**
 * A period whose events do not count against an SLO (maintenance window), with who and why.
 *
 * @param from start, inclusive
 * @param to end, exclusive; after {@code from}
 * @param reason why, non-empty
 * @param author who decided, non-empty
 */
public record BudgetExclusion(Instant from, Instant to, String reason, String author) {
  public BudgetExclusion {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (!to.isAfter(from)) {
      throw new IllegalArgumentException(
          "exclusion end must be after its start, got " + from + " .. " + to);
    }
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("exclusion reason must be non-empty");
    }
    if (author == null || author.isBlank()) {
      throw new IllegalArgumentException("exclusion author must be non-empty");
    }
  }

  public boolean covers(Instant t) {
    return !t.isBefore(from) && t.isBefore(to);
  }
}
