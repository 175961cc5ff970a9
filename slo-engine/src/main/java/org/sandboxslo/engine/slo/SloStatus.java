package org.sandboxslo.engine.slo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Where an SLO stands at {@code at}. Ratios are null when their window holds no valid event ("no
 * data"), never NaN.
 *
 * @param definition the SLO
 * @param at evaluation time
 * @param good good events (or good slices) over the period, exclusions removed
 * @param valid valid events (or sampled slices) over the period
 * @param sli good / valid over the period; null when valid is 0
 * @param budgetConsumed Σbad / (Σvalid × error budget) over the period; null when valid is 0.
 *     Computed from summed counts, never from averaged ratios
 * @param budgetRemaining 1 − budgetConsumed (negative when overspent); null when valid is 0
 * @param tiers burn rate per tier
 * @param timeToExhaustion at the fast tier's long-window burn rate, how long until the remaining
 *     budget is gone; null when not burning or no data; zero when exhausted
 * @param state ok, burning (a tier fires), exhausted (remaining ≤ 0), or no data
 */
public record SloStatus(
    SloDefinition definition,
    Instant at,
    long good,
    long valid,
    Double sli,
    Double budgetConsumed,
    Double budgetRemaining,
    List<TierStatus> tiers,
    Duration timeToExhaustion,
    State state) {
  public SloStatus {
    tiers = List.copyOf(tiers);
  }

  /** Overall state, in order of precedence: no data, exhausted, burning, ok. */
  public enum State {
    OK,
    BURNING,
    EXHAUSTED,
    NO_DATA;

    public String wireName() {
      return name().toLowerCase().replace('_', ' ');
    }
  }

  /**
   * Counts and burn rate over one window.
   *
   * @param window the window
   * @param good good events
   * @param valid valid events
   * @param errorRatio bad / valid; null when valid is 0
   * @param burnRate errorRatio / error budget; null when valid is 0
   * @param sufficient valid ≥ the SLO's minimum events
   */
  public record WindowBurn(
      Duration window,
      long good,
      long valid,
      Double errorRatio,
      Double burnRate,
      boolean sufficient) {}

  /**
   * One tier.
   *
   * @param tier the tier
   * @param longWindow burn over its long window
   * @param shortWindow burn over its short window
   * @param firing both windows sufficient and both burn rates ≥ the factor
   */
  public record TierStatus(
      BurnRateTier tier, WindowBurn longWindow, WindowBurn shortWindow, boolean firing) {}
}
