package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.pgclient.PgConnectOptions;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the SLI store the configuration asks for: the embedded PostgreSQL ({@code
 * sloconsole.db.url} empty; data in {@code sloconsole.db.data-dir}, binaries in {@code
 * sloconsole.db.work-dir}) or an external one ({@code jdbc:postgresql://...} with {@code
 * sloconsole.db.user}/{@code .password}), migrates it with Flyway and connects a vertx-pg-client
 * pool. The blocking steps (server start, JDBC migration, server stop) run on the named worker pool
 * {@code sloconsole-db} (1 thread).
 */
public final class Database {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);

  /** Name of the worker pool used for blocking database work. */
  public static final String WORKER_POOL = "sloconsole-db";

  private static final int MAX_CONNECTIONS = 8;

  private final WorkerExecutor worker;
  private final EmbeddedDatabase embedded;
  private final SliStore store;

  private Database(WorkerExecutor worker, EmbeddedDatabase embedded, SliStore store) {
    this.worker = worker;
    this.embedded = embedded;
    this.store = store;
  }

  /**
   * Starts (embedded only), migrates and connects.
   *
   * @return the open storage; a failed Future when the embedded server does not start, the database
   *     is unreachable or a migration fails (an embedded server started by this call is stopped
   *     again)
   */
  public static Future<Database> open(Vertx vertx, DatabaseConfig config) {
    Objects.requireNonNull(vertx, "vertx");
    Objects.requireNonNull(config, "config");
    WorkerExecutor worker = vertx.createSharedWorkerExecutor(WORKER_POOL, 1);
    AtomicReference<EmbeddedDatabase> started = new AtomicReference<>();
    return worker
        .executeBlocking(() -> startEmbedded(config, started))
        .compose(db -> worker.executeBlocking(() -> migrate(config, db)))
        .map(
            db ->
                new Database(
                    worker,
                    db,
                    SliStore.connect(vertx, connectOptions(config, db), MAX_CONNECTIONS)))
        .recover(
            e ->
                worker
                    .executeBlocking(() -> stopQuietly(started.get()))
                    .eventually(worker::close)
                    .transform(x -> Future.failedFuture(e)));
  }

  private static EmbeddedDatabase startEmbedded(
      DatabaseConfig config, AtomicReference<EmbeddedDatabase> started) {
    if (!config.embedded()) {
      return null;
    }
    if (!embeddedAvailable()) {
      throw new IllegalStateException(
          "sloconsole.db.url is not set and this distribution has no embedded PostgreSQL:"
              + " set sloconsole.db.url (jdbc:postgresql://host:port/database)");
    }
    EmbeddedDatabase db = EmbeddedDatabase.start(config.dataDir(), config.workDir());
    started.set(db);
    LOG.info("embedded PostgreSQL on port {} with data in {}", db.port(), config.dataDir());
    return db;
  }

  private static EmbeddedDatabase migrate(DatabaseConfig config, EmbeddedDatabase db) {
    int applied =
        db == null
            ? Migrations.migrate(config.url(), config.user(), config.password())
            : Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, "");
    LOG.info("SLI store schema up to date ({} migrations applied)", applied);
    return db;
  }

  private static PgConnectOptions connectOptions(DatabaseConfig config, EmbeddedDatabase db) {
    return db == null
        ? SliStore.connectOptions(config.url(), config.user(), config.password())
        : db.connectOptions();
  }

  private static Void stopQuietly(EmbeddedDatabase db) {
    if (db != null) {
      try {
        db.close();
      } catch (RuntimeException e) {
        LOG.warn("stopping the embedded PostgreSQL failed: {}", e.getMessage());
      }
    }
    return null;
  }

  /**
   * Whether the embedded PostgreSQL (zonky, an optional dependency of this module) is on the class
   * path: true in the laptop distribution ({@code ./sandbox-slo}), false in the production image.
   */
  public static boolean embeddedAvailable() {
    try {
      Class.forName(
          "io.zonky.test.db.postgres.embedded.EmbeddedPostgres",
          false,
          Database.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** The SLI history store, for the console server. */
  public SliStore store() {
    return store;
  }

  /**
   * The one connection pool to the database; every store of the process shares it.
   *
   * @return the pool (closed by {@link #close})
   */
  public io.vertx.sqlclient.Pool pool() {
    return store.pool();
  }

  /** The embedded server, or {@code null} with an external database. */
  public EmbeddedDatabase embedded() {
    return embedded;
  }

  /**
   * Closes the pool, then stops the embedded server (if any) on the worker pool.
   *
   * @return completes when everything is closed; fails when stopping the server fails
   */
  public Future<Void> close() {
    return store
        .close()
        .compose(
            v ->
                worker.<Void>executeBlocking(
                    () -> {
                      if (embedded != null) {
                        embedded.close();
                      }
                      return null;
                    }))
        .eventually(worker::close);
  }
}
