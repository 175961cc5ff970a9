package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.conf.ParamType;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * PostgreSQL storage of {@code Idempotency-Key}s (migration {@code V5__caller_safety.sql}, table
 * {@code idempotency_key}): per caller and key the fingerprint of the first request and, once it
 * was answered, its response, kept until {@code expires_at}. SQL is rendered by jOOQ with {@code
 * $n} markers and run by vertx-pg-client, as in {@link SloStore}.
 */
public final class IdempotencyStore {
  static final Table<?> KEYS = DSL.table(DSL.name("idempotency_key"));
  static final Field<String> CALLER = DSL.field(DSL.name("caller"), SQLDataType.CLOB);
  static final Field<String> KEY = DSL.field(DSL.name("key"), SQLDataType.CLOB);
  static final Field<String> HASH = DSL.field(DSL.name("request_hash"), SQLDataType.CLOB);
  static final Field<Integer> STATUS = DSL.field(DSL.name("status"), SQLDataType.INTEGER);
  static final Field<String> CONTENT_TYPE = DSL.field(DSL.name("content_type"), SQLDataType.CLOB);
  static final Field<String> BODY = DSL.field(DSL.name("body"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> EXPIRES =
      DSL.field(DSL.name("expires_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));

  private static final DSLContext SQL =
      DSL.using(
          SQLDialect.POSTGRES,
          new Settings()
              .withParamType(ParamType.NAMED)
              .withRenderNamedParamPrefix("$")
              .withRenderSchema(false));

  /**
   * What a key holds.
   *
   * @param requestHash fingerprint of the first request
   * @param status the stored response status, or null while the first request is in progress
   * @param contentType the stored response's content type, or null
   * @param body the stored response body, or null
   */
  public record Entry(String requestHash, Integer status, String contentType, String body) {
    public boolean answered() {
      return status != null;
    }
  }

  private final Pool pool;
  private final java.time.Duration deadline;

  /**
   * @param pool a pool on a database migrated with {@code V5__caller_safety.sql}; not closed here
   * @param deadline how long a statement is waited for at most ({@link Database#failureBound()});
   *     then the Future fails with {@link StoreUnavailableException}
   */
  public IdempotencyStore(Pool pool, java.time.Duration deadline) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  /**
   * With the deadline of the default database configuration ({@link Database#DEFAULT_DEADLINE}).
   */
  public IdempotencyStore(Pool pool) {
    this(pool, Database.DEFAULT_DEADLINE);
  }

  /**
   * Claims {@code key} for a new request, unless a live entry exists.
   *
   * @param now expired entries of the same key are replaced
   * @return null when this call claimed the key (the request goes ahead); otherwise the entry
   *     already held (answered: replay it; not answered: the first request is still in progress)
   */
  public Future<Entry> claim(
      String caller, String key, String requestHash, Instant now, Instant expires) {
    Query purge =
        SQL.deleteFrom(KEYS)
            .where(CALLER.eq(caller))
            .and(KEY.eq(key))
            .and(EXPIRES.le(now.atOffset(ZoneOffset.UTC)));
    Query insert =
        SQL.insertInto(KEYS, CALLER, KEY, HASH, EXPIRES)
            .values(caller, key, requestHash, expires.atOffset(ZoneOffset.UTC))
            .onConflictDoNothing();
    Query read =
        SQL.select(HASH, STATUS, CONTENT_TYPE, BODY)
            .from(KEYS)
            .where(CALLER.eq(caller))
            .and(KEY.eq(key));
    return run(purge)
        .compose(x -> run(insert))
        .compose(
            inserted ->
                inserted == 1
                    ? Future.succeededFuture((Entry) null)
                    : StoreErrors.guard(
                            pool.preparedQuery(read.getSQL())
                                .execute(Tuple.from(read.getBindValues())),
                            deadline)
                        .map(
                            rs -> {
                              if (!rs.iterator().hasNext()) {
                                return null; // expired and purged concurrently: go ahead
                              }
                              Row r = rs.iterator().next();
                              return new Entry(
                                  r.getString(0), r.getInteger(1), r.getString(2), r.getString(3));
                            }));
  }

  /** Stores the response of a claimed key. */
  public Future<Void> complete(
      String caller, String key, int status, String contentType, String body) {
    Query q =
        SQL.update(KEYS)
            .set(STATUS, status)
            .set(CONTENT_TYPE, contentType)
            .set(BODY, body)
            .where(CALLER.eq(caller))
            .and(KEY.eq(key));
    return run(q).mapEmpty();
  }

  /** Releases a claimed key without a stored response (the request failed; a retry may run). */
  public Future<Void> release(String caller, String key) {
    Query q = SQL.deleteFrom(KEYS).where(CALLER.eq(caller)).and(KEY.eq(key)).and(STATUS.isNull());
    return run(q).mapEmpty();
  }

  /** Deletes expired keys; the number deleted. */
  public Future<Integer> prune(Instant now) {
    return run(SQL.deleteFrom(KEYS).where(EXPIRES.le(now.atOffset(ZoneOffset.UTC))));
  }

  private Future<Integer> run(Query q) {
    return StoreErrors.guard(
            pool.preparedQuery(q.getSQL()).execute(Tuple.from(q.getBindValues())), deadline)
        .map(rs -> rs.rowCount());
  }
}
