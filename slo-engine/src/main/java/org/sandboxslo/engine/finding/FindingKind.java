package org.sandboxslo.engine.finding;

/** Kinds of diagnosis, each with its runbook name. */
public enum FindingKind {
  STALE_POOL_MEMBERS("StalePoolMembers", "WarmPoolStaleMembers"),
  SILENT_COLD_START("SilentColdStart", "SandboxForcedColdStarts"),
  REFILL_STALLED("RefillStalled", "WarmPoolRefillStalled"),
  POOL_UNDERSIZED("PoolUndersized", "WarmPoolDrained"),
  POOL_NEEDS_SHARDING("PoolNeedsSharding", "WarmPoolDrained"),
  EXPIRED_CLAIMS_ACCUMULATING("ExpiredClaimsAccumulating", "ExpiredClaimsAccumulating"),
  NEVER_EXPIRING_FINISHED_CLAIMS("NeverExpiringFinishedClaims", "NeverExpiringFinishedClaims"),
  RESUME_FAILURES("ResumeFailures", "SandboxResumeFailures"),
  MEMBERS_HELD_UNSCHEDULABLE("MembersHeldUnschedulable", "WarmPoolDrained"),
  TEMPLATE_MISSING("TemplateMissing", "WarmPoolDrained"),
  UNSAFE_TEMPLATE("UnsafeTemplate", "UnsafeTemplate"),
  RESERVED_LABEL_ON_USER_OBJECT("ReservedLabelOnUserObject", "AgentSandboxWarmWithoutOwner"),
  // issue 8 part B
  FAILED_ROLLOUT("FailedRollout", "WarmPoolFailedRollout"),
  CONTROLLER_HISTOGRAM_OVERCOUNT("ControllerHistogramOvercount", "ControllerHistogramOvercount"),
  SUSPENDED_CONDITION_STALE("SuspendedConditionStale", "SandboxSuspendedConditionStale"),
  SNAPSHOT_CLONES_SHARE_RANDOMNESS(
      "SnapshotClonesShareRandomness", "SnapshotClonesShareRandomness"),
  CONTROLLER_CONFIG_CONTRADICTS_LOAD(
      "ControllerConfigContradictsLoad", "ControllerConfigContradictsLoad"),
  CRD_STORAGE_NOT_MIGRATED("CrdStorageNotMigrated", "CrdStorageNotMigrated"),
  // issue 8 part A
  POOL_OVER_CREATION("PoolOverCreation", "WarmPoolOverCreation"),
  WATCH_LAG("WatchLag", "WatchLag"),
  REFILL_GATED_BY_WATCH_LAG("RefillGatedByWatchLag", "WarmPoolRefillGated"),
  CLAIMS_UNSERVED("ClaimsUnserved", "SandboxClaimsUnserved"),
  INFORMER_SUSPECT_STALE("InformerSuspectStale", "InformerSuspectStale");

  private final String wireName;
  private final String runbook;

  FindingKind(String wireName, String runbook) {
    this.wireName = wireName;
    this.runbook = runbook;
  }

  /** The kind as shown and filtered on, e.g. {@code StalePoolMembers}. */
  public String wireName() {
    return wireName;
  }

  /** Runbook file name without {@code .md} under {@code runbooks/}. */
  public String runbook() {
    return runbook;
  }

  public static FindingKind ofWireName(String s) {
    for (FindingKind k : values()) {
      if (k.wireName.equals(s)) {
        return k;
      }
    }
    return null;
  }
}
