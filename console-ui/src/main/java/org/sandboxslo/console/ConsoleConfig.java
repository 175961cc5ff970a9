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
 *       API links, chat messages); an absolute http(s) URL, path prefix allowed, no query; its
 *       origin may send state-changing requests
 *   <li>{@code sloconsole.management.port} = {@code 8081}: {@code /healthz}, {@code /readyz},
 *       {@code /metrics}; bound on the same host
 *   <li>{@code sloconsole.store.snapshot-interval} = {@code 10s}: how often the latest snapshot is
 *       written to the store
 *   <li>{@code sloconsole.store.retention} = {@code 30d}: SLI history older than this is pruned
 *       (hourly, in bounded batches, by the leader)
 *   <li>{@code sloconsole.db.url} = empty: a {@code jdbc:postgresql://} URL; empty means the
 *       embedded PostgreSQL
 *   <li>{@code sloconsole.db.user} = {@code postgres}; {@code sloconsole.db.password} = empty
 *       (masked in {@link #toString()} and {@link #describe()})
 *   <li>{@code sloconsole.db.data-dir} = {@code ./.sandbox-slo/pg}: embedded data directory
 *   <li>{@code sloconsole.db.work-dir} = {@code ./.sandbox-slo/pg-bin}: where the embedded binaries
 *       are extracted
 *   <li>{@code sloconsole.http.allowed-origins} = empty: further origins ({@code
 *       https://ops.example.com}, comma separated) allowed to send state-changing requests; the
 *       console's own origin always is
 *   <li>{@code sloconsole.http.request-timeout} = {@code 30s}: the deadline of every request; a
 *       write whose deadline (this, or an earlier {@code X-Request-Deadline}) has passed is not
 *       applied
 *   <li>{@code sloconsole.http.max-stream-clients} = {@code 64}: concurrent SSE clients; the oldest
 *       is closed for a new one
 *   <li>{@code sloconsole.http.idempotency-ttl} = {@code 24h}: how long an {@code Idempotency-Key}
 *       and its response are kept
 *   <li>{@code sloconsole.db.statement-timeout} = {@code 5s}: the server's {@code
 *       statement_timeout} (100ms..10m); a database route answers 503 after at most connect +
 *       statement timeout + 1 s
 *   <li>{@code sloconsole.db.connect-timeout} = {@code 5s}: TCP connect and wait for a pooled
 *       connection (100ms..10m)
 *   <li>{@code sloconsole.db.probe-interval} = {@code 1s}: database health probe; a dead embedded
 *       server is restarted by it (100ms..10m)
 *   <li>{@code sloconsole.store.backfill-max-snapshots} = {@code 360}: snapshots kept while the
 *       database is down and written when it returns (1..100000; the oldest are dropped first)
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
 * @param allowedOrigins further allowed origins ({@code scheme://host[:port]}, no trailing slash)
 * @param requestTimeout request deadline, 1s..10m
 * @param maxStreamClients 1..10000
 * @param idempotencyTtl 1m..30d
 * @param dbStatementTimeout see {@code sloconsole.db.statement-timeout}
 * @param dbConnectTimeout see {@code sloconsole.db.connect-timeout}
 * @param dbProbeInterval see {@code sloconsole.db.probe-interval}
 * @param backfillMaxSnapshots see {@code sloconsole.store.backfill-max-snapshots}
 * @param retention how long SLI history rows are kept, &gt; 0
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
    List<String> allowedOrigins,
    Duration requestTimeout,
    int maxStreamClients,
    Duration idempotencyTtl,
    Duration dbStatementTimeout,
    Duration dbConnectTimeout,
    Duration dbProbeInterval,
    int backfillMaxSnapshots,
    Duration retention,
    org.sandboxslo.console.chatops.ChatopsConfig chatops,
    org.sandboxslo.console.hooks.AlertmanagerConfig alertmanager) {
  public static final String HTTP_HOST = "sloconsole.http.host";
  public static final String HTTP_PORT = "sloconsole.http.port";
  public static final String HTTP_STREAM_INTERVAL = "sloconsole.http.stream-interval";
  public static final String HTTP_EXTERNAL_URL = "sloconsole.http.external-url";
  public static final String MANAGEMENT_PORT = "sloconsole.management.port";
  public static final String STORE_SNAPSHOT_INTERVAL = "sloconsole.store.snapshot-interval";
  public static final String STORE_RETENTION = "sloconsole.store.retention";
  public static final String DB_URL = "sloconsole.db.url";
  public static final String DB_USER = "sloconsole.db.user";
  public static final String DB_PASSWORD = "sloconsole.db.password";
  public static final String DB_DATA_DIR = "sloconsole.db.data-dir";
  public static final String DB_WORK_DIR = "sloconsole.db.work-dir";
  public static final String HTTP_ALLOWED_ORIGINS = "sloconsole.http.allowed-origins";
  public static final String HTTP_REQUEST_TIMEOUT = "sloconsole.http.request-timeout";
  public static final String HTTP_MAX_STREAM_CLIENTS = "sloconsole.http.max-stream-clients";
  public static final String HTTP_IDEMPOTENCY_TTL = "sloconsole.http.idempotency-ttl";
  public static final String DB_STATEMENT_TIMEOUT = "sloconsole.db.statement-timeout";
  public static final String DB_CONNECT_TIMEOUT = "sloconsole.db.connect-timeout";
  public static final String DB_PROBE_INTERVAL = "sloconsole.db.probe-interval";
  public static final String STORE_BACKFILL_MAX = "sloconsole.store.backfill-max-snapshots";

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
          STORE_RETENTION,
          DB_URL,
          DB_USER,
          DB_PASSWORD,
          DB_DATA_DIR,
          DB_WORK_DIR,
          HTTP_ALLOWED_ORIGINS,
          HTTP_REQUEST_TIMEOUT,
          HTTP_MAX_STREAM_CLIENTS,
          HTTP_IDEMPOTENCY_TTL,
          DB_STATEMENT_TIMEOUT,
          DB_CONNECT_TIMEOUT,
          DB_PROBE_INTERVAL,
          STORE_BACKFILL_MAX);

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
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(chatops, "chatops");
    Objects.requireNonNull(alertmanager, "alertmanager");
    if (httpHost.isBlank()) {
      throw new IllegalArgumentException(HTTP_HOST + ": must be non-empty");
    }
    checkPort(HTTP_PORT, httpPort);
    checkPort(MANAGEMENT_PORT, managementPort);
    checkPositive(HTTP_STREAM_INTERVAL, streamInterval);
    checkPositive(STORE_SNAPSHOT_INTERVAL, snapshotInterval);
    allowedOrigins = List.copyOf(allowedOrigins);
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(idempotencyTtl, "idempotencyTtl");
    for (String o : allowedOrigins) {
      if (!origin(HTTP_ALLOWED_ORIGINS, o).equals(o)) {
        throw new IllegalArgumentException(
            HTTP_ALLOWED_ORIGINS
                + ": expected scheme://host[:port] without a path, got '"
                + o
                + "'");
      }
    }
    checkBetween(
        HTTP_REQUEST_TIMEOUT, requestTimeout, Duration.ofSeconds(1), Duration.ofMinutes(10));
    checkBetween(HTTP_IDEMPOTENCY_TTL, idempotencyTtl, Duration.ofMinutes(1), Duration.ofDays(30));
    if (maxStreamClients < 1 || maxStreamClients > 10_000) {
      throw new IllegalArgumentException(
          HTTP_MAX_STREAM_CLIENTS + ": expected 1..10000, got " + maxStreamClients);
    }
    checkWithin(DB_STATEMENT_TIMEOUT, dbStatementTimeout);
    checkWithin(DB_CONNECT_TIMEOUT, dbConnectTimeout);
    checkWithin(DB_PROBE_INTERVAL, dbProbeInterval);
    if (backfillMaxSnapshots < 1 || backfillMaxSnapshots > 100_000) {
      throw new IllegalArgumentException(
          STORE_BACKFILL_MAX + ": expected an integer 1..100000, got " + backfillMaxSnapshots);
    }
    checkPositive(STORE_RETENTION, retention);
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
        java.util.Arrays.stream(map.getOrDefault(HTTP_ALLOWED_ORIGINS, "").split(","))
            .map(String::trim)
            .filter(o -> !o.isEmpty())
            .toList(),
        duration(map, HTTP_REQUEST_TIMEOUT, "30s"),
        intValue(map, HTTP_MAX_STREAM_CLIENTS, 64),
        duration(map, HTTP_IDEMPOTENCY_TTL, "24h"),
        duration(map, DB_STATEMENT_TIMEOUT, "5s"),
        duration(map, DB_CONNECT_TIMEOUT, "5s"),
        duration(map, DB_PROBE_INTERVAL, "1s"),
        integer(map, STORE_BACKFILL_MAX, 360),
        duration(map, STORE_RETENTION, "30d"),
        org.sandboxslo.console.chatops.ChatopsConfig.fromMap(map),
        org.sandboxslo.console.hooks.AlertmanagerConfig.fromMap(map));
  }

  /**
   * The origins allowed to send state-changing requests besides the request's own: the external
   * URL's origin and {@code sloconsole.http.allowed-origins}.
   */
  public List<String> trustedOrigins() {
    List<String> out = new java.util.ArrayList<>(allowedOrigins);
    out.add(origin(HTTP_EXTERNAL_URL, externalUrl.base().toString()));
    return List.copyOf(out);
  }

  /** {@code scheme://host[:port]} of a URL, lower case, default ports dropped. */
  static String origin(String key, String url) {
    java.net.URI u;
    try {
      u = java.net.URI.create(url.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": not a URL: '" + url + "'");
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null) {
      throw new IllegalArgumentException(key + ": expected an http(s) URL, got '" + url + "'");
    }
    int port = u.getPort();
    boolean dflt =
        port < 0
            || (scheme.equals("http") && port == 80)
            || (scheme.equals("https") && port == 443);
    return scheme
        + "://"
        + u.getHost().toLowerCase(java.util.Locale.ROOT)
        + (dflt ? "" : ":" + port);
  }

  private static int intValue(Map<String, String> map, String key, int dflt) {
    String v = map.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": expected an integer, got '" + v + "'");
    }
  }

  private static void checkBetween(String key, Duration d, Duration min, Duration max) {
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          key
              + ": expected "
              + Durations.format(min)
              + ".."
              + Durations.format(max)
              + ", got "
              + Durations.format(d));
    }
  }

  /** The database part, for {@link org.sandboxslo.store.Database#open}. */
  public org.sandboxslo.store.DatabaseConfig database() {
    return new org.sandboxslo.store.DatabaseConfig(
        dbUrl,
        dbUser,
        dbPassword,
        dbDataDir,
        dbWorkDir,
        dbStatementTimeout,
        dbConnectTimeout,
        dbProbeInterval);
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
        STORE_RETENTION + "=" + Durations.format(retention),
        DB_URL + "=" + (dbUrl.isEmpty() ? "(embedded)" : dbUrl),
        DB_USER + "=" + dbUser,
        DB_PASSWORD + "=" + (dbPassword.isEmpty() ? "" : MASK),
        DB_DATA_DIR + "=" + dbDataDir,
        DB_WORK_DIR + "=" + dbWorkDir,
        HTTP_ALLOWED_ORIGINS + "=" + String.join(",", allowedOrigins),
        HTTP_REQUEST_TIMEOUT + "=" + Durations.format(requestTimeout),
        HTTP_MAX_STREAM_CLIENTS + "=" + maxStreamClients,
        HTTP_IDEMPOTENCY_TTL + "=" + Durations.format(idempotencyTtl),
        DB_STATEMENT_TIMEOUT + "=" + Durations.format(dbStatementTimeout),
        DB_CONNECT_TIMEOUT + "=" + Durations.format(dbConnectTimeout),
        DB_PROBE_INTERVAL + "=" + Durations.format(dbProbeInterval),
        STORE_BACKFILL_MAX + "=" + backfillMaxSnapshots,
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
        + ", allowedOrigins="
        + allowedOrigins
        + ", requestTimeout="
        + requestTimeout
        + ", maxStreamClients="
        + maxStreamClients
        + ", idempotencyTtl="
        + idempotencyTtl
        + ", dbStatementTimeout="
        + dbStatementTimeout
        + ", dbConnectTimeout="
        + dbConnectTimeout
        + ", dbProbeInterval="
        + dbProbeInterval
        + ", backfillMaxSnapshots="
        + backfillMaxSnapshots
        + ", retention="
        + retention
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

  private static int integer(Map<String, String> map, String key, int dflt) {
    String v = map.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": expected an integer, got '" + v + "'");
    }
  }

  private static void checkWithin(String key, Duration d) {
    if (d.compareTo(Duration.ofMillis(100)) < 0 || d.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new IllegalArgumentException(key + ": must be within 100ms..10m, got " + d);
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
