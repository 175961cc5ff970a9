package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;

/**
 * What the issue-8 diagnoses need from the event stream beyond the current objects: watch health,
 * the history of each pool's owned count, member creates with their delivery lag, when claims named
 * their Sandbox and Sandboxes were adopted, cold launches, unserved claims, and the controller
 * version. Fed by the engine on every applied event; bounded (per-pool histories keep the newest
 * {@value #HISTORY} entries, time-based lists are evicted after the longest window). Not
 * thread-safe: the engine's thread only.
 */
public final class Observations {
  static final int HISTORY = 256;
  private static final int UNSERVED_KEPT = 5_000;

  /** Ready reasons after which upstream never serves the claim as is. */
  static final Set<String> TERMINAL_REJECTIONS =
      Set.of("EnvVarsInjectionRejected", "InvalidMetadata", "VolumeClaimTemplatesError");

  /** Ready reasons with which upstream keeps the claim waiting (requeue ≤ 1 m). */
  static final Set<String> BLOCKING_REASONS = Set.of("TemplateNotFound", "WarmPoolNotFound");

  /** Unchanged evaluation samples kept in a row (so a stuck pool still shows a streak). */
  static final int EVALUATIONS_IN_A_ROW = 8;

  /**
   * One observation of a pool's size: a change of its owned-member count or of spec.replicas, or a
   * diagnosis evaluation at a later time.
   *
   * @param at console time
   * @param owned active members with a controller ownerReference to the pool
   * @param replicas spec.replicas at that time
   * @param evaluation taken by an evaluation, not by a change
   */
  public record OwnedSample(Instant at, int owned, int replicas, boolean evaluation) {}

  /**
   * A pool member as first delivered.
   *
   * @param name Sandbox name
   * @param createdAt creationTimestamp (server time)
   * @param receivedAt console time of its first delivery
   * @param watched delivered by the watch (its delivery lag is meaningful), not by a list
   */
  public record MemberCreate(String name, Instant createdAt, Instant receivedAt, boolean watched) {
    /** receivedAt − createdAt, never negative. */
    public Duration deliveryLag() {
      Duration d = Duration.between(createdAt, receivedAt);
      return d.isNegative() ? Duration.ZERO : d;
    }
  }

  /**
   * A claim that launched cold.
   *
   * @param claim the claim
   * @param pool spec.warmPoolRef.name
   * @param firstSeen controller-first-observed-at, else creationTimestamp
   * @param readyAt claim Ready
   * @param eligible set neither env nor volumeClaimTemplates (a warm member could have served it)
   */
  public record ColdLaunch(
      ObjectRef claim, String pool, Instant firstSeen, Instant readyAt, boolean eligible) {}

  /**
   * The console time a claim was first seen naming its Sandbox.
   *
   * @param sandbox the named Sandbox
   * @param since console time
   */
  public record Named(String sandbox, Instant since) {}

  private final StreamHealth streams;
  private final Function<ObjectRef, PoolView> pools;
  private final Map<String, ObjectRef> memberOf = new HashMap<>();
  private final Map<ObjectRef, Integer> owned = new HashMap<>();
  private final Map<ObjectRef, Deque<OwnedSample>> ownedHistory = new HashMap<>();
  private final Map<ObjectRef, Deque<MemberCreate>> creates = new HashMap<>();
  private final Map<String, Named> claimNamed = new HashMap<>();
  private final Map<String, Instant> adoptedSeen = new HashMap<>();
  private final Deque<ColdLaunch> coldLaunches = new ArrayDeque<>();
  private final Map<String, UnservedClaim> unserved = new LinkedHashMap<>();
  private final Set<String> served = new java.util.HashSet<>();
  private String controllerVersion;

  /**
   * @param bucketWidth lag resolution
   * @param pools the engine's pool lookup (read at event time)
   */
  public Observations(Duration bucketWidth, Function<ObjectRef, PoolView> pools) {
    this.streams = new StreamHealth(bucketWidth);
    this.pools = Objects.requireNonNull(pools, "pools");
  }

  public StreamHealth streams() {
    return streams;
  }

  /**
   * The agent-sandbox controller version as read from {@code agent_sandbox_build_info{git_version}}
   * (e.g. {@code v0.5.3}); null to forget it. Preferred over {@code DiagnosisConfig}'s static one.
   */
  public void controllerVersion(String version) {
    this.controllerVersion = version == null || version.isBlank() ? null : version.trim();
  }

  public String controllerVersion() {
    return controllerVersion;
  }

  // ---- hooks (engine thread, after the engine applied the event)

  /**
   * An applied (non-duplicate) upsert.
   *
   * @param prev the view the engine held under the same ref before, may be null
   * @return an unserved claim that has just become terminal (to feed as a bad claim event), or null
   */
  public UnservedClaim upserted(FleetEvent.Upserted u, ObjectView prev) {
    ObjectView v = u.view();
    boolean newObject = prev == null || !Objects.equals(prev.uid(), v.uid());
    StreamHealth.Delivery d =
        streams.upserted(v.kind(), v.uid(), newObject, u.serverTime(), u.receivedAt(), u.listed());
    if (v instanceof SandboxView s) {
      sandbox(s, newObject, d, u.receivedAt());
    } else if (v instanceof PoolView p) {
      PoolView before = prev instanceof PoolView pp ? pp : null;
      if (before == null || before.replicas() != p.replicas()) {
        sample(p.ref(), u.receivedAt());
      }
    } else if (v instanceof ClaimView c) {
      return claim(c, u.receivedAt());
    }
    return null;
  }

  /**
   * An applied delete.
   *
   * @param last the engine's last view of the object, may be null
   * @return an unserved claim that has just become terminal, or null
   */
  public UnservedClaim deleted(FleetEvent.Deleted d, ObjectView last) {
    streams.deleted(d.kind(), d.uid(), d.receivedAt(), d.finalStateUnknown());
    if (d.uid() == null) {
      return null;
    }
    if (d.kind() == Kind.SANDBOX) {
      adoptedSeen.remove(d.uid());
      ObjectRef pool = memberOf.remove(d.uid());
      if (pool != null) {
        owned.merge(pool, -1, Integer::sum);
        sample(pool, d.receivedAt());
      }
    } else if (d.kind() == Kind.SANDBOX_CLAIM) {
      claimNamed.remove(d.uid());
      boolean wasServed = served.remove(d.uid());
      UnservedClaim open = unserved.get(d.uid());
      if (d.finalStateUnknown()) {
        // a tombstone after a re-list: the claim may have been served meanwhile
        if (open != null && !open.terminal()) {
          unserved.remove(d.uid());
        }
        return null;
      }
      if (last instanceof ClaimView c
          && !wasServed
          && c.readyAt() == null
          && (open == null || !open.terminal())) {
        boolean expired = c.shutdownTime() != null && !c.shutdownTime().isAfter(d.receivedAt());
        String reason =
            c.ready() == null || c.ready().reason() == null ? "none" : c.ready().reason();
        UnservedClaim out =
            record(
                c,
                expired
                    ? UnservedClaim.Outcome.EXPIRED_UNSERVED
                    : UnservedClaim.Outcome.DELETED_BEFORE_READY,
                reason,
                d.receivedAt(),
                true);
        return out;
      }
    }
    return null;
  }

  /** The kind's informer synced. */
  public void synced(Kind kind) {
    streams.synced(kind);
  }

  /** A claim counted as a cold launch. */
  public void coldLaunch(ClaimView c, Instant readyAt, boolean eligible) {
    coldLaunches.addLast(
        new ColdLaunch(c.ref(), c.warmPoolName(), c.firstSeen(), readyAt, eligible));
  }

  /** Forgets time-based entries older than {@code oldest}. */
  public void evict(Instant oldest) {
    while (!coldLaunches.isEmpty() && coldLaunches.peekFirst().readyAt().isBefore(oldest)) {
      coldLaunches.removeFirst();
    }
    unserved.values().removeIf(u -> u.terminal() && u.endedAt().isBefore(oldest));
  }

  private void sandbox(SandboxView s, boolean newObject, StreamHealth.Delivery d, Instant at) {
    ObjectRef pool = null;
    if (s.owner() != null && "SandboxWarmPool".equals(s.owner().kind()) && !s.deleting()) {
      ObjectRef ref = new ObjectRef(s.ref().namespace(), s.owner().name());
      PoolView p = pools.apply(ref);
      if (p == null
          || p.uid() == null
          || s.owner().uid() == null
          || p.uid().equals(s.owner().uid())) {
        pool = ref;
      }
    }
    if (s.uid() != null) {
      ObjectRef before = memberOf.get(s.uid());
      if (!Objects.equals(before, pool)) {
        if (before != null) {
          memberOf.remove(s.uid());
          owned.merge(before, -1, Integer::sum);
          sample(before, at);
        }
        if (pool != null) {
          memberOf.put(s.uid(), pool);
          owned.merge(pool, 1, Integer::sum);
          sample(pool, at);
        }
      }
      if (s.owner() != null && "SandboxClaim".equals(s.owner().kind())) {
        adoptedSeen.putIfAbsent(s.uid(), at);
      }
    }
    if (newObject && pool != null && s.createdAt() != null) {
      Deque<MemberCreate> q = creates.computeIfAbsent(pool, x -> new ArrayDeque<>());
      q.addLast(
          new MemberCreate(s.ref().name(), s.createdAt(), at, d == StreamHealth.Delivery.WATCH));
      while (q.size() > HISTORY) {
        q.removeFirst();
      }
    }
  }

  private void sample(ObjectRef pool, Instant at) {
    PoolView p = pools.apply(pool);
    if (p == null) {
      return;
    }
    Deque<OwnedSample> q = ownedHistory.computeIfAbsent(pool, x -> new ArrayDeque<>());
    q.addLast(new OwnedSample(at, Math.max(0, owned.getOrDefault(pool, 0)), p.replicas(), false));
    while (q.size() > HISTORY) {
      q.removeFirst();
    }
  }

  /**
   * Records a diagnosis evaluation of the pool at {@code now} as an observation, when it is later
   * than the newest one; at most {@value #EVALUATIONS_IN_A_ROW} unchanged evaluations in a row are
   * kept.
   */
  public void evaluated(ObjectRef pool, Instant now) {
    Deque<OwnedSample> q = ownedHistory.get(pool);
    PoolView p = pools.apply(pool);
    if (q == null || q.isEmpty() || p == null || !now.isAfter(q.peekLast().at())) {
      return;
    }
    int n = Math.max(0, owned.getOrDefault(pool, 0));
    int same = 0;
    for (var it = q.descendingIterator(); it.hasNext() && same < EVALUATIONS_IN_A_ROW; ) {
      OwnedSample s = it.next();
      if (!s.evaluation() || s.owned() != n || s.replicas() != p.replicas()) {
        break;
      }
      same++;
    }
    if (same < EVALUATIONS_IN_A_ROW) {
      q.addLast(new OwnedSample(now, n, p.replicas(), true));
      while (q.size() > HISTORY) {
        q.removeFirst();
      }
    }
  }

  private UnservedClaim claim(ClaimView c, Instant at) {
    if (c.uid() == null) {
      return null;
    }
    if (c.sandboxName() != null) {
      Named n = claimNamed.get(c.uid());
      if (n == null || !n.sandbox().equals(c.sandboxName())) {
        claimNamed.put(c.uid(), new Named(c.sandboxName(), at));
      }
    }
    UnservedClaim open = unserved.get(c.uid());
    if (c.readyAt() != null || served.contains(c.uid())) {
      served.add(c.uid());
      if (open != null && !open.terminal()) {
        unserved.remove(c.uid()); // it waited, and was served after all
      }
      return null;
    }
    if (open != null && open.terminal()) {
      return null;
    }
    if (c.ready() == null || !c.ready().isFalse() || c.ready().reason() == null) {
      return null;
    }
    String reason = c.ready().reason();
    Instant when = c.ready().lastTransitionTime() != null ? c.ready().lastTransitionTime() : at;
    if (TERMINAL_REJECTIONS.contains(reason)) {
      return record(c, UnservedClaim.Outcome.REJECTED, reason, when, true);
    }
    if ("ClaimExpired".equals(reason)) {
      return record(c, UnservedClaim.Outcome.EXPIRED_UNSERVED, reason, when, true);
    }
    if (BLOCKING_REASONS.contains(reason)) {
      record(c, UnservedClaim.Outcome.REJECTED, reason, when, false);
    }
    return null;
  }

  private UnservedClaim record(
      ClaimView c, UnservedClaim.Outcome outcome, String reason, Instant at, boolean terminal) {
    String template = null;
    if (c.warmPoolName() != null) {
      PoolView p = pools.apply(new ObjectRef(c.ref().namespace(), c.warmPoolName()));
      template = p == null ? null : p.templateName();
    }
    UnservedClaim u =
        new UnservedClaim(
            c.ref(),
            c.uid(),
            c.warmPoolName(),
            template,
            outcome,
            reason,
            c.ready() == null ? null : c.ready().message(),
            c.firstSeen(),
            at,
            terminal);
    unserved.remove(c.uid());
    unserved.put(c.uid(), u);
    if (unserved.size() > UNSERVED_KEPT) {
      unserved.remove(unserved.keySet().iterator().next());
    }
    return terminal ? u : null;
  }

  // ---- reads

  /** The pool's size observations, oldest first (at most {@value #HISTORY}). */
  public List<OwnedSample> ownedHistory(ObjectRef pool) {
    Deque<OwnedSample> q = ownedHistory.get(pool);
    return q == null ? List.of() : List.copyOf(q);
  }

  /** The pool's member creates as first delivered, in delivery order. */
  public List<MemberCreate> creates(ObjectRef pool) {
    Deque<MemberCreate> q = creates.get(pool);
    return q == null ? List.of() : List.copyOf(q);
  }

  /** When a claim (by UID) was first seen naming its current Sandbox, or null. */
  public Named named(String claimUid) {
    return claimNamed.get(claimUid);
  }

  /** When a Sandbox (by UID) was first seen owned by a claim, or null. */
  public Instant adoptedSeen(String sandboxUid) {
    return adoptedSeen.get(sandboxUid);
  }

  /** Claims seen naming a Sandbox since the given time (exclusive). */
  public int namedAfter(Instant after) {
    int n = 0;
    for (Named x : claimNamed.values()) {
      if (x.since().isAfter(after)) {
        n++;
      }
    }
    return n;
  }

  /** Sandboxes seen adopted by a claim since the given time (exclusive). */
  public int adoptedAfter(Instant after) {
    int n = 0;
    for (Instant t : adoptedSeen.values()) {
      if (t.isAfter(after)) {
        n++;
      }
    }
    return n;
  }

  /** Cold launches within the longest window, oldest first. */
  public List<ColdLaunch> coldLaunches() {
    return List.copyOf(coldLaunches);
  }

  /** Unserved claims (terminal ones within the longest window, and waiting ones), oldest first. */
  public List<UnservedClaim> unserved() {
    return Collections.unmodifiableList(new ArrayList<>(unserved.values()));
  }
}
