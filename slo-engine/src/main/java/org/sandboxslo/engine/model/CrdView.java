package org.sandboxslo.engine.model;

import java.util.List;
import java.util.Objects;

/**
 * A CustomResourceDefinition (apiextensions.k8s.io/v1) of one of the agent-sandbox kinds, trimmed
 * to its versions: the v1.0 upgrade gate needs {@code status.storedVersions} to be exactly {@code
 * [v1beta1]} (objects still stored as v1alpha1 must be rewritten first; upstream's storage rewrite
 * marks objects with {@code agents.x-k8s.io/storage-migrated-at}).
 *
 * @param name metadata.name, e.g. {@code sandboxes.agents.x-k8s.io}
 * @param storedVersions status.storedVersions, in order; copied
 * @param storageVersion the version with {@code storage: true}, or null
 */
public record CrdView(String name, List<String> storedVersions, String storageVersion) {
  public CrdView {
    Objects.requireNonNull(name, "name");
    storedVersions = storedVersions == null ? List.of() : List.copyOf(storedVersions);
  }
}
