package org.sandboxslo.server.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.sandboxslo.console.leader.Leadership;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Leadership} from fabric8's {@link LeaderElector} on a coordination.k8s.io/v1 Lease. The
 * metric {@code sandbox_slo_leader} (gauge, 1 while this process leads, else 0; label {@code
 * identity}) is registered on the given registry. {@link #close()} stops the election and releases
 * the Lease, so another replica takes over after its next retry period rather than after the lease
 * duration.
 */
public final class LeaderElection implements Leadership, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final LeaderConfig config;
  private final String namespace;
  private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
  private final ExecutorService executor;
  private final GaugeWithCallback gauge;
  private final PrometheusRegistry registry;
  private volatile boolean leader;
  private volatile String holder;
  private CompletableFuture<?> running;

  private LeaderElection(
      LeaderConfig config, String namespace, PrometheusRegistry registry, String name) {
    this.config = config;
    this.namespace = namespace;
    this.registry = registry;
    this.executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "leader-election-" + name);
              t.setDaemon(true);
              return t;
            });
    this.gauge =
        GaugeWithCallback.builder()
            .name("sandbox_slo_leader")
            .help(
                "1 while this console replica holds the leader Lease (executes remediations,"
                    + " writes history), else 0")
            .labelNames("identity")
            .callback(cb -> cb.call(leader ? 1 : 0, config.identity()))
            .register(registry);
  }

  /**
   * Starts campaigning.
   *
   * @param client the cluster's client (Lease get/create/update)
   * @param registry where {@code sandbox_slo_leader} is registered
   * @throws IllegalArgumentException when the gauge is already registered on {@code registry}
   */
  public static LeaderElection start(
      KubernetesClient client, LeaderConfig config, PrometheusRegistry registry) {
    String ns =
        config.leaseNamespace() != null
            ? config.leaseNamespace()
            : client.getNamespace() != null ? client.getNamespace() : "default";
    LeaderElection e = new LeaderElection(config, ns, registry, config.identity());
    LeaderElector elector =
        new LeaderElector(
            client,
            new LeaderElectionConfigBuilder()
                .withName(config.leaseName())
                .withLeaseDuration(config.leaseDuration())
                .withRenewDeadline(config.renewDeadline())
                .withRetryPeriod(config.retryPeriod())
                .withReleaseOnCancel(true)
                .withLock(new LeaseLock(ns, config.leaseName(), config.identity()))
                .withLeaderCallbacks(
                    new LeaderCallbacks(() -> e.set(true), () -> e.set(false), e::observed))
                .build(),
            e.executor);
    e.running = elector.start();
    LOG.info(
        "leader election on Lease {}/{} as {} (lease {}, renew {}, retry {})",
        ns,
        config.leaseName(),
        config.identity(),
        config.leaseDuration(),
        config.renewDeadline(),
        config.retryPeriod());
    return e;
  }

  private void set(boolean now) {
    if (leader == now) {
      return;
    }
    leader = now;
    if (now) {
      holder = config.identity();
    }
    LOG.info(
        now ? "{} now leads (Lease {}/{})" : "{} no longer leads (Lease {}/{})",
        config.identity(),
        namespace,
        config.leaseName());
    for (Consumer<Boolean> l : listeners) {
      try {
        l.accept(now);
      } catch (RuntimeException ex) {
        LOG.warn("leadership listener failed: {}", ex.toString());
      }
    }
  }

  private void observed(String identity) {
    holder = identity;
  }

  @Override
  public boolean isLeader() {
    return leader;
  }

  @Override
  public void onChange(Consumer<Boolean> listener) {
    listeners.add(listener);
  }

  @Override
  public boolean elected() {
    return true;
  }

  @Override
  public String identity() {
    return config.identity();
  }

  @Override
  public String leader() {
    return leader ? config.identity() : holder;
  }

  /** The Lease's namespace. */
  public String namespace() {
    return namespace;
  }

  /** Stops campaigning, releases the Lease if held, and unregisters the gauge. */
  @Override
  public void close() {
    if (running != null) {
      running.cancel(true);
    }
    set(false);
    executor.shutdown();
    registry.unregister(gauge);
  }
}
