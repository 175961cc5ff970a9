package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.HealthThresholds;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.PoolView;

/**
 * A refill stall attributed to watch lag and the expectations gate (fault kind 2). Upstream's pool
 * controller may not create again until its informer has observed the creates it issued, or until
 * those expectations expire ({@link HealthThresholds#expectationsTimeout}, 5 m). When the Sandbox
 * watch path lags, the controller's informer lags with it, so:
 *
 * <ul>
 *   <li>stalled = the pool is below spec.replicas (members in the console's cache) and its newest
 *       member was created (server time) at least {@code refillStallAfter} ago;
 *   <li>attributed to lag + gate = some of its recent creates (within one expectations timeout of
 *       the newest) reached the console's watch with a delivery lag ≥ {@link
 *       HealthThresholds#watchLagWarn} (unobserved creates), or the Sandbox stream lags now;
 *   <li>the gate must release by the earliest unobserved create + the expectations timeout (with no
 *       late create known: the newest create + timeout).
 * </ul>
 *
 * While it blocks, no plan may delete, recreate or scale the pool: the creates would be gated too.
 */
public final class RefillGateDiagnosis {
  private RefillGateDiagnosis() {}

  /**
   * A gated refill.
   *
   * @param pool the pool
   * @param deficit spec.replicas − members
   * @param lastCreate newest member creationTimestamp (server)
   * @param unobserved recent creates delivered late, oldest first
   * @param earliestUnobserved earliest of them (or lastCreate when none is known)
   * @param releaseBy earliestUnobserved + expectations timeout
   * @param previousGap the largest server-side gap between consecutive creates (≥ refillStallAfter)
   *     among the pool's earlier creates, or null
   */
  public record Gate(
      PoolView pool,
      int deficit,
      Instant lastCreate,
      List<Observations.MemberCreate> unobserved,
      Instant earliestUnobserved,
      Instant releaseBy,
      Duration previousGap) {
    /** The gate still blocks creates at {@code now}. */
    public boolean blocking(Instant now) {
      return now.isBefore(releaseBy);
    }
  }

  /** The gated stall of a pool, or null when it is not stalled or not attributable to lag. */
  public static Gate detect(FleetFacts f, PoolView p, boolean sandboxStreamLags) {
    HealthThresholds h = f.health();
    int members = f.members(p).size();
    int deficit = p.replicas() - members;
    if (deficit <= 0) {
      return null;
    }
    List<Observations.MemberCreate> creates = new ArrayList<>(f.observations().creates(p.ref()));
    if (creates.isEmpty()) {
      return null;
    }
    creates.sort(Comparator.comparing(Observations.MemberCreate::createdAt));
    Instant last = creates.get(creates.size() - 1).createdAt();
    if (Duration.between(last, f.now()).compareTo(f.config().refillStallAfter()) < 0) {
      return null;
    }
    Instant recent = last.minus(h.expectationsTimeout());
    List<Observations.MemberCreate> late = new ArrayList<>();
    for (Observations.MemberCreate c : creates) {
      if (c.watched()
          && !c.createdAt().isBefore(recent)
          && c.deliveryLag().compareTo(h.watchLagWarn()) >= 0) {
        late.add(c);
      }
    }
    if (late.isEmpty() && !sandboxStreamLags) {
      return null;
    }
    Instant earliest = late.isEmpty() ? last : late.get(0).createdAt();
    Duration gap = null;
    for (int i = 1; i < creates.size(); i++) {
      Duration d = Duration.between(creates.get(i - 1).createdAt(), creates.get(i).createdAt());
      if (d.compareTo(f.config().refillStallAfter()) >= 0
          && (gap == null || d.compareTo(gap) > 0)) {
        gap = d;
      }
    }
    return new Gate(p, deficit, last, late, earliest, earliest.plus(h.expectationsTimeout()), gap);
  }

  /** Findings for every gated pool. */
  public static List<Finding> run(FleetFacts f, WatchLagDiagnosis.Picture pic) {
    List<Finding> out = new ArrayList<>();
    boolean lags = pic.lagging().containsKey(Kind.SANDBOX);
    for (PoolView p : f.sortedPools()) {
      Gate g = detect(f, p, lags);
      if (g != null) {
        out.add(finding(f, g));
      }
    }
    return out;
  }

  private static Finding finding(FleetFacts f, Gate g) {
    HealthThresholds h = f.health();
    PoolView p = g.pool();
    Duration stalled = Duration.between(g.lastCreate(), f.now());
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "deficit",
            g.deficit(),
            p.replicas() + " spec.replicas − " + (p.replicas() - g.deficit()) + " members"));
    ev.add(
        Evidence.of(
            "serverCreateGap",
            stalled.toSeconds() + " s",
            "no member created since " + g.lastCreate() + " (server time) until now " + f.now()));
    if (g.previousGap() != null) {
      ev.add(
          Evidence.of(
              "previousServerCreateGap",
              g.previousGap().toSeconds() + " s",
              "largest gap between consecutive member creates earlier"));
    }
    List<String> lateText = new ArrayList<>();
    for (Observations.MemberCreate c : g.unobserved()) {
      lateText.add(
          c.name()
              + " created "
              + c.createdAt()
              + ", delivered "
              + c.receivedAt()
              + " (+"
              + c.deliveryLag().toSeconds()
              + " s)");
    }
    ev.add(
        Evidence.of(
            "unobservedCreates",
            g.unobserved().size(),
            lateText.isEmpty()
                ? "none delivered late yet; the Sandbox stream lags now"
                : String.join("; ", lateText)));
    ev.add(
        Evidence.of(
            "gateReleaseBy",
            g.releaseBy(),
            (g.unobserved().isEmpty() ? "newest create " : "earliest unobserved create ")
                + g.earliestUnobserved()
                + " + expectations timeout "
                + h.expectationsTimeout().toSeconds()
                + " s"));
    List<WatchLagDiagnosis.AvoidableColdStart> avoidable =
        WatchLagDiagnosis.avoidableColdStarts(f, p.ref());
    List<String> objects = new ArrayList<>();
    objects.add("SandboxWarmPool " + p.ref());
    if (!avoidable.isEmpty()) {
      ev.add(
          Evidence.of(
              "avoidableColdStarts",
              avoidable.size(),
              "cold launches while Ready members existed on the server"));
      for (WatchLagDiagnosis.AvoidableColdStart a : avoidable) {
        objects.add(
            "SandboxClaim "
                + a.launch().claim()
                + " (avoidable cold start: "
                + String.join(", ", a.readyOnServer())
                + " Ready on the server)");
      }
    }
    boolean blocking = g.blocking(f.now());
    return new Finding(
        FindingKind.REFILL_GATED_BY_WATCH_LAG,
        "SandboxWarmPool " + p.ref(),
        avoidable.isEmpty() ? Severity.TICKET : Severity.HIGH,
        g.lastCreate().plus(f.config().refillStallAfter()),
        f.now(),
        p.ref()
            + " is "
            + g.deficit()
            + " below spec.replicas and created nothing for "
            + stalled.toSeconds()
            + " s: its creates reach watchers late, so the controller's expectations gate waits for"
            + " them; it must release by "
            + g.releaseBy()
            + (blocking ? "." : " (already due: look for lost watch events)."),
        ev,
        objects,
        List.of(
            Proposal.none(
                "Do not delete, recreate or scale "
                    + p.ref()
                    + " while the gate blocks creates: they would be gated too. Refill resumes when"
                    + " the controller observes its creates, or by "
                    + g.releaseBy()
                    + " at the latest."),
            Proposal.none(
                "Fix the watch path: APF overlay for the controller's list/watch and"
                    + " --separate-watch-connection=true; see the WatchLag finding.")));
  }
}
