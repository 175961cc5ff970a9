package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.HealthThresholds;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.SandboxView;

/**
 * Watch lag per kind (fault kind 2). A kind lags when its largest watch lag in the last 5 minutes
 * (watch deliveries only, see {@link StreamHealth}) or the age of a {@link Contradiction} against
 * it reaches {@link HealthThresholds#watchLagWarn}. Attribution: when every kind that delivered in
 * the last 5 minutes lags (at least two), the console itself is behind; otherwise the lagging
 * kinds' apiserver watch path is (APF overlay advice).
 */
public final class WatchLagDiagnosis {
  private WatchLagDiagnosis() {}

  /** Where the lag comes from. */
  public enum Attribution {
    /** Some kinds lag while others are timely: the apiserver's watch path for those resources. */
    APISERVER_WATCH_PATH,
    /** Every active kind lags alike: the console (CPU, GC, its event queue). */
    CONSOLE
  }

  /**
   * The lag picture.
   *
   * @param lagging per lagging kind, its estimated lag (max of the 5-minute maximum and the oldest
   *     contradiction's age)
   * @param active kinds with watch lag samples in the last 5 minutes or a contradiction
   * @param attribution null when nothing lags
   * @param contradictions all contradictions now
   */
  public record Picture(
      Map<Kind, Duration> lagging,
      Set<Kind> active,
      Attribution attribution,
      List<Contradiction> contradictions) {}

  public static Picture picture(FleetFacts f, List<Contradiction> contradictions) {
    Duration warn = f.health().watchLagWarn();
    Map<Kind, Duration> est = new EnumMap<>(Kind.class);
    Set<Kind> active = EnumSet.noneOf(Kind.class);
    for (Map.Entry<Kind, KindLag> e : f.observations().streams().lags(f.now()).entrySet()) {
      if (e.getValue().samples5m() > 0) {
        active.add(e.getKey());
        est.put(e.getKey(), e.getValue().max5m());
      }
    }
    for (Contradiction c : contradictions) {
      active.add(c.lagging());
      est.merge(c.lagging(), c.age(f.now()), (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }
    Map<Kind, Duration> lagging = new EnumMap<>(Kind.class);
    est.forEach(
        (k, d) -> {
          if (d.compareTo(warn) >= 0) {
            lagging.put(k, d);
          }
        });
    Attribution a = null;
    if (!lagging.isEmpty()) {
      a =
          lagging.size() >= 2 && lagging.keySet().containsAll(active)
              ? Attribution.CONSOLE
              : Attribution.APISERVER_WATCH_PATH;
    }
    return new Picture(lagging, active, a, contradictions);
  }

  static String secs(Duration d) {
    return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  /**
   * A cold launch that happened while Ready members of its pool existed on the server.
   *
   * @param launch the cold launch
   * @param readyOnServer members whose Ready lastTransitionTime (server) was not after the claim's
   *     first-seen time and that were still unclaimed then
   */
  public record AvoidableColdStart(Observations.ColdLaunch launch, List<String> readyOnServer) {}

  /**
   * Cold launches of a pool (eligible claims only) that happened while Ready members existed on the
   * server: members, created and Ready (server times) no later than the claim was first seen, that
   * were then unclaimed — still owned by the pool now, or adopted by a claim first seen later.
   */
  public static List<AvoidableColdStart> avoidableColdStarts(FleetFacts f, ObjectRef pool) {
    List<AvoidableColdStart> out = new ArrayList<>();
    for (Observations.ColdLaunch cl : f.observations().coldLaunches()) {
      if (!cl.eligible()
          || cl.firstSeen() == null
          || cl.pool() == null
          || !cl.claim().namespace().equals(pool.namespace())
          || !cl.pool().equals(pool.name())) {
        continue;
      }
      Instant t = cl.firstSeen();
      List<String> ready = new ArrayList<>();
      for (SandboxView s : f.sandboxes().values()) {
        if (!s.ref().namespace().equals(pool.namespace())
            || s.ready() == null
            || !s.isReady()
            || s.ready().lastTransitionTime() == null
            || s.ready().lastTransitionTime().isAfter(t)
            || (s.createdAt() != null && s.createdAt().isAfter(t))
            || s.ref().name().equals(cl.claim().name())) {
          continue;
        }
        boolean idleThen = false;
        if (s.ownedByPool(pool.name())) {
          idleThen = true;
        } else if (s.owner() != null && "SandboxClaim".equals(s.owner().kind())) {
          ClaimView other = f.claims().get(new ObjectRef(pool.namespace(), s.owner().name()));
          idleThen =
              other != null
                  && pool.name().equals(other.warmPoolName())
                  && other.firstSeen() != null
                  && other.firstSeen().isAfter(t);
        }
        if (idleThen) {
          ready.add(s.ref().name());
        }
      }
      if (!ready.isEmpty()) {
        ready.sort(null);
        out.add(new AvoidableColdStart(cl, ready));
      }
    }
    return out;
  }

  /** The watch-lag findings: one per lagging kind, or one for the console when all lag. */
  public static List<Finding> findings(FleetFacts f, Picture pic) {
    if (pic.attribution() == null) {
      return List.of();
    }
    List<Finding> out = new ArrayList<>();
    if (pic.attribution() == Attribution.CONSOLE) {
      out.add(finding(f, pic, pic.lagging().keySet(), "Console watch (all kinds)"));
    } else {
      for (Kind k : pic.lagging().keySet()) {
        out.add(finding(f, pic, EnumSet.of(k), "Watch " + k.kindName()));
      }
    }
    return out;
  }

  private static Finding finding(FleetFacts f, Picture pic, Set<Kind> kinds, String subject) {
    HealthThresholds h = f.health();
    List<Evidence> ev = new ArrayList<>();
    Instant first = null;
    Duration worst = Duration.ZERO;
    List<String> objects = new ArrayList<>();
    for (Kind k : kinds) {
      Duration d = pic.lagging().get(k);
      worst = d.compareTo(worst) > 0 ? d : worst;
      KindLag l = f.observations().streams().lag(k, f.now());
      if (l != null && l.samples5m() > 0) {
        ev.add(
            Evidence.of(
                "watchLag." + k.kindName(),
                secs(l.max5m()),
                "max over "
                    + l.samples5m()
                    + " watch deliveries in 5 m (receive − server time); last "
                    + secs(l.last())
                    + " at "
                    + l.lastAt()));
        Instant t = f.observations().streams().firstLagAtLeast(k, h.watchLagWarn(), f.now());
        if (t != null && (first == null || t.isBefore(first))) {
          first = t;
        }
      }
      for (Contradiction c : pic.contradictions()) {
        if (c.lagging() == k) {
          ev.add(
              Evidence.of(
                  "crossStream." + k.kindName(),
                  "≥ " + c.age(f.now()).toSeconds() + " s",
                  c.detail() + " since " + c.since()));
          objects.add(c.subject());
          if (first == null || c.since().isBefore(first)) {
            first = c.since();
          }
        }
      }
    }
    List<String> timely = new ArrayList<>();
    for (Kind k : pic.active()) {
      if (!pic.lagging().containsKey(k)) {
        timely.add(k.kindName());
      }
    }
    boolean console = pic.attribution() == Attribution.CONSOLE;
    ev.add(
        Evidence.of(
            "attribution",
            console ? "console" : "apiserver watch path",
            console
                ? "every active kind lags: " + kinds.stream().map(Kind::kindName).toList()
                : "timely kinds: " + (timely.isEmpty() ? "none with samples" : timely)));
    List<AvoidableColdStart> avoidable = new ArrayList<>();
    if (kinds.contains(Kind.SANDBOX)) {
      for (var p : f.sortedPools()) {
        avoidable.addAll(avoidableColdStarts(f, p.ref()));
      }
      if (!avoidable.isEmpty()) {
        ev.add(
            Evidence.of(
                "avoidableColdStarts",
                avoidable.size(),
                "cold launches while Ready members existed on the server"));
        for (AvoidableColdStart a : avoidable) {
          objects.add(
              "SandboxClaim "
                  + a.launch().claim()
                  + " (cold while "
                  + a.readyOnServer().size()
                  + " Ready on the server: "
                  + String.join(", ", a.readyOnServer())
                  + ")");
        }
      }
    }
    String names = String.join(", ", kinds.stream().map(Kind::kindName).toList());
    List<Proposal> proposals = new ArrayList<>();
    if (console) {
      proposals.add(
          Proposal.none(
              "Every stream lags alike, so the console itself is behind: give it CPU and memory,"
                  + " check GC pauses and its event queue; its findings are late until lag recovers."));
    } else {
      proposals.add(
          Proposal.none(
              "The "
                  + names
                  + " watch lags while other streams are timely: the apiserver's watch path for "
                  + kinds.stream().map(Kind::plural).toList()
                  + " is slow or throttled. Apply the APF overlay (dedicated priority levels for the"
                  + " controller's and the console's list/watch, seats(critical) ≥ 2 × demand"
                  + " watermark, docs/apf-insulation.md) and run the controller with"
                  + " --separate-watch-connection=true."));
    }
    proposals.add(
        Proposal.none(
            "Do not delete, recreate or scale pools because of this: the controller's cache lags"
                + " too, and its expectations gate blocks creates until it observes its own."));
    Severity sev = worst.compareTo(Duration.ofSeconds(60)) >= 0 ? Severity.HIGH : Severity.TICKET;
    return new Finding(
        FindingKind.WATCH_LAG,
        subject,
        sev,
        first != null ? first : f.now(),
        f.now(),
        names
            + " watch lags by up to "
            + secs(worst)
            + (console
                ? "; every active stream lags, so the console itself is behind."
                : "; other streams are timely, so the apiserver's watch path for it is slow.")
            + (avoidable.isEmpty()
                ? ""
                : " "
                    + avoidable.size()
                    + " cold start(s) happened while Ready members existed on the server."),
        ev,
        objects,
        proposals);
  }
}
