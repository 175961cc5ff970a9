package org.sandboxslo.store;

/** Test access to package-private SliStore details. */
public final class SliStoreInternals {
  private SliStoreInternals() {}

  public static String insertSql() {
    return SliStore.insertSql();
  }
}
