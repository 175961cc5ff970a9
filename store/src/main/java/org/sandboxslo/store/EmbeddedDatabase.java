package org.sandboxslo.store;

import io.vertx.pgclient.PgConnectOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A PostgreSQL 14 server run from the bundled zonky binaries (linux-amd64), for the embedded
 * default and for tests. Needs nothing installed by hand. The data directory is kept between runs,
 * so a restart on the same {@code dataDir} keeps the stored history; binaries are extracted under
 * {@code workDir} (not the system temp directory). Listens on 127.0.0.1 (random free port), user
 * {@code postgres}, database {@code postgres}, trust authentication.
 */
public final class EmbeddedDatabase implements AutoCloseable {
  /** The database user and database name. */
  public static final String USER = "postgres";

  private final EmbeddedPostgres postgres;

  private EmbeddedDatabase(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /**
   * Starts the server, creating the cluster in {@code dataDir} when it holds none yet. Blocking
   * (about 2 s): call it from a worker thread.
   *
   * @param dataDir the PostgreSQL data directory, created when missing; reused when it exists
   * @param workDir where the binaries are extracted, created when missing
   * @throws UncheckedIOException when the directories cannot be created or the server does not
   *     start
   */
  public static EmbeddedDatabase start(Path dataDir, Path workDir) {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(workDir, "workDir");
    try {
      Files.createDirectories(dataDir);
      Files.createDirectories(workDir);
      EmbeddedPostgres pg =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDir)
              .setCleanDataDirectory(false)
              .setOverrideWorkingDirectory(workDir.toFile())
              .setRegisterShutdownHook(true)
              .start();
      return new EmbeddedDatabase(pg);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "embedded PostgreSQL in " + dataDir + " did not start: " + e.getMessage(), e);
    }
  }

  /** The TCP port the server listens on. */
  public int port() {
    return postgres.getPort();
  }

  /** JDBC URL for Flyway, e.g. {@code jdbc:postgresql://localhost:54321/postgres?user=postgres}. */
  public String jdbcUrl() {
    return postgres.getJdbcUrl(USER, USER);
  }

  /** Connection options for vertx-pg-client. */
  public PgConnectOptions connectOptions() {
    return new PgConnectOptions()
        .setHost("localhost")
        .setPort(port())
        .setDatabase(USER)
        .setUser(USER)
        .setPassword("");
  }

  /**
   * Stops the server (blocking, about 1 s); the data directory is kept.
   *
   * @throws UncheckedIOException when stopping fails
   */
  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("embedded PostgreSQL did not stop: " + e.getMessage(), e);
    }
  }
}
