package org.sandboxslo.store;

import io.vertx.pgclient.PgConnectOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A PostgreSQL 14 server run from the bundled zonky binaries (linux-amd64), for the embedded
 * default and for tests. Needs nothing installed by hand. The data directory is kept between runs,
 * so a restart on the same {@code dataDir} keeps the stored history; binaries are extracted under
 * {@code workDir} (not the system temp directory). Listens on 127.0.0.1 (a random free port, or the
 * port given), user {@code postgres}, database {@code postgres}, trust authentication.
 *
 * <p>Durability: zonky starts the server with {@code -F} (fsync off) and {@code
 * synchronous_commit=off}. This class turns {@code fsync} back on ({@code -c fsync=on} comes after
 * {@code -F}, and the last setting wins), so a commit that waited for its WAL flush survives a
 * crash of the server or the machine. {@code synchronous_commit} stays off as the server default:
 * SLI snapshots (re-computable, backfilled) commit without waiting, while audit and plan writes ask
 * for a synchronous commit per transaction ({@link DurableWrites}).
 */
public final class EmbeddedDatabase implements AutoCloseable {
  /** The database user and database name. */
  public static final String USER = "postgres";

  /** The server settings this class adds to zonky's (see the class comment). */
  static final List<String> SERVER_SETTINGS = List.of("fsync=on", "full_page_writes=on");

  private final EmbeddedPostgres postgres;
  private final Path dataDir;

  private EmbeddedDatabase(EmbeddedPostgres postgres, Path dataDir) {
    this.postgres = postgres;
    this.dataDir = dataDir;
  }

  /**
   * Starts the server on a free port, creating the cluster in {@code dataDir} when it holds none
   * yet. Blocking (about 2 s): call it from a worker thread.
   *
   * @param dataDir the PostgreSQL data directory, created when missing; reused when it exists
   * @param workDir where the binaries are extracted, created when missing
   * @throws UncheckedIOException when the directories cannot be created or the server does not
   *     start
   */
  public static EmbeddedDatabase start(Path dataDir, Path workDir) {
    return start(dataDir, workDir, 0);
  }

  /**
   * As {@link #start(Path, Path)}, on {@code port} (0 = a free one). A restart after a crash uses
   * the port of the dead server, so open pools reconnect to the same address.
   */
  public static EmbeddedDatabase start(Path dataDir, Path workDir, int port) {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(workDir, "workDir");
    try {
      Files.createDirectories(dataDir);
      Files.createDirectories(workDir);
      EmbeddedPostgres.Builder b =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDir)
              .setCleanDataDirectory(false)
              .setOverrideWorkingDirectory(workDir.toFile())
              .setRegisterShutdownHook(true);
      for (String s : SERVER_SETTINGS) {
        b.setServerConfig(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
      }
      if (port > 0) {
        b.setPort(port);
      }
      return new EmbeddedDatabase(b.start(), dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "embedded PostgreSQL in " + dataDir + " did not start: " + e.getMessage(), e);
    }
  }

  /** The TCP port the server listens on. */
  public int port() {
    return postgres.getPort();
  }

  /** The data directory. */
  public Path dataDir() {
    return dataDir;
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
   * The postmaster's process id, from the first line of {@code postmaster.pid} in the data
   * directory; empty when the file is missing or unreadable (the server is stopped).
   */
  public OptionalLong postmasterPid() {
    try {
      List<String> lines = Files.readAllLines(dataDir.resolve("postmaster.pid"));
      return lines.isEmpty()
          ? OptionalLong.empty()
          : OptionalLong.of(Long.parseLong(lines.get(0).trim()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * Whether the postmaster process is alive. A stopped ({@code SIGSTOP}) server is alive; a killed
   * one is not, even while its {@code postmaster.pid} is left behind.
   */
  public boolean alive() {
    OptionalLong pid = postmasterPid();
    return pid.isPresent()
        && ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false);
  }

  /**
   * Stops the server (blocking, about 1 s; up to the stop timeout when it does not answer); the
   * data directory is kept. Closing a dead server only releases its lock on the data directory.
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
