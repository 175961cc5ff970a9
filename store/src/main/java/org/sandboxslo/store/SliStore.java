package org.sandboxslo.store;

import static org.sandboxslo.store.jooq.Tables.SLI_SNAPSHOT;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.Scope;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;

/**
 * SLI history in PostgreSQL, table {@code sli_snapshot} (see {@code V1__sli_snapshots.sql}). SQL is
 * built with jOOQ (fields generated from the migrations, rendered for {@link SQLDialect#POSTGRES}
 * with {@code $n} bind markers) and executed by vertx-pg-client; nothing here blocks. Snapshot rows
 * commit without waiting for the WAL flush (the embedded server's default: a crash of the server
 * may lose the last fraction of a second of them; they are SLI history, not audit), and Futures
 * fail with {@link StoreUnavailableException} when the database is unavailable. Rows are written
 * for the template and pool scopes only (namespace aggregates are recomputed from them).
 *
 * <p>SLI names: see {@link SliName} ({@code warm_hit_ratio}, {@code warm_launches}, {@code
 * cold_launches}, {@code claim_to_ready_p50_seconds}, {@code claim_to_ready_p95_seconds}, {@code
 * claim_to_ready_p99_seconds}, {@code claim_to_ready_warm_p95_seconds}, {@code
 * claim_to_ready_cold_p95_seconds}, {@code cold_start_p95_seconds}, {@code resume_error_ratio};
 * pool-state, window {@code now}: {@code pool_ready_fraction}, {@code
 * pool_ready_fraction_current_template}, {@code stale_members}).
 */
public final class SliStore {
  private static final DSLContext SQL = Sql.SQL;

  private static final String INSERT =
      SQL.insertInto(
              SLI_SNAPSHOT,
              SLI_SNAPSHOT.AT,
              SLI_SNAPSHOT.SCOPE,
              SLI_SNAPSHOT.NAMESPACE,
              SLI_SNAPSHOT.NAME,
              SLI_SNAPSHOT.SLI_WINDOW,
              SLI_SNAPSHOT.SLI,
              SLI_SNAPSHOT.VALUE)
          .values(
              DSL.val((OffsetDateTime) null, SLI_SNAPSHOT.AT),
              DSL.val((String) null, SLI_SNAPSHOT.SCOPE),
              DSL.val((String) null, SLI_SNAPSHOT.NAMESPACE),
              DSL.val((String) null, SLI_SNAPSHOT.NAME),
              DSL.val((String) null, SLI_SNAPSHOT.SLI_WINDOW),
              DSL.val((String) null, SLI_SNAPSHOT.SLI),
              DSL.val((Double) null, SLI_SNAPSHOT.VALUE))
          .getSQL();

  private final Pool pool;
  private final Duration deadline;

  /**
   * @param pool a vertx-pg-client pool on a migrated database (see {@link Migrations}); closed by
   *     {@link #close()}
   * @param deadline how long a statement is waited for at most ({@link Database#failureBound()})
   */
  public SliStore(Pool pool, Duration deadline) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  /**
   * With the deadline of the default database configuration ({@link Database#DEFAULT_DEADLINE}).
   */
  public SliStore(Pool pool) {
    this(pool, Database.DEFAULT_DEADLINE);
  }

  /** The pool this store queries (shared with the other stores). */
  public Pool pool() {
    return pool;
  }

  /** Creates a store on a new pool of at most {@code maxConnections} connections. */
  public static SliStore connect(Vertx vertx, PgConnectOptions options, int maxConnections) {
    Pool pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(maxConnections))
            .connectingTo(options)
            .using(vertx)
            .build();
    return new SliStore(pool);
  }

  /**
   * Connection options from a JDBC URL ({@code jdbc:postgresql://host:port/db}), as used by Flyway,
   * plus credentials.
   *
   * @throws IllegalArgumentException when the URL does not start with {@code jdbc:postgresql://}
   */
  public static PgConnectOptions connectOptions(String jdbcUrl, String user, String password) {
    if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql://")) {
      throw new IllegalArgumentException(
          "sloconsole.db.url: expected jdbc:postgresql://host:port/database, got '"
              + jdbcUrl
              + "'");
    }
    return PgConnectOptions.fromUri(jdbcUrl.substring("jdbc:".length()))
        .setUser(user)
        .setPassword(password);
  }

  /**
   * Writes one row per (template or pool) × window × SLI of {@code snapshot}, all at {@code
   * snapshot.at()}: windowed SLIs once per window (window written as {@link Durations#format}, e.g.
   * {@code 5m}), pool-state SLIs once with window {@code now}. No data is written as SQL NULL.
   *
   * @return the number of rows written (0 for a snapshot without templates and pools); a failed
   *     Future when the database rejects the batch (nothing is written then)
   */
  public Future<Integer> write(FleetSnapshot snapshot) {
    List<Tuple> rows = rows(snapshot);
    if (rows.isEmpty()) {
      return Future.succeededFuture(0);
    }
    return StoreErrors.guard(pool.preparedQuery(INSERT).executeBatch(rows), deadline)
        .map(rows.size());
  }

  static List<Tuple> rows(FleetSnapshot snapshot) {
    OffsetDateTime at = snapshot.at().atOffset(ZoneOffset.UTC);
    List<Tuple> rows = new ArrayList<>();
    for (List<SliSnapshot> subjects : List.of(snapshot.templates(), snapshot.pools())) {
      for (SliSnapshot s : subjects) {
        String scope = scopeName(s.key().scope());
        for (WindowSlis w : s.windows()) {
          String window = Durations.format(w.window());
          for (SliName sli : SliName.values()) {
            if (!sli.poolState()) {
              rows.add(row(at, scope, s, window, sli, sli.value(w)));
            }
          }
        }
        for (SliName sli : SliName.values()) {
          if (sli.poolState()) {
            rows.add(row(at, scope, s, SliName.NOW_WINDOW, sli, sli.value(s.pool())));
          }
        }
      }
    }
    return rows;
  }

  private static Tuple row(
      OffsetDateTime at, String scope, SliSnapshot s, String window, SliName sli, Double value) {
    return Tuple.of(at, scope, s.key().namespace(), s.key().name(), window, sli.wireName())
        .addDouble(value);
  }

  /**
   * The stored values of one series between {@code from} and {@code to} (both inclusive), oldest
   * first.
   *
   * @param scope {@link Scope#TEMPLATE} or {@link Scope#POOL}
   * @param sli an {@link SliName} wire name
   * @param window e.g. {@code 5m}; {@code now} for pool-state SLIs
   * @return the points, possibly empty; a failed Future when the query fails
   */
  public Future<List<HistoryPoint>> history(
      Scope scope,
      String namespace,
      String name,
      String sli,
      String window,
      Instant from,
      Instant to) {
    Query q =
        SQL.select(SLI_SNAPSHOT.AT, SLI_SNAPSHOT.VALUE)
            .from(SLI_SNAPSHOT)
            .where(SLI_SNAPSHOT.SCOPE.eq(scopeName(scope)))
            .and(SLI_SNAPSHOT.NAMESPACE.eq(namespace))
            .and(SLI_SNAPSHOT.NAME.eq(name))
            .and(SLI_SNAPSHOT.SLI.eq(sli))
            .and(SLI_SNAPSHOT.SLI_WINDOW.eq(window))
            .and(
                SLI_SNAPSHOT.AT.between(from.atOffset(ZoneOffset.UTC), to.atOffset(ZoneOffset.UTC)))
            .orderBy(SLI_SNAPSHOT.AT);
    return StoreErrors.guard(
            pool.preparedQuery(q.getSQL()).execute(Tuple.from(q.getBindValues())), deadline)
        .map(
            rs -> {
              List<HistoryPoint> points = new ArrayList<>(rs.size());
              for (Row r : rs) {
                points.add(new HistoryPoint(r.getOffsetDateTime(0).toInstant(), r.getDouble(1)));
              }
              return points;
            });
  }

  /**
   * Deletes one batch of rows older than {@code $1}, at most {@code $2} rows (by {@code ctid}, so a
   * batch is one short statement however large the backlog).
   */
  static final String PRUNE_BATCH =
      "delete from sli_snapshot where ctid in"
          + " (select ctid from sli_snapshot where at < $1 limit $2)";

  /**
   * Retention: deletes rows with {@code at} before {@code before}, in batches of at most {@code
   * batchSize} rows, one statement per batch, stopping after a short batch or {@code maxBatches}
   * (the rest goes on the next call), so a large backlog never holds one long transaction.
   *
   * @param batchSize rows per statement, &gt; 0
   * @param maxBatches statements per call, &gt; 0
   * @return the number of rows deleted; a failed Future when a statement fails (earlier batches
   *     stay deleted)
   * @throws IllegalArgumentException for a non-positive batch size or count
   */
  public Future<Long> prune(Instant before, int batchSize, int maxBatches) {
    Objects.requireNonNull(before, "before");
    if (batchSize <= 0 || maxBatches <= 0) {
      throw new IllegalArgumentException(
          "batchSize and maxBatches must be > 0, got " + batchSize + " and " + maxBatches);
    }
    return pruneBatches(before.atOffset(ZoneOffset.UTC), batchSize, maxBatches, 0L);
  }

  private Future<Long> pruneBatches(
      OffsetDateTime before, int batchSize, int batchesLeft, long deleted) {
    return pool.preparedQuery(PRUNE_BATCH)
        .execute(Tuple.of(before, batchSize))
        .compose(
            rs -> {
              long total = deleted + rs.rowCount();
              return rs.rowCount() < batchSize || batchesLeft <= 1
                  ? Future.succeededFuture(total)
                  : pruneBatches(before, batchSize, batchesLeft - 1, total);
            });
  }

  /** The number of stored rows; a failed Future when the query fails. */
  public Future<Long> count() {
    return StoreErrors.guard(
            pool.query(SQL.selectCount().from(SLI_SNAPSHOT).getSQL()).execute(), deadline)
        .map(rs -> rs.iterator().next().getLong(0));
  }

  /** Closes the pool. */
  public Future<Void> close() {
    return pool.close();
  }

  /** The SQL of the row insert, for tests and logs. */
  static String insertSql() {
    return INSERT;
  }

  static String scopeName(Scope scope) {
    if (scope == Scope.NAMESPACE) {
      throw new IllegalArgumentException("the store keeps template and pool scopes only");
    }
    return scope.name().toLowerCase(Locale.ROOT);
  }
}
