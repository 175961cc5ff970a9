package org.sandboxslo.console;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.pgclient.PgConnectOptions;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.sandboxslo.console.store.EmbeddedDatabase;
import org.sandboxslo.console.store.Migrations;
import org.sandboxslo.console.store.SliStore;
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
public final class ConsoleStorage {
  private static final Logger LOG = LoggerFactory.getLogger(ConsoleStorage.class);

  /** Name of the worker pool used for blocking database work. */
  public static final String WORKER_POOL = "sloconsole-db";

  private static final int MAX_CONNECTIONS = 4;

  private final WorkerExecutor worker;
  private final EmbeddedDatabase embedded;
  private final SliStore store;

  private ConsoleStorage(WorkerExecutor worker, EmbeddedDatabase embedded, SliStore store) {
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
  public static Future<ConsoleStorage> open(Vertx vertx, ConsoleConfig config) {
    Objects.requireNonNull(vertx, "vertx");
    Objects.requireNonNull(config, "config");
    WorkerExecutor worker = vertx.createSharedWorkerExecutor(WORKER_POOL, 1);
    AtomicReference<EmbeddedDatabase> started = new AtomicReference<>();
    return worker
        .executeBlocking(() -> startEmbedded(config, started))
        .compose(db -> worker.executeBlocking(() -> migrate(config, db)))
        .map(
            db ->
                new ConsoleStorage(
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
      ConsoleConfig config, AtomicReference<EmbeddedDatabase> started) {
    if (!config.embeddedDatabase()) {
      return null;
    }
    EmbeddedDatabase db = EmbeddedDatabase.start(config.dbDataDir(), config.dbWorkDir());
    started.set(db);
    LOG.info("embedded PostgreSQL on port {} with data in {}", db.port(), config.dbDataDir());
    return db;
  }

  private static EmbeddedDatabase migrate(ConsoleConfig config, EmbeddedDatabase db) {
    int applied =
        db == null
            ? Migrations.migrate(config.dbUrl(), config.dbUser(), config.dbPassword())
            : Migrations.migrate(db.jdbcUrl(), EmbeddedDatabase.USER, "");
    LOG.info("SLI store schema up to date ({} migrations applied)", applied);
    return db;
  }

  private static PgConnectOptions connectOptions(ConsoleConfig config, EmbeddedDatabase db) {
    return db == null
        ? SliStore.connectOptions(config.dbUrl(), config.dbUser(), config.dbPassword())
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

  /** The store, for {@link ConsoleServer#start}. */
  public SliStore store() {
    return store;
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
