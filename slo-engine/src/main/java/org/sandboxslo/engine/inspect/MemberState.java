package org.sandboxslo.engine.inspect;

/**
 * What one Sandbox of a {@code SandboxWarmPool} is doing now, one state per member, decided in this
 * order: {@link #CLAIMED}, {@link #UNSCHEDULABLE}, {@link #STALE}, {@link #READY}, {@link
 * #PENDING}.
 */
public enum MemberState {
  /** Adopted by a SandboxClaim (controller ownerReference is the claim); no longer idle. */
  CLAIMED("claimed"),
  /** Pod condition PodScheduled=False/Unschedulable: held by the pool, never Ready. */
  UNSCHEDULABLE("unschedulable"),
  /** Built from an older blueprint than the pool's current template (semantic compare). */
  STALE("stale"),
  /** Ready=True on the current template: what a warm claim can adopt. */
  READY("ready"),
  /** Not Ready yet (being created, pulling, starting). */
  PENDING("pending");

  private final String wireName;

  MemberState(String wireName) {
    this.wireName = wireName;
  }

  /** The lower-case name used in JSON ({@code ready}, {@code stale}, ...). */
  public String wireName() {
    return wireName;
  }
}
