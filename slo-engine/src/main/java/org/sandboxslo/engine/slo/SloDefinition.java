package org.sandboxslo.engine.slo;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * An SLO: a target for one SLI over a rolling compliance period.
 *
 * @param name identifier, DNS-1123 label ({@code [a-z0-9-]}, ≤ 63 chars)
 * @param sli the SLI
 * @param namespace selector: namespace, or null for the whole cluster
 * @param sandboxTemplate selector: template name within the namespace, or null for all
 * @param objectivePercent target in percent, strictly between 0 and 100
 * @param period rolling compliance period, ≥ 1 minute
 * @param latencyThreshold for {@link SliType#CLAIM_TO_READY_LATENCY}: a claim is good when Ready
 *     within this; null for other SLIs
 * @param readyFloor for {@link SliType#POOL_READY_FRACTION}: a slice is good while the ready
 *     fraction (current template) stays ≥ this, in (0, 1]
 * @param eligibleOnly for {@link SliType#WARM_HIT_RATIO}: count only claims that set neither {@code
 *     env} nor {@code volumeClaimTemplates} (they always cold-start upstream)
 * @param minEvents a burn-rate window with fewer valid events does not fire ("insufficient data")
 * @param tiers the burn-rate alert tiers
 */
public record SloDefinition(
    String name,
    SliType sli,
    String namespace,
    String sandboxTemplate,
    double objectivePercent,
    Duration period,
    Duration latencyThreshold,
    double readyFloor,
    boolean eligibleOnly,
    long minEvents,
    List<BurnRateTier> tiers) {
  public SloDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(sli, "sli");
    Objects.requireNonNull(period, "period");
    tiers = List.copyOf(tiers);
    if (!(objectivePercent > 0 && objectivePercent < 100)) {
      throw new IllegalArgumentException(SloDefinitions.OBJECTIVE_REASON);
    }
  }

  /** Error budget as a fraction: 1 − objective. */
  public double errorBudget() {
    return (100.0 - objectivePercent) / 100.0;
  }

  /** Whether this SLO's selector covers a subject in {@code ns} / {@code template}. */
  public boolean selects(String ns, String template) {
    if (namespace != null && !namespace.equals(ns)) {
      return false;
    }
    return sandboxTemplate == null || sandboxTemplate.equals(template);
  }
}
