package org.sandboxslo.engine.model;

import java.util.Objects;

/**
 * A namespaced object name ({@code metadata.namespace}/{@code metadata.name}).
 *
 * @param namespace the namespace; non-empty
 * @param name the object name; non-empty
 */
public record ObjectRef(String namespace, String name) implements Comparable<ObjectRef> {
  public ObjectRef {
    if (namespace == null || namespace.isEmpty()) {
      throw new IllegalArgumentException("namespace must be non-empty, got " + namespace);
    }
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("name must be non-empty, got " + name);
    }
  }

  @Override
  public int compareTo(ObjectRef o) {
    int c = namespace.compareTo(o.namespace);
    return c != 0 ? c : name.compareTo(o.name);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }

  /** Parses {@code ns/name}; throws {@link IllegalArgumentException} on any other shape. */
  public static ObjectRef parse(String s) {
    Objects.requireNonNull(s, "ref");
    int i = s.indexOf('/');
    if (i <= 0 || i == s.length() - 1 || s.indexOf('/', i + 1) >= 0) {
      throw new IllegalArgumentException("expected namespace/name, got '" + s + "'");
    }
    return new ObjectRef(s.substring(0, i), s.substring(i + 1));
  }
}
