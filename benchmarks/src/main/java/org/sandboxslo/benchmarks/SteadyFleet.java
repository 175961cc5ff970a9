package org.sandboxslo.benchmarks;

import java.time.Duration;
import java.time.Instant;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.FleetEvent;

/**
 * An engine in steady state for the read benchmarks: the fleet, then one hour of claims at {@code
 * claimsPerSecond}; {@link #advance()} applies the next second of claims and moves {@code now} on,
 * so every snapshot sees new data and windows that slid (nothing is cached between calls).
 */
final class SteadyFleet {
  final Fleet fleet;
  final FleetEngine engine;
  final double claimsPerSecond;
  private long next;
  private Instant now;

  SteadyFleet(int templates, int membersPerPool, double claimsPerSecond, Duration history) {
    this.fleet = new Fleet(templates, membersPerPool);
    this.engine = fleet.engine();
    this.claimsPerSecond = claimsPerSecond;
    long upTo = Fleet.claimsIn(history, claimsPerSecond);
    for (long from = 0; from < upTo; from += 10_000) {
      for (FleetEvent e : fleet.claims(from, Math.min(upTo, from + 10_000), claimsPerSecond)) {
        engine.apply(e);
      }
      if (from % 100_000 == 0) {
        engine.snapshot(Fleet.seenAt(from, claimsPerSecond)); // housekeeping as the console does
      }
    }
    this.next = upTo;
    this.now = Fleet.T0.plus(history);
  }

  /** Applies the next second of claims; returns the new {@code now}. */
  Instant advance() {
    now = now.plusSeconds(1);
    long upTo = Fleet.claimsIn(Duration.between(Fleet.T0, now), claimsPerSecond);
    for (FleetEvent e : fleet.claims(next, upTo, claimsPerSecond)) {
      engine.apply(e);
    }
    next = upTo;
    return now;
  }

  Instant now() {
    return now;
  }
}
