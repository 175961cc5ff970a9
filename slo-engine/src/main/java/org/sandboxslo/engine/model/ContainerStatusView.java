package org.sandboxslo.engine.model;

import java.util.Objects;

/**
 * One entry of a Pod's {@code status.initContainerStatuses[]} or {@code status.containerStatuses[]}
 * (core/v1), trimmed to what explains a container that never becomes Ready. Messages are cut to
 * {@link #MESSAGE_MAX} characters by the collector.
 *
 * @param name container name
 * @param init true for an init container
 * @param ready {@code ready}
 * @param restartCount {@code restartCount}, ≥ 0
 * @param waitingReason {@code state.waiting.reason} (e.g. {@code ImagePullBackOff}, {@code
 *     ErrImagePull}, {@code CrashLoopBackOff}), or null
 * @param waitingMessage {@code state.waiting.message}, or null
 * @param terminatedReason {@code state.terminated.reason}, else {@code lastState.terminated.reason}
 *     (e.g. {@code Error}, {@code OOMKilled}), or null
 * @param exitCode exit code of that termination, or null
 * @param image {@code image} as reported, or null
 */
public record ContainerStatusView(
    String name,
    boolean init,
    boolean ready,
    int restartCount,
    String waitingReason,
    String waitingMessage,
    String terminatedReason,
    Integer exitCode,
    String image) {
  /** Longest message kept. */
  public static final int MESSAGE_MAX = 256;

  public ContainerStatusView {
    Objects.requireNonNull(name, "name");
    if (restartCount < 0) {
      throw new IllegalArgumentException("restartCount must be >= 0, got " + restartCount);
    }
  }

  /**
   * Waiting reasons that never resolve without a change to the spec or the registry: the image
   * cannot be pulled or the process keeps exiting.
   */
  public boolean failing() {
    return waitingReason != null
        && switch (waitingReason) {
          case "ImagePullBackOff",
              "ErrImagePull",
              "InvalidImageName",
              "ErrImageNeverPull",
              "CrashLoopBackOff",
              "CreateContainerConfigError",
              "CreateContainerError",
              "RunContainerError" ->
              true;
          default -> false;
        };
  }

  /** {@code name: reason (restarts N, exit E) — message}, for evidence. */
  public String describe() {
    StringBuilder sb = new StringBuilder(name).append(": ");
    sb.append(
        waitingReason != null
            ? waitingReason
            : terminatedReason != null ? terminatedReason : "running");
    if (restartCount > 0 || exitCode != null) {
      sb.append(" (restarts ").append(restartCount);
      if (exitCode != null) {
        sb.append(", last exit ").append(exitCode);
        if (terminatedReason != null && waitingReason != null) {
          sb.append(' ').append(terminatedReason);
        }
      }
      sb.append(')');
    }
    if (waitingMessage != null && !waitingMessage.isEmpty()) {
      sb.append(" — ").append(waitingMessage);
    }
    return sb.toString();
  }
}
