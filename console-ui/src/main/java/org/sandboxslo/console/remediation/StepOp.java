package org.sandboxslo.console.remediation;

import java.util.Arrays;

/**
 * The kinds of step a dry run lists ({@code steps[].op} in the plan JSON, stored in {@code
 * remediation_plan.dry_run}).
 */
public enum StepOp {
  /** PacedRecreate: one batch of stale members (decided live by the planner, not listed). */
  DELETE_MEMBERS("delete-members"),
  /** A merge patch of a pool's {@code spec} ({@code patch}). */
  PATCH_POOL("patch-pool"),
  /** Create a pool ({@code template}, {@code replicas}). */
  CREATE_POOL("create-pool"),
  /** Wait until a pool has {@code minReady} Ready members (only polls). */
  WAIT_POOL_READY("wait-pool-ready"),
  /** Delete one claim, re-checked just before. */
  DELETE_CLAIM("delete-claim"),
  /** Set controller-lite's live refill knob ({@code maxRefillRate}). */
  SET_REFILL_RATE("set-refill-rate"),
  /** Replace the refill flag in the upstream controller Deployment's args. */
  PATCH_DEPLOYMENT_ARGS("patch-deployment-args");

  private final String wireName;

  StepOp(String wireName) {
    this.wireName = wireName;
  }

  /** The name in the plan JSON, e.g. {@code wait-pool-ready}. */
  public String wireName() {
    return wireName;
  }

  /**
   * The op of a stored step.
   *
   * @throws IllegalStateException for an unknown op (a plan written by a newer console)
   */
  public static StepOp of(String stored) {
    return Arrays.stream(values())
        .filter(s -> s.wireName.equals(stored))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("unknown step op " + stored));
  }

  @Override
  public String toString() {
    return wireName;
  }
}
