package org.sandboxslo.engine.upstream;

import java.util.List;
import java.util.Map;

/**
 * Pod annotations that pin a sandbox to a memory snapshot. A claim sets them through {@code
 * spec.additionalPodMetadata.annotations} (allowed: they are outside the {@code kubernetes.io},
 * {@code k8s.io} and {@code agents.x-k8s.io} domains), the controller merges them into the Pod.
 */
public final class SnapshotPins {
  private SnapshotPins() {}

  /** GKE Pod snapshots: the PodSnapshot to restore from (agent-sandbox Python SDK, #334/#799). */
  public static final String GKE_POD_SNAPSHOT = "podsnapshot.gke.io/ps-name";

  /** Keys read, in order of preference. */
  public static final List<String> KEYS = List.of(GKE_POD_SNAPSHOT);

  /** The first pin found in {@code annotations}, or null. */
  public static String of(Map<String, ?> annotations) {
    if (annotations == null) {
      return null;
    }
    for (String k : KEYS) {
      Object v = annotations.get(k);
      if (v != null && !String.valueOf(v).isBlank()) {
        return String.valueOf(v);
      }
    }
    return null;
  }
}
