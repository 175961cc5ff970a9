package org.sandboxslo.engine.model;

/**
 * A reserved {@code agents.x-k8s.io/*} (or {@code extensions.agents.x-k8s.io/*}) label or
 * annotation found on an object, with where it sits (evidence for spoofing findings, C10).
 *
 * @param location {@code label}, {@code annotation}, {@code podTemplate.label} or {@code
 *     podTemplate.annotation}
 * @param key the full key
 * @param value its value
 */
public record ReservedKey(String location, String key, String value) {
  public boolean isLabel() {
    return location.endsWith("label");
  }
}
