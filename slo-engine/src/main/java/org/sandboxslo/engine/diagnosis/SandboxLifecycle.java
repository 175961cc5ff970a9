package org.sandboxslo.engine.diagnosis;

import org.sandboxslo.engine.model.SandboxView;

/**
 * Where a Sandbox is in its life, read from its conditions with {@code Ready} authoritative
 * (reference §b, §g): Ready=True means running, whatever a {@code Suspended} condition left next to
 * it says ({@link #staleSuspended}).
 */
public enum SandboxLifecycle {
  /** metadata.deletionTimestamp set. */
  DELETING,
  /** Ready=False/SandboxExpired (shutdownTime passed). */
  EXPIRED,
  /** Ready=False/PodSucceeded or PodFailed: the pod ran to completion. */
  FINISHED,
  /** Ready=True. */
  RUNNING,
  /** operatingMode Suspended and Suspended=True. */
  SUSPENDED,
  /** operatingMode Suspended, pod not yet terminated. */
  SUSPENDING,
  /** operatingMode Running after a suspension (Suspended still True), not Ready yet. */
  RESUMING,
  /** Ready=False/ReconcilerError or MultiplePods, or Suspended=Unknown/PodStateUnknown. */
  FAILED,
  /** operatingMode Running, not Ready yet. */
  STARTING;

  /** The lifecycle of a Sandbox now. */
  public static SandboxLifecycle of(SandboxView s) {
    if (s.deleting()) {
      return DELETING;
    }
    String reason = s.ready() == null ? null : s.ready().reason();
    if (s.isReady()) {
      return RUNNING;
    }
    if ("SandboxExpired".equals(reason)) {
      return EXPIRED;
    }
    if ("PodSucceeded".equals(reason) || "PodFailed".equals(reason)) {
      return FINISHED;
    }
    if ("ReconcilerError".equals(reason)
        || "MultiplePods".equals(reason)
        || (s.suspended() != null
            && s.suspended().isUnknown()
            && "PodStateUnknown".equals(s.suspended().reason()))) {
      return FAILED;
    }
    boolean suspendedTrue = s.suspended() != null && s.suspended().isTrue();
    if ("Suspended".equals(s.operatingMode())) {
      return suspendedTrue ? SUSPENDED : SUSPENDING;
    }
    return suspendedTrue ? RESUMING : STARTING;
  }

  /**
   * Ready=True next to Suspended=True while the desired mode is Running: the Suspended condition is
   * left over from before a resume (controllers before agent-sandbox#1150 did not always rewrite
   * it). The Sandbox is running.
   */
  public static boolean staleSuspended(SandboxView s) {
    return s.isReady()
        && "Running".equals(s.operatingMode())
        && s.suspended() != null
        && s.suspended().isTrue();
  }

  /** A Sandbox created directly: no controller ownerReference (no claim, no pool). */
  public static boolean direct(SandboxView s) {
    return s.owner() == null;
  }
}
