package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnectOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the store the configuration asks for: the embedded PostgreSQL ({@code sloconsole.db.url}
 * empty; data in {@code sloconsole.db.data-dir}, binaries in {@code sloconsole.db.work-dir}) or an
 * external one ({@code jdbc:postgresql://...} with {@code sloconsole.db.user}/{@code .password}),
 * migrates it with Flyway and connects the one vertx-pg-client pool. The blocking steps (server
 * start, JDBC migration, server stop and restart) run on the named worker pool {@code
 * sloconsole-db} (1 thread).
 *
 * <p>Failing database: every connection carries the server-side {@code statement_timeout}, {@code
 * lock_timeout} and {@code idle_in_transaction_session_timeout}; TCP connects and waits for a free
 * connection give up after the connect timeout; and every store Future has a client-side deadline
 * of {@link #failureBound()} (a frozen server keeps its sockets open and never answers), after
 * which it fails with {@link StoreUnavailableException}. A probe ({@code select 1}) every {@code
 * probe-interval} keeps {@link #status()} current; when the embedded server's postmaster has died,
 * the probe restarts it on the same port and data directory (crash recovery replays the WAL), and
 * the pool reconnects without a console restart.
 */
public final class Database {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);

  /** Name of the worker pool used for blocking database work. */
  public static final String WORKER_POOL = "sloconsole-db";

  private static final int MAX_CONNECTIONS = 8;

  /**
   * The deadline of a statement under the default configuration: connect 5 s + statement 5 s + 1 s.
   */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(11);

  private final Vertx vertx;
  private final DatabaseConfig config;
  private final WorkerExecutor worker;
  private final AtomicReference<EmbeddedDatabase> embedded;
  private final SliStore store;
  private final Clock clock;
  private final AtomicReference<DatabaseStatus> status;
  private final AtomicLong restarts = new AtomicLong();
  private final AtomicBoolean probing = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final long probeTimer;

  private Database(
      Vertx vertx,
      DatabaseConfig config,
      WorkerExecutor worker,
      AtomicReference<EmbeddedDatabase> embedded,
      Clock clock) {
    this.vertx = vertx;
    this.config = config;
    this.worker = worker;
    this.embedded = embedded;
    this.clock = clock;
    this.store = new SliStore(pool(vertx, config, embedded), failureBound(config));
    this.status = new AtomicReference<>(new DatabaseStatus(true, clock.instant(), null, 0));
    this.probeTimer = vertx.setPeriodic(config.probeInterval().toMillis(), t -> probe());
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
        .map(db -> new Database(vertx, config, worker, started, Clock.systemUTC()))
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
    LOG.info("store schema up to date ({} migrations applied)", applied);
    return db;
  }

  /**
   * The one pool. Connect options are read at each new connection, so a restarted embedded server
   * is found even on another port.
   */
  private static Pool pool(
      Vertx vertx, DatabaseConfig config, AtomicReference<EmbeddedDatabase> embedded) {
    long statementMs = config.statementTimeout().toMillis();
    NetClientOptions net =
        new NetClientOptions().setConnectTimeout((int) config.connectTimeout().toMillis());
    PoolOptions pool =
        new PoolOptions()
            .setMaxSize(MAX_CONNECTIONS)
            .setConnectionTimeout((int) config.connectTimeout().toMillis())
            .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS);
    return PgBuilder.pool()
        .with(pool)
        .with(net)
        .connectingTo(
            () -> {
              EmbeddedDatabase db = embedded.get();
              PgConnectOptions o =
                  db == null
                      ? SliStore.connectOptions(config.url(), config.user(), config.password())
                      : db.connectOptions();
              return Future.<SqlConnectOptions>succeededFuture(timeouts(o, statementMs));
            })
        .using(vertx)
        .build();
  }

  /** Server-side limits sent in the startup packet of every connection. */
  static PgConnectOptions timeouts(PgConnectOptions o, long statementMs) {
    return o.addProperty("statement_timeout", String.valueOf(statementMs))
        .addProperty("lock_timeout", String.valueOf(statementMs))
        .addProperty("idle_in_transaction_session_timeout", String.valueOf(2 * statementMs));
  }

  /** One probe: {@code select 1}; on failure a dead embedded postmaster is restarted. */
  private void probe() {
    if (closed.get() || !probing.compareAndSet(false, true)) {
      return;
    }
    StoreErrors.guard(pool().query("select 1").execute(), failureBound())
        .<Void>map(x -> null)
        .onSuccess(x -> mark(true, null))
        .recover(
            e -> {
              mark(false, StoreErrors.unavailable(e).orElse("probe failed"));
              return restartIfDead();
            })
        .onComplete(x -> probing.set(false));
  }

  private void mark(boolean up, String reason) {
    DatabaseStatus prev = status.get();
    if (prev.up() == up && Objects.equals(prev.reason(), reason)) {
      return;
    }
    DatabaseStatus next =
        new DatabaseStatus(
            up, prev.up() == up ? prev.since() : clock.instant(), reason, restarts.get());
    status.set(next);
    if (up) {
      LOG.info("database is available again (down since {})", prev.since());
    } else {
      LOG.warn("database unavailable: {}", reason);
    }
  }

  /** Restarts the embedded server when its postmaster is gone; a no-op otherwise. */
  private Future<Void> restartIfDead() {
    EmbeddedDatabase db = embedded.get();
    if (db == null || closed.get()) {
      return Future.succeededFuture();
    }
    return worker.executeBlocking(
        () -> {
          if (db.alive() || closed.get()) {
            return null;
          }
          LOG.warn("embedded PostgreSQL (port {}) has died; restarting it", db.port());
          stopQuietly(db);
          EmbeddedDatabase again =
              EmbeddedDatabase.start(config.dataDir(), config.workDir(), db.port());
          embedded.set(again);
          restarts.incrementAndGet();
          LOG.info("embedded PostgreSQL restarted on port {}", again.port());
          return null;
        });
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
  public Pool pool() {
    return store.pool();
  }

  /** The embedded server now (a new object after a restart), or {@code null} when external. */
  public EmbeddedDatabase embedded() {
    return embedded.get();
  }

  /** The configuration this database was opened with. */
  public DatabaseConfig config() {
    return config;
  }

  /** The database as the last probe saw it; never null, cheap (a volatile read). */
  public DatabaseStatus status() {
    DatabaseStatus s = status.get();
    return s.restarts() == restarts.get()
        ? s
        : new DatabaseStatus(s.up(), s.since(), s.reason(), restarts.get());
  }

  /** Probes now instead of at the next tick (tests, and callers that just saw a failure). */
  public void probeNow() {
    vertx.runOnContext(v -> probe());
  }

  /**
   * How long a store waits for one statement at most before failing it with {@link
   * StoreUnavailableException}: connect timeout + statement timeout + 1 s.
   */
  public Duration failureBound() {
    return failureBound(config);
  }

  private static Duration failureBound(DatabaseConfig config) {
    return config.connectTimeout().plus(config.statementTimeout()).plusSeconds(1);
  }

  /** A plan and audit store on the pool, with this database's deadline. */
  public RemediationStore remediationStore() {
    return new RemediationStore(pool(), failureBound());
  }

  /** An SLO store on the pool, with this database's deadline. */
  public SloStore sloStore() {
    return new SloStore(pool(), failureBound());
  }

  /**
   * Stops the probe, closes the pool, then stops the embedded server (if any) on the worker pool.
   *
   * @return completes when everything is closed; fails when stopping the server fails
   */
  public Future<Void> close() {
    closed.set(true);
    vertx.cancelTimer(probeTimer);
    return store
        .close()
        .compose(
            v ->
                worker.<Void>executeBlocking(
                    () -> {
                      EmbeddedDatabase db = embedded.get();
                      if (db != null) {
                        db.close();
                      }
                      return null;
                    }))
        .eventually(worker::close);
  }
}
