package org.sandboxslo.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.SliKey;
import org.sandboxslo.engine.sli.SliSeries;
import org.sandboxslo.engine.sli.SliSeries.ResumeResult;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.Totals;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.slo.BudgetExclusion;
import org.sandboxslo.engine.slo.SliType;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloLedger;
import org.sandboxslo.engine.slo.SloStatus;
import org.sandboxslo.engine.upstream.Labels;

/**
 * Fleet state → SLI windows. Pure and synchronous: a function of the applied events and the {@code
 * now} passed to {@link #snapshot(Instant)}; no I/O, no threads, no wall clock. Not thread-safe:
 * one owner thread applies events and takes snapshots.
 *
 * <p>Counting rules (DESIGN.md "The SLIs, defined exactly"):
 *
 * <ul>
 *   <li>A claim is counted once per UID, when it is first seen with a Ready time ({@code
 *       claim-first-ready-at}, else the Ready condition), at that time. Launch type comes from the
 *       assigned Sandbox's {@code launch-type} label; when that Sandbox has not been seen, from
 *       upstream's naming rule (a cold Sandbox is named exactly like its claim, an adopted one
 *       keeps its pool-generated name). Relists and duplicate events never count twice.
 *   <li>Claim-to-ready latency = Ready time − first seen ({@code controller-first-observed-at},
 *       else creationTimestamp). RFC3339Nano annotations when present; else 1 s object times.
 *   <li>Cold start (refill) = pool member creationTimestamp → Ready lastTransitionTime (both 1 s).
 *   <li>A resume starts when a Sandbox's operatingMode is seen going Suspended → Running and ends
 *       at Ready=True (success), Ready=False/ReconcilerError or Suspended=Unknown/PodStateUnknown
 *       (error), or when not Ready within the resume timeout (timeout). Both ends on the console
 *       clock (receive time), so watch lag cancels out.
 *   <li>Pool membership is by controller ownerReference only; a member is stale when its semantic
 *       blueprint digest differs from the template's.
 * </ul>
 */
public final class FleetEngine {
  private final EngineConfig config;
  private final Map<ObjectRef, TemplateView> templates = new HashMap<>();
  private final Map<ObjectRef, PoolView> pools = new HashMap<>();
  private final Map<ObjectRef, SandboxView> sandboxes = new HashMap<>();

  /** Shares equal strings and values between the kept Sandbox views (memory per Sandbox). */
  private final Canonicalizer canonical = new Canonicalizer();

  /**
   * Sandboxes with a controller ownerReference to a pool, by pool (namespace/owner name), deleting
   * ones included: pool gauges and idle-member counts read one pool's members, not every Sandbox.
   */
  private final Map<ObjectRef, PoolMembers> poolMembers = new HashMap<>();

  /** Pool gauges of the last snapshot, reused while nothing they depend on changed. */
  private final Map<ObjectRef, CachedGauge> gaugeCache = new HashMap<>();

  /** The members of one pool and a version that changes with every change among them. */
  private static final class PoolMembers {
    final Map<ObjectRef, SandboxView> members = new HashMap<>();

    /**
     * The engine-wide {@code objectsVersion} of the last change to this set: unique across sets, so
     * a set removed when empty and created again never repeats a version a cache has seen.
     */
    long version;

    private List<SandboxView> sorted;
    private long sortedVersion = -1;

    private List<SandboxView> owned;
    private long ownedVersion = -1;
    private PoolView ownedPool;

    /**
     * The active members owned by this pool object: UID-matched when both UIDs are known (kept
     * until a member or the pool view changes).
     */
    List<SandboxView> ownedBy(PoolView p) {
      if (owned == null || ownedVersion != version || ownedPool != p) {
        List<SandboxView> l = new ArrayList<>();
        for (SandboxView s : sortedActive()) {
          if (p == null
              || p.uid() == null
              || s.owner().uid() == null
              || p.uid().equals(s.owner().uid())) {
            l.add(s);
          }
        }
        owned = java.util.Collections.unmodifiableList(l);
        ownedVersion = version;
        ownedPool = p;
      }
      return owned;
    }

    /** Whether an active member is stale, with what it was computed from (identity). */
    private Boolean anyStale;

    private long staleVersion = -1;
    private TemplateView staleTemplate;
    private String[] staleLearned;

    /** The members not deleting, sorted by name (kept until the next change). */
    List<SandboxView> sortedActive() {
      if (sorted == null || sortedVersion != version) {
        List<SandboxView> l = new ArrayList<>();
        for (SandboxView s : members.values()) {
          if (!s.deleting()) {
            l.add(s);
          }
        }
        l.sort(java.util.Comparator.comparing(s -> s.ref().name()));
        sorted = java.util.Collections.unmodifiableList(l);
        sortedVersion = version;
      }
      return sorted;
    }
  }

  /**
   * A pool gauge with what it was computed from: the pool and template views, the learned hash
   * (compared by identity: the engine replaces them, never mutates them) and the members' version.
   */
  private record CachedGauge(
      PoolView pool, TemplateView template, String[] learned, long version, PoolGauge gauge) {}

  private final Map<ObjectRef, ClaimView> claims = new HashMap<>();
  private final Set<String> countedClaims = new HashSet<>();
  private final Set<String> countedMembers = new HashSet<>();

  /** Claims Ready but not yet attributable to a template (their pool not seen yet). */
  private final Map<String, ObjectRef> pendingClaims = new LinkedHashMap<>();

  /** Sandbox UID → resume start (console clock). */
  private final Map<String, Instant> resumes = new HashMap<>();

  private final Map<SliKey, SliSeries> series = new HashMap<>();
  private final EnumMap<Kind, Boolean> synced = new EnumMap<>(Kind.class);

  /** Stream bookkeeping of the issue-8 diagnoses (watch lag, histories, unserved claims). */
  private final org.sandboxslo.engine.diagnosis.Observations streamLog;

  private long duplicatesIgnored;
  private final Map<String, SloLedger> slos = new LinkedHashMap<>();

  /** Last observed blueprint change per template (digest differs from the previous view). */
  final Map<ObjectRef, TemplateChange> templateChanges = new HashMap<>();

  /** Upstream hash label of the newest member created after the last observed change. */
  private final Map<ObjectRef, String[]> learnedHash = new HashMap<>();

  /** Warm claims handed a stale member, most recent last (bounded). */
  final List<ServedStale> servedStale = new ArrayList<>();

  /**
   * Cold starts forced by env/volumeClaimTemplates, by claim UID (bounded by the longest window).
   */
  final Map<String, ForcedCold> forcedCold = new LinkedHashMap<>();

  /** Claims with env/volumeClaimTemplates not yet counted → idle Ready members at arrival. */
  private final Map<String, Integer> idleAtArrival = new HashMap<>();

  /** History and evidence for the diagnoses of issue 8 part B (Pods, probes, scrapes, ...). */
  private final org.sandboxslo.engine.diagnosis.FleetObservations observations =
      new org.sandboxslo.engine.diagnosis.FleetObservations();

  /**
   * A blueprint change of a template as observed.
   *
   * @param at console time the new blueprint was seen
   * @param generation new metadata.generation
   * @param oldImages images before
   * @param newImages images after
   * @param oldDigest semantic digest before
   */
  record TemplateChange(
      Instant at,
      long generation,
      List<String> oldImages,
      List<String> newImages,
      String oldDigest) {}

  /** A warm claim served by a stale member. */
  record ServedStale(
      ObjectRef claim,
      String sandbox,
      List<String> memberImages,
      List<String> templateImages,
      Duration afterChange,
      Instant at) {}

  /** A cold start forced by the request shape. */
  record ForcedCold(
      ObjectRef claim,
      String cause,
      String createdBy,
      String pool,
      String template,
      Instant readyAt,
      int idleReadyMembers) {}

  /** The engine's templates (read-only view for diagnoses). */
  Map<ObjectRef, TemplateView> templates() {
    return java.util.Collections.unmodifiableMap(templates);
  }

  Map<ObjectRef, PoolView> pools() {
    return java.util.Collections.unmodifiableMap(pools);
  }

  Map<ObjectRef, SandboxView> sandboxes() {
    return java.util.Collections.unmodifiableMap(sandboxes);
  }

  Map<ObjectRef, ClaimView> claims() {
    return java.util.Collections.unmodifiableMap(claims);
  }

  /**
   * Whether a pool member is stale against its template: never when the semantic digests match;
   * stale when the member's canonical blueprint contradicts the template's ({@link
   * org.sandboxslo.engine.upstream.Blueprints#contradicts}); and, once a member built after the
   * last observed template change has been seen, stale when its upstream hash label differs from
   * that member's (so pure additions to the template are caught too).
   */
  boolean isStale(SandboxView member, TemplateView t) {
    if (t == null
        || member.blueprintDigest() == null
        || t.blueprintDigest().equals(member.blueprintDigest())) {
      return false;
    }
    if (member.blueprint() != null && t.blueprint() != null) {
      if (org.sandboxslo.engine.upstream.Blueprints.contradicts(
          member.blueprint(), t.blueprint())) {
        return true;
      }
      String[] learned = learnedHash.get(t.ref());
      return learned != null
          && member.templateHashLabel() != null
          && !learned[0].equals(member.templateHashLabel());
    }
    return true;
  }

  private void learnHash(SandboxView s) {
    if (s.templateHashLabel() == null
        || s.createdAt() == null
        || s.owner() == null
        || !"SandboxWarmPool".equals(s.owner().kind())) {
      return;
    }
    String template = templateOfSandbox(s, null);
    if (template == null) {
      return;
    }
    ObjectRef t = new ObjectRef(s.ref().namespace(), template);
    TemplateChange c = templateChanges.get(t);
    if (c == null || s.createdAt().isBefore(c.at().minusSeconds(1))) {
      return;
    }
    String[] cur = learnedHash.get(t);
    if (cur == null || Instant.parse(cur[1]).isBefore(s.createdAt())) {
      learnedHash.put(t, new String[] {s.templateHashLabel(), s.createdAt().toString()});
    }
  }

  public FleetEngine(EngineConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.streamLog =
        new org.sandboxslo.engine.diagnosis.Observations(config.bucketWidth(), pools::get);
    for (Kind k : Kind.values()) {
      synced.put(k, false);
    }
  }

  public EngineConfig config() {
    return config;
  }

  /** Events ignored because their UID and resourceVersion had already been applied. */
  public long duplicatesIgnored() {
    return duplicatesIgnored;
  }

  /** Applies one event. Never throws for well-formed events (records validate themselves). */
  public void apply(FleetEvent event) {
    observations.noteTime(event.receivedAt());
    if (event instanceof FleetEvent.Upserted u) {
      upsert(u);
    } else if (event instanceof FleetEvent.Deleted d) {
      delete(d);
    } else if (event instanceof FleetEvent.Synced s) {
      synced.put(s.kind(), true);
      streamLog.synced(s.kind());
    } else {
      observations.apply(event);
    }
  }

  private void upsert(FleetEvent.Upserted event) {
    FleetEvent.Upserted u = event;
    ObjectView v = u.view();
    ObjectView prev = current(v.kind(), v.ref());
    if (prev != null
        && Objects.equals(prev.uid(), v.uid())
        && Objects.equals(prev.resourceVersion(), v.resourceVersion())
        && v.resourceVersion() != null) {
      duplicatesIgnored++;
      return;
    }
    if (v instanceof TemplateView t) {
      TemplateView before = templates.put(t.ref(), t);
      observations.onTemplate(t, u.receivedAt());
      if (before != null
          && Objects.equals(before.uid(), t.uid())
          && !before.blueprintDigest().equals(t.blueprintDigest())) {
        templateChanges.put(
            t.ref(),
            new TemplateChange(
                u.receivedAt(),
                t.generation(),
                before.images(),
                t.images(),
                before.blueprintDigest()));
        learnedHash.remove(t.ref());
      }
    } else if (v instanceof PoolView p) {
      pools.put(p.ref(), p);
      retryPendingClaims();
    } else if (v instanceof SandboxView view) {
      SandboxView s = canonical.sandbox(view);
      // the stream bookkeeping keeps parts of the view too: give it the shared one
      u = new FleetEvent.Upserted(s, u.serverTime(), u.receivedAt(), u.listed());
      SandboxView before =
          prev instanceof SandboxView ps && Objects.equals(ps.uid(), s.uid()) ? ps : null;
      sandboxes.put(s.ref(), s);
      indexMember(prev instanceof SandboxView ps ? ps : null, s);
      learnHash(s);
      String tpl = templateOfSandbox(s, null);
      observations.onSandbox(
          s, tpl == null ? null : new ObjectRef(s.ref().namespace(), tpl), u.receivedAt());
      onSandbox(before, s, u.receivedAt(), u.listed());
      retryPendingClaims();
    } else if (v instanceof ClaimView c) {
      claims.put(c.ref(), c);
      objectsVersion++;
      onClaim(c);
    }
    feedUnserved(streamLog.upserted(u, prev));
  }

  /**
   * The number of objects of {@code kind} the engine holds now: every one delivered and not deleted
   * since (0 or more).
   */
  public int objectCount(Kind kind) {
    return switch (kind) {
      case SANDBOX -> sandboxes.size();
      case SANDBOX_TEMPLATE -> templates.size();
      case SANDBOX_WARM_POOL -> pools.size();
      case SANDBOX_CLAIM -> claims.size();
    };
  }

  private ObjectView current(Kind kind, ObjectRef ref) {
    return switch (kind) {
      case SANDBOX -> sandboxes.get(ref);
      case SANDBOX_TEMPLATE -> templates.get(ref);
      case SANDBOX_WARM_POOL -> pools.get(ref);
      case SANDBOX_CLAIM -> claims.get(ref);
    };
  }

  private void delete(FleetEvent.Deleted d) {
    ObjectView last = current(d.kind(), d.ref());
    if (last != null && d.uid() != null && !d.uid().equals(last.uid())) {
      last = null; // a delete of an older object under the same name
    }
    feedUnserved(streamLog.deleted(d, last));
    switch (d.kind()) {
      case SANDBOX -> {
        SandboxView s = sandboxes.remove(d.ref());
        indexMember(s, null);
        observations.onSandboxDeleted(s != null ? s.uid() : d.uid(), d.receivedAt());
        if (s != null && s.uid() != null) {
          countedMembers.remove(s.uid());
          resumes.remove(s.uid());
        }
      }
      case SANDBOX_TEMPLATE -> {
        templates.remove(d.ref());
        observations.onTemplateDeleted(d.ref());
      }
      case SANDBOX_WARM_POOL -> pools.remove(d.ref());
      case SANDBOX_CLAIM -> {
        ClaimView c = claims.remove(d.ref());
        objectsVersion++;
        if (c != null && c.uid() != null) {
          countedClaims.remove(c.uid());
          if (!pendingClaims.isEmpty()) {
            pendingClaims.remove(c.uid());
          }
          if (!idleAtArrival.isEmpty()) {
            idleAtArrival.remove(c.uid());
          }
        }
      }
    }
  }

  // ---- sandboxes: refill latency and resumes

  private void onSandbox(SandboxView before, SandboxView s, Instant receivedAt, boolean listed) {
    if (s.owner() != null
        && "SandboxWarmPool".equals(s.owner().kind())
        && s.isReady()
        && s.uid() != null
        && !countedMembers.contains(s.uid())
        && s.createdAt() != null
        && s.ready().lastTransitionTime() != null) {
      countedMembers.add(s.uid());
      ObjectRef poolRef = new ObjectRef(s.ref().namespace(), s.owner().name());
      String template = templateOfSandbox(s, poolRef);
      Instant readyAt = s.ready().lastTransitionTime();
      Duration latency = Duration.between(s.createdAt(), readyAt);
      for (SliSeries series : seriesFor(s.ref().namespace(), template, poolRef.name())) {
        series.recordColdStart(readyAt, latency.isNegative() ? Duration.ZERO : latency);
      }
    }
    if (s.uid() == null) {
      return;
    }
    if (before != null
        && "Suspended".equals(before.operatingMode())
        && "Running".equals(s.operatingMode())) {
      resumes.putIfAbsent(s.uid(), receivedAt);
    }
    Instant started = resumes.get(s.uid());
    if (started == null || !"Running".equals(s.operatingMode())) {
      return;
    }
    ResumeResult result = null;
    if (s.isReady()) {
      result = ResumeResult.SUCCESS;
    } else if (s.ready() != null && "ReconcilerError".equals(s.ready().reason())) {
      result = ResumeResult.ERROR;
    } else if (s.suspended() != null
        && s.suspended().isUnknown()
        && "PodStateUnknown".equals(s.suspended().reason())) {
      result = ResumeResult.ERROR;
    } else if (!receivedAt.isBefore(started.plus(config.resumeTimeout()))) {
      result = ResumeResult.TIMEOUT;
    }
    if (result != null) {
      resumes.remove(s.uid());
      // a resume completed in a re-listed object happened while nothing watched: its latency comes
      // from the object (Suspended → NotSuspended transition to Ready), never from the relist time
      Duration latency =
          !listed
              ? Duration.between(started, receivedAt)
              : s.isReady()
                      && s.suspended() != null
                      && s.suspended().lastTransitionTime() != null
                      && s.ready().lastTransitionTime() != null
                      && !s.ready()
                          .lastTransitionTime()
                          .isBefore(s.suspended().lastTransitionTime())
                  ? Duration.between(
                      s.suspended().lastTransitionTime(), s.ready().lastTransitionTime())
                  : null;
      recordResume(s, started, receivedAt, result, latency);
    }
  }

  private void recordResume(SandboxView s, Instant started, Instant ended, ResumeResult result) {
    recordResume(s, started, ended, result, Duration.between(started, ended));
  }

  private void recordResume(
      SandboxView s, Instant started, Instant ended, ResumeResult result, Duration latency) {
    String template = templateOfSandbox(s, null);
    Instant at = result == ResumeResult.TIMEOUT ? started.plus(config.resumeTimeout()) : ended;
    for (SliSeries series : seriesFor(s.ref().namespace(), template, poolOf(s))) {
      series.recordResume(at, result, latency);
    }
    feedResume(s.ref().namespace(), template, at, result);
    observations.onResume(
        new org.sandboxslo.engine.diagnosis.FleetObservations.Resume(
            s.ref(),
            template,
            poolOf(s),
            result == ResumeResult.SUCCESS,
            result.name(),
            started,
            at));
  }

  private String poolOf(SandboxView s) {
    return s.owner() != null && "SandboxWarmPool".equals(s.owner().kind())
        ? s.owner().name()
        : null;
  }

  private String templateOfSandbox(SandboxView s, ObjectRef poolRef) {
    if (s.templateName() != null) {
      return s.templateName();
    }
    ObjectRef pr = poolRef;
    if (pr == null && poolOf(s) != null) {
      pr = new ObjectRef(s.ref().namespace(), poolOf(s));
    }
    PoolView p = pr == null ? null : pools.get(pr);
    return p == null ? null : p.templateName();
  }

  // ---- claims: warm-hit and claim-to-ready

  private void onClaim(ClaimView c) {
    if (c.uid() != null
        && !countedClaims.contains(c.uid())
        && (c.setsEnv() || c.setsVolumeClaimTemplates())) {
      // idle Ready members when the claim arrived: what a warm launch could have used
      idleAtArrival.putIfAbsent(c.uid(), idleReadyMembers(c.ref().namespace(), c.warmPoolName()));
    }
    if (c.uid() == null || countedClaims.contains(c.uid()) || c.readyAt() == null) {
      return;
    }
    if (!tryCount(c)) {
      pendingClaims.put(c.uid(), c.ref());
    }
  }

  private void retryPendingClaims() {
    if (pendingClaims.isEmpty()) {
      return;
    }
    Iterator<Map.Entry<String, ObjectRef>> it = pendingClaims.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, ObjectRef> e = it.next();
      ClaimView c = claims.get(e.getValue());
      if (c == null
          || !e.getKey().equals(c.uid())
          || countedClaims.contains(c.uid())
          || tryCount(c)) {
        it.remove();
      }
    }
  }

  /** Counts the claim if its template can be resolved; false when it must wait. */
  private boolean tryCount(ClaimView c) {
    String ns = c.ref().namespace();
    SandboxView sb =
        c.sandboxName() == null ? null : sandboxes.get(new ObjectRef(ns, c.sandboxName()));
    String template = sb != null ? sb.templateName() : null;
    if (template == null && c.warmPoolName() != null) {
      PoolView p = pools.get(new ObjectRef(ns, c.warmPoolName()));
      template = p == null ? null : p.templateName();
    }
    if (template == null) {
      return false;
    }
    boolean warm;
    if (sb != null && sb.launchType() != null) {
      warm = Labels.LAUNCH_WARM.equals(sb.launchType());
    } else if (c.setsEnv() || c.setsVolumeClaimTemplates()) {
      warm = false;
    } else {
      warm = c.sandboxName() != null && !c.sandboxName().equals(c.ref().name());
    }
    Instant readyAt = c.readyAt();
    Instant seen = c.firstSeen();
    Duration latency = seen == null ? null : Duration.between(seen, readyAt);
    countedClaims.add(c.uid());
    boolean eligible = !c.setsEnv() && !c.setsVolumeClaimTemplates();
    noteDiagnosisFacts(c, sb, template, warm, readyAt);
    observations.onFirstReady(
        new org.sandboxslo.engine.diagnosis.FleetObservations.FirstReady(
            ns, template, warm, readyAt));
    if (!warm) {
      streamLog.coldLaunch(c, readyAt, eligible);
    }
    for (SliSeries series : seriesFor(ns, template, c.warmPoolName())) {
      series.recordClaim(readyAt, warm, latency, eligible);
    }
    feedClaim(ns, template, readyAt, warm, latency, eligible);
    return true;
  }

  private void noteDiagnosisFacts(
      ClaimView c, SandboxView sb, String template, boolean warm, Instant readyAt) {
    String ns = c.ref().namespace();
    TemplateView t = warm && sb != null ? templates.get(new ObjectRef(ns, template)) : null;
    if (t != null && isStale(sb, t)) {
      TemplateChange ch = templateChanges.get(t.ref());
      Instant seen = c.firstSeen() != null ? c.firstSeen() : readyAt;
      servedStale.add(
          new ServedStale(
              c.ref(),
              sb.ref().name(),
              sb.images(),
              t.images(),
              ch == null ? null : Duration.between(ch.at(), seen),
              readyAt));
      if (servedStale.size() > 1000) {
        servedStale.remove(0);
      }
    }
    Integer atArrival = idleAtArrival.isEmpty() ? null : idleAtArrival.remove(c.uid());
    if (!warm && (c.setsEnv() || c.setsVolumeClaimTemplates())) {
      int idle = atArrival != null ? atArrival : idleReadyMembers(ns, c.warmPoolName());
      forcedCold.put(
          c.uid(),
          new ForcedCold(
              c.ref(),
              c.setsEnv() ? "spec.env" : "spec.volumeClaimTemplates",
              c.createdBy() == null ? "unknown" : c.createdBy(),
              c.warmPoolName(),
              template,
              readyAt,
              idle));
    }
  }

  private int idleReadyMembers(String ns, String pool) {
    int idle = 0;
    PoolMembers pm = pool == null ? null : poolMembers.get(new ObjectRef(ns, pool));
    if (pm != null) {
      for (SandboxView m : pm.members.values()) {
        if (m.isReady() && !m.deleting()) {
          idle++;
        }
      }
    }
    return idle;
  }

  /**
   * Sandboxes owned by a claim, by the pool that claim names (spec.warmPoolRef), rebuilt on first
   * use after any Sandbox or claim changed.
   */
  private Map<ObjectRef, List<SandboxView>> adoptedByPool() {
    if (adoptedByPool == null || adoptedVersion != objectsVersion) {
      Map<ObjectRef, List<SandboxView>> m = new HashMap<>();
      for (SandboxView s : claimOwned.values()) {
        String ns = s.ref().namespace();
        ClaimView c = claims.get(new ObjectRef(ns, s.owner().name()));
        if (c != null && c.warmPoolName() != null) {
          m.computeIfAbsent(new ObjectRef(ns, c.warmPoolName()), x -> new ArrayList<>()).add(s);
        }
      }
      adoptedByPool = m;
      adoptedVersion = objectsVersion;
    }
    return adoptedByPool;
  }

  /** Sandboxes without a controller ownerReference that carry reserved keys, by ref. */
  private final Map<ObjectRef, SandboxView> bareWithReservedKeys = new HashMap<>();

  /** Sandboxes without an owner that carry reserved keys (the spoofing candidates); unordered. */
  java.util.Collection<SandboxView> bareSandboxesWithReservedKeys() {
    return java.util.Collections.unmodifiableCollection(bareWithReservedKeys.values());
  }

  /** Sandboxes whose controller ownerReference is a SandboxClaim, by ref. */
  private final Map<ObjectRef, SandboxView> claimOwned = new HashMap<>();

  /** Changes with every Sandbox or claim applied (for {@link #adoptedByPool}). */
  private long objectsVersion;

  private Map<ObjectRef, List<SandboxView>> adoptedByPool;
  private long adoptedVersion = -1;

  /** The pool a Sandbox is a member of by its controller ownerReference, or null. */
  private static ObjectRef memberOfPool(SandboxView s) {
    return s != null && s.owner() != null && "SandboxWarmPool".equals(s.owner().kind())
        ? new ObjectRef(s.ref().namespace(), s.owner().name())
        : null;
  }

  /** Moves a Sandbox between pool member sets: {@code before} out (if any), {@code after} in. */
  private void indexMember(SandboxView before, SandboxView after) {
    objectsVersion++;
    if (before != null) {
      claimOwned.remove(before.ref());
      bareWithReservedKeys.remove(before.ref());
    }
    if (after != null && after.owner() == null && !after.reservedKeys().isEmpty()) {
      bareWithReservedKeys.put(after.ref(), after);
    }
    if (after != null && after.owner() != null && "SandboxClaim".equals(after.owner().kind())) {
      claimOwned.put(after.ref(), after);
    }
    ObjectRef out = memberOfPool(before);
    ObjectRef in = memberOfPool(after);
    if (out != null) {
      PoolMembers pm = poolMembers.get(out);
      if (pm != null && pm.members.remove(before.ref()) != null) {
        pm.version = objectsVersion;
        if (pm.members.isEmpty() && !out.equals(in)) {
          poolMembers.remove(out);
        }
      }
    }
    if (in != null) {
      PoolMembers pm = poolMembers.computeIfAbsent(in, x -> new PoolMembers());
      pm.members.put(after.ref(), after);
      pm.version = objectsVersion;
    }
  }

  /** The series a sample of (namespace, template, pool) goes to: namespace, template, pool. */
  private record SeriesTarget(String namespace, String template, String pool) {}

  /** Series per target, so a claim costs one lookup instead of three (bounded; see below). */
  private final Map<SeriesTarget, SliSeries[]> seriesByTarget = new HashMap<>();

  private SliSeries[] seriesFor(String namespace, String template, String pool) {
    SeriesTarget t = new SeriesTarget(namespace, template, pool);
    SliSeries[] out = seriesByTarget.get(t);
    if (out == null) {
      List<SliKey> keys = keys(namespace, template, pool);
      out = new SliSeries[keys.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = seriesOf(keys.get(i));
      }
      if (seriesByTarget.size() >= 100_000) {
        seriesByTarget.clear(); // combinations of deleted objects; the series stay in `series`
      }
      seriesByTarget.put(t, out);
    }
    return out;
  }

  private List<SliKey> keys(String namespace, String template, String pool) {
    List<SliKey> out = new ArrayList<>(3);
    out.add(SliKey.namespace(namespace));
    if (template != null) {
      out.add(SliKey.template(namespace, template));
    }
    if (pool != null) {
      out.add(SliKey.pool(namespace, pool));
    }
    return out;
  }

  private SliSeries seriesOf(SliKey key) {
    return series.computeIfAbsent(
        key, k -> new SliSeries(config.bucketWidth(), fineSpan(), coarseWidth(), config.windows()));
  }

  /** The shortest window keeps full resolution; older data is rolled up (see {@link SliSeries}). */
  private Duration fineSpan() {
    return config.windows().stream().min(Duration::compareTo).orElseThrow();
  }

  /** longest window / 60, a multiple of the bucket width (1 m for 5 m / 1 h / 10 s). */
  private Duration coarseWidth() {
    long b = config.bucketWidth().toNanos();
    long c = Math.max(b, config.longestWindow().toNanos() / 60 / b * b);
    return Duration.ofNanos(c);
  }

  // ---- findings

  /**
   * Diagnoses at {@code now}: stale members, silent cold starts, refill stalls, sizing, expired
   * claims, resume failures, unschedulable members, missing templates, unsafe templates and
   * reserved-label spoofing, most severe first. Takes a snapshot (so it advances time like {@link
   * #snapshot(Instant)}).
   */
  public List<org.sandboxslo.engine.finding.Finding> findings(
      Instant now, org.sandboxslo.engine.finding.DiagnosisConfig config) {
    return findings(now, config, org.sandboxslo.engine.diagnosis.DiagnosisSettings.defaults());
  }

  /**
   * Diagnoses at {@code now} with the thresholds of issue 8 part B as well (failed rollouts, the
   * controller's histograms, stale conditions and Sandboxes outside pools, snapshot clones,
   * controller configuration).
   */
  public List<org.sandboxslo.engine.finding.Finding> findings(
      Instant now,
      org.sandboxslo.engine.finding.DiagnosisConfig config,
      org.sandboxslo.engine.diagnosis.DiagnosisSettings settings) {
    return new Diagnoser(this, config, now, snapshot(now), settings).run();
  }

  // ---- issue 8 part B: read accessors for the console and replay

  /**
   * History and evidence beyond the current objects: template generations, pool member history,
   * Pods, Events, probes, scrapes, the controller's Deployment and the CRDs. Read it on the
   * engine's thread only.
   */
  public org.sandboxslo.engine.diagnosis.FleetObservations observations() {
    return observations;
  }

  /**
   * Every blueprint generation of a template the engine saw, oldest first (bounded), each with the
   * time a member built from it was first seen Ready: the source of a rollback.
   */
  public List<org.sandboxslo.engine.diagnosis.FleetObservations.TemplateGeneration>
      templateGenerations(ObjectRef template) {
    return observations.generations(template);
  }

  /**
   * The controller-reported view at {@code now} from the scrapes applied ({@link
   * FleetEvent.Scraped}), its once-per-claim histograms cross-checked against the claims first
   * Ready in the window; null when no scrape was applied.
   */
  public org.sandboxslo.engine.scrape.ControllerReport controllerReport(
      Instant now,
      org.sandboxslo.engine.finding.DiagnosisConfig config,
      org.sandboxslo.engine.diagnosis.DiagnosisSettings settings) {
    return org.sandboxslo.engine.diagnosis.ControllerHistogramDiagnosis.report(
        new Diagnoser(this, config, now, snapshot(now), settings).context());
  }

  /** Sandboxes created directly (no controller ownerReference), sorted by namespace/name. */
  public List<SandboxView> directSandboxes() {
    List<SandboxView> out = new ArrayList<>();
    for (SandboxView s : new TreeMap<>(sandboxes).values()) {
      if (org.sandboxslo.engine.diagnosis.SandboxLifecycle.direct(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Read accessor for remediation planning: the pool's members (controller ownerReference → the
   * pool, not deleting) with Ready and stale flags ({@link #isStale}), plus the Sandboxes adopted
   * from the pool by claims (owner a SandboxClaim whose spec.warmPoolRef is this pool).
   *
   * @return the state, or null when the pool is not known
   */
  public org.sandboxslo.engine.remediation.PoolState poolState(ObjectRef pool) {
    PoolView p = pools.get(pool);
    if (p == null) {
      return null;
    }
    TemplateView t = templates.get(new ObjectRef(pool.namespace(), p.templateName()));
    List<org.sandboxslo.engine.remediation.PoolMember> members = new ArrayList<>();
    PoolMembers own = poolMembers.get(pool);
    if (own != null) {
      for (SandboxView s : own.members.values()) {
        if (!s.deleting()) {
          members.add(
              new org.sandboxslo.engine.remediation.PoolMember(
                  s.ref().name(), s.uid(), s.isReady(), isStale(s, t), null));
        }
      }
    }
    for (SandboxView s : adoptedByPool().getOrDefault(pool, List.of())) {
      if (!s.deleting()) {
        members.add(
            new org.sandboxslo.engine.remediation.PoolMember(
                s.ref().name(), s.uid(), s.isReady(), isStale(s, t), s.owner().name()));
      }
    }
    return new org.sandboxslo.engine.remediation.PoolState(
        pool, p.templateName(), p.replicas(), p.updateStrategy(), members);
  }

  // ---- read accessors for the web console (pool page, claims page)

  private static final Set<String> REJECTED_REASONS =
      Set.of(
          "EnvVarsInjectionRejected",
          "InvalidMetadata",
          "VolumeClaimTemplatesError",
          "TemplateNotFound",
          "WarmPoolNotFound");

  /**
   * The pool page's view of a pool: every member (controller ownerReference → this pool object, not
   * deleting) and every Sandbox adopted from it by a claim, each with one {@link
   * org.sandboxslo.engine.inspect.MemberState}, its age inputs, the template generation it was
   * built from and, for stale members, the blueprint fields that differ ({@link
   * org.sandboxslo.engine.inspect.BlueprintDiff}, at most 20).
   *
   * @return the detail, or null when the pool is not known
   */
  public org.sandboxslo.engine.inspect.PoolDetail poolDetail(ObjectRef pool) {
    PoolView p = pools.get(pool);
    if (p == null) {
      return null;
    }
    TemplateView t = templates.get(new ObjectRef(pool.namespace(), p.templateName()));
    TemplateChange change = t == null ? null : templateChanges.get(t.ref());
    List<org.sandboxslo.engine.inspect.MemberDetail> out = new ArrayList<>();
    for (SandboxView s : new TreeMap<>(sandboxes).values()) {
      if (!s.ref().namespace().equals(pool.namespace()) || s.deleting() || s.owner() == null) {
        continue;
      }
      String claim = null;
      if (s.ownedByPool(pool.name())) {
        if (p.uid() != null && s.owner().uid() != null && !p.uid().equals(s.owner().uid())) {
          continue; // owned by an earlier pool object of the same name
        }
      } else if ("SandboxClaim".equals(s.owner().kind())) {
        ClaimView c = claims.get(new ObjectRef(pool.namespace(), s.owner().name()));
        if (c == null || !pool.name().equals(c.warmPoolName())) {
          continue;
        }
        claim = c.ref().name();
      } else {
        continue;
      }
      out.add(memberDetail(s, t, change, claim));
    }
    return new org.sandboxslo.engine.inspect.PoolDetail(
        pool,
        p.templateName(),
        t != null,
        t == null ? null : t.generation(),
        t == null ? List.of() : t.images(),
        p.replicas(),
        p.updateStrategy(),
        out);
  }

  private org.sandboxslo.engine.inspect.MemberDetail memberDetail(
      SandboxView s, TemplateView t, TemplateChange change, String claim) {
    boolean stale = isStale(s, t);
    boolean unschedulable =
        s.podScheduled() != null
            && s.podScheduled().isFalse()
            && "Unschedulable".equals(s.podScheduled().reason());
    org.sandboxslo.engine.inspect.MemberState state;
    String reason = s.ready() == null ? null : s.ready().reason();
    if (claim != null) {
      state = org.sandboxslo.engine.inspect.MemberState.CLAIMED;
    } else if (unschedulable) {
      state = org.sandboxslo.engine.inspect.MemberState.UNSCHEDULABLE;
      reason = s.podScheduled().reason();
    } else if (stale) {
      state = org.sandboxslo.engine.inspect.MemberState.STALE;
    } else if (s.isReady()) {
      state = org.sandboxslo.engine.inspect.MemberState.READY;
    } else {
      state = org.sandboxslo.engine.inspect.MemberState.PENDING;
    }
    Long generation = t == null || stale ? null : t.generation();
    Long olderThan = null;
    if (stale) {
      olderThan =
          change != null && change.oldDigest().equals(s.blueprintDigest())
              ? change.generation()
              : t.generation();
    }
    return new org.sandboxslo.engine.inspect.MemberDetail(
        s.ref().name(),
        s.uid(),
        state,
        s.isReady(),
        stale,
        claim,
        s.createdAt(),
        s.isReady() ? s.ready().lastTransitionTime() : null,
        reason,
        generation,
        olderThan,
        s.images(),
        stale
            ? org.sandboxslo.engine.inspect.BlueprintDiff.between(s.blueprint(), t.blueprint(), 20)
            : List.of());
  }

  /**
   * The claims page's view of every SandboxClaim the engine holds now (deleted claims are not
   * kept), newest first: launch type as counted for the SLIs (the assigned Sandbox's launch-type
   * label, else upstream's naming rule), claim-to-ready, the cold-start cause and the outcome.
   */
  public List<org.sandboxslo.engine.inspect.ClaimDetail> claimDetails() {
    List<org.sandboxslo.engine.inspect.ClaimDetail> out = new ArrayList<>();
    for (ClaimView c : claims.values()) {
      String ns = c.ref().namespace();
      SandboxView sb =
          c.sandboxName() == null ? null : sandboxes.get(new ObjectRef(ns, c.sandboxName()));
      String template = sb != null ? sb.templateName() : null;
      if (template == null && c.warmPoolName() != null) {
        PoolView p = pools.get(new ObjectRef(ns, c.warmPoolName()));
        template = p == null ? null : p.templateName();
      }
      Instant readyAt = c.readyAt();
      String launch = null;
      org.sandboxslo.engine.inspect.ColdStartCause cause = null;
      if (readyAt != null) {
        boolean warm;
        if (sb != null && sb.launchType() != null) {
          warm = Labels.LAUNCH_WARM.equals(sb.launchType());
        } else if (c.setsEnv() || c.setsVolumeClaimTemplates()) {
          warm = false;
        } else {
          warm = c.sandboxName() != null && !c.sandboxName().equals(c.ref().name());
        }
        launch = warm ? "warm" : "cold";
        if (!warm) {
          cause =
              c.setsEnv()
                  ? org.sandboxslo.engine.inspect.ColdStartCause.SPEC_ENV
                  : c.setsVolumeClaimTemplates()
                      ? org.sandboxslo.engine.inspect.ColdStartCause.SPEC_VOLUME_CLAIM_TEMPLATES
                      : org.sandboxslo.engine.inspect.ColdStartCause.NO_WARM_MEMBER;
        }
      }
      String reason = c.ready() == null ? null : c.ready().reason();
      org.sandboxslo.engine.inspect.ClaimOutcome outcome;
      if (readyAt != null) {
        outcome = org.sandboxslo.engine.inspect.ClaimOutcome.READY;
      } else if (c.ready() != null && c.ready().isFalse() && REJECTED_REASONS.contains(reason)) {
        outcome = org.sandboxslo.engine.inspect.ClaimOutcome.REJECTED;
      } else if ("ClaimExpired".equals(reason) || "SandboxExpired".equals(reason)) {
        outcome = org.sandboxslo.engine.inspect.ClaimOutcome.EXPIRED_UNSERVED;
      } else {
        outcome = org.sandboxslo.engine.inspect.ClaimOutcome.PENDING;
      }
      Instant seen = c.firstSeen();
      Duration latency = seen == null || readyAt == null ? null : Duration.between(seen, readyAt);
      out.add(
          new org.sandboxslo.engine.inspect.ClaimDetail(
              c.ref(),
              c.uid(),
              c.createdAt(),
              seen,
              readyAt,
              c.warmPoolName(),
              template,
              c.createdBy(),
              c.sandboxName(),
              launch,
              latency == null || latency.isNegative()
                  ? latency == null ? null : Duration.ZERO
                  : latency,
              cause,
              outcome,
              reason));
    }
    out.sort(
        java.util.Comparator.comparing(
                (org.sandboxslo.engine.inspect.ClaimDetail d) ->
                    d.firstSeen() == null ? Instant.EPOCH : d.firstSeen())
            .reversed()
            .thenComparing(d -> d.claim().toString()));
    return out;
  }

  /**
   * Claim hygiene per namespace (C09): {@code [retained expired, finished without lifecycle]}.
   * Retained expired = Ready=False/ClaimExpired; finished without lifecycle = Finished=True for at
   * least {@code finishedFor} and no spec.lifecycle.
   */
  public Map<String, long[]> claimHygiene(Instant now, Duration finishedFor) {
    Map<String, long[]> out = new TreeMap<>();
    for (ClaimView c : claims.values()) {
      if (c.ready() != null && c.ready().isFalse() && "ClaimExpired".equals(c.ready().reason())) {
        out.computeIfAbsent(c.ref().namespace(), x -> new long[2])[0]++;
      } else if (c.finished() != null
          && c.finished().isTrue()
          && c.shutdownPolicy() == null
          && c.shutdownTime() == null
          && c.ttlSecondsAfterFinished() == null
          && c.finished().lastTransitionTime() != null
          && !c.finished().lastTransitionTime().plus(finishedFor).isAfter(now)) {
        out.computeIfAbsent(c.ref().namespace(), x -> new long[2])[1]++;
      }
    }
    return out;
  }

  // ---- issue 8 part A: stream health, unserved claims, controller version

  /** The stream bookkeeping the issue-8 diagnoses read (engine thread only). */
  org.sandboxslo.engine.diagnosis.Observations streamLog() {
    return streamLog;
  }

  /**
   * Feeds the agent-sandbox controller version read from {@code
   * agent_sandbox_build_info{git_version}} (e.g. {@code v0.5.3}); null forgets it. Diagnoses prefer
   * it over {@code DiagnosisConfig.controllerVersion}.
   */
  public void controllerVersion(String version) {
    streamLog.controllerVersion(version);
  }

  /**
   * Claims that were never served: rejected (or waiting with TemplateNotFound/WarmPoolNotFound),
   * expired before Ready, or deleted before Ready (final state known); terminal ones kept for the
   * longest window. Oldest first.
   */
  public List<org.sandboxslo.engine.diagnosis.UnservedClaim> unservedClaims() {
    return streamLog.unserved();
  }

  /**
   * Watch lag per kind at {@code now}, from watch deliveries only (never from list ages); kinds
   * without a sample are absent.
   */
  public Map<Kind, org.sandboxslo.engine.diagnosis.KindLag> watchLag(Instant now) {
    return streamLog.streams().lags(now);
  }

  /**
   * The kinds whose data is suspect-stale at {@code now} (the console's {@code /readyz} answers 503
   * while any is), each with why and since when.
   */
  public Map<Kind, org.sandboxslo.engine.diagnosis.InformerHealth.Suspicion> suspectStaleKinds(
      Instant now, org.sandboxslo.engine.finding.DiagnosisConfig config) {
    return org.sandboxslo.engine.diagnosis.InformerHealth.suspects(facts(now, config));
  }

  /** The read-only facts the issue-8 diagnoses evaluate. */
  org.sandboxslo.engine.diagnosis.FleetFacts facts(
      Instant now, org.sandboxslo.engine.finding.DiagnosisConfig config) {
    Map<ObjectRef, List<SandboxView>> byPool = new HashMap<>();
    for (Map.Entry<ObjectRef, PoolMembers> e : poolMembers.entrySet()) {
      List<SandboxView> active = e.getValue().ownedBy(pools.get(e.getKey()));
      if (!active.isEmpty()) {
        byPool.put(e.getKey(), active);
      }
    }
    // what FleetFacts.of groups from every Sandbox, taken from the engine's member index
    return new org.sandboxslo.engine.diagnosis.FleetFacts(
        now,
        templates(),
        pools(),
        sandboxes(),
        claims(),
        java.util.Collections.unmodifiableMap(synced),
        streamLog,
        this::isStale,
        config,
        byPool);
  }

  /**
   * Whether any of {@link #activeMembers} is stale against the template ({@link #isStale}); kept
   * until a member, the template view or the learned hash changes.
   */
  boolean hasStaleMembers(ObjectRef pool, TemplateView t) {
    PoolMembers pm = poolMembers.get(pool);
    if (pm == null) {
      return false;
    }
    String[] learned = t == null ? null : learnedHash.get(t.ref());
    if (pm.anyStale == null
        || pm.staleVersion != pm.version
        || pm.staleTemplate != t
        || pm.staleLearned != learned) {
      boolean any = false;
      for (SandboxView s : pm.sortedActive()) {
        if (isStale(s, t)) {
          any = true;
          break;
        }
      }
      pm.anyStale = any;
      pm.staleVersion = pm.version;
      pm.staleTemplate = t;
      pm.staleLearned = learned;
    }
    return pm.anyStale;
  }

  /**
   * Active (not deleting) members of a pool by controller ownerReference (pool namespace/name, any
   * owner UID), sorted by name; empty when none.
   */
  List<SandboxView> activeMembers(ObjectRef pool) {
    PoolMembers pm = poolMembers.get(pool);
    return pm == null ? List.of() : pm.sortedActive();
  }

  /** An unserved claim that became terminal is a bad event of the claim-to-ready SLOs. */
  private void feedUnserved(org.sandboxslo.engine.diagnosis.UnservedClaim u) {
    if (u == null) {
      return;
    }
    for (SloLedger l : slos.values()) {
      SloDefinition d = l.definition();
      if (d.sli() == SliType.CLAIM_TO_READY_LATENCY
          && d.selects(u.claim().namespace(), u.template())) {
        l.record(u.endedAt(), 0, 1);
      }
    }
  }

  // ---- SLOs

  /**
   * Adds or replaces an SLO. A replaced SLO starts a new ledger (its definition may have changed
   * meaning); callers that need history across restarts persist and re-feed it.
   */
  public void putSlo(SloDefinition definition) {
    slos.put(definition.name(), new SloLedger(definition));
  }

  /**
   * The ledger of an SLO (budget history export/import, see {@link SloLedger#buckets} and {@link
   * SloLedger#restore}); null when unknown. Mutable: use it on the engine's thread only.
   */
  public SloLedger ledger(String name) {
    return slos.get(name);
  }

  /** Removes an SLO; false when unknown. */
  public boolean removeSlo(String name) {
    return slos.remove(name) != null;
  }

  /** Adds a budget exclusion to an SLO; false when the SLO is unknown. */
  public boolean exclude(String sloName, BudgetExclusion exclusion) {
    SloLedger l = slos.get(sloName);
    if (l == null) {
      return false;
    }
    l.exclude(exclusion);
    return true;
  }

  /**
   * Revokes a budget exclusion of an SLO (its events count again); false when the SLO or the
   * exclusion is unknown.
   */
  public boolean revokeExclusion(String sloName, BudgetExclusion exclusion) {
    SloLedger l = slos.get(sloName);
    return l != null && l.revoke(exclusion);
  }

  /** Every SLO evaluated at {@code now}, in insertion order. */
  public List<SloStatus> slos(Instant now) {
    List<SloStatus> out = new ArrayList<>();
    for (SloLedger l : slos.values()) {
      out.add(l.evaluate(now));
    }
    return out;
  }

  private void feedClaim(
      String ns,
      String template,
      Instant readyAt,
      boolean warm,
      Duration latency,
      boolean eligible) {
    for (SloLedger l : slos.values()) {
      SloDefinition d = l.definition();
      if (!d.selects(ns, template)) {
        continue;
      }
      if (d.sli() == SliType.WARM_HIT_RATIO && (eligible || !d.eligibleOnly())) {
        l.record(readyAt, warm ? 1 : 0, 1);
      } else if (d.sli() == SliType.CLAIM_TO_READY_LATENCY && latency != null) {
        l.record(readyAt, latency.compareTo(d.latencyThreshold()) <= 0 ? 1 : 0, 1);
      }
    }
  }

  private void feedResume(String ns, String template, Instant at, ResumeResult result) {
    for (SloLedger l : slos.values()) {
      SloDefinition d = l.definition();
      if (d.sli() == SliType.RESUME_SUCCESS_RATIO && d.selects(ns, template)) {
        l.record(at, result == ResumeResult.SUCCESS ? 1 : 0, 1);
      }
    }
  }

  private void feedPoolSlices(Instant now, Map<ObjectRef, PoolGauge> gauges) {
    for (SloLedger l : slos.values()) {
      SloDefinition d = l.definition();
      if (d.sli() != SliType.POOL_READY_FRACTION) {
        continue;
      }
      for (PoolView p : pools.values()) {
        PoolGauge g = gauges.get(p.ref());
        if (g != null
            && g.readyFractionCurrentTemplate() != null
            && d.selects(p.ref().namespace(), p.templateName())) {
          l.recordSlice(now, g.readyFractionCurrentTemplate() >= d.readyFloor());
        }
      }
    }
  }

  // ---- snapshot

  /**
   * The SLIs at {@code now}. Advances the engine's notion of time: resumes pending longer than the
   * resume timeout are closed as timeouts, and buckets older than the longest window are evicted.
   */
  public FleetSnapshot snapshot(Instant now) {
    Objects.requireNonNull(now, "now");
    closeTimedOutResumes(now);
    Instant oldest = now.minus(config.longestWindow()).minus(config.bucketWidth());
    for (SliSeries s : series.values()) {
      s.maintain(now, oldest);
    }
    forcedCold.values().removeIf(f -> f.readyAt().isBefore(oldest));
    streamLog.evict(oldest);

    Map<ObjectRef, PoolGauge> poolGauges = poolGauges();
    feedPoolSlices(now, poolGauges);
    Map<ObjectRef, TreeSet<String>> poolsByTemplate = new TreeMap<>();
    Set<ObjectRef> templateRefs = new TreeSet<>(templates.keySet());
    for (PoolView p : pools.values()) {
      ObjectRef t = new ObjectRef(p.ref().namespace(), p.templateName());
      templateRefs.add(t);
      poolsByTemplate.computeIfAbsent(t, x -> new TreeSet<>()).add(p.ref().name());
    }
    for (SliKey k : series.keySet()) {
      if (k.scope() == org.sandboxslo.engine.sli.Scope.TEMPLATE) {
        templateRefs.add(new ObjectRef(k.namespace(), k.name()));
      }
    }

    List<SliSnapshot> templateSnaps = new ArrayList<>();
    Map<String, TreeSet<String>> templatesByNs = new TreeMap<>();
    Map<String, List<PoolGauge>> gaugesByNs = new TreeMap<>();
    for (ObjectRef t : templateRefs) {
      TreeSet<String> poolNames = poolsByTemplate.getOrDefault(t, new TreeSet<>());
      List<PoolGauge> gs = new ArrayList<>();
      for (String pn : poolNames) {
        gs.add(poolGauges.get(new ObjectRef(t.namespace(), pn)));
      }
      templateSnaps.add(
          snap(
              SliKey.template(t.namespace(), t.name()),
              templates.containsKey(t),
              List.copyOf(poolNames),
              sum(gs),
              now));
      templatesByNs.computeIfAbsent(t.namespace(), x -> new TreeSet<>()).add(t.name());
      gaugesByNs.computeIfAbsent(t.namespace(), x -> new ArrayList<>()).addAll(gs);
    }

    List<SliSnapshot> poolSnaps = new ArrayList<>();
    for (PoolView p : new TreeMap<>(pools).values()) {
      poolSnaps.add(
          snap(
              SliKey.pool(p.ref().namespace(), p.ref().name()),
              true,
              List.of(p.templateName()),
              poolGauges.get(p.ref()),
              now));
      templatesByNs.computeIfAbsent(p.ref().namespace(), x -> new TreeSet<>());
    }

    List<SliSnapshot> nsSnaps = new ArrayList<>();
    for (Map.Entry<String, TreeSet<String>> e : templatesByNs.entrySet()) {
      nsSnaps.add(
          snap(
              SliKey.namespace(e.getKey()),
              true,
              List.copyOf(e.getValue()),
              sum(gaugesByNs.getOrDefault(e.getKey(), List.of())),
              now));
    }

    Map<Kind, FleetSnapshot.WatchLag> lags = new EnumMap<>(Kind.class);
    streamLog
        .streams()
        .lags(now)
        .forEach((k, l) -> lags.put(k, new FleetSnapshot.WatchLag(l.last(), l.max5m())));
    return new FleetSnapshot(now, templateSnaps, poolSnaps, nsSnaps, synced, lags);
  }

  private SliSnapshot snap(
      SliKey key, boolean exists, List<String> related, PoolGauge gauge, Instant now) {
    SliSeries s = series.get(key);
    List<WindowSlis> windows = new ArrayList<>();
    for (Duration w : config.windows()) {
      windows.add(s == null ? empty(w) : s.window(now, w));
    }
    return new SliSnapshot(
        key, exists, related, gauge, windows, s == null ? Totals.ZERO : s.totals());
  }

  private static WindowSlis empty(Duration w) {
    return new WindowSlis(w, 0, 0, null, null, null, null, null, 0, 0, null, null);
  }

  private void closeTimedOutResumes(Instant now) {
    Iterator<Map.Entry<String, Instant>> it = resumes.entrySet().iterator();
    List<Map.Entry<String, Instant>> timedOut = new ArrayList<>();
    while (it.hasNext()) {
      Map.Entry<String, Instant> e = it.next();
      if (!now.isBefore(e.getValue().plus(config.resumeTimeout()))) {
        timedOut.add(e);
        it.remove();
      }
    }
    for (Map.Entry<String, Instant> e : timedOut) {
      sandboxes.values().stream()
          .filter(s -> e.getKey().equals(s.uid()))
          .findFirst()
          .ifPresent(s -> recordResume(s, e.getValue(), now, ResumeResult.TIMEOUT));
    }
  }

  private Map<ObjectRef, PoolGauge> poolGauges() {
    Map<ObjectRef, PoolGauge> out = new HashMap<>();
    for (PoolView p : pools.values()) {
      TemplateView t = templates.get(new ObjectRef(p.ref().namespace(), p.templateName()));
      String[] learned = t == null ? null : learnedHash.get(t.ref());
      PoolMembers pm = poolMembers.get(p.ref());
      long version = pm == null ? -1 : pm.version;
      CachedGauge c = gaugeCache.get(p.ref());
      if (c != null
          && c.pool() == p
          && c.template() == t
          && c.learned() == learned
          && c.version() == version) {
        out.put(p.ref(), c.gauge());
        continue;
      }
      PoolGauge g = poolGauge(p, t, pm == null ? List.of() : pm.members.values());
      gaugeCache.put(p.ref(), new CachedGauge(p, t, learned, version, g));
      out.put(p.ref(), g);
    }
    gaugeCache.keySet().retainAll(pools.keySet());
    return out;
  }

  /** The gauge of one pool from its members (non-deleting ones owned by this pool object). */
  private PoolGauge poolGauge(
      PoolView p, TemplateView t, java.util.Collection<SandboxView> poolMembers) {
    {
      int total = 0;
      int ready = 0;
      int readyCurrent = 0;
      int stale = 0;
      for (SandboxView s : poolMembers) {
        if (s.deleting()) {
          continue;
        }
        if (p.uid() != null && s.owner().uid() != null && !p.uid().equals(s.owner().uid())) {
          continue; // owned by an earlier pool object of the same name
        }
        total++;
        boolean isStale = isStale(s, t);
        if (isStale) {
          stale++;
        }
        if (s.isReady()) {
          ready++;
          if (!isStale) {
            readyCurrent++;
          }
        }
      }
      int replicas = p.replicas();
      Double upstream =
          replicas == 0 || p.statusReadyReplicas() == null
              ? null
              : (double) p.statusReadyReplicas() / replicas;
      Double current = replicas == 0 ? null : (double) readyCurrent / replicas;
      return new PoolGauge(
          replicas,
          p.statusReplicas(),
          p.statusReadyReplicas(),
          upstream,
          total,
          ready,
          readyCurrent,
          current,
          stale,
          total - ready);
    }
  }

  static PoolGauge sum(List<PoolGauge> gs) {
    int replicas = 0;
    Integer statusReplicas = null;
    Integer statusReady = null;
    int members = 0;
    int ready = 0;
    int readyCurrent = 0;
    int stale = 0;
    int notReady = 0;
    for (PoolGauge g : gs) {
      replicas += g.replicas();
      if (g.statusReplicas() != null) {
        statusReplicas = (statusReplicas == null ? 0 : statusReplicas) + g.statusReplicas();
      }
      if (g.statusReadyReplicas() != null) {
        statusReady = (statusReady == null ? 0 : statusReady) + g.statusReadyReplicas();
      }
      members += g.members();
      ready += g.readyMembers();
      readyCurrent += g.readyCurrentMembers();
      stale += g.staleMembers();
      notReady += g.notReadyMembers();
    }
    Double upstream = replicas == 0 || statusReady == null ? null : (double) statusReady / replicas;
    Double current = replicas == 0 ? null : (double) readyCurrent / replicas;
    return new PoolGauge(
        replicas,
        statusReplicas,
        statusReady,
        upstream,
        members,
        ready,
        readyCurrent,
        current,
        stale,
        notReady);
  }
}
