package org.sandboxslo.console.remediation;

import java.util.Arrays;
import java.util.List;

/**
 * The states of a remediation plan: {@code planned → approved → executing → succeeded | failed},
 * and {@code cancelled} from any unfinished state. The wire name is the value of {@code state} in
 * the API and in {@code remediation_plan.state}.
 */
public enum PlanState {
  PLANNED("planned"),
  APPROVED("approved"),
  EXECUTING("executing"),
  SUCCEEDED("succeeded"),
  FAILED("failed"),
  CANCELLED("cancelled");

  private final String wireName;

  PlanState(String wireName) {
    this.wireName = wireName;
  }

  /** The name in the API and the database, e.g. {@code executing}. */
  public String wireName() {
    return wireName;
  }

  /** Whether nothing more happens to a plan in this state. */
  public boolean finished() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }

  /**
   * The state of a stored plan.
   *
   * @throws IllegalStateException for a name no constant has (the store accepts only known ones)
   */
  public static PlanState of(String stored) {
    return Arrays.stream(values())
        .filter(s -> s.wireName.equals(stored))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("unknown stored plan state " + stored));
  }

  /** Every wire name, in declaration order. */
  public static List<String> wireNames() {
    return Arrays.stream(values()).map(PlanState::wireName).toList();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
