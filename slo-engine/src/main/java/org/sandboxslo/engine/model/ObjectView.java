package org.sandboxslo.engine.model;

/**
 * A compact, immutable view of one Kubernetes object: what the collector keeps instead of the full
 * object. Every view is keyed by UID and resourceVersion, so replays are idempotent.
 */
public sealed interface ObjectView permits TemplateView, PoolView, SandboxView, ClaimView {
  Kind kind();

  ObjectRef ref();

  String uid();

  String resourceVersion();
}
