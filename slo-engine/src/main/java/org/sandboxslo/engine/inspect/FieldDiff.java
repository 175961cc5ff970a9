package org.sandboxslo.engine.inspect;

import java.util.Objects;

/**
 * One leaf of a blueprint that differs between a pool member and its template.
 *
 * @param path dotted path with list indices, e.g. {@code podTemplate.spec.containers[0].image}
 * @param member the member's value as compact JSON-like text, {@code null} when absent there
 * @param template the template's value, {@code null} when absent there
 */
public record FieldDiff(String path, String member, String template) {
  public FieldDiff {
    Objects.requireNonNull(path, "path");
  }
}
