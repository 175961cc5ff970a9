package org.sandboxslo.engine.model;

import java.time.Instant;

/**
 * One status condition, trimmed to what the SLIs need.
 *
 * @param status {@code True}, {@code False} or {@code Unknown}
 * @param reason the condition reason; may be null
 * @param lastTransitionTime server time of the last status flip (1 s resolution upstream); may be
 *     null
 * @param message the condition message (e.g. the scheduler's "0/3 nodes are available: 3
 *     Insufficient cpu." mirrored into PodScheduled), trimmed by the collector; may be null
 */
public record ConditionView(
    String status, String reason, Instant lastTransitionTime, String message) {
  /** Without a message. */
  public ConditionView(String status, String reason, Instant lastTransitionTime) {
    this(status, reason, lastTransitionTime, null);
  }

  public boolean isTrue() {
    return "True".equals(status);
  }

  public boolean isFalse() {
    return "False".equals(status);
  }

  public boolean isUnknown() {
    return "Unknown".equals(status);
  }
}
