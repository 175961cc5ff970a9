package org.sandboxslo.store;

import static org.sandboxslo.store.jooq.Tables.SLO_BUDGET_BUCKET;
import static org.sandboxslo.store.jooq.Tables.SLO_DEFINITION;
import static org.sandboxslo.store.jooq.Tables.SLO_EXCLUSION;

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
import org.jooq.Query;
import org.jooq.impl.DSL;
import org.sandboxslo.engine.slo.SloLedger;

/**
 * PostgreSQL persistence of the SLO subsystem (migration {@code V2__slo_budget.sql}): user SLO
 * definitions ({@code slo_definition}: name, JSON body), budget history ({@code slo_budget_bucket}:
 * per SLO, {@link BudgetOwner}, resolution and bucket start the good/valid counts, upserted; {@code
 * V6__slo_budget_owner.sql}) and budget exclusions ({@code slo_exclusion}: from, to, reason,
 * author, created_at; revoked by setting {@code revoked_at, revoked_by, revoke_reason} ({@code
 * V5__caller_safety.sql}), never deleted). SLO changes are audited in {@code remediation_audit}
 * ({@link #audit}). SQL is rendered by jOOQ with {@code $n} markers and run by vertx-pg-client.
 * Definition, exclusion and audit writes commit durably ({@link DurableWrites}); every Future fails
 * with {@link StoreUnavailableException} when the database is unavailable.
 */
public final class SloStore {
  private static final DSLContext SQL = Sql.SQL;

  private static final String UPSERT_DEF =
      SQL.insertInto(
              SLO_DEFINITION, SLO_DEFINITION.NAME, SLO_DEFINITION.BODY, SLO_DEFINITION.AUTHOR)
          .values(
              DSL.val((String) null, SLO_DEFINITION.NAME),
              DSL.val((String) null, SLO_DEFINITION.BODY),
              DSL.val((String) null, SLO_DEFINITION.AUTHOR))
          .onConflict(SLO_DEFINITION.NAME)
          .doUpdate()
          .set(SLO_DEFINITION.BODY, DSL.excluded(SLO_DEFINITION.BODY))
          .set(SLO_DEFINITION.AUTHOR, DSL.excluded(SLO_DEFINITION.AUTHOR))
          .getSQL();

  private static final String UPSERT_BUCKET =
      SQL.insertInto(
              SLO_BUDGET_BUCKET,
              SLO_BUDGET_BUCKET.SLO,
              SLO_BUDGET_BUCKET.OWNER,
              SLO_BUDGET_BUCKET.RESOLUTION,
              SLO_BUDGET_BUCKET.BUCKET_START,
              SLO_BUDGET_BUCKET.WIDTH_MS,
              SLO_BUDGET_BUCKET.GOOD,
              SLO_BUDGET_BUCKET.VALID)
          .values(
              DSL.val((String) null, SLO_BUDGET_BUCKET.SLO),
              DSL.val((String) null, SLO_BUDGET_BUCKET.OWNER),
              DSL.val((String) null, SLO_BUDGET_BUCKET.RESOLUTION),
              DSL.val((OffsetDateTime) null, SLO_BUDGET_BUCKET.BUCKET_START),
              DSL.val((Long) null, SLO_BUDGET_BUCKET.WIDTH_MS),
              DSL.val((Long) null, SLO_BUDGET_BUCKET.GOOD),
              DSL.val((Long) null, SLO_BUDGET_BUCKET.VALID))
          .onConflict(
              SLO_BUDGET_BUCKET.SLO,
              SLO_BUDGET_BUCKET.OWNER,
              SLO_BUDGET_BUCKET.RESOLUTION,
              SLO_BUDGET_BUCKET.BUCKET_START)
          .doUpdate()
          .set(SLO_BUDGET_BUCKET.WIDTH_MS, DSL.excluded(SLO_BUDGET_BUCKET.WIDTH_MS))
          .set(SLO_BUDGET_BUCKET.GOOD, DSL.excluded(SLO_BUDGET_BUCKET.GOOD))
          .set(SLO_BUDGET_BUCKET.VALID, DSL.excluded(SLO_BUDGET_BUCKET.VALID))
          .set(SLO_BUDGET_BUCKET.UPDATED_AT, DSL.currentOffsetDateTime())
          .getSQL();

  private static final String INSERT_EXCL =
      SQL.insertInto(
              SLO_EXCLUSION,
              SLO_EXCLUSION.SLO,
              SLO_EXCLUSION.FROM_AT,
              SLO_EXCLUSION.TO_AT,
              SLO_EXCLUSION.REASON,
              SLO_EXCLUSION.AUTHOR)
          .values(
              DSL.val((String) null, SLO_EXCLUSION.SLO),
              DSL.val((OffsetDateTime) null, SLO_EXCLUSION.FROM_AT),
              DSL.val((OffsetDateTime) null, SLO_EXCLUSION.TO_AT),
              DSL.val((String) null, SLO_EXCLUSION.REASON),
              DSL.val((String) null, SLO_EXCLUSION.AUTHOR))
          .returning(SLO_EXCLUSION.ID, SLO_EXCLUSION.CREATED_AT)
          .getSQL();

  /**
   * A stored user SLO.
   *
   * @param name SLO name
   * @param body the POSTed JSON body, or null when the stored text is not a JSON object
   * @param error why the row cannot be read, or null
   */
  public record StoredDefinition(String name, JsonObject body, String error) {
    public StoredDefinition(String name, JsonObject body) {
      this(name, body, null);
    }
  }

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
    Query d = SQL.deleteFrom(SLO_DEFINITION).where(SLO_DEFINITION.NAME.eq(name));
    Query b =
        SQL.deleteFrom(SLO_BUDGET_BUCKET)
            .where(SLO_BUDGET_BUCKET.SLO.eq(name))
            .and(SLO_BUDGET_BUCKET.OWNER.eq(BudgetOwner.USER.wireName()));
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
    Query q =
        SQL.select(SLO_DEFINITION.NAME, SLO_DEFINITION.BODY)
            .from(SLO_DEFINITION)
            .orderBy(SLO_DEFINITION.CREATED_AT, SLO_DEFINITION.NAME);
    return read(q)
        .map(
            rs -> {
              List<StoredDefinition> out = new ArrayList<>();
              for (Row r : rs) {
                out.add(definition(r.getString(0), r.getString(1)));
              }
              return out;
            });
  }

  private static StoredDefinition definition(String name, String body) {
    try {
      return new StoredDefinition(name, new JsonObject(body));
    } catch (RuntimeException e) {
      return new StoredDefinition(name, null, "the stored body is not a JSON object");
    }
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
        SQL.select(
                SLO_BUDGET_BUCKET.RESOLUTION,
                SLO_BUDGET_BUCKET.BUCKET_START,
                SLO_BUDGET_BUCKET.WIDTH_MS,
                SLO_BUDGET_BUCKET.GOOD,
                SLO_BUDGET_BUCKET.VALID)
            .from(SLO_BUDGET_BUCKET)
            .where(SLO_BUDGET_BUCKET.SLO.eq(slo))
            .and(SLO_BUDGET_BUCKET.OWNER.eq(owner.wireName()))
            .and(SLO_BUDGET_BUCKET.BUCKET_START.ge(since.atOffset(ZoneOffset.UTC)))
            .orderBy(SLO_BUDGET_BUCKET.BUCKET_START);
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
    Query q =
        SQL.deleteFrom(SLO_BUDGET_BUCKET)
            .where(SLO_BUDGET_BUCKET.BUCKET_START.lt(before.atOffset(ZoneOffset.UTC)));
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

  /**
   * Revokes an exclusion of {@code slo} that is not revoked yet, durably.
   *
   * @return true when this call revoked it; false when unknown, of another SLO or already revoked
   */
  public Future<Boolean> revokeExclusion(
      long id, String slo, String by, String reason, Instant at) {
    Query q =
        SQL.update(SLO_EXCLUSION)
            .set(SLO_EXCLUSION.REVOKED_AT, at.atOffset(ZoneOffset.UTC))
            .set(SLO_EXCLUSION.REVOKED_BY, by)
            .set(SLO_EXCLUSION.REVOKE_REASON, reason)
            .where(SLO_EXCLUSION.ID.eq(id))
            .and(SLO_EXCLUSION.SLO.eq(slo))
            .and(SLO_EXCLUSION.REVOKED_AT.isNull());
    return DurableWrites.run(
            pool, deadline, c -> c.preparedQuery(q.getSQL()).execute(Tuple.from(q.getBindValues())))
        .map(rs -> rs.rowCount() == 1);
  }

  /**
   * Appends an audit row for an SLO change to {@code remediation_audit} (the console's one audit
   * log, append-only), with {@code plan_id} and {@code step} null.
   *
   * @param actor the signed-in caller
   * @param what e.g. {@code slo.create}, {@code slo.delete}, {@code slo.exclude}, {@code
   *     slo.exclusion.revoke}
   * @param object e.g. {@code SLO warm-hit-demo-python}
   * @return the row's sequence number
   */
  public Future<Long> audit(
      String actor, String what, String object, String why, String result, Instant at) {
    return new RemediationStore(pool, deadline)
        .append(new AuditEntry(0, at, actor, what, null, null, object, why, result));
  }

  /** The exclusions that are not revoked, oldest first. */
  public Future<List<StoredExclusion>> exclusions() {
    Query q =
        SQL.select(
                SLO_EXCLUSION.ID,
                SLO_EXCLUSION.SLO,
                SLO_EXCLUSION.FROM_AT,
                SLO_EXCLUSION.TO_AT,
                SLO_EXCLUSION.REASON,
                SLO_EXCLUSION.AUTHOR,
                SLO_EXCLUSION.CREATED_AT)
            .from(SLO_EXCLUSION)
            .where(SLO_EXCLUSION.REVOKED_AT.isNull())
            .orderBy(SLO_EXCLUSION.ID);
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
