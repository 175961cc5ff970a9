package org.sandboxslo.console.slo;

/** Where a registered SLO came from; the wire name is the {@code origin} of the SLO JSON. */
public enum SloOrigin {
  /** Generated per template by {@link SloDefaults}. */
  DEFAULT("default"),
  /** Read from {@code sloconsole.slo.dir}. */
  FILE("file"),
  /** Created through {@code POST /api/v1/slos} and stored. */
  USER("user");

  private final String wireName;

  SloOrigin(String wireName) {
    this.wireName = wireName;
  }

  /** {@code default}, {@code file} or {@code user}. */
  public String wireName() {
    return wireName;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
