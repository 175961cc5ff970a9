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
   * Plans a paced Recreate: the stale members owned by the pool — not-Ready ones first (deleting
   * them costs no Ready capacity), then Ready ones, each group in name order — cut into batches of
   * maxUnavailable; claimed Sandboxes are listed as untouched and never planned.
   *
   * <p>The floor counts members Ready now: floorReady = max(1, min(replicas, Ready unclaimed now) −
   * maxUnavailable) when any unclaimed member is Ready (never a plan to zero Ready), else 0; an
   * empty plan has floor 0.
   *
   * @param state the pool now
   * @param maxUnavailableFraction fraction of replicas that may be unavailable at once, (0, 1]
   */
  public static RecreatePlan pacedRecreate(PoolState state, double maxUnavailableFraction) {
    Objects.requireNonNull(state, "state");
    int maxUnavailable = maxUnavailable(maxUnavailableFraction, state.replicas());
    List<String> stale = new ArrayList<>();
    for (boolean ready : new boolean[] {false, true}) {
      for (PoolMember m : state.unclaimed()) {
        if (m.stale() && m.ready() == ready) {
          stale.add(m.name());
        }
      }
    }
    List<List<String>> batches = new ArrayList<>();
    for (int i = 0; i < stale.size(); i += maxUnavailable) {
      batches.add(stale.subList(i, Math.min(stale.size(), i + maxUnavailable)));
    }
    List<String> untouched =
        state.members().stream()
            .filter(m -> !m.unclaimed())
            .map(m -> m.name() + " (claim " + m.claim() + ")")
            .toList();
    int ready = state.readyUnclaimed();
    int floor =
        batches.isEmpty() || ready == 0
            ? 0
            : Math.max(1, Math.min(state.replicas(), ready) - maxUnavailable);
    return new RecreatePlan(
        state.pool(),
        state.replicas(),
        maxUnavailable,
        floor,
        batches,
        untouched,
        stale.size(),
        ready,
        state.readyCurrentTemplate());
  }

  /**
   * Whether a paced Recreate can be offered, and how.
   *
   * @param state the pool now
   * @param maxUnavailableFraction (0, 1]
   * @param hazard why no plan that adds creates may run now (the pool over-creates, the
   *     expectations gate blocks, its informers are suspect), or null
   * @return {@link Offer.Refused} when nothing is stale, a hazard holds, or the floor could not
   *     hold; else {@link Offer.Planned}, with a surge when every stale member is Ready and no
   *     member on the current template is Ready yet (no canary)
   */
  public static Offer offer(PoolState state, double maxUnavailableFraction, String hazard) {
    RecreatePlan plan = pacedRecreate(state, maxUnavailableFraction);
    if (plan.batches().isEmpty()) {
      return new Offer.Refused("no stale unclaimed members");
    }
    if (hazard != null) {
      return new Offer.Refused(
          "a paced Recreate makes the controller create replacements, and " + hazard);
    }
    boolean readyTargets = plan.targets().stream().anyMatch(n -> state.member(n).ready());
    int surge = 0;
    if (readyTargets && state.readyCurrentTemplate() == 0) {
      surge = Math.min(plan.maxUnavailable(), plan.targets().size());
    }
    List<String> first = plan.batches().get(0);
    int readyInFirst = (int) first.stream().filter(n -> state.member(n).ready()).count();
    if (surge == 0 && state.readyUnclaimed() - readyInFirst < plan.floorReady()) {
      return new Offer.Refused(
          "the floor cannot hold: "
              + state.readyUnclaimed()
              + " Ready now, the first batch holds "
              + readyInFirst
              + " Ready, floor "
              + plan.floorReady());
    }
    return new Offer.Planned(plan, surge);
  }

  /** The outcome of {@link #offer}. */
  public sealed interface Offer {
    /**
     * A plan that can be offered.
     *
     * @param plan the batches and floor
     * @param surge members to add to spec.replicas first (0 when a Ready canary on the current
     *     template exists), so canaries become Ready before any Ready member is deleted
     */
    record Planned(RecreatePlan plan, int surge) implements Offer {}

    /**
     * No plan is offered.
     *
     * @param reason one sentence
     */
    record Refused(String reason) implements Offer {}
  }

  /**
   * Decides the next step of a paced Recreate from the live state.
   *
   * <p>Left to delete = planned members still owned by the pool, still stale and not yet deleted by
   * this execution. When none is left: {@link PacedStep.Done} at once if this execution deleted
   * nothing, else once at least floorReady (or all replicas, if fewer) members are Ready, else
   * wait. Otherwise the next batch is up to maxUnavailable of them in plan order, and it is deleted
   * only if (1) the Ready pool-owned members now minus the Ready ones in the batch stay at or above
   * floorReady (never relaxed by a lower live spec.replicas), and (2) when the batch holds Ready
   * members, their replacements are already Ready: Ready members on the current template ≥ members
   * deleted so far + Ready members in the batch (a canary first). Otherwise wait. Claimed members
   * are never returned.
   *
   * @param live the pool now (from the Kubernetes API)
   * @param plan the approved plan
   * @param deleted members this execution already deleted
   */
  public static PacedStep next(PoolState live, RecreatePlan plan, Set<String> deleted) {
    return next(live, plan, deleted, 0, false);
  }

  /**
   * {@link #next(PoolState, RecreatePlan, Set)} with a surge: when the next batch holds Ready
   * members whose replacements are not Ready yet and the plan may surge, the step is {@link
   * PacedStep.Scale} to plan replicas + surge (once), so canaries on the current template appear
   * without deleting anything; when every planned member is handled and the pool was surged, the
   * step is {@link PacedStep.Scale} back to the plan's replicas before {@link PacedStep.Done}.
   *
   * @param surge members the plan may add first (from {@link #offer}), &gt;= 0
   * @param surged whether this execution has surged and not yet restored
   */
  public static PacedStep next(
      PoolState live, RecreatePlan plan, Set<String> deleted, int surge, boolean surged) {
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
    int floor = plan.floorReady();
    if (left.isEmpty() && surged) {
      return new PacedStep.Scale(
          plan.replicas(),
          "restore spec.replicas "
              + live.replicas()
              + " → "
              + plan.replicas()
              + " after the surge: every planned member is handled");
    }
    if (left.isEmpty()) {
      // nothing deleted by this execution: there are no replacements to wait for
      if (deleted.isEmpty() || ready >= Math.min(floor, live.replicas())) {
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
    int canaries = live.readyCurrentTemplate();
    int needed = deleted.size() + readyInBatch;
    if (readyInBatch > 0 && canaries < needed) {
      if (surge > 0 && !surged && live.replicas() < plan.replicas() + surge) {
        return new PacedStep.Scale(
            plan.replicas() + surge,
            "surge spec.replicas "
                + live.replicas()
                + " → "
                + (plan.replicas() + surge)
                + ": no Ready member on the current template yet, so "
                + surge
                + " canary member(s) come first");
      }
      return new PacedStep.Wait(
          "waiting for canaries: "
              + canaries
              + " Ready member(s) on the current template, need "
              + needed
              + " ("
              + deleted.size()
              + " deleted so far + "
              + readyInBatch
              + " Ready in the next batch)");
    }
    return new PacedStep.Delete(batch);
  }
}
