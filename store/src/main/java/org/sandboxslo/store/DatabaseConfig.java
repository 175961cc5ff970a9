package org.sandboxslo.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the console's PostgreSQL is, and how long the console waits for it.
 *
 * @param url {@code jdbc:postgresql://host:port/database}, or empty for the embedded server (only
 *     in the laptop distribution, which carries the embedded PostgreSQL binaries)
 * @param user database user
 * @param password database password (secret: never logged)
 * @param dataDir embedded data directory
 * @param workDir where the embedded binaries are unpacked
 * @param statementTimeout the longest a statement may run: the server's {@code statement_timeout}
 *     and the client's read deadline on a connection (a frozen server is given up after this plus
 *     one second); 100 ms .. 10 min
 * @param connectTimeout the longest a caller waits to get a connection (TCP connect and a free pool
 *     slot); 100 ms .. 10 min
 * @param probeInterval how often the health probe ({@code select 1}) runs and, for the embedded
 *     server, whether its postmaster is alive is checked; 100 ms .. 10 min
 */
public record DatabaseConfig(
    String url,
    String user,
    String password,
    Path dataDir,
    Path workDir,
    Duration statementTimeout,
    Duration connectTimeout,
    Duration probeInterval) {
  /** Default of {@link #statementTimeout} and {@link #connectTimeout}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** Default of {@link #probeInterval}. */
  public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(1);

  private static final Duration MIN = Duration.ofMillis(100);
  private static final Duration MAX = Duration.ofMinutes(10);

  public DatabaseConfig {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(workDir, "workDir");
    check("statementTimeout", statementTimeout);
    check("connectTimeout", connectTimeout);
    check("probeInterval", probeInterval);
  }

  /** With the default timeouts (5 s) and probe interval (1 s). */
  public DatabaseConfig(String url, String user, String password, Path dataDir, Path workDir) {
    this(
        url,
        user,
        password,
        dataDir,
        workDir,
        DEFAULT_TIMEOUT,
        DEFAULT_TIMEOUT,
        DEFAULT_PROBE_INTERVAL);
  }

  private static void check(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.compareTo(MIN) < 0 || d.compareTo(MAX) > 0) {
      throw new IllegalArgumentException(name + " must be within 100ms..10m, got " + d);
    }
  }

  /** True when no URL is set: the embedded server is started. */
  public boolean embedded() {
    return url.isEmpty();
  }

  @Override
  public String toString() {
    return "DatabaseConfig[url="
        + url
        + ", user="
        + user
        + ", password=***, statementTimeout="
        + statementTimeout
        + ", connectTimeout="
        + connectTimeout
        + ", probeInterval="
        + probeInterval
        + "]";
  }
}
