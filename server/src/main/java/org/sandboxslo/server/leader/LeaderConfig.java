package org.sandboxslo.server.leader;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.engine.time.Durations;

/**
 * Leader election among the replicas of one cluster, from the {@code sloconsole.leader.*} keys:
 *
 * <ul>
 *   <li>{@code enabled} = {@code false}: elect a leader over a coordination.k8s.io Lease (the
 *       deploy/ manifests set it); off, the single process always leads
 *   <li>{@code lease-name} = {@code sandbox-slo-console}; {@code lease-namespace} = the client's
 *       namespace (in a pod: its own)
 *   <li>{@code identity} = {@code $HOSTNAME} (the pod name), else {@code <host>-<pid>}
 *   <li>{@code lease-duration} = {@code 15s}, {@code renew-deadline} = {@code 10s}, {@code
 *       retry-period} = {@code 2s}: a stopped leader releases the Lease at once; a crashed one is
 *       replaced within the lease duration
 * </ul>
 *
 * @param enabled whether an election runs
 * @param leaseName Lease name, non-empty
 * @param leaseNamespace Lease namespace, or null for the client's
 * @param identity this process's holder identity, non-empty
 * @param leaseDuration &gt; renewDeadline
 * @param renewDeadline &gt; retryPeriod
 * @param retryPeriod &gt; 0
 */
public record LeaderConfig(
    boolean enabled,
    String leaseName,
    String leaseNamespace,
    String identity,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod) {
  public static final String PREFIX = "sloconsole.leader.";
  static final Set<String> KEYS =
      Set.of(
          "sloconsole.leader.enabled",
          "sloconsole.leader.lease-name",
          "sloconsole.leader.lease-namespace",
          "sloconsole.leader.identity",
          "sloconsole.leader.lease-duration",
          "sloconsole.leader.renew-deadline",
          "sloconsole.leader.retry-period");

  public LeaderConfig {
    Objects.requireNonNull(leaseName, "leaseName");
    Objects.requireNonNull(identity, "identity");
    if (leaseName.isBlank()) {
      throw new IllegalArgumentException("sloconsole.leader.lease-name: must be non-empty");
    }
    if (identity.isBlank()) {
      throw new IllegalArgumentException("sloconsole.leader.identity: must be non-empty");
    }
    if (retryPeriod.isZero() || retryPeriod.isNegative()) {
      throw new IllegalArgumentException("sloconsole.leader.retry-period: must be > 0");
    }
    if (renewDeadline.compareTo(retryPeriod) <= 0 || leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException(
          "sloconsole.leader: expected lease-duration > renew-deadline > retry-period, got "
              + Durations.format(leaseDuration)
              + ", "
              + Durations.format(renewDeadline)
              + ", "
              + Durations.format(retryPeriod));
    }
  }

  /**
   * @param env the process environment (for {@code HOSTNAME})
   * @throws IllegalArgumentException naming the key, for an unknown key or a bad value
   */
  public static LeaderConfig fromMap(Map<String, String> map, Map<String, String> env) {
    for (String k : map.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    String enabled = map.getOrDefault(PREFIX + "enabled", "false").trim();
    if (!enabled.equals("true") && !enabled.equals("false")) {
      throw new IllegalArgumentException(
          "sloconsole.leader.enabled: expected true or false, got '" + enabled + "'");
    }
    String ns = map.getOrDefault(PREFIX + "lease-namespace", "").trim();
    String identity = map.getOrDefault(PREFIX + "identity", "").trim();
    return new LeaderConfig(
        Boolean.parseBoolean(enabled),
        map.getOrDefault(PREFIX + "lease-name", "sandbox-slo-console").trim(),
        ns.isEmpty() ? null : ns,
        identity.isEmpty() ? defaultIdentity(env) : identity,
        Durations.parse(
            PREFIX + "lease-duration", map.getOrDefault(PREFIX + "lease-duration", "15s")),
        Durations.parse(
            PREFIX + "renew-deadline", map.getOrDefault(PREFIX + "renew-deadline", "10s")),
        Durations.parse(PREFIX + "retry-period", map.getOrDefault(PREFIX + "retry-period", "2s")));
  }

  /** {@code $HOSTNAME} (a pod's name), else the host name and the process id. */
  static String defaultIdentity(Map<String, String> env) {
    String host = env.get("HOSTNAME");
    if (host != null && !host.isBlank()) {
      return host.trim();
    }
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    return host + "-" + ProcessHandle.current().pid();
  }
}
