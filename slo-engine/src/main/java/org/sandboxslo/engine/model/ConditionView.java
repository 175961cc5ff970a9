package org.sandboxslo.engine.model;

import java.time.Instant;

/**
 * One status condition, trimmed to what the SLIs need.
 *
 * @param status {@code True}, {@code False} or {@code Unknown}
 * @param reason the condition reason; may be null
 * @param lastTransitionTime server time of the last status flip (1 s resolution upstream); may be
 *     null
 */
public record ConditionView(String status, String reason, Instant lastTransitionTime) {
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
