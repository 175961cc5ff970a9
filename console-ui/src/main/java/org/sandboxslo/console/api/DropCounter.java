package org.sandboxslo.console.api;

/**
 * Counts what the console dropped to keep caller-added state bounded ({@code
 * sandbox_slo_dropped_total{kind, reason}}): {@code kind} {@code alert | stream-client |
 * idempotency-key}, {@code reason} {@code cap | oversized}.
 */
@FunctionalInterface
public interface DropCounter {
  /** Counts nothing (tests, no registry). */
  DropCounter NONE = (kind, reason) -> {};

  /** Counts one dropped item. */
  void dropped(String kind, String reason);
}
