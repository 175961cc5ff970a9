package org.sandboxslo.server.replay;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;

/**
 * Which shipped Prometheus alert ({@code alerts/sandbox-sli.rules.yml}) a finding kind raises, from
 * which severity and after how long ({@code for:}). A replay uses it to say when a finding's alert
 * would fire: {@code firesAt = start of the uninterrupted run of evaluations in which the finding
 * was present at or above the severity + for}. Kinds without an entry have no alert of their own
 * (their runbook is reached through the console). Kept equal to the rules file by {@code
 * PromtoolRulesTest}-style checks in {@code tests/}.
 */
public final class FindingAlerts {
  private FindingAlerts() {}

  /**
   * One alert.
   *
   * @param name the alert's name (also its runbook's file name)
   * @param minSeverity the finding's lowest severity that counts (held-back findings are {@code
   *     info} and never count unless this is {@code info})
   * @param forDuration the rule's {@code for:}, zero when it fires on the first evaluation
   */
  public record Alert(String name, Severity minSeverity, Duration forDuration) {
    public Alert {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(minSeverity, "minSeverity");
      Objects.requireNonNull(forDuration, "forDuration");
    }

    /** Whether a finding of this severity makes the alert's expression true. */
    public boolean counts(Severity s) {
      return s.compareTo(minSeverity) >= 0;
    }
  }

  private static final Map<FindingKind, Alert> ALERTS = new EnumMap<>(FindingKind.class);

  static {
    put(FindingKind.STALE_POOL_MEMBERS, "WarmPoolStaleMembers", Severity.INFO, 15);
    put(FindingKind.SILENT_COLD_START, "SandboxForcedColdStarts", Severity.INFO, 0);
    put(FindingKind.REFILL_STALLED, "WarmPoolRefillStalled", Severity.INFO, 5);
    put(FindingKind.EXPIRED_CLAIMS_ACCUMULATING, "ExpiredClaimsAccumulating", Severity.INFO, 15);
    put(
        FindingKind.NEVER_EXPIRING_FINISHED_CLAIMS,
        "NeverExpiringFinishedClaims",
        Severity.INFO,
        60);
    put(FindingKind.RESUME_FAILURES, "SandboxResumeFailures", Severity.INFO, 10);
    put(
        FindingKind.RESERVED_LABEL_ON_USER_OBJECT,
        "AgentSandboxWarmWithoutOwner",
        Severity.INFO,
        5);
    put(FindingKind.FAILED_ROLLOUT, "WarmPoolFailedRollout", Severity.CRITICAL, 1);
    put(
        FindingKind.SNAPSHOT_CLONES_SHARE_RANDOMNESS,
        "SnapshotClonesShareRandomness",
        Severity.INFO,
        0);
    put(FindingKind.POOL_OVER_CREATION, "WarmPoolOverCreation", Severity.TICKET, 1);
    put(FindingKind.REFILL_GATED_BY_WATCH_LAG, "WarmPoolRefillGated", Severity.TICKET, 5);
    put(FindingKind.WATCH_LAG, "WatchLag", Severity.TICKET, 5);
    put(FindingKind.CLAIMS_UNSERVED, "SandboxClaimsUnserved", Severity.TICKET, 5);
    put(FindingKind.INFORMER_SUSPECT_STALE, "InformerSuspectStale", Severity.TICKET, 2);
  }

  private static void put(FindingKind k, String name, Severity min, int forMinutes) {
    ALERTS.put(k, new Alert(name, min, Duration.ofMinutes(forMinutes)));
  }

  /** The alert a finding kind raises, or null when it has none. */
  public static Alert of(FindingKind kind) {
    return ALERTS.get(kind);
  }

  /** Every kind with an alert. */
  public static Map<FindingKind, Alert> all() {
    return Map.copyOf(ALERTS);
  }
}
