package org.sandboxslo.console.remediation;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.engine.time.Durations;

/**
 * How the plan executor retries and waits. Keys (under {@code sloconsole.remediation.}, read by
 * {@link RemediationConfig#fromMap}):
 *
 * <ul>
 *   <li>{@code step-attempts} (default 5, 1..100): a step that fails this many times in a row fails
 *       its plan (state {@code failed}, the last cause as the reason). A database outage is not
 *       counted: no step starts while the database is down.
 *   <li>{@code retry-backoff-max} (default 30s): retries wait the poll interval, doubled after each
 *       failure, at most this long
 *   <li>{@code wait-timeout} (default 15m): a plan that waits (for a pool's Ready members, or for
 *       replacements during a paced Recreate) longer than this fails
 * </ul>
 *
 * @param stepAttempts 1..100
 * @param retryBackoffMax &gt; 0
 * @param waitTimeout &gt; 0
 */
public record ExecutorConfig(int stepAttempts, Duration retryBackoffMax, Duration waitTimeout) {
  public static final String STEP_ATTEMPTS = "sloconsole.remediation.step-attempts";
  public static final String RETRY_BACKOFF_MAX = "sloconsole.remediation.retry-backoff-max";
  public static final String WAIT_TIMEOUT = "sloconsole.remediation.wait-timeout";

  /** The keys of this record. */
  public static final Set<String> KEYS = Set.of(STEP_ATTEMPTS, RETRY_BACKOFF_MAX, WAIT_TIMEOUT);

  public ExecutorConfig {
    Objects.requireNonNull(retryBackoffMax, "retryBackoffMax");
    Objects.requireNonNull(waitTimeout, "waitTimeout");
    if (stepAttempts < 1 || stepAttempts > 100) {
      throw new IllegalArgumentException(STEP_ATTEMPTS + ": expected 1..100, got " + stepAttempts);
    }
    if (retryBackoffMax.isZero() || retryBackoffMax.isNegative()) {
      throw new IllegalArgumentException(
          RETRY_BACKOFF_MAX + ": must be > 0, got " + retryBackoffMax);
    }
    if (waitTimeout.isZero() || waitTimeout.isNegative()) {
      throw new IllegalArgumentException(WAIT_TIMEOUT + ": must be > 0, got " + waitTimeout);
    }
  }

  /** 5 attempts, backoff up to 30 s, waits up to 15 min. */
  public static ExecutorConfig defaults() {
    return fromMap(Map.of());
  }

  /**
   * Reads the three keys (others are ignored).
   *
   * @throws IllegalArgumentException naming the key and the bad value
   */
  public static ExecutorConfig fromMap(Map<String, String> m) {
    String attempts = m.getOrDefault(STEP_ATTEMPTS, "5").trim();
    int n;
    try {
      n = Integer.parseInt(attempts);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          STEP_ATTEMPTS + ": expected 1..100, got '" + attempts + "'");
    }
    return new ExecutorConfig(
        n,
        Durations.parse(RETRY_BACKOFF_MAX, m.getOrDefault(RETRY_BACKOFF_MAX, "30s")),
        Durations.parse(WAIT_TIMEOUT, m.getOrDefault(WAIT_TIMEOUT, "15m")));
  }

  /** The longest wait between retries while the database is unavailable. */
  public static final Duration OUTAGE_BACKOFF_MAX = Duration.ofSeconds(5);

  /**
   * The wait before retry number {@code failures} while the database is unavailable: as {@link
   * #backoff}, at most {@link #OUTAGE_BACKOFF_MAX}, so work resumes soon after it returns.
   */
  public Duration outageBackoff(Duration poll, int failures) {
    Duration d = backoff(poll, failures);
    return d.compareTo(OUTAGE_BACKOFF_MAX) > 0 ? OUTAGE_BACKOFF_MAX : d;
  }

  /**
   * The wait before retry number {@code failures} (1 = after the first failure): {@code poll × 2^
   * (failures − 1)}, at most {@link #retryBackoffMax}.
   */
  public Duration backoff(Duration poll, int failures) {
    int shift = Math.min(Math.max(failures - 1, 0), 20);
    Duration d = poll.multipliedBy(1L << shift);
    return d.compareTo(retryBackoffMax) > 0 ? retryBackoffMax : d;
  }
}
