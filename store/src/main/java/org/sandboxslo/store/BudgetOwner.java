package org.sandboxslo.store;

/**
 * Whose budget history a stored bucket is ({@code slo_budget_bucket.owner}): a user SLO and the
 * built-in (default or file) SLO it replaces share a name but never their buckets.
 */
public enum BudgetOwner {
  /** A default or file SLO. */
  BUILTIN("builtin"),
  /** A user SLO (stored in {@code slo_definition}). */
  USER("user");

  private final String wireName;

  BudgetOwner(String wireName) {
    this.wireName = wireName;
  }

  /** The value of {@code slo_budget_bucket.owner}. */
  public String wireName() {
    return wireName;
  }
}
