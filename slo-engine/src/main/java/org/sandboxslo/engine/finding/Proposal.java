package org.sandboxslo.engine.finding;

import java.util.List;

/**
 * A remediation a finding proposes, before planning: the typed action and its parameters, or an
 * explicit "no automatic remediation" with the recommendation.
 *
 * @param action typed action: {@code PacedRecreate}, {@code ScalePool}, {@code ShardPool}, {@code
 *     SetRefillPacing}, {@code SetUpdateStrategy}, {@code DeleteExpiredClaims}, {@code
 *     DeleteExcessMembers}, {@code PausePool}, or {@code None}
 * @param summary one sentence
 * @param steps the ordered steps (objects and waits), as text
 * @param automatic false when a person must act (recommendation only)
 * @param deletes the Sandboxes the plan deletes ({@code namespace/name}), for the safety checks;
 *     empty when it deletes none or decides them at run time
 * @param addsCreates carrying it out makes the controller create members (scale-up, refill pacing,
 *     deletes that are refilled, Recreate)
 */
public record Proposal(
    String action,
    String summary,
    List<String> steps,
    boolean automatic,
    List<String> deletes,
    boolean addsCreates) {
  public Proposal {
    steps = List.copyOf(steps);
    deletes = deletes == null ? List.of() : List.copyOf(deletes);
  }

  /** Effect inferred from the action: creates for scale/shard/pacing/recreate actions. */
  public Proposal(String action, String summary, List<String> steps, boolean automatic) {
    this(action, summary, steps, automatic, List.of(), addsCreates(action));
  }

  /** Actions whose execution makes the controller create members. */
  public static boolean addsCreates(String action) {
    return switch (action) {
      case "PacedRecreate", "ScalePool", "ShardPool", "SetRefillPacing", "SetUpdateStrategy" ->
          true;
      default -> false;
    };
  }

  public static Proposal none(String recommendation) {
    return new Proposal("None", recommendation, List.of(), false, List.of(), false);
  }
}
