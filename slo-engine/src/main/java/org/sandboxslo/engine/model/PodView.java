package org.sandboxslo.engine.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A core/v1 {@code Pod} that backs a Sandbox, trimmed: evidence for rollouts that never become
 * Ready and the snapshot a clone was restored from. Not an {@link ObjectView} (Pods are not one of
 * the four agent-sandbox kinds); it reaches the engine as {@link FleetEvent.PodUpserted}.
 *
 * @param ref namespace/name
 * @param uid metadata.uid
 * @param resourceVersion metadata.resourceVersion
 * @param createdAt metadata.creationTimestamp (server time, 1 s resolution); may be null
 * @param sandboxName the owning Sandbox: the controller ownerReference of kind {@code Sandbox},
 *     else null (the label {@code agents.x-k8s.io/sandbox-name-hash} only names a hash)
 * @param sandboxNameHash label {@code agents.x-k8s.io/sandbox-name-hash}, or null
 * @param phase status.phase ({@code Pending|Running|Succeeded|Failed|Unknown}), or null
 * @param containers init containers first, then containers; empty when status has none yet
 * @param ready the Pod's {@code Ready} condition, or null
 * @param podScheduled the Pod's {@code PodScheduled} condition, or null
 * @param nodeName spec.nodeName, or null
 * @param snapshot the memory snapshot the Pod is restored from: the value of the first pin
 *     annotation found ({@link org.sandboxslo.engine.upstream.SnapshotPins#KEYS}), or null
 * @param deleting metadata.deletionTimestamp is set
 */
public record PodView(
    ObjectRef ref,
    String uid,
    String resourceVersion,
    Instant createdAt,
    String sandboxName,
    String sandboxNameHash,
    String phase,
    List<ContainerStatusView> containers,
    ConditionView ready,
    ConditionView podScheduled,
    String nodeName,
    String snapshot,
    boolean deleting) {
  public PodView {
    Objects.requireNonNull(ref, "ref");
    containers = containers == null ? List.of() : List.copyOf(containers);
  }

  public boolean isReady() {
    return ready != null && ready.isTrue();
  }

  /** Σ restartCount over the containers. */
  public int restarts() {
    int n = 0;
    for (ContainerStatusView c : containers) {
      n += c.restartCount();
    }
    return n;
  }

  /**
   * The containers in a waiting state that does not resolve by itself ({@link
   * ContainerStatusView#failing()}).
   */
  public List<ContainerStatusView> failingContainers() {
    return containers.stream().filter(ContainerStatusView::failing).toList();
  }
}
