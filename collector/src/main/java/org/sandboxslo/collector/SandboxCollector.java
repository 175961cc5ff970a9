package org.sandboxslo.collector;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Watches the four agent-sandbox kinds (v1beta1) with fabric8 shared informers and hands compact
 * {@link FleetEvent}s to a sink. No fabric8 type leaves this class.
 *
 * <p><b>Events.</b> Every add/modify becomes {@link FleetEvent.Upserted} with the view ({@link
 * ObjectViews#toView}), the newest server timestamp on the object ({@link ObjectViews#serverTime})
 * and {@code clock.instant()} at arrival; watch lag = receivedAt − serverTime. Objects delivered
 * before the informer has synced (its initial list, or a re-list) are flagged {@code listed}: their
 * age is not lag. Deletes become {@link FleetEvent.Deleted}, preceded by the object's final state
 * as an upsert; tombstones ("deleted final state unknown") and objects found gone after a re-list
 * are flagged {@code finalStateUnknown}.
 *
 * <p><b>410 Gone.</b> fabric8 re-lists by itself when a watch expires; when list or watch keep
 * failing with 410 Gone ({@link CollectorConfig#goneRecreateAfter()} times in a row without a
 * successful list), the informer is closed and created again. When every informer of a kind has
 * listed and its listed objects have been delivered, {@link FleetEvent.Synced} is emitted for that
 * kind (again after each {@link #relist()}).
 *
 * <p><b>Sink contract.</b> Sink calls are serialized (never concurrent) but come from informer and
 * collector threads, so the sink should be fast (enqueue). It must not call {@link #relist()} or
 * {@link #close()}. A sink exception is caught, counted as {@code reason=sink} and logged at WARN.
 *
 * <p><b>Dedupe contract.</b> The same object (same UID and resourceVersion) can be delivered more
 * than once: after {@link #relist()}, after the periodic re-list, and after any informer re-list
 * (reconnect, 410 Gone). Consumers must treat {@code Upserted} as idempotent by UID +
 * resourceVersion, as the engine does.
 *
 * <p><b>Malformed objects</b> ({@link MalformedObjectException}) are counted in {@link
 * #ingestErrors()} under {@code <field> <code>}, logged at WARN once per UID + resourceVersion, and
 * skipped; handlers never throw and the informers keep running.
 *
 * <p><b>Memory.</b> Informer stores keep only namespace, name, UID and resourceVersion per object
 * (fabric8 {@link ReducedStateItemStore}); views are built from the watch event itself.
 *
 * <p><b>Fail-safe re-list.</b> Every {@link CollectorConfig#resyncPeriod()} (default 5m) all
 * informers are closed and re-created, i.e. fully re-listed from the API server. A cache resync
 * would be pointless with trimmed stores. Objects that vanished while no informer was watching are
 * reported as {@code Deleted} once the new informer has synced.
 */
public final class SandboxCollector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SandboxCollector.class);
  private static final long SYNC_POLL_MILLIS = 50;
  private static final int WARNED_MAX = 10_000;
  private static final long STOP_WAIT_SECONDS = 5;

  private final KubernetesClient client;
  private final CollectorConfig config;
  private final Consumer<FleetEvent> sink;
  private final Clock clock;
  private final Object sinkLock = new Object();
  private final List<Watch> watches = new ArrayList<>();
  private final Map<Kind, AtomicBoolean> syncedEmitted = new EnumMap<>(Kind.class);
  private final Map<Kind, LongAdder> received = new EnumMap<>(Kind.class);
  private final ConcurrentHashMap<IngestError, LongAdder> errors = new ConcurrentHashMap<>();
  private final Set<String> warned =
      Collections.newSetFromMap(
          Collections.synchronizedMap(
              new LinkedHashMap<>() {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> e) {
                  return size() > WARNED_MAX;
                }
              }));
  private ScheduledExecutorService scheduler;
  private boolean started;
  private boolean closed;

  /**
   * @param client the Kubernetes client (not closed by this class)
   * @param config namespaces and re-list period
   * @param sink receives the events; see the class comment for its contract
   * @param clock gives {@code receivedAt}
   */
  public SandboxCollector(
      KubernetesClient client, CollectorConfig config, Consumer<FleetEvent> sink, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
    for (Kind k : Kind.values()) {
      syncedEmitted.put(k, new AtomicBoolean());
      received.put(k, new LongAdder());
      if (config.allNamespaces()) {
        watches.add(new Watch(k, null));
      } else {
        for (String ns : config.namespaces()) {
          watches.add(new Watch(k, ns));
        }
      }
    }
  }

  /** The fabric8 resource context of a kind (v1beta1, namespaced). */
  public static ResourceDefinitionContext context(Kind kind) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(kind.group())
        .withVersion(Kind.VERSION)
        .withKind(kind.kindName())
        .withPlural(kind.plural())
        .withNamespaced(true)
        .build();
  }

  /**
   * Starts the informers and returns at once (does not wait for the initial lists).
   *
   * @throws IllegalStateException when already started or closed
   */
  public synchronized void start() {
    if (started || closed) {
      throw new IllegalStateException(closed ? "collector is closed" : "collector already started");
    }
    started = true;
    LOG.info(
        "collector: watching {} in {}, full re-list every {}",
        List.of(Kind.values()),
        config.allNamespaces() ? "all namespaces" : "namespaces " + config.namespaces(),
        config.resyncPeriod().isZero() ? "never" : config.resyncPeriod());
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sandbox-collector");
              t.setDaemon(true);
              return t;
            });
    for (Watch w : watches) {
      w.startInformer();
    }
    scheduler.scheduleWithFixedDelay(
        this::checkSyncSafely, SYNC_POLL_MILLIS, SYNC_POLL_MILLIS, TimeUnit.MILLISECONDS);
    Duration p = config.resyncPeriod();
    if (!p.isZero()) {
      scheduler.scheduleAtFixedRate(
          this::periodicRelist, p.toMillis(), p.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** True when every kind has emitted {@link FleetEvent.Synced} since the last (re-)list. */
  public boolean hasSynced() {
    return syncedEmitted.values().stream().allMatch(AtomicBoolean::get);
  }

  /** Per kind, whether its {@link FleetEvent.Synced} has been emitted since the last (re-)list. */
  public Map<Kind, Boolean> syncState() {
    Map<Kind, Boolean> out = new EnumMap<>(Kind.class);
    syncedEmitted.forEach((k, v) -> out.put(k, v.get()));
    return Collections.unmodifiableMap(out);
  }

  /**
   * Closes every informer and creates it again, so every object is listed and delivered again (same
   * UID and resourceVersion; consumers dedupe). Objects deleted meanwhile are reported as {@code
   * Deleted} once the new informer has synced. {@link #hasSynced()} is false until then.
   *
   * @throws IllegalStateException when not started or closed
   */
  public synchronized void relist() {
    suspendWatches();
    resumeWatches();
  }

  /**
   * First half of {@link #relist()}: closes every informer, remembering what it delivered. Tests
   * use it to change the cluster while nothing watches (the mock server cannot lose events).
   */
  synchronized void suspendWatches() {
    if (!started || closed) {
      throw new IllegalStateException(closed ? "collector is closed" : "collector not started");
    }
    for (AtomicBoolean b : syncedEmitted.values()) {
      b.set(false);
    }
    for (Watch w : watches) {
      w.stopInformer(true);
    }
  }

  /** Second half of {@link #relist()}: creates and starts every informer again. */
  synchronized void resumeWatches() {
    if (!started || closed) {
      throw new IllegalStateException(closed ? "collector is closed" : "collector not started");
    }
    for (Watch w : watches) {
      w.startInformer();
    }
  }

  /** Ingest failures counted since start, per kind and reason (a snapshot). */
  public Map<IngestError, Long> ingestErrors() {
    Map<IngestError, Long> out = new HashMap<>();
    errors.forEach((k, v) -> out.put(k, v.sum()));
    return Collections.unmodifiableMap(out);
  }

  /** Informer notifications (add, update, delete) received since start, per kind (a snapshot). */
  public Map<Kind, Long> eventsReceived() {
    Map<Kind, Long> out = new EnumMap<>(Kind.class);
    received.forEach((k, v) -> out.put(k, v.sum()));
    return Collections.unmodifiableMap(out);
  }

  /** Stops the informers and the collector thread; idempotent. The client stays open. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    for (Watch w : watches) {
      w.stopInformer(false);
    }
  }

  /** The trimmed objects held by the informer stores of a kind (tests check the trimming). */
  List<GenericKubernetesResource> storedItems(Kind kind) {
    List<GenericKubernetesResource> out = new ArrayList<>();
    synchronized (this) {
      for (Watch w : watches) {
        if (w.kind == kind && w.informer != null) {
          out.addAll(w.informer.getStore().list());
        }
      }
    }
    return out;
  }

  /**
   * Store writes that carried a resourceVersion the store already held (watch replays: the fabric8
   * mock re-sends every current object as ADDED when a watch starts), summed over the current
   * informers of a kind. Tests use it to know when the mock has finished sending.
   */
  long sameVersionWrites(Kind kind) {
    long n = 0;
    synchronized (this) {
      for (Watch w : watches) {
        if (w.kind == kind) {
          n += w.sameVersionWrites.sum();
        }
      }
    }
    return n;
  }

  private void periodicRelist() {
    try {
      LOG.debug("collector: periodic full re-list");
      relist();
    } catch (RuntimeException e) {
      LOG.warn("collector: periodic re-list failed: {}", e.toString());
    }
  }

  private void checkSyncSafely() {
    try {
      checkSync();
    } catch (RuntimeException e) {
      LOG.warn("collector: sync check failed: {}", e.toString());
    }
  }

  private synchronized void checkSync() {
    if (closed) {
      return;
    }
    for (Watch w : watches) {
      w.checkSynced();
    }
    for (Kind k : Kind.values()) {
      boolean all = watches.stream().filter(w -> w.kind == k).allMatch(w -> w.synced);
      if (all && syncedEmitted.get(k).compareAndSet(false, true)) {
        synchronized (sinkLock) {
          FleetEvent.Synced synced = new FleetEvent.Synced(k, clock.instant());
          tee("SYNCED", k, null, synced.receivedAt());
          deliver(k, synced, "sync");
        }
      }
    }
  }

  /**
   * Receives every raw watch event as it is ingested (for {@code --record}): {@code type} is ADDED,
   * MODIFIED, DELETED or SYNCED; {@code object} the object's JSON tree (null for SYNCED, where
   * {@code kind} is set instead). Called in delivery order under the sink lock; must not block
   * long.
   */
  public interface Recorder {
    void event(String type, Kind kind, Map<String, Object> object, java.time.Instant receivedAt);
  }

  private volatile Recorder recorder;

  /** Tees raw events to {@code r} (null to stop). */
  public void record(Recorder r) {
    this.recorder = r;
  }

  private void tee(String type, Kind kind, Map<String, Object> object, java.time.Instant at) {
    Recorder r = recorder;
    if (r != null) {
      try {
        r.event(type, kind, object, at);
      } catch (RuntimeException ex) {
        count(kind, "recorder");
      }
    }
  }

  private void count(Kind kind, String reason) {
    errors.computeIfAbsent(new IngestError(kind, reason), r -> new LongAdder()).increment();
  }

  /** WARN once per key (bounded memory), with the object in MDC ({@code object=Kind ns/name}). */
  private void warnOnce(String key, String object, String message) {
    if (warned.add(key)) {
      try (MDC.MDCCloseable c = MDC.putCloseable("object", object)) {
        LOG.warn(message);
      }
    }
  }

  /** Calls the sink; must hold sinkLock. Returns false when the sink threw (counted). */
  private boolean deliver(Kind kind, FleetEvent e, String identity) {
    try {
      sink.accept(e);
      return true;
    } catch (RuntimeException ex) {
      count(kind, "sink");
      warnOnce(
          "sink:" + identity,
          kind.kindName() + " " + identity,
          "collector: sink failed on " + kind.kindName() + " " + identity + ": " + ex);
      return false;
    }
  }

  /** One informer scope: a kind in one namespace (or all). */
  private final class Watch {
    final Kind kind;
    final String namespace;
    SharedIndexInformer<GenericKubernetesResource> informer;
    Handler handler;

    /** 410 Gone failures in a row since the last successful list (or delivery). */
    final GoneCounter gone = new GoneCounter(config.goneRecreateAfter());

    /** Store writes of an unchanged resourceVersion by the current informer (watch replays). */
    LongAdder sameVersionWrites = new LongAdder();

    /**
     * key → uid of objects delivered by earlier informer instances and not yet seen again by the
     * current one; what is left when it has synced has vanished meanwhile.
     */
    final Map<String, String> previous = new ConcurrentHashMap<>();

    boolean synced;

    Watch(Kind kind, String namespace) {
      this.kind = kind;
      this.namespace = namespace;
    }

    void startInformer() {
      synced = false;
      handler = new Handler(kind, previous, this);
      var op = client.genericKubernetesResources(context(kind));
      Informable<GenericKubernetesResource> scope =
          namespace == null ? op.inAnyNamespace() : op.inNamespace(namespace);
      SharedIndexInformer<GenericKubernetesResource> inf = scope.runnableInformer(0);
      LongAdder sameVersion = new LongAdder();
      sameVersionWrites = sameVersion;
      inf.itemStore(
          new ReducedStateItemStore<>(
              ReducedStateItemStore.NAME_KEY_STATE,
              GenericKubernetesResource.class,
              client.getKubernetesSerialization(),
              "metadata.uid") {
            @Override
            public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
              GenericKubernetesResource old = super.put(key, obj);
              if (old != null
                  && Objects.equals(
                      old.getMetadata().getResourceVersion(),
                      obj.getMetadata().getResourceVersion())) {
                sameVersion.increment(); // a replay of an object the store already holds
              }
              return old;
            }
          });
      inf.addEventHandler(handler);
      inf.exceptionHandler(
          (isStarted, t) -> {
            count(kind, "watch");
            if (GoneCounter.isGone(t) && gone.failed()) {
              count(kind, "gone-recreate");
              LOG.warn(
                  "collector: {} {} failed with 410 Gone {} times without a successful list;"
                      + " re-creating the informer",
                  kind.kindName(),
                  isStarted ? "watch" : "list",
                  gone.limit());
              recreateLater(this);
              return false;
            }
            LOG.warn(
                "collector: {} {} failed, retrying: {}",
                kind.kindName(),
                isStarted ? "watch" : "list",
                firstLine(t));
            return true;
          });
      informer = inf;
      Handler mine = handler;
      inf.start()
          .whenComplete(
              (v, t) -> {
                if (t != null && mine.active) { // not when we stopped it ourselves (re-list, close)
                  LOG.warn(
                      "collector: {} informer did not start: {}", kind.kindName(), firstLine(t));
                }
              });
    }

    void stopInformer(boolean keepDelivered) {
      synced = false;
      if (handler != null) {
        synchronized (sinkLock) {
          handler.active = false;
          if (keepDelivered) {
            previous.putAll(handler.delivered);
          }
        }
      }
      if (informer != null) {
        informer.close();
        try {
          // let the watch actually end before a new one starts (and before callers go on)
          informer.stopped().toCompletableFuture().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
          LOG.debug("collector: {} informer stop: {}", kind.kindName(), e.toString());
        }
      }
    }

    /** Marks the watch synced once the informer listed and every listed key was delivered. */
    void checkSynced() {
      if (synced || informer == null || !handler.active || !informer.hasSynced()) {
        return;
      }
      List<String> keys = informer.getStore().listKeys();
      if (!handler.delivered.keySet().containsAll(keys)) {
        return;
      }
      synchronized (sinkLock) {
        for (Map.Entry<String, String> e : previous.entrySet()) {
          if (!e.getValue().isEmpty() && !handler.delivered.containsKey(e.getKey())) {
            deliver(
                kind,
                new FleetEvent.Deleted(
                    kind, refOf(e.getKey()), e.getValue(), clock.instant(), true),
                e.getKey());
          }
        }
        previous.clear();
      }
      gone.succeeded();
      synced = true;
    }
  }

  /** Converts informer notifications at once; never throws. */
  private final class Handler implements ResourceEventHandler<GenericKubernetesResource> {
    final Kind kind;

    /** key (ns/name) → uid ("" when unknown) of every object this informer instance delivered. */
    final ConcurrentHashMap<String, String> delivered = new ConcurrentHashMap<>();

    /** The watch's {@code previous} map (objects delivered before the last re-list). */
    final Map<String, String> previous;

    /** The watch: objects delivered before it has synced are list deliveries. */
    final Watch watch;

    volatile boolean active = true;

    Handler(Kind kind, Map<String, String> previous, Watch watch) {
      this.kind = kind;
      this.previous = previous;
      this.watch = watch;
    }

    @Override
    public void onAdd(GenericKubernetesResource obj) {
      received.get(kind).increment();
      upsert(obj, "ADDED");
    }

    @Override
    public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
      received.get(kind).increment();
      if (oldObj == newObj) {
        return; // a cache resync replays the trimmed stored object: nothing new to report
      }
      upsert(newObj, "MODIFIED");
    }

    @Override
    public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
      received.get(kind).increment();
      try {
        ObjectMeta md = obj == null ? null : obj.getMetadata();
        String ns = md == null ? null : md.getNamespace();
        String name = md == null ? null : md.getName();
        if (ns == null || ns.isEmpty() || name == null || name.isEmpty()) {
          count(kind, "deleted object without namespace/name");
          return;
        }
        String key = ns + "/" + name;
        FleetEvent e =
            new FleetEvent.Deleted(
                kind,
                new ObjectRef(ns, name),
                md.getUid(),
                clock.instant(),
                deletedFinalStateUnknown);
        FleetEvent last = null;
        if (!deletedFinalStateUnknown) {
          try { // the final state first (deduped by the engine when it is not new)
            Map<String, Object> tree = ObjectViews.asMap(obj);
            last =
                new FleetEvent.Upserted(
                    ObjectViews.toView(tree), ObjectViews.serverTime(tree), e.receivedAt());
          } catch (RuntimeException m) { // MalformedObjectException included
            last = null; // the delete still counts; the final state is not needed for it
          }
        }
        synchronized (sinkLock) {
          if (!active) {
            return;
          }
          if (recorder != null) {
            tee("DELETED", kind, ObjectViews.asMap(obj), e.receivedAt());
          }
          if (last != null) {
            deliver(kind, last, key);
          }
          deliver(kind, e, key);
          delivered.remove(key);
          previous.remove(key);
        }
      } catch (RuntimeException ex) {
        count(kind, "unexpected " + ex.getClass().getSimpleName());
        LOG.warn("collector: {} delete not processed: {}", kind.kindName(), ex.toString());
      }
    }

    private void upsert(GenericKubernetesResource obj, String type) {
      String key = "?";
      String uid = "";
      String rv = "";
      try {
        ObjectMeta md = obj.getMetadata();
        if (md != null) {
          key = md.getNamespace() + "/" + md.getName();
          uid = md.getUid() == null ? "" : md.getUid();
          rv = md.getResourceVersion() == null ? "" : md.getResourceVersion();
        }
        FleetEvent e;
        Map<String, Object> tree = null;
        try {
          tree = ObjectViews.asMap(obj);
          ObjectView view = ObjectViews.toView(tree);
          e =
              new FleetEvent.Upserted(
                  view, ObjectViews.serverTime(tree), clock.instant(), !watch.synced);
        } catch (MalformedObjectException m) {
          count(kind, m.shortKey());
          warnOnce(
              uid + "@" + rv,
              kind.kindName() + " " + key,
              "collector: skipping malformed object: " + m.getMessage());
          e = null;
        }
        synchronized (sinkLock) {
          if (!active) {
            return;
          }
          String before = previous.remove(key);
          if (before != null && !before.isEmpty() && !before.equals(uid)) {
            // deleted and re-created under the same name while no informer watched: the engine
            // keys by namespace/name, so the old object's Deleted must come first
            deliver(
                kind, new FleetEvent.Deleted(kind, refOf(key), before, clock.instant(), true), key);
          }
          if (watch.synced) {
            watch.gone.succeeded(); // the watch delivers: the informer works
          }
          if (tree != null) {
            tee(type, kind, tree, e != null ? e.receivedAt() : clock.instant());
          }
          if (e != null) {
            deliver(kind, e, key);
          }
          delivered.put(key, uid);
        }
      } catch (RuntimeException ex) {
        count(kind, "unexpected " + ex.getClass().getSimpleName());
        warnOnce(
            uid + "@" + rv,
            kind.kindName() + " " + key,
            "collector: " + kind.kindName() + " " + key + " not processed: " + ex);
        delivered.put(key, uid);
      }
    }
  }

  /** Re-creates one informer on the collector thread (never from an informer callback). */
  private void recreateLater(Watch w) {
    ScheduledExecutorService s = scheduler;
    if (s == null) {
      return;
    }
    s.execute(
        () -> {
          synchronized (SandboxCollector.this) {
            if (closed) {
              return;
            }
            syncedEmitted.get(w.kind).set(false);
            w.stopInformer(true);
            w.gone.succeeded();
            w.startInformer();
          }
        });
  }

  /** Informers re-created after repeated 410 Gone, per kind (tests and metrics). */
  public Map<Kind, Long> goneRecreations() {
    Map<Kind, Long> out = new EnumMap<>(Kind.class);
    errors.forEach(
        (k, v) -> {
          if (k.reason().equals("gone-recreate")) {
            out.merge(k.kind(), v.sum(), Long::sum);
          }
        });
    return Collections.unmodifiableMap(out);
  }

  private static ObjectRef refOf(String key) {
    int slash = key.indexOf('/');
    return new ObjectRef(key.substring(0, slash), key.substring(slash + 1));
  }

  private static String firstLine(Throwable t) {
    String m = String.valueOf(t.getMessage());
    int nl = m.indexOf('\n');
    return t.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
  }
}
