package org.sandboxslo.engine.whatif;

import java.util.Objects;

/**
 * The same demand simulated against the current and a proposed configuration, with the same seed.
 *
 * @param demand the demand curve
 * @param seed the seed both runs used
 * @param current today's configuration's result
 * @param proposed the proposal's result
 */
public record WhatIfComparison(
    DemandProfile demand, long seed, WhatIfResult current, WhatIfResult proposed) {
  public WhatIfComparison {
    Objects.requireNonNull(demand, "demand");
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(proposed, "proposed");
  }

  /** Simulates both configurations. */
  public static WhatIfComparison of(
      DemandProfile demand, PoolConfig current, PoolConfig proposed, long seed) {
    long[] arrivals = demand.arrivals();
    return new WhatIfComparison(
        demand,
        seed,
        WarmPoolSimulator.run(arrivals, demand.duration(), current, seed),
        WarmPoolSimulator.run(arrivals, demand.duration(), proposed, seed));
  }
}
