package org.sandboxslo.console.hooks;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.engine.time.Durations;

/**
 * The Alertmanager door's configuration ({@code sloconsole.alertmanager.*}), immutable. Keys:
 *
 * <ul>
 *   <li>{@code sloconsole.alertmanager.url} (default empty = none): Alertmanager's base URL, e.g.
 *       {@code http://alertmanager:9093}; used to re-read truncated groups ({@code GET
 *       /api/v2/alerts}) and for silences ({@code /api/v2/silences}). Without it, silences answer
 *       503 and a truncated group stays incomplete
 *   <li>{@code sloconsole.alertmanager.max-silence} (default {@code 24h}): the longest silence the
 *       console creates, &gt; 0
 *   <li>{@code sloconsole.alertmanager.plan-step-duration} (default {@code 5m}): the expected
 *       duration of one step of an executing plan; a plan's silence lasts steps × this, at most
 *       {@code max-silence}
 * </ul>
 *
 * The webhook's credential, {@code sloconsole.alertmanager.webhook-token}, is a key of this section
 * but is read by the console's sign-in ({@code console.auth.AuthConfig}, which also masks it):
 * {@code POST /hooks/alertmanager} requires it as {@code Bearer <token>} or as the Basic password,
 * and answers 401 while it is unset.
 *
 * @param url Alertmanager's base URL without a trailing slash, or null
 * @param maxSilence longest silence, &gt; 0
 * @param planStepDuration expected duration of one plan step, &gt; 0
 */
public record AlertmanagerConfig(URI url, Duration maxSilence, Duration planStepDuration) {
  public static final String URL = "sloconsole.alertmanager.url";
  public static final String MAX_SILENCE = "sloconsole.alertmanager.max-silence";
  public static final String PLAN_STEP_DURATION = "sloconsole.alertmanager.plan-step-duration";

  /** Read by the sign-in (same key as {@code AuthConfig.WEBHOOK_TOKEN}); accepted here. */
  public static final String WEBHOOK_TOKEN = "sloconsole.alertmanager.webhook-token";

  static final String PREFIX = "sloconsole.alertmanager.";
  private static final Set<String> KEYS =
      Set.of(URL, MAX_SILENCE, PLAN_STEP_DURATION, WEBHOOK_TOKEN);

  public AlertmanagerConfig {
    positive(MAX_SILENCE, maxSilence);
    positive(PLAN_STEP_DURATION, planStepDuration);
  }

  private static void positive(String key, Duration d) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(key + ": must be > 0, got " + d);
    }
  }

  /**
   * Reads the keys above; other keys under {@code sloconsole.alertmanager.} are rejected.
   *
   * @throws IllegalArgumentException naming the key and the bad value
   */
  public static AlertmanagerConfig fromMap(Map<String, String> m) {
    for (String k : m.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    String url = m.getOrDefault(URL, "").trim();
    while (url.endsWith("/")) {
      url = url.substring(0, url.length() - 1);
    }
    return new AlertmanagerConfig(
        url.isEmpty() ? null : url(url),
        Durations.parse(MAX_SILENCE, m.getOrDefault(MAX_SILENCE, "24h")),
        Durations.parse(PLAN_STEP_DURATION, m.getOrDefault(PLAN_STEP_DURATION, "5m")));
  }

  private static URI url(String value) {
    try {
      URI u = new URI(value);
      if (("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null) {
        return u;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        URL
            + ": expected an absolute http(s) URL such as http://alertmanager:9093, got '"
            + value
            + "'");
  }

  /** The lines of the startup log. */
  public String describe() {
    return String.join(
        "\n",
        URL + "=" + (url == null ? "" : url),
        MAX_SILENCE + "=" + Durations.format(maxSilence),
        PLAN_STEP_DURATION + "=" + Durations.format(planStepDuration));
  }
}
