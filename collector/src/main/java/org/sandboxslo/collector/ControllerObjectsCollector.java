package org.sandboxslo.collector;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.sandboxslo.engine.model.ControllerDeploymentView;
import org.sandboxslo.engine.model.CrdView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, every {@link CollectorConfig#controllerPollInterval()}, the agent-sandbox controller's
 * Deployment ({@link CollectorConfig#controllerDeployment()}: its container's command line, for
 * flags such as {@code --sandbox-warm-pool-max-refill-rate}) and the four agent-sandbox CRDs (their
 * {@code status.storedVersions}, the v1.0 upgrade gate), and hands {@link
 * FleetEvent.ControllerObserved} / {@link FleetEvent.CrdObserved} to a sink whenever an object's
 * resourceVersion changed. Two GETs per object and period on one daemon thread; no informer (they
 * change a few times a year). A missing Deployment or CRD is fine (nothing is sent); a failed read
 * is counted in {@link #ingestErrors()} and WARNed once per distinct cause. Views come from {@link
 * CoreViews}; no fabric8 type leaves this class.
 */
public final class ControllerObjectsCollector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerObjectsCollector.class);

  private final KubernetesClient client;
  private final CollectorConfig config;
  private final Consumer<FleetEvent> sink;
  private final Clock clock;
  private final Map<String, String> delivered = new HashMap<>();
  private final Map<String, String> lastFailure = new HashMap<>();
  private final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
  private ScheduledExecutorService thread;

  /**
   * @param client the Kubernetes client (not closed by this class)
   * @param config the Deployment's namespace/name and the poll interval
   * @param sink receives the events (from this class's thread)
   * @param clock gives {@code receivedAt}
   */
  public ControllerObjectsCollector(
      KubernetesClient client, CollectorConfig config, Consumer<FleetEvent> sink, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Reads at once and then every poll interval; does nothing when the interval is zero.
   *
   * @throws IllegalStateException when already started
   */
  public synchronized void start() {
    if (thread != null) {
      throw new IllegalStateException("already started");
    }
    if (config.controllerPollInterval().isZero()) {
      return;
    }
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "controller-objects");
              t.setDaemon(true);
              return t;
            });
    thread.scheduleWithFixedDelay(
        this::pollOnce, 0, config.controllerPollInterval().toMillis(), TimeUnit.MILLISECONDS);
    LOG.info(
        "controller objects: reading Deployment {} and the agent-sandbox CRDs every {}",
        config.controllerDeployment(),
        config.controllerPollInterval());
  }

  /** One read of the Deployment and the CRDs (the periodic task; tests call it directly). */
  void pollOnce() {
    ObjectRef d = config.controllerDeployment();
    read(
        "Deployment " + d,
        () -> client.apps().deployments().inNamespace(d.namespace()).withName(d.name()).get(),
        tree -> {
          ControllerDeploymentView v = CoreViews.deployment(tree);
          return v == null ? null : new FleetEvent.ControllerObserved(v, clock.instant());
        });
    for (Kind k : Kind.values()) {
      read(
          "CustomResourceDefinition " + k.crdName(),
          () -> client.apiextensions().v1().customResourceDefinitions().withName(k.crdName()).get(),
          tree -> {
            CrdView v = CoreViews.crd(tree);
            return new FleetEvent.CrdObserved(v, clock.instant());
          });
    }
  }

  private interface Get {
    HasMetadata get();
  }

  private interface ToEvent {
    FleetEvent apply(Map<String, Object> tree);
  }

  @SuppressWarnings("unchecked")
  private void read(String what, Get get, ToEvent toEvent) {
    try {
      HasMetadata o = get.get();
      if (o == null) {
        delivered.remove(what);
        return;
      }
      String rv = o.getMetadata() == null ? null : o.getMetadata().getResourceVersion();
      if (rv != null && rv.equals(delivered.get(what))) {
        return;
      }
      Map<String, Object> tree = client.getKubernetesSerialization().convertValue(o, Map.class);
      FleetEvent e = toEvent.apply(tree);
      if (e != null) {
        sink.accept(e);
      }
      delivered.put(what, rv);
      lastFailure.remove(what);
    } catch (MalformedObjectException m) {
      fail(what, m.shortKey(), m.getMessage());
    } catch (RuntimeException ex) {
      fail(what, "read " + ex.getClass().getSimpleName(), ex.toString());
    }
  }

  private void fail(String what, String reason, String detail) {
    errors.computeIfAbsent(reason, k -> new LongAdder()).increment();
    if (!detail.equals(lastFailure.put(what, detail))) {
      LOG.warn("controller objects: cannot read {}: {}", what, detail);
    }
  }

  /** Failed reads by reason, sorted. */
  public Map<String, Long> ingestErrors() {
    Map<String, Long> out = new TreeMap<>();
    errors.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  @Override
  public synchronized void close() {
    if (thread != null) {
      thread.shutdownNow();
    }
  }
}
