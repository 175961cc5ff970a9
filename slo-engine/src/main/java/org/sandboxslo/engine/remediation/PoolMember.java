package org.sandboxslo.engine.remediation;

import java.util.Objects;

/**
 * One Sandbox as a pool remediation sees it.
 *
 * @param name metadata.name
 * @param uid metadata.uid; may be null when unknown
 * @param ready condition {@code Ready} is True
 * @param stale built from an older blueprint than the pool's current template (semantic compare)
 * @param claim the name of the {@code SandboxClaim} that owns it (controller ownerReference), or
 *     null when the pool owns it; a claimed Sandbox is never touched by a pool remediation
 */
public record PoolMember(String name, String uid, boolean ready, boolean stale, String claim) {
  public PoolMember {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("member name must be non-empty");
    }
  }

  /** Owned by the pool (controller ownerReference), i.e. not adopted by a claim. */
  public boolean unclaimed() {
    return claim == null;
  }
}
