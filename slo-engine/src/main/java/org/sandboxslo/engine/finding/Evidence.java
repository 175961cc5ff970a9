package org.sandboxslo.engine.finding;

/**
 * One number (or fact) behind a finding, with the arithmetic that produced it.
 *
 * @param name what it is, e.g. {@code staleFraction}
 * @param value the value as shown, e.g. {@code 0.67}
 * @param arithmetic how it was computed, e.g. {@code 2 stale / 3 replicas}; may be empty
 */
public record Evidence(String name, String value, String arithmetic) {
  public static Evidence of(String name, Object value) {
    return new Evidence(name, String.valueOf(value), "");
  }

  public static Evidence of(String name, Object value, String arithmetic) {
    return new Evidence(name, String.valueOf(value), arithmetic);
  }
}
