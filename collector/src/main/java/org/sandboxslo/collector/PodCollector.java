package org.sandboxslo.collector;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.upstream.Labels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the Pods that back Sandboxes — selected by the label {@code
 * agents.x-k8s.io/sandbox-name-hash} that the controller sets on every one (reference §c) — and
 * hands {@link FleetEvent.PodUpserted} / {@link FleetEvent.PodDeleted} with trimmed {@link
 * org.sandboxslo.engine.model.PodView}s ({@link CoreViews#pod}) to a sink. Evidence only: failed
 * rollouts read the container waiting reasons and restarts, snapshot clones the pin annotation.
 *
 * <p>Same contracts as {@link SandboxCollector}: sink calls are serialized and must be fast; the
 * informer store keeps only namespace, name, UID and resourceVersion per Pod; a malformed Pod is
 * counted in {@link #ingestErrors()} and skipped; no fabric8 type leaves this class. The engine
 * dedupes by UID + resourceVersion.
 */
public final class PodCollector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PodCollector.class);

  private final KubernetesClient client;
  private final CollectorConfig config;
  private final Consumer<FleetEvent> sink;
  private final Clock clock;
  private final Object sinkLock = new Object();
  private final List<SharedIndexInformer<Pod>> informers = new ArrayList<>();
  private final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
  private boolean started;
  private volatile boolean closed;

  /**
   * @param client the Kubernetes client (not closed by this class)
   * @param config namespaces to watch (empty = all)
   * @param sink receives the events
   * @param clock gives {@code receivedAt}
   */
  public PodCollector(
      KubernetesClient client, CollectorConfig config, Consumer<FleetEvent> sink, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Starts one informer per namespace (or one cluster-wide) and returns at once.
   *
   * @throws IllegalStateException when already started or closed
   */
  public synchronized void start() {
    if (started || closed) {
      throw new IllegalStateException(closed ? "pod collector is closed" : "already started");
    }
    started = true;
    List<String> scopes =
        config.allNamespaces() ? java.util.Collections.singletonList(null) : config.namespaces();
    for (String ns : scopes) {
      var op =
          ns == null
              ? client.pods().inAnyNamespace().withLabel(Labels.SANDBOX_NAME_HASH)
              : client.pods().inNamespace(ns).withLabel(Labels.SANDBOX_NAME_HASH);
      SharedIndexInformer<Pod> inf = op.runnableInformer(0);
      inf.itemStore(
          new ReducedStateItemStore<>(
              ReducedStateItemStore.NAME_KEY_STATE,
              Pod.class,
              client.getKubernetesSerialization(),
              "metadata.uid"));
      inf.addEventHandler(new Handler());
      inf.exceptionHandler(
          (isStarted, t) -> {
            count("watch");
            LOG.warn(
                "pod collector: {} failed, retrying: {}",
                isStarted ? "watch" : "list",
                t.toString());
            return true;
          });
      informers.add(inf);
      inf.start();
    }
    LOG.info(
        "pod collector: watching Pods with label {} in {}",
        Labels.SANDBOX_NAME_HASH,
        config.allNamespaces() ? "all namespaces" : "namespaces " + config.namespaces());
  }

  /** True once every informer has listed. */
  public boolean hasSynced() {
    return started && informers.stream().allMatch(SharedIndexInformer::hasSynced);
  }

  /** Skipped Pods and watch failures by reason ({@code field code}), sorted. */
  public Map<String, Long> ingestErrors() {
    Map<String, Long> out = new TreeMap<>();
    errors.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  @Override
  public synchronized void close() {
    closed = true;
    for (SharedIndexInformer<Pod> inf : informers) {
      inf.close();
    }
    informers.clear();
  }

  private void count(String reason) {
    errors.computeIfAbsent(reason, k -> new LongAdder()).increment();
  }

  private void deliver(FleetEvent e) {
    synchronized (sinkLock) {
      if (closed) {
        return;
      }
      try {
        sink.accept(e);
      } catch (RuntimeException ex) {
        count("sink");
        LOG.warn("pod collector: sink failed: {}", ex.toString());
      }
    }
  }

  private final class Handler implements ResourceEventHandler<Pod> {
    @Override
    public void onAdd(Pod obj) {
      upsert(obj);
    }

    @Override
    public void onUpdate(Pod oldObj, Pod newObj) {
      if (oldObj != newObj) {
        upsert(newObj);
      }
    }

    @Override
    public void onDelete(Pod obj, boolean deletedFinalStateUnknown) {
      ObjectMeta md = obj == null ? null : obj.getMetadata();
      if (md == null
          || md.getNamespace() == null
          || md.getNamespace().isEmpty()
          || md.getName() == null
          || md.getName().isEmpty()) {
        count("deleted pod without namespace/name");
        return;
      }
      deliver(
          new FleetEvent.PodDeleted(
              new ObjectRef(md.getNamespace(), md.getName()), md.getUid(), clock.instant()));
    }

    @SuppressWarnings("unchecked")
    private void upsert(Pod obj) {
      try {
        Map<String, Object> tree = client.getKubernetesSerialization().convertValue(obj, Map.class);
        deliver(new FleetEvent.PodUpserted(CoreViews.pod(tree), clock.instant()));
      } catch (MalformedObjectException m) {
        count(m.shortKey());
        LOG.warn("pod collector: skipping malformed Pod: {}", m.getMessage());
      } catch (RuntimeException ex) {
        count("unexpected " + ex.getClass().getSimpleName());
        LOG.warn("pod collector: Pod not processed: {}", ex.toString());
      }
    }
  }
}
