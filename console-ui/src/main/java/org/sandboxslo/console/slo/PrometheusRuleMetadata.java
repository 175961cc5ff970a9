package org.sandboxslo.console.slo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * {@code metadata} of the {@code monitoring.coreos.com/v1} {@code PrometheusRule} that {@code
 * generate-rules --format prometheusrule} writes.
 *
 * @param name object name, a DNS-1123 subdomain (at most 253 characters)
 * @param namespace object namespace (DNS-1123 label), or null to leave it to {@code kubectl -n} /
 *     kustomize
 * @param labels object labels (Kubernetes key and value syntax), in order; what the Prometheus'
 *     {@code ruleSelector} matches. Copied.
 */
public record PrometheusRuleMetadata(String name, String namespace, Map<String, String> labels) {
  /** Default object name. */
  public static final String DEFAULT_NAME = "sandbox-slo-console-slos";

  /** Default labels: {@code app.kubernetes.io/name: sandbox-slo-console}. */
  public static final Map<String, String> DEFAULT_LABELS =
      Map.of("app.kubernetes.io/name", "sandbox-slo-console");

  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern LABEL_NAME =
      Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

  public PrometheusRuleMetadata {
    Objects.requireNonNull(name, "name");
    if (name.length() > 253 || !SUBDOMAIN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "name: expected a DNS-1123 subdomain (lower-case letters, digits, '-', '.'), got '"
              + name
              + "'");
    }
    if (namespace != null && (namespace.length() > 63 || !DNS_LABEL.matcher(namespace).matches())) {
      throw new IllegalArgumentException(
          "namespace: expected a DNS-1123 label (lower-case letters, digits, '-'), got '"
              + namespace
              + "'");
    }
    labels = new LinkedHashMap<>(Objects.requireNonNull(labels, "labels"));
    labels.forEach(PrometheusRuleMetadata::checkLabel);
    labels = java.util.Collections.unmodifiableMap(labels);
  }

  /** Name {@value #DEFAULT_NAME}, no namespace, {@link #DEFAULT_LABELS}. */
  public static PrometheusRuleMetadata defaults() {
    return new PrometheusRuleMetadata(DEFAULT_NAME, null, DEFAULT_LABELS);
  }

  private static void checkLabel(String key, String value) {
    int slash = key.indexOf('/');
    String prefix = slash < 0 ? null : key.substring(0, slash);
    String name = slash < 0 ? key : key.substring(slash + 1);
    boolean keyOk =
        name.length() <= 63
            && LABEL_NAME.matcher(name).matches()
            && (prefix == null || (prefix.length() <= 253 && SUBDOMAIN.matcher(prefix).matches()));
    if (!keyOk) {
      throw new IllegalArgumentException(
          "label key '" + key + "': expected [prefix/]name, name like app.kubernetes.io/name");
    }
    if (value == null
        || value.length() > 63
        || !(value.isEmpty() || LABEL_NAME.matcher(value).matches())) {
      throw new IllegalArgumentException(
          "label "
              + key
              + ": value must be at most 63 letters, digits, '-', '_', '.' and start and end"
              + " alphanumeric, got '"
              + value
              + "'");
    }
  }
}
