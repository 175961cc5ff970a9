package org.sandboxslo.store;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One firing episode of an Alertmanager alert ({@code incident}, {@code V4__incident.sql}).
 *
 * @param fingerprint Alertmanager's fingerprint of the label set
 * @param startsAt when the alert started firing (the episode's key with the fingerprint)
 * @param alertname labels.alertname
 * @param status {@code firing} or {@code resolved}
 * @param severity labels.severity, or null
 * @param namespace labels.namespace (else exported_namespace), or null
 * @param sandboxTemplate labels.sandbox_template, or null
 * @param warmpoolName labels.warmpool_name, or null
 * @param slo labels.slo, or null
 * @param labels all labels
 * @param annotations all annotations (summary, description, runbook_url, console_url)
 * @param endsAt when it resolved; null while firing
 * @param generatorUrl the alert's generatorURL, or null
 * @param receiver the Alertmanager receiver that notified us, or null
 * @param firstReceivedAt when the console first received this episode
 * @param lastReceivedAt when the console last received it
 * @param notifications how many notifications carried it, ≥ 1
 */
public record IncidentRow(
    String fingerprint,
    Instant startsAt,
    String alertname,
    String status,
    String severity,
    String namespace,
    String sandboxTemplate,
    String warmpoolName,
    String slo,
    JsonObject labels,
    JsonObject annotations,
    Instant endsAt,
    String generatorUrl,
    String receiver,
    Instant firstReceivedAt,
    Instant lastReceivedAt,
    int notifications) {
  public IncidentRow {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(startsAt, "startsAt");
    Objects.requireNonNull(alertname, "alertname");
    if (!"firing".equals(status) && !"resolved".equals(status)) {
      throw new IllegalArgumentException("status must be firing or resolved, got " + status);
    }
    labels = labels == null ? new JsonObject() : labels.copy();
    annotations = annotations == null ? new JsonObject() : annotations.copy();
    Objects.requireNonNull(firstReceivedAt, "firstReceivedAt");
    Objects.requireNonNull(lastReceivedAt, "lastReceivedAt");
  }

  /**
   * From one alert of a webhook payload as {@code AlertmanagerHook} keeps it.
   *
   * @param receivedAt console time the notification arrived (first and last received)
   */
  public static IncidentRow of(
      String fingerprint,
      String status,
      JsonObject labels,
      JsonObject annotations,
      Instant startsAt,
      Instant endsAt,
      String generatorUrl,
      String receiver,
      Instant receivedAt) {
    return new IncidentRow(
        fingerprint,
        startsAt == null ? receivedAt : startsAt,
        labels.getString("alertname"),
        status,
        labels.getString("severity"),
        labels.getString("namespace", labels.getString("exported_namespace")),
        labels.getString("sandbox_template"),
        labels.getString("warmpool_name"),
        labels.getString("slo"),
        labels,
        annotations,
        "resolved".equals(status) ? endsAt : null,
        generatorUrl,
        receiver,
        receivedAt,
        receivedAt,
        1);
  }

  /** How long it fired: until {@code endsAt}, or until {@code now} while firing; never negative. */
  public Duration duration(Instant now) {
    Instant end = endsAt != null ? endsAt : now;
    Duration d = Duration.between(startsAt, end);
    return d.isNegative() ? Duration.ZERO : d;
  }
}
