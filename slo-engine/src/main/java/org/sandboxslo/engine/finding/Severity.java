package org.sandboxslo.engine.finding;

/** How urgent a finding is, in increasing order. */
public enum Severity {
  INFO,
  TICKET,
  HIGH,
  PAGE,
  CRITICAL;

  public String wireName() {
    return name().toLowerCase();
  }
}
