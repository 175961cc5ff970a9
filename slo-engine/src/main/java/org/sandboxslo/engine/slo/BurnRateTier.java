package org.sandboxslo.engine.slo;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One multiwindow burn-rate alert tier (SRE Workbook ch. 5): fires when the burn rate over both the
 * long and the short window is at least {@code factor}.
 *
 * @param tier {@code fast|medium|slow|slowest} (label {@code slo_tier})
 * @param severity {@code page} or {@code ticket}
 * @param longWindow the long window (significance)
 * @param shortWindow the short window (clears soon after recovery), usually long / 12
 * @param factor the burn-rate threshold, &gt; 0
 */
public record BurnRateTier(
    String tier, String severity, Duration longWindow, Duration shortWindow, double factor) {
  public BurnRateTier {
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(severity, "severity");
    if (longWindow == null || longWindow.isZero() || longWindow.isNegative()) {
      throw new IllegalArgumentException("long window must be > 0, got " + longWindow);
    }
    if (shortWindow == null
        || shortWindow.isZero()
        || shortWindow.isNegative()
        || shortWindow.compareTo(longWindow) > 0) {
      throw new IllegalArgumentException(
          "short window must be > 0 and <= long window, got " + shortWindow);
    }
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("factor must be > 0, got " + factor);
    }
  }

  /** The Workbook table for a 30-day period: fast 1h/5m ×14.4, 6h/30m ×6, 1d/2h ×3, 3d/6h ×1. */
  public static final Duration BASE_PERIOD = Duration.ofDays(30);

  private static final List<BurnRateTier> BASE =
      List.of(
          new BurnRateTier("fast", "page", Duration.ofHours(1), Duration.ofMinutes(5), 14.4),
          new BurnRateTier("medium", "page", Duration.ofHours(6), Duration.ofMinutes(30), 6),
          new BurnRateTier("slow", "ticket", Duration.ofDays(1), Duration.ofHours(2), 3),
          new BurnRateTier("slowest", "ticket", Duration.ofDays(3), Duration.ofHours(6), 1));

  /**
   * The Workbook tiers scaled with the period: windows × period / 30 d (rounded down to whole
   * milliseconds, at least 1 ms), factors unchanged, so each tier still means the same fraction of
   * the budget (2 %, 5 %, 10 %, 10 %) spent in its long window.
   */
  public static List<BurnRateTier> defaultsFor(Duration period) {
    double scale = (double) period.toMillis() / BASE_PERIOD.toMillis();
    return BASE.stream()
        .map(
            t ->
                new BurnRateTier(
                    t.tier,
                    t.severity,
                    scaled(t.longWindow, scale),
                    scaled(t.shortWindow, scale),
                    t.factor))
        .toList();
  }

  private static Duration scaled(Duration d, double scale) {
    return Duration.ofMillis(Math.max(1, (long) Math.floor(d.toMillis() * scale)));
  }
}
