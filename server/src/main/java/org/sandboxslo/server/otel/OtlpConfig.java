package org.sandboxslo.server.otel;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.engine.time.Durations;

/**
 * OpenTelemetry export, from the {@code sloconsole.otlp.*} keys:
 *
 * <ul>
 *   <li>{@code endpoint} = empty (off): the OTLP/HTTP base URL of a collector, e.g. {@code
 *       http://otel-collector:4318}; traces go to {@code <endpoint>/v1/traces}, metrics to {@code
 *       <endpoint>/v1/metrics} (protobuf)
 *   <li>{@code metrics-interval} = {@code 30s}: how often the Prometheus registry is exported
 *   <li>{@code service-name} = {@code sandbox-slo-console}: the {@code service.name} resource
 *       attribute
 * </ul>
 *
 * @param endpoint the collector's base URL (http or https, no trailing slash), or null when export
 *     is off
 * @param metricsInterval &gt; 0
 * @param serviceName non-empty
 */
public record OtlpConfig(URI endpoint, Duration metricsInterval, String serviceName) {
  public static final String PREFIX = "sloconsole.otlp.";
  public static final String ENDPOINT = PREFIX + "endpoint";
  public static final String METRICS_INTERVAL = PREFIX + "metrics-interval";
  public static final String SERVICE_NAME = PREFIX + "service-name";
  static final Set<String> KEYS = Set.of(ENDPOINT, METRICS_INTERVAL, SERVICE_NAME);

  public OtlpConfig {
    Objects.requireNonNull(metricsInterval, "metricsInterval");
    Objects.requireNonNull(serviceName, "serviceName");
    if (metricsInterval.isZero() || metricsInterval.isNegative()) {
      throw new IllegalArgumentException(METRICS_INTERVAL + ": must be > 0");
    }
    if (serviceName.isBlank()) {
      throw new IllegalArgumentException(SERVICE_NAME + ": must be non-empty");
    }
  }

  /** True when an endpoint is set. */
  public boolean enabled() {
    return endpoint != null;
  }

  /**
   * @throws IllegalArgumentException naming the key, for an unknown key or a bad value
   */
  public static OtlpConfig fromMap(Map<String, String> map) {
    for (String k : map.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    String e = map.getOrDefault(ENDPOINT, "").trim();
    URI endpoint = null;
    if (!e.isEmpty()) {
      try {
        endpoint = URI.create(e.endsWith("/") ? e.substring(0, e.length() - 1) : e);
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(ENDPOINT + ": not a URL: '" + e + "'");
      }
      if (!"http".equals(endpoint.getScheme()) && !"https".equals(endpoint.getScheme())
          || endpoint.getHost() == null) {
        throw new IllegalArgumentException(
            ENDPOINT + ": expected http(s)://host:port, got '" + e + "'");
      }
    }
    return new OtlpConfig(
        endpoint,
        Durations.parse(METRICS_INTERVAL, map.getOrDefault(METRICS_INTERVAL, "30s")),
        map.getOrDefault(SERVICE_NAME, "sandbox-slo-console").trim());
  }
}
