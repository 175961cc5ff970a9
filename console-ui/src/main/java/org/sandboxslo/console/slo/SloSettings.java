package org.sandboxslo.console.slo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.engine.time.Durations;

/**
 * SLO and controller-view configuration, immutable, from a {@code Map<String,String>}. Keys and
 * defaults:
 *
 * <ul>
 *   <li>{@code sloconsole.slo.period} = {@code 28d}: compliance period of the default SLOs (≥ 1m)
 *   <li>{@code sloconsole.slo.defaults} = {@code true}: ship the four default SLOs for every
 *       template seen
 *   <li>{@code sloconsole.slo.latency-threshold} = {@code 1s}: threshold of the default latency SLO
 *   <li>{@code sloconsole.slo.dir} = empty: a directory of {@code *.yaml|*.yml} SLO files (our
 *       shape or OpenSLO v1 {@code kind: SLO}, multi-document) loaded at start
 *   <li>{@code sloconsole.slo.persist-interval} = {@code 30s}: how often budget buckets are written
 *       to PostgreSQL
 *   <li>{@code sloconsole.slo.refresh-interval} = {@code 2s}: how often default SLOs are added for
 *       newly seen templates
 *   <li>{@code sloconsole.controller-view.url} = unset: the controller's {@code /metrics} URL
 *       (demo: controller-lite's endpoint; watch: unset = off)
 *   <li>{@code sloconsole.controller-view.interval} = {@code 15s}: scrape interval
 *   <li>{@code sloconsole.controller-view.window} = {@code 1h}: the window of the controller view
 *       (scrapes older than this are dropped)
 *   <li>{@code sloconsole.controller-view.tolerance} = {@code 0.05}: |console − controller|
 *       warm-hit difference above which the API reports a disagreement
 *   <li>{@code sloconsole.controller-view.demo-port} = {@code 0}: port of controller-lite's {@code
 *       /metrics} in the demo (0 = a free port; bound on 127.0.0.1)
 * </ul>
 *
 * @param period default SLO period
 * @param defaults whether default SLOs are shipped
 * @param latencyThreshold default latency SLO threshold
 * @param dir SLO files directory, or null
 * @param persistInterval budget history write period
 * @param refreshInterval default-SLO refresh period
 * @param controllerUrl controller {@code /metrics} URL, or null when off
 * @param controllerInterval scrape period
 * @param controllerWindow controller view window
 * @param tolerance warm-hit disagreement tolerance, in [0, 1]
 * @param demoPort controller-lite metrics port in the demo, 0..65535
 */
public record SloSettings(
    Duration period,
    boolean defaults,
    Duration latencyThreshold,
    Path dir,
    Duration persistInterval,
    Duration refreshInterval,
    String controllerUrl,
    Duration controllerInterval,
    Duration controllerWindow,
    double tolerance,
    int demoPort) {
  public static final String PERIOD = "sloconsole.slo.period";
  public static final String DEFAULTS = "sloconsole.slo.defaults";
  public static final String LATENCY_THRESHOLD = "sloconsole.slo.latency-threshold";
  public static final String DIR = "sloconsole.slo.dir";
  public static final String PERSIST_INTERVAL = "sloconsole.slo.persist-interval";
  public static final String REFRESH_INTERVAL = "sloconsole.slo.refresh-interval";
  public static final String CONTROLLER_URL = "sloconsole.controller-view.url";
  public static final String CONTROLLER_INTERVAL = "sloconsole.controller-view.interval";
  public static final String CONTROLLER_WINDOW = "sloconsole.controller-view.window";
  public static final String TOLERANCE = "sloconsole.controller-view.tolerance";
  public static final String DEMO_PORT = "sloconsole.controller-view.demo-port";

  private static final Set<String> KEYS =
      Set.of(
          PERIOD,
          DEFAULTS,
          LATENCY_THRESHOLD,
          DIR,
          PERSIST_INTERVAL,
          REFRESH_INTERVAL,
          CONTROLLER_URL,
          CONTROLLER_INTERVAL,
          CONTROLLER_WINDOW,
          TOLERANCE,
          DEMO_PORT);
  private static final List<String> PREFIXES =
      List.of("sloconsole.slo.", "sloconsole.controller-view.");

  public SloSettings {
    Objects.requireNonNull(period, "period");
    Objects.requireNonNull(latencyThreshold, "latencyThreshold");
    if (period.compareTo(Duration.ofMinutes(1)) < 0) {
      throw new IllegalArgumentException(
          PERIOD + ": must be at least 1m, got " + Durations.format(period));
    }
    positive(LATENCY_THRESHOLD, latencyThreshold);
    positive(PERSIST_INTERVAL, persistInterval);
    positive(REFRESH_INTERVAL, refreshInterval);
    positive(CONTROLLER_INTERVAL, controllerInterval);
    positive(CONTROLLER_WINDOW, controllerWindow);
    if (!(tolerance >= 0 && tolerance <= 1)) {
      throw new IllegalArgumentException(TOLERANCE + ": must be in [0, 1], got " + tolerance);
    }
    if (demoPort < 0 || demoPort > 65535) {
      throw new IllegalArgumentException(
          DEMO_PORT + ": expected an integer 0..65535, got '" + demoPort + "'");
    }
    if (controllerUrl != null
        && !controllerUrl.startsWith("http://")
        && !controllerUrl.startsWith("https://")) {
      throw new IllegalArgumentException(
          CONTROLLER_URL + ": expected an http(s):// URL, got '" + controllerUrl + "'");
    }
  }

  /**
   * Builds the settings from the {@code sloconsole.slo.} and {@code sloconsole.controller-view.}
   * keys; other keys are ignored.
   *
   * @throws IllegalArgumentException naming the key for an unknown key or a bad value
   */
  public static SloSettings fromMap(Map<String, String> m) {
    for (String k : m.keySet()) {
      if (PREFIXES.stream().anyMatch(k::startsWith) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    String defaults = m.getOrDefault(DEFAULTS, "true").trim();
    if (!defaults.equals("true") && !defaults.equals("false")) {
      throw new IllegalArgumentException(
          DEFAULTS + ": expected true or false, got '" + defaults + "'");
    }
    String dir = m.getOrDefault(DIR, "").trim();
    String url = m.getOrDefault(CONTROLLER_URL, "").trim();
    double tol;
    try {
      tol = Double.parseDouble(m.getOrDefault(TOLERANCE, "0.05").trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          TOLERANCE + ": expected a number in [0, 1], got '" + m.get(TOLERANCE) + "'");
    }
    return new SloSettings(
        d(m, PERIOD, "28d"),
        Boolean.parseBoolean(defaults),
        d(m, LATENCY_THRESHOLD, "1s"),
        dir.isEmpty() ? null : Path.of(dir),
        d(m, PERSIST_INTERVAL, "30s"),
        d(m, REFRESH_INTERVAL, "2s"),
        url.isEmpty() ? null : url,
        d(m, CONTROLLER_INTERVAL, "15s"),
        d(m, CONTROLLER_WINDOW, "1h"),
        tol,
        port(m));
  }

  /** The same settings with another controller URL (the demo fills in controller-lite's). */
  public SloSettings withControllerUrl(String url) {
    return new SloSettings(
        period,
        defaults,
        latencyThreshold,
        dir,
        persistInterval,
        refreshInterval,
        url,
        controllerInterval,
        controllerWindow,
        tolerance,
        demoPort);
  }

  private static int port(Map<String, String> m) {
    String v = m.getOrDefault(DEMO_PORT, "0").trim();
    if (!v.matches("\\d{1,5}")) {
      throw new IllegalArgumentException(
          DEMO_PORT + ": expected an integer 0..65535, got '" + v + "'");
    }
    return Integer.parseInt(v);
  }

  private static Duration d(Map<String, String> m, String key, String dflt) {
    return Durations.parse(key, m.getOrDefault(key, dflt).trim());
  }

  private static void positive(String key, Duration d) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(key + ": must be > 0, got " + d);
    }
  }
}
