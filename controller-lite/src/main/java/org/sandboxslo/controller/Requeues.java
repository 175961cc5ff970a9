package org.sandboxslo.controller;

import java.time.Duration;

/** Combining requeue delays. */
final class Requeues {
  private Requeues() {}

  /** The sooner of two requeue delays; null stands for "no requeue". */
  static Duration sooner(Duration a, Duration b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return a.compareTo(b) <= 0 ? a : b;
  }
}
