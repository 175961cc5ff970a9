package org.sandboxslo.console.remediation;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The typed remediation actions (no free-form commands). The wire name is the value of {@code
 * action} in the API and in {@code remediation_plan.action}; it never changes with the enum
 * constant's name.
 */
public enum PlanAction {
  /**
   * Delete a pool's stale unclaimed members in batches that keep the Ready floor (subject ns/pool).
   */
  PACED_RECREATE("PacedRecreate"),
  /** Set {@code spec.updateStrategy.type} of a pool (subject ns/pool, param {@code type}). */
  SET_UPDATE_STRATEGY("SetUpdateStrategy"),
  /** Set {@code spec.replicas} of a pool (subject ns/pool, param {@code replicas}). */
  SCALE_POOL("ScalePool"),
  /** Spread a pool over N pools of the same template (subject ns/pool, param {@code shards}). */
  SHARD_POOL("ShardPool"),
  /**
   * Set the refill pacing (subject {@code controller-lite} or the upstream controller's {@code
   * ns/deployment}, param {@code maxRefillRate}).
   */
  SET_REFILL_PACING("SetRefillPacing"),
  /** Delete the expired or never-expiring finished claims of a namespace (subject a namespace). */
  DELETE_EXPIRED_CLAIMS("DeleteExpiredClaims");

  private final String wireName;

  PlanAction(String wireName) {
    this.wireName = wireName;
  }

  /** The name in the API and the database, e.g. {@code PacedRecreate}. */
  public String wireName() {
    return wireName;
  }

  /** The action named {@code wireName} (exact, case-sensitive), or empty. */
  public static Optional<PlanAction> ofWireName(String wireName) {
    return Arrays.stream(values()).filter(a -> a.wireName.equals(wireName)).findFirst();
  }

  /**
   * The action of a stored plan.
   *
   * @throws IllegalStateException for a name no constant has (the store accepts only known ones)
   */
  public static PlanAction of(String stored) {
    return ofWireName(stored)
        .orElseThrow(() -> new IllegalStateException("unknown stored plan action " + stored));
  }

  /** Every wire name, in declaration order. */
  public static List<String> wireNames() {
    return Arrays.stream(values()).map(PlanAction::wireName).toList();
  }

  /**
   * The namespace whose roles govern a plan of this action on {@code subject}, or null for a
   * cluster-wide subject ({@code SetRefillPacing controller-lite}, or a subject without a {@code
   * /}).
   */
  public String namespaceOf(String subject) {
    if (this == DELETE_EXPIRED_CLAIMS) {
      return subject;
    }
    if (this == SET_REFILL_PACING && subject.equals("controller-lite")) {
      return null;
    }
    int i = subject.indexOf('/');
    return i > 0 ? subject.substring(0, i) : null;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
