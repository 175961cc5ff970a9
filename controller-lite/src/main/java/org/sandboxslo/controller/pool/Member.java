package org.sandboxslo.controller.pool;

import java.time.Instant;
import java.util.Objects;

/**
 * A warm-pool member as the pool reconciler sees it (a Sandbox with the pool's {@code
 * agents.x-k8s.io/warm-pool-sandbox} label and a controller ownerRef to the pool).
 *
 * @param name Sandbox name; non-empty
 * @param uid Sandbox uid; non-empty
 * @param created {@code metadata.creationTimestamp}; null when the object has none
 * @param ready Ready condition is True
 * @param deleting {@code metadata.deletionTimestamp} is set
 * @param blueprintDigest {@code Blueprints.digest(spec)} of the member
 * @param reserved a claim is adopting it right now; never deleted by the pool
 */
public record Member(
    String name,
    String uid,
    Instant created,
    boolean ready,
    boolean deleting,
    String blueprintDigest,
    boolean reserved) {
  public Member {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("member name must be non-empty");
    }
    if (uid == null || uid.isEmpty()) {
      throw new IllegalArgumentException("member " + name + ": uid must be non-empty");
    }
    Objects.requireNonNull(blueprintDigest, "blueprintDigest");
  }
}
