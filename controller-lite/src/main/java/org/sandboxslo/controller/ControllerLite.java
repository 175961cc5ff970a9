package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.controller.WorkQueue.Key;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.upstream.Labels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small warm-pool controller with agent-sandbox semantics (reference §b, §c, §e, §g) that works
 * purely through the Kubernetes API, so it runs unchanged against the embedded API server (module
 * {@code embedded-apiserver}), k3s or a real cluster (where it must not run next to the upstream
 * controller).
 *
 * <p>Informers on the four kinds (all namespaces) only enqueue keys; a bounded pool of {@code
 * workers} threads reconciles one key at a time each; delayed requeues go through a scheduler. Pool
 * passes are decided by the pure {@link org.sandboxslo.controller.pool.PoolDecision} and applied by
 * a thin executor. A simulated node makes Sandboxes Ready (there is no kubelet).
 *
 * <p>Errors: {@link #start()} throws {@link io.fabric8.kubernetes.client.KubernetesClientException}
 * when the API server is unreachable or the CRDs are missing. A malformed object is skipped with
 * one WARN line; a failed reconcile is logged and retried after 1 s.
 */
public final class ControllerLite implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerLite.class);

  private final KubernetesClient client;
  private final ControllerLiteConfig config;
  private final Fleet fleet;
  private final WorkQueue queue;
  private final PoolReconciler pools;
  private final ClaimReconciler claims;
  private final SandboxNode node;
  private volatile boolean started;
  private final ControllerMetrics metrics;

  /**
   * Creates a stopped controller.
   *
   * @param client client for the target API server; not closed by {@link #close()}
   * @param config policy and simulated-node latencies
   */
  public ControllerLite(KubernetesClient client, ControllerLiteConfig config) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
    Clock clock = Clock.systemUTC();
    this.fleet = new Fleet(client);
    this.pools = new PoolReconciler(fleet, config, clock);
    this.claims = new ClaimReconciler(fleet, config, clock);
    this.node = new SandboxNode(fleet, config, clock);
    this.queue = new WorkQueue(config.workers(), this::reconcile);
    this.metrics = new ControllerMetrics(clock);
    metrics.attach(fleet);
    claims.metrics = metrics;
  }

  /** The upstream-named metrics ({@code /metrics} via {@link ControllerMetrics#serve}). */
  public ControllerMetrics metrics() {
    return metrics;
  }

  /** Starts the informers and returns once all four have synced. Idempotent. */
  public synchronized void start() {
    if (started) {
      return;
    }
    started = true;
    LOG.info("controller-lite starting with {}", config.describe());
    long resync = config.resyncPeriod().toMillis();
    for (Kind k :
        new Kind[] {
          Kind.SANDBOX_TEMPLATE, Kind.SANDBOX_WARM_POOL, Kind.SANDBOX, Kind.SANDBOX_CLAIM
        }) {
      SharedIndexInformer<GenericKubernetesResource> inf =
          Resources.ops(client, k).inAnyNamespace().inform(handler(k), resync);
      fleet.informers.put(k, inf);
    }
    for (SharedIndexInformer<GenericKubernetesResource> inf : fleet.informers.values()) {
      inf.stopped()
          .whenComplete(
              (v, t) -> {
                if (t != null && started) {
                  LOG.warn("informer stopped: {}", t.toString());
                }
              });
    }
    LOG.info("controller-lite started (informers synced)");
  }

  /**
   * Changes the per-pool refill pacing live (upstream {@code --sandbox-warm-pool-max-refill-rate}).
   *
   * @param perSecond sandboxes per second per pool, &gt;= 0; 0 = unpaced
   * @throws IllegalArgumentException for a negative, NaN or infinite rate
   */
  public void setMaxRefillRate(double perSecond) {
    pools.setMaxRefillRate(perSecond);
    SharedIndexInformer<GenericKubernetesResource> inf =
        fleet.informers.get(Kind.SANDBOX_WARM_POOL);
    if (inf != null) {
      inf.getStore().list().forEach(p -> enqueue(Kind.SANDBOX_WARM_POOL, p));
    }
    LOG.info("max refill rate set to {}/s per pool", perSecond);
  }

  private volatile long watchDelayMillis;
  private java.util.concurrent.ScheduledExecutorService lagInjector;

  /**
   * Injects watch lag (demo and tests): every informer event is handled {@code delay} later, as
   * when the API server's watch falls behind. Creates then stay unobserved, so the expectations
   * gate holds refill back (upstream: "Skipping sandbox creation: waiting for in-flight
   * creates/deletes to be observed"). Zero turns it off; events keep their order.
   */
  public synchronized void setWatchDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("watch delay must be >= 0, got " + delay);
    }
    if (lagInjector == null && !delay.isZero()) {
      lagInjector =
          java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "controller-lite-watch-lag");
                t.setDaemon(true);
                return t;
              });
    }
    watchDelayMillis = delay.toMillis();
    LOG.info("watch delay set to {}", delay);
  }

  private void dispatch(Runnable r) {
    long d = watchDelayMillis;
    java.util.concurrent.ScheduledExecutorService lag = lagInjector;
    if (d > 0 && lag != null) {
      lag.schedule(r, d, java.util.concurrent.TimeUnit.MILLISECONDS);
    } else {
      r.run();
    }
  }

  /** The config this controller runs with. */
  public ControllerLiteConfig config() {
    return config;
  }

  @Override
  public synchronized void close() {
    started = false;
    if (lagInjector != null) {
      lagInjector.shutdownNow();
    }
    fleet.informers.values().forEach(SharedIndexInformer::close);
    metrics.close();
    queue.close();
  }

  private ResourceEventHandler<GenericKubernetesResource> handler(Kind kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource obj) {
        dispatch(() -> safely(kind, obj, () -> added(kind, obj)));
      }

      @Override
      public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
        dispatch(() -> safely(kind, newObj, () -> updated(kind, oldObj, newObj)));
      }

      @Override
      public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
        dispatch(() -> safely(kind, obj, () -> deleted(kind, obj)));
      }
    };
  }

  private void safely(Kind kind, GenericKubernetesResource obj, Runnable r) {
    try {
      if (obj == null
          || obj.getMetadata() == null
          || obj.getMetadata().getName() == null
          || obj.getMetadata().getNamespace() == null) {
        return;
      }
      r.run();
    } catch (RuntimeException e) {
      fleet.warnOnce(obj, "skipped: event handling failed: " + e);
    }
  }

  private void added(Kind kind, GenericKubernetesResource obj) {
    enqueue(kind, obj);
    switch (kind) {
      case SANDBOX -> {
        String pool = PoolReconciler.poolOf(obj);
        if (pool != null) {
          pools
              .expectations(new ObjectRef(obj.getMetadata().getNamespace(), pool))
              .creationObserved();
        }
        enqueueOwner(obj);
      }
      case SANDBOX_WARM_POOL, SANDBOX_TEMPLATE ->
          enqueueDependents(obj.getMetadata().getNamespace());
      default -> {}
    }
  }

  private void updated(Kind kind, GenericKubernetesResource oldObj, GenericKubernetesResource obj) {
    enqueue(kind, obj);
    switch (kind) {
      case SANDBOX -> {
        enqueueOwner(obj);
        if (oldObj != null) {
          enqueueOwner(oldObj);
        }
        if (Resources.label(obj, Labels.WARM_POOL_SANDBOX) == null) {
          fleet.reserved.remove(obj.getMetadata().getUid());
        }
      }
      case SANDBOX_TEMPLATE -> enqueueDependents(obj.getMetadata().getNamespace());
      default -> {}
    }
  }

  private void deleted(Kind kind, GenericKubernetesResource obj) {
    enqueue(kind, obj);
    switch (kind) {
      case SANDBOX -> {
        String uid = obj.getMetadata().getUid();
        String pool = PoolReconciler.poolOf(obj);
        if (pool != null) {
          pools
              .expectations(new ObjectRef(obj.getMetadata().getNamespace(), pool))
              .deletionObserved(uid);
        }
        fleet.reserved.remove(uid);
        node.forget(uid);
        enqueueOwner(obj);
      }
      case SANDBOX_CLAIM -> claims.forget(obj.getMetadata().getUid());
      default -> {}
    }
  }

  private void enqueue(Kind kind, GenericKubernetesResource obj) {
    if (kind == Kind.SANDBOX_TEMPLATE) {
      return; // templates are read by pools and claims; nothing reconciles a template itself
    }
    queue.add(new Key(kind, obj.getMetadata().getNamespace(), obj.getMetadata().getName()));
  }

  private void enqueueOwner(GenericKubernetesResource sb) {
    OwnerReference o = Resources.controllerOwner(sb);
    if (o == null || o.getName() == null) {
      return;
    }
    Kind k = Kind.ofKindName(o.getKind());
    if (k == Kind.SANDBOX_WARM_POOL || k == Kind.SANDBOX_CLAIM) {
      queue.add(new Key(k, sb.getMetadata().getNamespace(), o.getName()));
    }
  }

  /** A pool or template changed: pools and unbound claims of the namespace look again. */
  private void enqueueDependents(String ns) {
    for (GenericKubernetesResource p : fleet.list(Kind.SANDBOX_WARM_POOL, ns)) {
      enqueue(Kind.SANDBOX_WARM_POOL, p);
    }
    for (GenericKubernetesResource c : fleet.list(Kind.SANDBOX_CLAIM, ns)) {
      if (Resources.annotation(c, Labels.SANDBOX_NAME) == null) {
        enqueue(Kind.SANDBOX_CLAIM, c);
      }
    }
  }

  private void reconcile(Key key) {
    Duration requeue;
    try {
      requeue =
          switch (key.kind()) {
            case SANDBOX_WARM_POOL -> pools.reconcile(key.namespace(), key.name());
            case SANDBOX_CLAIM -> claims.reconcile(key.namespace(), key.name());
            case SANDBOX -> node.reconcile(key.namespace(), key.name());
            case SANDBOX_TEMPLATE -> null;
          };
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      if (e.getCode() == 409) {
        requeue =
            Duration.ofMillis(50); // optimistic-lock conflict: read the fresh object and retry
      } else {
        String what =
            key.kind() == Kind.SANDBOX_WARM_POOL
                ? "pool"
                : key.kind() == Kind.SANDBOX_CLAIM ? "claim" : "sandbox";
        LOG.warn(
            "{}={}/{}: reconcile failed: {}", what, key.namespace(), key.name(), e.getMessage());
        requeue = Duration.ofSeconds(1);
      }
    }
    if (requeue != null) {
      queue.addAfter(key, requeue);
    }
  }
}
