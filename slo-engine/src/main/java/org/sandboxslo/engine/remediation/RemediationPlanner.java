package org.sandboxslo.engine.remediation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Pure planning of pool remediations. No I/O: the caller passes the pool state (from the engine or
 * from the Kubernetes API) and executes the result.
 */
public final class RemediationPlanner {
  private RemediationPlanner() {}

  /**
   * maxUnavailable = max(1, floor(fraction × replicas)) (C03: 0.34 × 3 → 1; 0.34 × 8 → 2).
   *
   * @throws IllegalArgumentException when fraction is not in (0, 1] or replicas &lt; 0
   */
  public static int maxUnavailable(double fraction, int replicas) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException(
          "max unavailable fraction must be in (0, 1], got " + fraction);
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
    }
    return Math.max(1, (int) Math.floor(fraction * replicas));
  }

  /**
   * Plans a paced Recreate: the stale members owned by the pool, in name order, cut into batches of
   * maxUnavailable; claimed Sandboxes are listed as untouched and never planned.
   *
   * @param state the pool now
   * @param maxUnavailableFraction fraction of replicas that may be unavailable at once, (0, 1]
   */
  public static RecreatePlan pacedRecreate(PoolState state, double maxUnavailableFraction) {
    Objects.requireNonNull(state, "state");
    int maxUnavailable = maxUnavailable(maxUnavailableFraction, state.replicas());
    List<String> stale = state.staleUnclaimed();
    List<List<String>> batches = new ArrayList<>();
    for (int i = 0; i < stale.size(); i += maxUnavailable) {
      batches.add(stale.subList(i, Math.min(stale.size(), i + maxUnavailable)));
    }
    List<String> untouched =
        state.members().stream()
            .filter(m -> !m.unclaimed())
            .map(m -> m.name() + " (claim " + m.claim() + ")")
            .toList();
    return new RecreatePlan(
        state.pool(),
        state.replicas(),
        maxUnavailable,
        Math.max(0, state.replicas() - maxUnavailable),
        batches,
        untouched,
        stale.size(),
        state.readyUnclaimed(),
        state.readyCurrentTemplate());
  }

  /**
   * Decides the next step of a paced Recreate from the live state.
   *
   * <p>Left to delete = planned members still owned by the pool, still stale and not yet deleted by
   * this execution. When none is left: {@link PacedStep.Done} once at least floorReady (or all
   * replicas, if fewer) members are Ready, else wait. Otherwise the next batch is up to
   * maxUnavailable of them in plan order, and it is deleted only if the Ready pool-owned members
   * minus the Ready ones in the batch stay at or above floorReady; otherwise wait for replacements.
   * Claimed members are never returned.
   *
   * @param live the pool now (from the Kubernetes API)
   * @param plan the approved plan
   * @param deleted members this execution already deleted
   */
  public static PacedStep next(PoolState live, RecreatePlan plan, Set<String> deleted) {
    Objects.requireNonNull(live, "live");
    Objects.requireNonNull(plan, "plan");
    List<String> left = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (String name : plan.targets()) {
      if (deleted.contains(name)) {
        continue;
      }
      PoolMember m = live.member(name);
      if (m != null && m.unclaimed() && m.stale()) {
        left.add(name);
      } else {
        skipped.add(name);
      }
    }
    int ready = live.readyUnclaimed();
    int floor = Math.min(plan.floorReady(), live.replicas());
    if (left.isEmpty()) {
      if (ready >= floor) {
        return new PacedStep.Done(skipped);
      }
      return new PacedStep.Wait(
          "waiting for replacements: "
              + ready
              + " of "
              + live.replicas()
              + " members Ready, floor "
              + floor);
    }
    List<String> batch = left.subList(0, Math.min(plan.maxUnavailable(), left.size()));
    int readyInBatch = (int) batch.stream().filter(n -> live.member(n).ready()).count();
    if (ready - readyInBatch < floor) {
      return new PacedStep.Wait(
          "waiting for replacements: "
              + ready
              + " of "
              + live.replicas()
              + " members Ready; deleting "
              + batch.size()
              + " would leave "
              + (ready - readyInBatch)
              + " < floor "
              + floor);
    }
    return new PacedStep.Delete(batch);
  }
}
