package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.SandboxView;

/**
 * Two streams disagree about one object, which shows that one of them lags before its late events
 * arrive.
 *
 * @param lagging the kind whose stream is behind
 * @param subject the object the other stream already shows changed ({@code Kind ns/name})
 * @param detail one sentence naming both sides
 * @param since console time the other stream first showed the change
 */
public record Contradiction(Kind lagging, String subject, String detail, Instant since) {
  public Contradiction {
    Objects.requireNonNull(lagging, "lagging");
    Objects.requireNonNull(since, "since");
  }

  /** now − since, the lower bound of the lagging stream's lag. */
  public Duration age(Instant now) {
    Duration d = Duration.between(since, now);
    return d.isNegative() ? Duration.ZERO : d;
  }

  /**
   * The contradictions in the current caches, oldest first:
   *
   * <ul>
   *   <li>a claim names Sandbox S (annotation {@code sandbox-name}) and the Sandbox stream still
   *       shows S owned by a SandboxWarmPool, or (claim Ready) has not delivered S at all → the
   *       Sandbox stream lags (upstream writes the claim first, then patches the Sandbox);
   *   <li>a Sandbox is owned by a claim the claim stream does not hold (claims synced, Sandbox not
   *       deleting) → the claim stream lags.
   * </ul>
   */
  public static List<Contradiction> find(FleetFacts f) {
    List<Contradiction> out = new ArrayList<>();
    for (ClaimView c : f.claims().values()) {
      if (c.uid() == null || c.sandboxName() == null) {
        continue;
      }
      if (c.ready() != null
          && c.ready().isFalse()
          && c.ready().reason() != null
          && (c.ready().reason().equals("ClaimExpired")
              || c.ready().reason().equals("SandboxMissing")
              || c.ready().reason().equals("SandboxExpired"))) {
        continue;
      }
      Observations.Named n = f.observations().named(c.uid());
      if (n == null) {
        continue;
      }
      SandboxView s = f.sandboxes().get(new ObjectRef(c.ref().namespace(), c.sandboxName()));
      if (s != null && s.owner() != null && "SandboxWarmPool".equals(s.owner().kind())) {
        out.add(
            new Contradiction(
                Kind.SANDBOX,
                "Sandbox " + s.ref(),
                "SandboxClaim "
                    + c.ref()
                    + " names "
                    + s.ref().name()
                    + " but the Sandbox stream still shows it owned by SandboxWarmPool "
                    + s.owner().name(),
                n.since()));
      } else if (s == null && c.isReady() && f.synced(Kind.SANDBOX)) {
        out.add(
            new Contradiction(
                Kind.SANDBOX,
                "Sandbox " + c.ref().namespace() + "/" + c.sandboxName(),
                "SandboxClaim "
                    + c.ref()
                    + " is Ready with "
                    + c.sandboxName()
                    + " but the Sandbox stream has not delivered it",
                n.since()));
      }
    }
    if (f.synced(Kind.SANDBOX_CLAIM)) {
      for (SandboxView s : f.sandboxes().values()) {
        if (s.deleting()
            || s.uid() == null
            || s.owner() == null
            || !"SandboxClaim".equals(s.owner().kind())) {
          continue;
        }
        ClaimView c = f.claims().get(new ObjectRef(s.ref().namespace(), s.owner().name()));
        Instant since = f.observations().adoptedSeen(s.uid());
        if (since != null
            && (c == null || (s.owner().uid() != null && !s.owner().uid().equals(c.uid())))) {
          out.add(
              new Contradiction(
                  Kind.SANDBOX_CLAIM,
                  "SandboxClaim " + s.ref().namespace() + "/" + s.owner().name(),
                  "Sandbox "
                      + s.ref()
                      + " is owned by SandboxClaim "
                      + s.owner().name()
                      + " which the claim stream has not delivered",
                  since));
        }
      }
    }
    out.sort(Comparator.comparing(Contradiction::since).thenComparing(Contradiction::subject));
    return out;
  }
}
