package org.sandboxslo.engine.sli;

import java.util.Objects;

/**
 * The subject of an SLI aggregate.
 *
 * @param scope template, pool or namespace
 * @param namespace the namespace; non-empty
 * @param name template or pool name; {@code null} for {@link Scope#NAMESPACE}
 */
public record SliKey(Scope scope, String namespace, String name) implements Comparable<SliKey> {
  public SliKey {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(namespace, "namespace");
    if ((scope == Scope.NAMESPACE) != (name == null)) {
      throw new IllegalArgumentException(
          "name must be null exactly for NAMESPACE scope, got " + name);
    }
  }

  public static SliKey template(String namespace, String name) {
    return new SliKey(Scope.TEMPLATE, namespace, name);
  }

  public static SliKey pool(String namespace, String name) {
    return new SliKey(Scope.POOL, namespace, name);
  }

  public static SliKey namespace(String namespace) {
    return new SliKey(Scope.NAMESPACE, namespace, null);
  }

  @Override
  public int compareTo(SliKey o) {
    int c = scope.compareTo(o.scope);
    if (c != 0) {
      return c;
    }
    c = namespace.compareTo(o.namespace);
    if (c != 0) {
      return c;
    }
    return name == null ? (o.name == null ? 0 : -1) : o.name == null ? 1 : name.compareTo(o.name);
  }

  @Override
  public String toString() {
    return scope.name().toLowerCase() + ":" + namespace + (name == null ? "" : "/" + name);
  }
}
