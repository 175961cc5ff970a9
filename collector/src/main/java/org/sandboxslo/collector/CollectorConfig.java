package org.sandboxslo.collector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.time.Durations;

/**
 * Collector policy, immutable. Built from a {@code Map<String,String>} with keys under {@code
 * sloconsole.collector.} (env in production, a literal map in tests); unknown keys under that
 * prefix are rejected, other prefixes are ignored.
 *
 * <ul>
 *   <li>{@code sloconsole.collector.namespaces}: comma-separated namespace names to watch; empty or
 *       absent = all namespaces (one cluster-wide informer per kind). Default: all.
 *   <li>{@code sloconsole.collector.resync-period}: how often every informer is closed and
 *       re-listed from the API server as a fail-safe against lost watch events ({@code 30s}, {@code
 *       5m}, ...; {@code 0s} disables). Default {@code 5m}. Use {@code 0s} when the API server is
 *       the fabric8 mock (embedded mode): closing a watch there can stall the mock for 30 s (see
 *       {@code collector/DESIGN.md}).
 *   <li>{@code sloconsole.collector.gone-recreate-after}: consecutive 410 Gone failures of an
 *       informer's list/watch without a successful list after which the informer is closed and
 *       created again (a fresh list from resourceVersion 0); ≥ 1. Default {@code 3}.
 *   <li>{@code sloconsole.collector.controller-deployment}: {@code namespace/name} of the
 *       agent-sandbox controller's Deployment, whose container arguments are read ({@link
 *       ControllerObjectsCollector}). Default {@code
 *       agent-sandbox-system/agent-sandbox-controller}; a missing Deployment is fine.
 *   <li>{@code sloconsole.collector.controller-poll-interval}: how often that Deployment and the
 *       four agent-sandbox CRDs ({@code status.storedVersions}) are read; {@code 0s} disables.
 *       Default {@code 1m}.
 * </ul>
 *
 * @param namespaces namespaces to watch, sorted and distinct, each a DNS-1123 label; empty = all
 * @param resyncPeriod full re-list period, ≥ 0; zero disables the periodic re-list
 * @param goneRecreateAfter consecutive 410 Gone without a successful list before the informer is
 *     re-created, ≥ 1
 * @param controllerDeployment the controller's Deployment
 * @param controllerPollInterval how often the Deployment and the CRDs are read, ≥ 0; zero disables
 */
public record CollectorConfig(
    List<String> namespaces,
    Duration resyncPeriod,
    int goneRecreateAfter,
    ObjectRef controllerDeployment,
    Duration controllerPollInterval) {
  /** With the default of 3 consecutive 410 Gone before an informer is re-created. */
  public CollectorConfig(List<String> namespaces, Duration resyncPeriod) {
    this(namespaces, resyncPeriod, DEFAULT_GONE_RECREATE_AFTER);
  }

  /** With the default controller Deployment and poll interval. */
  public CollectorConfig(List<String> namespaces, Duration resyncPeriod, int goneRecreateAfter) {
    this(
        namespaces,
        resyncPeriod,
        goneRecreateAfter,
        DEFAULT_CONTROLLER_DEPLOYMENT,
        DEFAULT_CONTROLLER_POLL_INTERVAL);
  }

  public static final ObjectRef DEFAULT_CONTROLLER_DEPLOYMENT =
      new ObjectRef("agent-sandbox-system", "agent-sandbox-controller");
  public static final Duration DEFAULT_CONTROLLER_POLL_INTERVAL = Duration.ofMinutes(1);

  public static final int DEFAULT_GONE_RECREATE_AFTER = 3;
  public static final String PREFIX = "sloconsole.collector.";
  public static final String NAMESPACES = PREFIX + "namespaces";
  public static final String RESYNC_PERIOD = PREFIX + "resync-period";
  public static final String GONE_RECREATE_AFTER = PREFIX + "gone-recreate-after";
  public static final String CONTROLLER_DEPLOYMENT = PREFIX + "controller-deployment";
  public static final String CONTROLLER_POLL_INTERVAL = PREFIX + "controller-poll-interval";
  private static final Set<String> KEYS =
      Set.of(
          NAMESPACES,
          RESYNC_PERIOD,
          GONE_RECREATE_AFTER,
          CONTROLLER_DEPLOYMENT,
          CONTROLLER_POLL_INTERVAL);
  private static final Pattern DNS1123_LABEL =
      Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  public CollectorConfig {
    Objects.requireNonNull(namespaces, "namespaces");
    Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    for (String ns : namespaces) {
      if (ns == null || !DNS1123_LABEL.matcher(ns).matches()) {
        throw new IllegalArgumentException(
            NAMESPACES + ": '" + ns + "' is not a valid namespace name (DNS-1123 label)");
      }
    }
    namespaces = List.copyOf(new TreeSet<>(namespaces));
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException(RESYNC_PERIOD + " must be >= 0, got " + resyncPeriod);
    }
    if (goneRecreateAfter < 1) {
      throw new IllegalArgumentException(
          GONE_RECREATE_AFTER + " must be >= 1, got " + goneRecreateAfter);
    }
    Objects.requireNonNull(controllerDeployment, "controllerDeployment");
    Objects.requireNonNull(controllerPollInterval, "controllerPollInterval");
    if (controllerPollInterval.isNegative()) {
      throw new IllegalArgumentException(
          CONTROLLER_POLL_INTERVAL + " must be >= 0, got " + controllerPollInterval);
    }
  }

  /** All namespaces, re-list every 5 minutes. */
  public static CollectorConfig defaults() {
    return new CollectorConfig(List.of(), Duration.ofMinutes(5));
  }

  /** True when every namespace is watched. */
  public boolean allNamespaces() {
    return namespaces.isEmpty();
  }

  /**
   * Builds the config from {@code sloconsole.collector.*} keys.
   *
   * @throws IllegalArgumentException naming the key, for an unknown key under the prefix or a value
   *     that does not parse
   */
  public static CollectorConfig fromMap(Map<String, String> map) {
    for (String k : map.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    CollectorConfig d = defaults();
    List<String> namespaces = new ArrayList<>();
    String nsValue = map.get(NAMESPACES);
    if (nsValue != null) {
      for (String part : nsValue.split(",")) {
        if (!part.isBlank()) {
          namespaces.add(part.trim());
        }
      }
    }
    Duration resync =
        map.containsKey(RESYNC_PERIOD)
            ? Durations.parse(RESYNC_PERIOD, map.get(RESYNC_PERIOD))
            : d.resyncPeriod();
    int gone = DEFAULT_GONE_RECREATE_AFTER;
    String goneValue = map.get(GONE_RECREATE_AFTER);
    if (goneValue != null) {
      try {
        gone = Integer.parseInt(goneValue.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            GONE_RECREATE_AFTER + ": expected an integer >= 1, got '" + goneValue + "'");
      }
    }
    ObjectRef deployment = DEFAULT_CONTROLLER_DEPLOYMENT;
    String dep = map.get(CONTROLLER_DEPLOYMENT);
    if (dep != null) {
      try {
        deployment = ObjectRef.parse(dep.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            CONTROLLER_DEPLOYMENT + ": expected namespace/name, got '" + dep + "'");
      }
      if (!DNS1123_LABEL.matcher(deployment.namespace()).matches()) {
        throw new IllegalArgumentException(
            CONTROLLER_DEPLOYMENT
                + ": '"
                + deployment.namespace()
                + "' is not a valid namespace name (DNS-1123 label)");
      }
    }
    Duration poll =
        map.containsKey(CONTROLLER_POLL_INTERVAL)
            ? Durations.parse(CONTROLLER_POLL_INTERVAL, map.get(CONTROLLER_POLL_INTERVAL))
            : DEFAULT_CONTROLLER_POLL_INTERVAL;
    return new CollectorConfig(namespaces, resync, gone, deployment, poll);
  }
}
