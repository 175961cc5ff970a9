package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
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
import org.sandboxslo.engine.slo.SloLedger;

/**
 * PostgreSQL persistence of the SLO subsystem (migration {@code V2__slo_budget.sql}): user SLO
 * definitions ({@code slo_definition}: name, JSON body), budget history ({@code slo_budget_bucket}:
 * per SLO, {@link BudgetOwner}, resolution and bucket start the good/valid counts, upserted; {@code
 * V4__slo_budget_owner.sql}) and budget exclusions ({@code slo_exclusion}: from, to, reason,
 * author, created_at; append-only audit). SQL is rendered by jOOQ with {@code $n} markers and run
 * by vertx-pg-client. Definition and exclusion writes commit durably ({@link DurableWrites}); every
 * Future fails with {@link StoreUnavailableException} when the database is unavailable.
 */
public final class SloStore {
  static final Table<?> DEF = DSL.table(DSL.name("slo_definition"));
  static final Field<String> DEF_NAME = DSL.field(DSL.name("name"), SQLDataType.CLOB);
  static final Field<String> DEF_BODY = DSL.field(DSL.name("body"), SQLDataType.CLOB);
  static final Field<String> DEF_AUTHOR = DSL.field(DSL.name("author"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> DEF_CREATED =
      DSL.field(DSL.name("created_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));

  static final Table<?> BUCKET = DSL.table(DSL.name("slo_budget_bucket"));
  static final Field<String> B_SLO = DSL.field(DSL.name("slo"), SQLDataType.CLOB);
  static final Field<String> B_OWNER = DSL.field(DSL.name("owner"), SQLDataType.CLOB);
  static final Field<String> B_RES = DSL.field(DSL.name("resolution"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> B_START =
      DSL.field(DSL.name("bucket_start"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<Long> B_WIDTH = DSL.field(DSL.name("width_ms"), SQLDataType.BIGINT);
  static final Field<Long> B_GOOD = DSL.field(DSL.name("good"), SQLDataType.BIGINT);
  static final Field<Long> B_VALID = DSL.field(DSL.name("valid"), SQLDataType.BIGINT);
  static final Field<OffsetDateTime> B_UPDATED =
      DSL.field(DSL.name("updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));

  static final Table<?> EXCL = DSL.table(DSL.name("slo_exclusion"));
  static final Field<Long> X_ID = DSL.field(DSL.name("id"), SQLDataType.BIGINT);
  static final Field<String> X_SLO = DSL.field(DSL.name("slo"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> X_FROM =
      DSL.field(DSL.name("from_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<OffsetDateTime> X_TO =
      DSL.field(DSL.name("to_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<String> X_REASON = DSL.field(DSL.name("reason"), SQLDataType.CLOB);
  static final Field<String> X_AUTHOR = DSL.field(DSL.name("author"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> X_CREATED =
      DSL.field(DSL.name("created_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));

  private static final DSLContext SQL =
      DSL.using(
          SQLDialect.POSTGRES,
          new Settings()
              .withParamType(ParamType.NAMED)
              .withRenderNamedParamPrefix("$")
              .withRenderSchema(false));

  private static final String UPSERT_DEF =
      SQL.insertInto(DEF, DEF_NAME, DEF_BODY, DEF_AUTHOR)
          .values(
              DSL.val((String) null, DEF_NAME),
              DSL.val((String) null, DEF_BODY),
              DSL.val((String) null, DEF_AUTHOR))
          .onConflict(DEF_NAME)
          .doUpdate()
          .set(DEF_BODY, DSL.excluded(DEF_BODY))
          .set(DEF_AUTHOR, DSL.excluded(DEF_AUTHOR))
          .getSQL();

  private static final String UPSERT_BUCKET =
      SQL.insertInto(BUCKET, B_SLO, B_OWNER, B_RES, B_START, B_WIDTH, B_GOOD, B_VALID)
          .values(
              DSL.val((String) null, B_SLO),
              DSL.val((String) null, B_OWNER),
              DSL.val((String) null, B_RES),
              DSL.val((OffsetDateTime) null, B_START),
              DSL.val((Long) null, B_WIDTH),
              DSL.val((Long) null, B_GOOD),
              DSL.val((Long) null, B_VALID))
          .onConflict(B_SLO, B_OWNER, B_RES, B_START)
          .doUpdate()
          .set(B_WIDTH, DSL.excluded(B_WIDTH))
          .set(B_GOOD, DSL.excluded(B_GOOD))
          .set(B_VALID, DSL.excluded(B_VALID))
          .set(B_UPDATED, DSL.currentOffsetDateTime())
          .getSQL();

  private static final String INSERT_EXCL =
      SQL.insertInto(EXCL, X_SLO, X_FROM, X_TO, X_REASON, X_AUTHOR)
          .values(
              DSL.val((String) null, X_SLO),
              DSL.val((OffsetDateTime) null, X_FROM),
              DSL.val((OffsetDateTime) null, X_TO),
              DSL.val((String) null, X_REASON),
              DSL.val((String) null, X_AUTHOR))
          .returning(X_ID, X_CREATED)
          .getSQL();

  /**
   * A stored user SLO.
   *
   * @param name SLO name
   * @param body the POSTed JSON body
   */
  public record StoredDefinition(String name, JsonObject body) {}

  /**
   * An audited budget exclusion.
   *
   * @param id row id
   * @param slo SLO name
   * @param from start (inclusive)
   * @param to end (exclusive)
   * @param reason why
   * @param author who
   * @param createdAt when it was recorded
   */
  public record StoredExclusion(
      long id,
      String slo,
      Instant from,
      Instant to,
      String reason,
      String author,
      Instant createdAt) {}

  private final Pool pool;
  private final Duration deadline;

  /**
   * @param pool a pool on a migrated database; not closed here
   * @param deadline how long a statement is waited for at most ({@link Database#failureBound()})
   */
  public SloStore(Pool pool, Duration deadline) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  /**
   * With the deadline of the default database configuration ({@link Database#DEFAULT_DEADLINE}).
   */
  public SloStore(Pool pool) {
    this(pool, Database.DEFAULT_DEADLINE);
  }

  /** Creates or replaces a user SLO definition, durably. */
  public Future<Void> putDefinition(String name, JsonObject body, String author) {
    return DurableWrites.run(
            pool,
            deadline,
            c -> c.preparedQuery(UPSERT_DEF).execute(Tuple.of(name, body.encode(), author)))
        .mapEmpty();
  }

  /**
   * Deletes a user SLO and its own ({@link BudgetOwner#USER}) budget buckets in one durable
   * transaction; the buckets of a default or file SLO of the same name stay. Exclusions stay (they
   * are an audit trail).
   *
   * @return true when a definition was deleted
   */
  public Future<Boolean> deleteDefinition(String name) {
    Query d = SQL.deleteFrom(DEF).where(DEF_NAME.eq(name));
    Query b =
        SQL.deleteFrom(BUCKET).where(B_SLO.eq(name)).and(B_OWNER.eq(BudgetOwner.USER.wireName()));
    return DurableWrites.run(
        pool,
        deadline,
        c ->
            c.preparedQuery(d.getSQL())
                .execute(Tuple.from(d.getBindValues()))
                .compose(
                    rs ->
                        c.preparedQuery(b.getSQL())
                            .execute(Tuple.from(b.getBindValues()))
                            .map(rs.rowCount() > 0)));
  }

  public Future<List<StoredDefinition>> definitions() {
    Query q = SQL.select(DEF_NAME, DEF_BODY).from(DEF).orderBy(DEF_CREATED, DEF_NAME);
    return read(q)
        .map(
            rs -> {
              List<StoredDefinition> out = new ArrayList<>();
              for (Row r : rs) {
                out.add(new StoredDefinition(r.getString(0), new JsonObject(r.getString(1))));
              }
              return out;
            });
  }

  private Future<io.vertx.sqlclient.RowSet<Row>> read(Query q) {
    return StoreErrors.guard(
        pool.preparedQuery(q.getSQL()).execute(Tuple.from(q.getBindValues())), deadline);
  }

  /** Upserts buckets of one SLO of {@code owner}; returns the number written. */
  public Future<Integer> putBuckets(String slo, BudgetOwner owner, List<SloLedger.Bucket> buckets) {
    if (buckets.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<Tuple> rows = new ArrayList<>();
    for (SloLedger.Bucket b : buckets) {
      rows.add(
          Tuple.of(
              slo,
              owner.wireName(),
              b.resolution(),
              b.start().atOffset(ZoneOffset.UTC),
              b.width().toMillis(),
              b.good(),
              b.valid()));
    }
    return StoreErrors.guard(pool.preparedQuery(UPSERT_BUCKET).executeBatch(rows), deadline)
        .map(rows.size());
  }

  /**
   * Stored buckets of one SLO of {@code owner} starting at or after {@code since}, oldest first.
   */
  public Future<List<SloLedger.Bucket>> buckets(String slo, BudgetOwner owner, Instant since) {
    Query q =
        SQL.select(B_RES, B_START, B_WIDTH, B_GOOD, B_VALID)
            .from(BUCKET)
            .where(B_SLO.eq(slo))
            .and(B_OWNER.eq(owner.wireName()))
            .and(B_START.ge(since.atOffset(ZoneOffset.UTC)))
            .orderBy(B_START);
    return read(q)
        .map(
            rs -> {
              List<SloLedger.Bucket> out = new ArrayList<>();
              for (Row r : rs) {
                out.add(
                    new SloLedger.Bucket(
                        r.getString(0),
                        r.getOffsetDateTime(1).toInstant(),
                        Duration.ofMillis(r.getLong(2)),
                        r.getLong(3),
                        r.getLong(4)));
              }
              return out;
            });
  }

  /** Deletes buckets that started before {@code before} (older than every period). */
  public Future<Integer> pruneBuckets(Instant before) {
    Query q = SQL.deleteFrom(BUCKET).where(B_START.lt(before.atOffset(ZoneOffset.UTC)));
    return read(q).map(rs -> rs.rowCount());
  }

  /** Adds a budget exclusion, durably. */
  public Future<StoredExclusion> addExclusion(
      String slo, Instant from, Instant to, String reason, String author) {
    return DurableWrites.run(
            pool,
            deadline,
            c ->
                c.preparedQuery(INSERT_EXCL)
                    .execute(
                        Tuple.of(
                            slo,
                            from.atOffset(ZoneOffset.UTC),
                            to.atOffset(ZoneOffset.UTC),
                            reason,
                            author)))
        .map(
            rs -> {
              Row r = rs.iterator().next();
              return new StoredExclusion(
                  r.getLong(0), slo, from, to, reason, author, r.getOffsetDateTime(1).toInstant());
            });
  }

  public Future<List<StoredExclusion>> exclusions() {
    Query q =
        SQL.select(X_ID, X_SLO, X_FROM, X_TO, X_REASON, X_AUTHOR, X_CREATED)
            .from(EXCL)
            .orderBy(X_ID);
    return read(q)
        .map(
            rs -> {
              List<StoredExclusion> out = new ArrayList<>();
              for (Row r : rs) {
                out.add(
                    new StoredExclusion(
                        r.getLong(0),
                        r.getString(1),
                        r.getOffsetDateTime(2).toInstant(),
                        r.getOffsetDateTime(3).toInstant(),
                        r.getString(4),
                        r.getString(5),
                        r.getOffsetDateTime(6).toInstant()));
              }
              return out;
            });
  }
}
