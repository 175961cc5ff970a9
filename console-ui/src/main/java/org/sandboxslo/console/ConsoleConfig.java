package org.sandboxslo.console;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sandboxslo.console.api.ConsoleLinks;
import org.sandboxslo.engine.time.Durations;

/**
 * Console service configuration, immutable. Built from a {@code Map<String,String>} (environment or
 * a literal map in tests) by {@link #fromMap}. Keys and defaults:
 *
 * <ul>
 *   <li>{@code sloconsole.http.host} = {@code 127.0.0.1}: console HTTP bind address
 *   <li>{@code sloconsole.http.port} = {@code 8080}: console HTTP port, 0..65535 (0 = any free)
 *   <li>{@code sloconsole.http.stream-interval} = {@code 1s}: period of SSE snapshot events
 *   <li>{@code sloconsole.http.external-url} = {@code http://127.0.0.1:8080}: the base of every
 *       link the console hands out (alert {@code console_url}s written by {@code generate-rules},
 *       API links, chat messages); an absolute http(s) URL, path prefix allowed, no query
 *   <li>{@code sloconsole.management.port} = {@code 8081}: {@code /healthz}, {@code /readyz},
 *       {@code /metrics}; bound on the same host
 *   <li>{@code sloconsole.store.snapshot-interval} = {@code 10s}: how often the latest snapshot is
 *       written to the store
 *   <li>{@code sloconsole.db.url} = empty: a {@code jdbc:postgresql://} URL; empty means the
 *       embedded PostgreSQL
 *   <li>{@code sloconsole.db.user} = {@code postgres}; {@code sloconsole.db.password} = empty
 *       (masked in {@link #toString()} and {@link #describe()})
 *   <li>{@code sloconsole.db.data-dir} = {@code ./.sandbox-slo/pg}: embedded data directory
 *   <li>{@code sloconsole.db.work-dir} = {@code ./.sandbox-slo/pg-bin}: where the embedded binaries
 *       are extracted
 * </ul>
 *
 * The chat ({@code sloconsole.chatops.*}, {@link org.sandboxslo.console.chatops.ChatopsConfig}) and
 * Alertmanager ({@code sloconsole.alertmanager.*}, {@link
 * org.sandboxslo.console.hooks.AlertmanagerConfig}) parts are read from the same map and kept here,
 * so the console verticle receives one record.
 *
 * @param httpHost console bind address, non-empty
 * @param httpPort console port, 0..65535
 * @param streamInterval SSE period, &gt; 0
 * @param externalUrl where people reach the console (see {@link ConsoleLinks})
 * @param managementPort management port, 0..65535
 * @param snapshotInterval store write period, &gt; 0
 * @param dbUrl JDBC URL, or empty for the embedded database
 * @param dbUser database user
 * @param dbPassword database password (secret)
 * @param dbDataDir embedded data directory
 * @param dbWorkDir embedded binaries directory
 * @param chatops the chat door ({@code sloconsole.chatops.*})
 * @param alertmanager the Alertmanager door ({@code sloconsole.alertmanager.*})
 */
public record ConsoleConfig(
    String httpHost,
    int httpPort,
    Duration streamInterval,
    ConsoleLinks externalUrl,
    int managementPort,
    Duration snapshotInterval,
    String dbUrl,
    String dbUser,
    String dbPassword,
    Path dbDataDir,
    Path dbWorkDir,
    org.sandboxslo.console.chatops.ChatopsConfig chatops,
    org.sandboxslo.console.hooks.AlertmanagerConfig alertmanager) {
  public static final String HTTP_HOST = "sloconsole.http.host";
  public static final String HTTP_PORT = "sloconsole.http.port";
  public static final String HTTP_STREAM_INTERVAL = "sloconsole.http.stream-interval";
  public static final String HTTP_EXTERNAL_URL = "sloconsole.http.external-url";
  public static final String MANAGEMENT_PORT = "sloconsole.management.port";
  public static final String STORE_SNAPSHOT_INTERVAL = "sloconsole.store.snapshot-interval";
  public static final String DB_URL = "sloconsole.db.url";
  public static final String DB_USER = "sloconsole.db.user";
  public static final String DB_PASSWORD = "sloconsole.db.password";
  public static final String DB_DATA_DIR = "sloconsole.db.data-dir";
  public static final String DB_WORK_DIR = "sloconsole.db.work-dir";

  /** The prefixes this record owns; unknown keys under them are rejected. */
  public static final List<String> PREFIXES =
      List.of("sloconsole.http.", "sloconsole.management.", "sloconsole.store.", "sloconsole.db.");

  private static final Set<String> KEYS =
      Set.of(
          HTTP_HOST,
          HTTP_PORT,
          HTTP_STREAM_INTERVAL,
          HTTP_EXTERNAL_URL,
          MANAGEMENT_PORT,
          STORE_SNAPSHOT_INTERVAL,
          DB_URL,
          DB_USER,
          DB_PASSWORD,
          DB_DATA_DIR,
          DB_WORK_DIR);

  private static final String MASK = "******";

  public ConsoleConfig {
    Objects.requireNonNull(httpHost, "httpHost");
    Objects.requireNonNull(streamInterval, "streamInterval");
    Objects.requireNonNull(externalUrl, "externalUrl");
    Objects.requireNonNull(snapshotInterval, "snapshotInterval");
    Objects.requireNonNull(dbUrl, "dbUrl");
    Objects.requireNonNull(dbUser, "dbUser");
    Objects.requireNonNull(dbPassword, "dbPassword");
    Objects.requireNonNull(dbDataDir, "dbDataDir");
    Objects.requireNonNull(dbWorkDir, "dbWorkDir");
    Objects.requireNonNull(chatops, "chatops");
    Objects.requireNonNull(alertmanager, "alertmanager");
    if (httpHost.isBlank()) {
      throw new IllegalArgumentException(HTTP_HOST + ": must be non-empty");
    }
    checkPort(HTTP_PORT, httpPort);
    checkPort(MANAGEMENT_PORT, managementPort);
    checkPositive(HTTP_STREAM_INTERVAL, streamInterval);
    checkPositive(STORE_SNAPSHOT_INTERVAL, snapshotInterval);
    if (!dbUrl.isEmpty() && !dbUrl.startsWith("jdbc:postgresql://")) {
      throw new IllegalArgumentException(
          DB_URL + ": expected jdbc:postgresql://host:port/database or empty, got '" + dbUrl + "'");
    }
  }

  /** All defaults (console on 127.0.0.1:8080, management on 8081, embedded database). */
  public static ConsoleConfig defaults() {
    return fromMap(Map.of());
  }

  /**
   * Builds the config from the {@code sloconsole.http.}, {@code sloconsole.management.}, {@code
   * sloconsole.store.} and {@code sloconsole.db.} keys; other keys are ignored.
   *
   * @throws IllegalArgumentException naming the key, for an unknown key under those prefixes
   *     ("unknown configuration key sloconsole.http.prot; known: [...]") or a value that does not
   *     parse ("sloconsole.http.port: expected an integer 0..65535, got 'x'"; "sloconsole.http.
   *     external-url: expected an absolute http(s) URL like https://sandbox-slo.example.com (scheme
   *     must be http or https), got 'ftp://x'")
   */
  public static ConsoleConfig fromMap(Map<String, String> map) {
    for (String k : map.keySet()) {
      if (PREFIXES.stream().anyMatch(k::startsWith) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    return new ConsoleConfig(
        map.getOrDefault(HTTP_HOST, "127.0.0.1").trim(),
        port(map, HTTP_PORT, 8080),
        duration(map, HTTP_STREAM_INTERVAL, "1s"),
        ConsoleLinks.parse(
            HTTP_EXTERNAL_URL, map.getOrDefault(HTTP_EXTERNAL_URL, ConsoleLinks.DEFAULT_BASE)),
        port(map, MANAGEMENT_PORT, 8081),
        duration(map, STORE_SNAPSHOT_INTERVAL, "10s"),
        map.getOrDefault(DB_URL, "").trim(),
        map.getOrDefault(DB_USER, "postgres"),
        map.getOrDefault(DB_PASSWORD, ""),
        Path.of(map.getOrDefault(DB_DATA_DIR, "./.sandbox-slo/pg")),
        Path.of(map.getOrDefault(DB_WORK_DIR, "./.sandbox-slo/pg-bin")),
        org.sandboxslo.console.chatops.ChatopsConfig.fromMap(map),
        org.sandboxslo.console.hooks.AlertmanagerConfig.fromMap(map));
  }

  /** The database part, for {@link org.sandboxslo.store.Database#open}. */
  public org.sandboxslo.store.DatabaseConfig database() {
    return new org.sandboxslo.store.DatabaseConfig(dbUrl, dbUser, dbPassword, dbDataDir, dbWorkDir);
  }

  /** True when no {@code sloconsole.db.url} is set and the embedded database is used. */
  public boolean embeddedDatabase() {
    return dbUrl.isEmpty();
  }

  /** One line per key, {@code key=value}, sorted, with the password masked; for the startup log. */
  public String describe() {
    return String.join(
        "\n",
        HTTP_HOST + "=" + httpHost,
        HTTP_PORT + "=" + httpPort,
        HTTP_STREAM_INTERVAL + "=" + Durations.format(streamInterval),
        HTTP_EXTERNAL_URL + "=" + externalUrl.base(),
        MANAGEMENT_PORT + "=" + managementPort,
        STORE_SNAPSHOT_INTERVAL + "=" + Durations.format(snapshotInterval),
        DB_URL + "=" + (dbUrl.isEmpty() ? "(embedded)" : dbUrl),
        DB_USER + "=" + dbUser,
        DB_PASSWORD + "=" + (dbPassword.isEmpty() ? "" : MASK),
        DB_DATA_DIR + "=" + dbDataDir,
        DB_WORK_DIR + "=" + dbWorkDir,
        chatops.describe(),
        alertmanager.describe());
  }

  /** Like the record default, but with the password masked. */
  @Override
  public String toString() {
    return "ConsoleConfig[httpHost="
        + httpHost
        + ", httpPort="
        + httpPort
        + ", streamInterval="
        + streamInterval
        + ", externalUrl="
        + externalUrl.base()
        + ", managementPort="
        + managementPort
        + ", snapshotInterval="
        + snapshotInterval
        + ", dbUrl="
        + dbUrl
        + ", dbUser="
        + dbUser
        + ", dbPassword="
        + (dbPassword.isEmpty() ? "" : MASK)
        + ", dbDataDir="
        + dbDataDir
        + ", dbWorkDir="
        + dbWorkDir
        + ", chatops="
        + chatops
        + ", alertmanager="
        + alertmanager
        + "]";
  }

  private static int port(Map<String, String> map, String key, int dflt) {
    String v = map.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": expected an integer 0..65535, got '" + v + "'");
    }
  }

  private static Duration duration(Map<String, String> map, String key, String dflt) {
    return Durations.parse(key, map.getOrDefault(key, dflt));
  }

  private static void checkPort(String key, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          key + ": expected an integer 0..65535, got '" + port + "'");
    }
  }

  private static void checkPositive(String key, Duration d) {
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(key + ": must be > 0, got " + d);
    }
  }
}
