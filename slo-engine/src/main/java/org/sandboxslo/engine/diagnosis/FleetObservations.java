package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.sandboxslo.engine.model.ControllerDeploymentView;
import org.sandboxslo.engine.model.CrdView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.IdentityProbe;
import org.sandboxslo.engine.model.KubeEventView;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PodView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.scrape.Scrape;
import org.sandboxslo.engine.upstream.NameHash;

/**
 * What the engine remembers beyond the current objects, for the diagnoses of issue 8 part B: every
 * template generation it saw (bounded), the history of pool members since they were created (Ready
 * ever, deleted), Pods and their failures, Events, identity probes, scrapes of the controller, the
 * controller's command line and the CRDs, claims by first Ready, and resumes. Mutable; owned by the
 * engine's thread. Every collection is bounded by count and, where it has a time, by age.
 */
public final class FleetObservations {
  static final int GENERATIONS_PER_TEMPLATE = 16;
  static final int MEMBERS_PER_POOL = 1024;
  static final int POD_FAILURES = 2048;
  static final int EVENTS = 1024;
  static final int PROBES = 10_000;
  static final int SCRAPES = 2_000;
  static final int FIRST_READY = 100_000;
  static final int RESUMES = 10_000;
  static final Duration HISTORY = Duration.ofHours(2);

  /**
   * One generation of a template's blueprint as observed.
   *
   * @param generation metadata.generation
   * @param digest semantic digest
   * @param blueprint canonical blueprint, may be null
   * @param images container images
   * @param firstSeenAt console time it was first seen
   * @param provenGoodAt first time a pool member built from it was seen Ready, or null
   */
  public record TemplateGeneration(
      long generation,
      String digest,
      Map<String, Object> blueprint,
      List<String> images,
      Instant firstSeenAt,
      Instant provenGoodAt) {
    public TemplateGeneration {
      images = List.copyOf(images);
    }

    TemplateGeneration provenAt(Instant at) {
      return provenGoodAt != null
          ? this
          : new TemplateGeneration(generation, digest, blueprint, images, firstSeenAt, at);
    }
  }

  /**
   * A pool member's history.
   *
   * @param ref namespace/name
   * @param uid metadata.uid
   * @param pool the owning pool
   * @param digest semantic blueprint digest
   * @param blueprint canonical blueprint, may be null
   * @param images images
   * @param createdAt creationTimestamp (server), may be null
   * @param firstSeenAt console time first seen
   * @param readyAt first time seen with Ready=True, or null
   * @param ready Ready=True at the last event
   * @param claimed adopted by a claim (owner changed to a SandboxClaim)
   * @param deletedAt console time the Sandbox was deleted, or null
   */
  public record MemberRecord(
      ObjectRef ref,
      String uid,
      ObjectRef pool,
      String digest,
      Map<String, Object> blueprint,
      List<String> images,
      Instant createdAt,
      Instant firstSeenAt,
      Instant readyAt,
      boolean ready,
      boolean claimed,
      Instant deletedAt) {}

  /**
   * The last failing state seen on a Pod of a Sandbox.
   *
   * @param pod the Pod
   * @param sandbox the Sandbox it backs (namespace/name), may be null
   * @param describe one line per failing container ({@link
   *     org.sandboxslo.engine.model.ContainerStatusView#describe()})
   * @param reasons the waiting reasons
   * @param restarts Σ restarts
   * @param seenAt console time
   */
  public record PodFailure(
      ObjectRef pod,
      ObjectRef sandbox,
      List<String> describe,
      List<String> reasons,
      int restarts,
      Instant seenAt) {
    public PodFailure {
      describe = List.copyOf(describe);
      reasons = List.copyOf(reasons);
    }
  }

  /**
   * A claim counted at its first Ready.
   *
   * @param namespace the claim's namespace
   * @param template the template
   * @param warm launched warm
   * @param readyAt first Ready (server time)
   */
  public record FirstReady(String namespace, String template, boolean warm, Instant readyAt) {}

  /**
   * A finished resume.
   *
   * @param sandbox namespace/name
   * @param template the template, or null (a Sandbox created directly)
   * @param pool the owning pool, or null
   * @param success Ready=True
   * @param outcome {@code SUCCESS}, {@code ERROR} or {@code TIMEOUT}
   * @param startedAt mode flip seen (console time)
   * @param at end (console time)
   */
  public record Resume(
      ObjectRef sandbox,
      String template,
      String pool,
      boolean success,
      String outcome,
      Instant startedAt,
      Instant at) {}

  private final Map<ObjectRef, List<TemplateGeneration>> generations = new HashMap<>();
  private final Map<ObjectRef, LinkedHashMap<String, MemberRecord>> members = new HashMap<>();
  private final Map<String, ObjectRef> memberPool = new HashMap<>();
  private final Map<ObjectRef, PodView> pods = new HashMap<>();

  /** ns/sandbox name → Pod, and ns/name-hash → Pod: the index {@link #podOf} reads. */
  private final Map<ObjectRef, ObjectRef> podBySandbox = new HashMap<>();

  private final Map<ObjectRef, ObjectRef> podByHash = new HashMap<>();
  private final LinkedHashMap<ObjectRef, PodFailure> podFailures = new LinkedHashMap<>();
  private final Deque<KubeEventView> events = new ArrayDeque<>();
  private final Deque<IdentityProbe> probes = new ArrayDeque<>();
  private final Deque<Scrape> scrapes = new ArrayDeque<>();
  private final Deque<FirstReady> firstReady = new ArrayDeque<>();
  private final Deque<Resume> resumes = new ArrayDeque<>();
  private final Map<String, CrdView> crds = new TreeMap<>();
  private ControllerDeploymentView controller;
  private Instant controllerSeenAt;
  private Duration probeRetention = Duration.ofHours(24);
  private Instant observingSince;

  /** Notes the receive time of an event applied to the engine (any kind). */
  public void noteTime(Instant receivedAt) {
    if (receivedAt != null && (observingSince == null || receivedAt.isBefore(observingSince))) {
      observingSince = receivedAt;
    }
  }

  /** The earliest receive time of any event applied, or null before the first. */
  public Instant observingSince() {
    return observingSince;
  }

  /** Identity probes older than this (by observedAt, against the newest probe) are dropped. */
  public void probeRetention(Duration d) {
    this.probeRetention = Objects.requireNonNull(d, "retention");
  }

  // ---- feeding (called by the engine)

  /** Applies the variants of issue 8 part B; false for the others (the engine handles them). */
  public boolean apply(FleetEvent e) {
    if (e instanceof FleetEvent.PodUpserted p) {
      onPod(p.pod(), p.receivedAt());
    } else if (e instanceof FleetEvent.PodDeleted d) {
      PodView gone = pods.remove(d.ref());
      if (gone != null) {
        unindex(gone);
      }
    } else if (e instanceof FleetEvent.KubeEventSeen ev) {
      events.removeIf(x -> x.ref().equals(ev.event().ref()));
      events.addLast(ev.event());
      trim(events, EVENTS);
    } else if (e instanceof FleetEvent.ControllerObserved c) {
      controller = c.deployment();
      controllerSeenAt = c.receivedAt();
    } else if (e instanceof FleetEvent.CrdObserved c) {
      crds.put(c.crd().name(), c.crd());
    } else if (e instanceof FleetEvent.ProbeReported p) {
      probes.addLast(p.probe());
      trim(probes, PROBES);
      Instant oldest = p.probe().observedAt().minus(probeRetention);
      probes.removeIf(x -> x.observedAt().isBefore(oldest));
    } else if (e instanceof FleetEvent.Scraped s) {
      scrapes.addLast(s.scrape());
      trim(scrapes, SCRAPES);
      Instant oldest = s.scrape().at().minus(HISTORY);
      scrapes.removeIf(x -> x.at().isBefore(oldest));
    } else {
      return false;
    }
    return true;
  }

  private void onPod(PodView p, Instant at) {
    PodView before = pods.get(p.ref());
    if (before != null
        && Objects.equals(before.uid(), p.uid())
        && p.resourceVersion() != null
        && p.resourceVersion().equals(before.resourceVersion())) {
      return;
    }
    if (before != null) {
      unindex(before);
    }
    pods.put(p.ref(), p);
    if (p.sandboxName() != null) {
      podBySandbox.put(new ObjectRef(p.ref().namespace(), p.sandboxName()), p.ref());
    }
    if (p.sandboxNameHash() != null) {
      podByHash.put(new ObjectRef(p.ref().namespace(), p.sandboxNameHash()), p.ref());
    }
    var failing = p.failingContainers();
    if (!failing.isEmpty()) {
      List<String> d = new ArrayList<>();
      List<String> reasons = new ArrayList<>();
      failing.forEach(
          c -> {
            d.add(c.describe());
            reasons.add(c.waitingReason());
          });
      ObjectRef sb =
          p.sandboxName() == null ? null : new ObjectRef(p.ref().namespace(), p.sandboxName());
      podFailures.remove(p.ref());
      podFailures.put(p.ref(), new PodFailure(p.ref(), sb, d, reasons, p.restarts(), at));
      trimMap(podFailures, POD_FAILURES);
    }
  }

  /** A template view was applied (every one, also the first). */
  public void onTemplate(TemplateView t, Instant at) {
    List<TemplateGeneration> gs = generations.computeIfAbsent(t.ref(), x -> new ArrayList<>());
    if (!gs.isEmpty() && gs.get(gs.size() - 1).digest().equals(t.blueprintDigest())) {
      return;
    }
    gs.removeIf(g -> g.digest().equals(t.blueprintDigest()));
    gs.add(
        new TemplateGeneration(
            t.generation(), t.blueprintDigest(), t.blueprint(), t.images(), at, null));
    while (gs.size() > GENERATIONS_PER_TEMPLATE) {
      gs.remove(0);
    }
  }

  /** A template was deleted: its history goes with it. */
  public void onTemplateDeleted(ObjectRef ref) {
    generations.remove(ref);
  }

  /**
   * A Sandbox view was applied.
   *
   * @param template the template the Sandbox was built from (annotation or pool), or null
   */
  public void onSandbox(SandboxView s, ObjectRef template, Instant at) {
    if (s.uid() == null) {
      return;
    }
    boolean poolOwned = s.owner() != null && "SandboxWarmPool".equals(s.owner().kind());
    ObjectRef pool =
        poolOwned ? new ObjectRef(s.ref().namespace(), s.owner().name()) : memberPool.get(s.uid());
    if (pool == null) {
      return;
    }
    LinkedHashMap<String, MemberRecord> m =
        members.computeIfAbsent(pool, x -> new LinkedHashMap<>());
    MemberRecord r = m.get(s.uid());
    boolean ready = s.isReady();
    if (r == null) {
      if (!poolOwned) {
        return;
      }
      r =
          new MemberRecord(
              s.ref(),
              s.uid(),
              pool,
              s.blueprintDigest(),
              s.blueprint(),
              s.images(),
              s.createdAt(),
              at,
              ready ? at : null,
              ready,
              false,
              null);
      memberPool.put(s.uid(), pool);
    } else {
      r =
          new MemberRecord(
              r.ref(),
              r.uid(),
              pool,
              r.digest(),
              r.blueprint(),
              r.images(),
              r.createdAt(),
              r.firstSeenAt(),
              r.readyAt() != null ? r.readyAt() : ready ? at : null,
              ready,
              r.claimed() || !poolOwned,
              s.deleting() && r.deletedAt() == null ? at : r.deletedAt());
    }
    m.put(s.uid(), r);
    while (m.size() > MEMBERS_PER_POOL) {
      String oldest = m.keySet().iterator().next();
      m.remove(oldest);
      memberPool.remove(oldest);
    }
    if (ready && poolOwned && template != null) {
      List<TemplateGeneration> gs = generations.get(template);
      if (gs != null) {
        for (int i = gs.size() - 1; i >= 0; i--) {
          TemplateGeneration g = gs.get(i);
          if (builtFrom(s.blueprintDigest(), s.blueprint(), g.digest(), g.blueprint())) {
            gs.set(i, g.provenAt(at));
            break;
          }
        }
      }
    }
  }

  /** A Sandbox was deleted. */
  public void onSandboxDeleted(String uid, Instant at) {
    if (uid == null) {
      return;
    }
    ObjectRef pool = memberPool.get(uid);
    if (pool == null) {
      return;
    }
    LinkedHashMap<String, MemberRecord> m = members.get(pool);
    MemberRecord r = m == null ? null : m.get(uid);
    if (r != null && r.deletedAt() == null) {
      m.put(
          uid,
          new MemberRecord(
              r.ref(),
              r.uid(),
              r.pool(),
              r.digest(),
              r.blueprint(),
              r.images(),
              r.createdAt(),
              r.firstSeenAt(),
              r.readyAt(),
              false,
              r.claimed(),
              at));
    }
  }

  /** A claim was counted at its first Ready. */
  public void onFirstReady(FirstReady f) {
    firstReady.addLast(f);
    trim(firstReady, FIRST_READY);
    Instant oldest = f.readyAt().minus(HISTORY);
    while (!firstReady.isEmpty() && firstReady.peekFirst().readyAt().isBefore(oldest)) {
      firstReady.removeFirst();
    }
  }

  /** A resume ended. */
  public void onResume(Resume r) {
    resumes.addLast(r);
    trim(resumes, RESUMES);
    Instant oldest = r.at().minus(HISTORY);
    while (!resumes.isEmpty() && resumes.peekFirst().at().isBefore(oldest)) {
      resumes.removeFirst();
    }
  }

  // ---- reading (diagnoses, console)

  /**
   * Every generation of the template seen, oldest first (at most {@value
   * #GENERATIONS_PER_TEMPLATE}); empty when unknown.
   */
  public List<TemplateGeneration> generations(ObjectRef template) {
    return List.copyOf(generations.getOrDefault(template, List.of()));
  }

  /** The history of the pool's members, oldest first. */
  public List<MemberRecord> members(ObjectRef pool) {
    LinkedHashMap<String, MemberRecord> m = members.get(pool);
    return m == null ? List.of() : List.copyOf(m.values());
  }

  private void unindex(PodView p) {
    if (p.sandboxName() != null) {
      podBySandbox.remove(new ObjectRef(p.ref().namespace(), p.sandboxName()), p.ref());
    }
    if (p.sandboxNameHash() != null) {
      podByHash.remove(new ObjectRef(p.ref().namespace(), p.sandboxNameHash()), p.ref());
    }
  }

  /**
   * The Pod backing a Sandbox: by its controller ownerReference, else by the label {@code
   * agents.x-k8s.io/sandbox-name-hash} = NameHash(name), else the Pod named like the Sandbox; null
   * when none is known.
   */
  public PodView podOf(ObjectRef sandbox) {
    ObjectRef r = podBySandbox.get(sandbox);
    if (r == null) {
      r = podByHash.get(new ObjectRef(sandbox.namespace(), NameHash.of(sandbox.name())));
    }
    PodView p = r == null ? null : pods.get(r);
    return p != null ? p : pods.get(sandbox);
  }

  /** All Pods, unmodifiable. */
  public Map<ObjectRef, PodView> pods() {
    return Collections.unmodifiableMap(pods);
  }

  /** The last failing state of the Pods of a Sandbox, newest first. */
  public List<PodFailure> failuresOf(ObjectRef sandbox) {
    List<PodFailure> out = new ArrayList<>();
    for (PodFailure f : podFailures.values()) {
      if (sandbox.equals(f.sandbox()) || (f.sandbox() == null && f.pod().equals(sandbox))) {
        out.add(0, f);
      }
    }
    return out;
  }

  /** Events about an object of the kind and name (newest last). */
  public List<KubeEventView> eventsAbout(String namespace, String kind, String name) {
    List<KubeEventView> out = new ArrayList<>();
    for (KubeEventView e : events) {
      if (e.ref().namespace().equals(namespace)
          && e.involvedKind().equals(kind)
          && e.involvedName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  public List<IdentityProbe> probes() {
    return List.copyOf(probes);
  }

  public List<Scrape> scrapes() {
    return List.copyOf(scrapes);
  }

  public List<FirstReady> firstReady() {
    return List.copyOf(firstReady);
  }

  public List<Resume> resumes() {
    return List.copyOf(resumes);
  }

  /** The controller's Deployment as last read, or null. */
  public ControllerDeploymentView controller() {
    return controller;
  }

  /** When the controller's Deployment was last read, or null. */
  public Instant controllerSeenAt() {
    return controllerSeenAt;
  }

  public Map<String, CrdView> crds() {
    return Collections.unmodifiableMap(crds);
  }

  /**
   * Whether a member with this blueprint was built from the generation: equal digests, or (both
   * blueprints known) the member contradicts nothing in it ({@link
   * org.sandboxslo.engine.upstream.Blueprints#contradicts}), the rule staleness uses.
   */
  public static boolean builtFrom(
      String memberDigest,
      Map<String, Object> memberBlueprint,
      String genDigest,
      Map<String, Object> genBlueprint) {
    if (memberDigest != null && memberDigest.equals(genDigest)) {
      return true;
    }
    return memberBlueprint != null
        && genBlueprint != null
        && !org.sandboxslo.engine.upstream.Blueprints.contradicts(memberBlueprint, genBlueprint);
  }

  private static <T> void trim(Deque<T> d, int max) {
    while (d.size() > max) {
      d.removeFirst();
    }
  }

  private static <K, V> void trimMap(LinkedHashMap<K, V> m, int max) {
    Iterator<K> it = m.keySet().iterator();
    while (m.size() > max && it.hasNext()) {
      it.next();
      it.remove();
    }
  }
}
