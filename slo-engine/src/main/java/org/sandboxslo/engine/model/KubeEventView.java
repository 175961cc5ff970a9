package org.sandboxslo.engine.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A core/v1 (or events.k8s.io/v1) {@code Event} about a Pod or an agent-sandbox object, trimmed.
 * Evidence only: Events are best-effort and may be dropped or aggregated by the API server.
 *
 * @param ref the Event's namespace/name
 * @param uid metadata.uid
 * @param involvedKind involvedObject.kind (regarding.kind), e.g. {@code Pod}, {@code
 *     SandboxWarmPool}
 * @param involvedName involvedObject.name
 * @param type {@code Normal} or {@code Warning}
 * @param reason e.g. {@code Failed}, {@code BackOff}, {@code FailedScheduling}, {@code
 *     WarmPoolNotProgressing}
 * @param message the message, cut to {@link ContainerStatusView#MESSAGE_MAX} characters
 * @param count how often it occurred (count, series.count), ≥ 1
 * @param lastSeen lastTimestamp (series.lastObservedTime, eventTime), server time; may be null
 */
public record KubeEventView(
    ObjectRef ref,
    String uid,
    String involvedKind,
    String involvedName,
    String type,
    String reason,
    String message,
    int count,
    Instant lastSeen) {
  public KubeEventView {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(involvedKind, "involvedKind");
    Objects.requireNonNull(involvedName, "involvedName");
    count = Math.max(1, count);
  }

  public boolean isWarning() {
    return "Warning".equals(type);
  }
}
