package org.sandboxslo.console.hooks;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.engine.time.Rfc3339;

/**
 * One Alertmanager webhook notification (payload version "4", reference slo-alerting §4.1), checked
 * strictly: a value of the wrong type anywhere is a 400 naming its path ({@code
 * alerts[2].labels.namespace}), and nothing of the payload is used.
 *
 * <p>Rules applied while reading:
 *
 * <ul>
 *   <li>each alert's own {@code status} wins over the group's {@code status} (a group can be {@code
 *       firing} while some of its alerts are {@code resolved}); the group's is used only for an
 *       alert without one;
 *   <li>Alertmanager's zero time ({@code 0001-01-01T00:00:00Z}) or a missing time means "not set":
 *       a firing alert is open whatever its {@code endsAt} says; times are kept to the millisecond
 *       (API v2's precision), so a re-read finds the same episode;
 *   <li>label values are capped at {@value #MAX_LABEL_CHARS} characters and annotation values at
 *       {@value #MAX_ANNOTATION_CHARS} (the rest is cut and marked {@code …[+N chars]}); more than
 *       {@value #MAX_ENTRIES} labels or annotations, or a key over {@value #MAX_KEY_CHARS}
 *       characters, is a 400;
 *   <li>bounds: more than {@value AlertmanagerHook#KEPT} alerts in one notification, a fingerprint
 *       over {@value #MAX_FINGERPRINT_CHARS} characters, labels over {@value
 *       AlertmanagerHook#MAX_ALERT_BYTES} bytes (as sent) or a NUL character in any string is a
 *       400.
 * </ul>
 *
 * @param groupKey the group's key (dedupe and identity of the group), non-empty
 * @param status the group's status
 * @param receiver the receiver name, possibly empty
 * @param truncatedAlerts alerts Alertmanager left out because of {@code max_alerts}, ≥ 0
 * @param groupLabels the labels the group is formed by
 * @param externalUrl Alertmanager's external URL, possibly empty
 * @param alerts the alerts carried
 */
public record WebhookPayload(
    String groupKey,
    AlertStatus status,
    String receiver,
    int truncatedAlerts,
    Map<String, String> groupLabels,
    String externalUrl,
    List<Alert> alerts) {
  static final int MAX_LABEL_CHARS = 1024;
  static final int MAX_ANNOTATION_CHARS = 8192;
  static final int MAX_ENTRIES = 128;
  static final int MAX_KEY_CHARS = 256;
  static final int MAX_FINGERPRINT_CHARS = 128;

  /** {@code firing} or {@code resolved}. */
  public enum AlertStatus {
    FIRING,
    RESOLVED;

    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static AlertStatus parse(Object v, String field) {
      if ("firing".equals(v)) {
        return FIRING;
      }
      if ("resolved".equals(v)) {
        return RESOLVED;
      }
      throw bad(field, "expected \"firing\" or \"resolved\", got " + describe(v));
    }
  }

  /**
   * One alert of the payload.
   *
   * @param fingerprint Alertmanager's fingerprint of the label set, non-empty
   * @param status the alert's status (its own, else the group's)
   * @param labels label values (capped), with {@code alertname}
   * @param annotations annotation values (capped)
   * @param startsAt when it started; null when not set
   * @param endsAt when it ended; null when open (zero time, missing, or the alert is firing)
   * @param generatorUrl the rule's link, possibly empty
   */
  public record Alert(
      String fingerprint,
      AlertStatus status,
      JsonObject labels,
      JsonObject annotations,
      Instant startsAt,
      Instant endsAt,
      String generatorUrl) {
    public Alert {
      Objects.requireNonNull(fingerprint, "fingerprint");
      Objects.requireNonNull(status, "status");
      labels = labels.copy();
      annotations = annotations.copy();
    }
  }

  public WebhookPayload {
    groupLabels = Map.copyOf(groupLabels);
    alerts = List.copyOf(alerts);
  }

  /**
   * Reads a payload.
   *
   * @throws ApiException 400 naming the first bad field
   */
  public static WebhookPayload parse(JsonObject body) {
    Object version = body.getValue("version");
    if (!"4".equals(version)) {
      throw bad("version", "expected \"4\", got " + describe(version));
    }
    String groupKey = string(body, "groupKey", "groupKey", false);
    AlertStatus status =
        body.getValue("status") == null
            ? null
            : AlertStatus.parse(body.getValue("status"), "status");
    String receiver = string(body, "receiver", "receiver", false);
    int truncated = count(body.getValue("truncatedAlerts"), "truncatedAlerts");
    JsonObject groupLabels = strings(body.getValue("groupLabels"), "groupLabels", MAX_LABEL_CHARS);
    strings(body.getValue("commonLabels"), "commonLabels", MAX_LABEL_CHARS);
    strings(body.getValue("commonAnnotations"), "commonAnnotations", MAX_ANNOTATION_CHARS);
    String external = string(body, "externalURL", "externalURL", false);
    Object raw = body.getValue("alerts");
    if (!(raw instanceof JsonArray arr)) {
      throw bad("alerts", "expected a list, got " + describe(raw));
    }
    if (arr.size() > AlertmanagerHook.KEPT) {
      throw bad(
          "alerts",
          "at most " + AlertmanagerHook.KEPT + " alerts per notification, got " + arr.size());
    }
    List<Alert> alerts = new ArrayList<>();
    for (int i = 0; i < arr.size(); i++) {
      alerts.add(alert(arr.getValue(i), "alerts[" + i + "]", status));
    }
    Map<String, String> gl = new java.util.LinkedHashMap<>();
    groupLabels.forEach(e -> gl.put(e.getKey(), (String) e.getValue()));
    return new WebhookPayload(
        groupKey.isEmpty() ? "(none)" : groupKey,
        status == null ? AlertStatus.FIRING : status,
        receiver,
        truncated,
        gl,
        external,
        alerts);
  }

  private static Alert alert(Object v, String field, AlertStatus groupStatus) {
    if (!(v instanceof JsonObject a)) {
      throw bad(field, "expected an object, got " + describe(v));
    }
    Object s = a.getValue("status");
    AlertStatus status;
    if (s == null) {
      if (groupStatus == null) {
        throw bad(field + ".status", "missing, and the payload has no group status");
      }
      status = groupStatus;
    } else {
      status = AlertStatus.parse(s, field + ".status");
    }
    String fp = string(a, "fingerprint", field + ".fingerprint", true);
    if (fp.length() > MAX_FINGERPRINT_CHARS) {
      throw bad(
          field + ".fingerprint",
          fp.length() + " characters; at most " + MAX_FINGERPRINT_CHARS + " are accepted");
    }
    JsonObject labels = strings(a.getValue("labels"), field + ".labels", MAX_LABEL_CHARS);
    if (labels.getString("alertname") == null || labels.getString("alertname").isEmpty()) {
      throw bad(field + ".labels.alertname", "missing");
    }
    int labelBytes = ((JsonObject) a.getValue("labels")).encode().length();
    if (labelBytes > AlertmanagerHook.MAX_ALERT_BYTES) {
      throw bad(
          field + ".labels",
          "labels are "
              + labelBytes
              + " bytes; the limit per alert is "
              + AlertmanagerHook.MAX_ALERT_BYTES);
    }
    JsonObject annotations =
        strings(a.getValue("annotations"), field + ".annotations", MAX_ANNOTATION_CHARS);
    Instant starts = time(a.getValue("startsAt"), field + ".startsAt");
    Instant ends = time(a.getValue("endsAt"), field + ".endsAt");
    String gen = string(a, "generatorURL", field + ".generatorURL", false);
    return new Alert(
        fp, status, labels, annotations, starts, status == AlertStatus.FIRING ? null : ends, gen);
  }

  private static String string(JsonObject o, String key, String field, boolean required) {
    Object v = o.getValue(key);
    if (v == null) {
      if (required) {
        throw bad(field, "missing");
      }
      return "";
    }
    if (!(v instanceof String s)) {
      throw bad(field, "expected a string, got " + describe(v));
    }
    noNul(s, field);
    if (required && s.isBlank()) {
      throw bad(field, "must not be empty");
    }
    return s;
  }

  private static int count(Object v, String field) {
    if (v == null) {
      return 0;
    }
    if (!(v instanceof Number n)
        || n.doubleValue() != Math.rint(n.doubleValue())
        || n.longValue() < 0
        || n.longValue() > Integer.MAX_VALUE) {
      throw bad(field, "expected an integer >= 0, got " + describe(v));
    }
    return n.intValue();
  }

  /** A string → string map, values capped at {@code maxChars}; null/absent = empty. */
  private static JsonObject strings(Object v, String field, int maxChars) {
    if (v == null) {
      return new JsonObject();
    }
    if (!(v instanceof JsonObject o)) {
      throw bad(field, "expected an object of strings, got " + describe(v));
    }
    if (o.size() > MAX_ENTRIES) {
      throw bad(field, "has " + o.size() + " entries; at most " + MAX_ENTRIES + " are accepted");
    }
    JsonObject out = new JsonObject();
    for (Map.Entry<String, Object> e : o) {
      if (e.getKey().length() > MAX_KEY_CHARS) {
        throw bad(
            field, "a key is " + e.getKey().length() + " characters; at most " + MAX_KEY_CHARS);
      }
      noNul(e.getKey(), field);
      if (!(e.getValue() instanceof String s)) {
        throw bad(field + "." + e.getKey(), "expected a string, got " + describe(e.getValue()));
      }
      noNul(s, field + "." + e.getKey());
      out.put(e.getKey(), cap(s, maxChars));
    }
    return out;
  }

  private static void noNul(String s, String field) {
    if (s.indexOf('\0') >= 0) {
      throw bad(field, "must not contain NUL characters");
    }
  }

  /** {@code s}, or its first {@code max} characters followed by {@code …[+N chars]}. */
  static String cap(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "…[+" + (s.length() - max) + " chars]";
  }

  private static Instant time(Object v, String field) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw bad(field, "expected an RFC 3339 time string, got " + describe(v));
    }
    noNul(s, field);
    if (s.startsWith("0001-01-01")) {
      return null; // Alertmanager's zero time: not set
    }
    try {
      return millis(Rfc3339.parse(field, s));
    } catch (DateTimeParseException e) {
      throw bad(field, "not an RFC 3339 time: '" + s + "'");
    }
  }

  /**
   * {@code t} at millisecond precision: the webhook carries Alertmanager's times to the nanosecond,
   * API v2 to the millisecond, and an episode must be the same row whichever way it arrived.
   */
  static Instant millis(Instant t) {
    return t == null ? null : t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
  }

  static String describe(Object v) {
    if (v == null) {
      return "nothing";
    }
    if (v instanceof String s) {
      return "\"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s).replace('\0', '?') + "\"";
    }
    if (v instanceof JsonObject) {
      return "an object";
    }
    if (v instanceof JsonArray) {
      return "a list";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    if (v instanceof Number) {
      return "the number " + v;
    }
    return v.getClass().getSimpleName();
  }

  private static ApiException bad(String field, String reason) {
    return new ApiException(400, "bad request", field, reason);
  }
}
