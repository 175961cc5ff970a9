package org.sandboxslo.engine.finding;

import java.util.List;

/**
 * A remediation a finding proposes, before planning: the typed action and its parameters, or an
 * explicit "no automatic remediation" with the recommendation.
 *
 * @param action typed action: {@code PacedRecreate}, {@code ScalePool}, {@code ShardPool}, {@code
 *     SetRefillPacing}, {@code SetUpdateStrategy}, {@code DeleteExpiredClaims}, or {@code None}
 * @param summary one sentence
 * @param steps the ordered steps (objects and waits), as text
 * @param automatic false when a person must act (recommendation only)
 */
public record Proposal(String action, String summary, List<String> steps, boolean automatic) {
  public Proposal {
    steps = List.copyOf(steps);
  }

  public static Proposal none(String recommendation) {
    return new Proposal("None", recommendation, List.of(), false);
  }
}
