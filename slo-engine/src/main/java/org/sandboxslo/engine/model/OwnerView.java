package org.sandboxslo.engine.model;

/**
 * The controller ownerReference of an object ({@code controller: true}). Membership of a pool is
 * decided from this, never from labels.
 *
 * @param kind owner kind, e.g. {@code SandboxWarmPool} or {@code SandboxClaim}
 * @param name owner name (same namespace)
 * @param uid owner UID
 */
public record OwnerView(String kind, String name, String uid) {}
