package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jooq.Condition;
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
 * Plans and the audit log in PostgreSQL ({@code V3__remediation_audit.sql}). SQL is built with jOOQ
 * (rendered with {@code $n} bind markers) and run by vertx-pg-client; nothing blocks. The audit
 * table is append-only (a trigger refuses UPDATE and DELETE). Every write (plan insert, state
 * transition, progress, audit row) is committed synchronously ({@link DurableWrites}): once its
 * Future succeeds the row survives a crash of the database. Every Future fails with a {@link
 * StoreUnavailableException} when the database is unavailable, and with the database error when a
 * statement is refused.
 */
public final class RemediationStore {
  static final Table<?> PLAN = DSL.table(DSL.name("remediation_plan"));
  static final Table<?> AUDIT = DSL.table(DSL.name("remediation_audit"));
  static final Field<String> ID = DSL.field(DSL.name("id"), SQLDataType.CLOB);
  static final Field<String> ACTION = DSL.field(DSL.name("action"), SQLDataType.CLOB);
  static final Field<String> SUBJECT = DSL.field(DSL.name("subject"), SQLDataType.CLOB);
  static final Field<String> PARAMS = DSL.field(DSL.name("params"), SQLDataType.CLOB);
  static final Field<String> REASON = DSL.field(DSL.name("reason"), SQLDataType.CLOB);
  static final Field<String> STATE = DSL.field(DSL.name("state"), SQLDataType.CLOB);
  static final Field<String> PLANNED_BY = DSL.field(DSL.name("planned_by"), SQLDataType.CLOB);
  static final Field<String> APPROVED_BY = DSL.field(DSL.name("approved_by"), SQLDataType.CLOB);
  static final Field<String> EXECUTED_BY = DSL.field(DSL.name("executed_by"), SQLDataType.CLOB);
  static final Field<String> IDEMPOTENCY_KEY =
      DSL.field(DSL.name("idempotency_key"), SQLDataType.CLOB);
  static final Field<String> DRY_RUN = DSL.field(DSL.name("dry_run"), SQLDataType.CLOB);
  static final Field<String> PROGRESS = DSL.field(DSL.name("progress"), SQLDataType.CLOB);
  static final Field<String> RESULT = DSL.field(DSL.name("result"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> CREATED_AT =
      DSL.field(DSL.name("created_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<OffsetDateTime> UPDATED_AT =
      DSL.field(DSL.name("updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<Long> SEQ = DSL.field(DSL.name("seq"), SQLDataType.BIGINT);
  static final Field<OffsetDateTime> AT =
      DSL.field(DSL.name("at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<String> ACTOR = DSL.field(DSL.name("actor"), SQLDataType.CLOB);
  static final Field<String> WHAT = DSL.field(DSL.name("what"), SQLDataType.CLOB);
  static final Field<String> PLAN_ID = DSL.field(DSL.name("plan_id"), SQLDataType.CLOB);
  static final Field<Integer> STEP = DSL.field(DSL.name("step"), SQLDataType.INTEGER);
  static final Field<String> OBJECT = DSL.field(DSL.name("object"), SQLDataType.CLOB);
  static final Field<String> WHY = DSL.field(DSL.name("why"), SQLDataType.CLOB);

  private static final DSLContext SQL =
      DSL.using(
          SQLDialect.POSTGRES,
          new Settings()
              .withParamType(ParamType.NAMED)
              .withRenderNamedParamPrefix("$")
              .withRenderSchema(false));

  private final Pool pool;
  private final Duration deadline;

  /**
   * @param pool a vertx-pg-client pool on a migrated database; not closed here
   * @param deadline how long a statement is waited for at most ({@link Database#failureBound()})
   */
  public RemediationStore(Pool pool, Duration deadline) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  /**
   * With the deadline of the default database configuration ({@link Database#DEFAULT_DEADLINE}).
   */
  public RemediationStore(Pool pool) {
    this(pool, Database.DEFAULT_DEADLINE);
  }

  /** A read: fails with {@link StoreUnavailableException} when the database is unavailable. */
  private Future<RowSet<Row>> run(Query q) {
    return StoreErrors.guard(
        pool.preparedQuery(q.getSQL()).execute(Tuple.from(q.getBindValues())), deadline);
  }

  /** A write, committed durably ({@link DurableWrites}) before the Future completes. */
  private Future<RowSet<Row>> write(Query q) {
    return DurableWrites.run(
        pool,
        deadline,
        conn -> conn.preparedQuery(q.getSQL()).execute(Tuple.from(q.getBindValues())));
  }

  private static OffsetDateTime odt(Instant t) {
    return t == null ? null : t.atOffset(ZoneOffset.UTC);
  }

  /** Inserts a new plan. */
  public Future<Void> insert(PlanRow p) {
    return write(
            SQL.insertInto(PLAN)
                .set(ID, p.id())
                .set(ACTION, p.action())
                .set(SUBJECT, p.subject())
                .set(PARAMS, p.params().encode())
                .set(REASON, p.reason())
                .set(STATE, p.state())
                .set(PLANNED_BY, p.plannedBy())
                .set(APPROVED_BY, p.approvedBy())
                .set(EXECUTED_BY, p.executedBy())
                .set(IDEMPOTENCY_KEY, p.idempotencyKey())
                .set(DRY_RUN, p.dryRun().encode())
                .set(PROGRESS, p.progress().encode())
                .set(RESULT, p.result())
                .set(CREATED_AT, odt(p.createdAt()))
                .set(UPDATED_AT, odt(p.updatedAt())))
        .mapEmpty();
  }

  /** The plan, or null when there is none with that id. */
  public Future<PlanRow> plan(String id) {
    return run(SQL.selectFrom(PLAN).where(ID.eq(id)))
        .map(rs -> rs.size() == 0 ? null : plan(rs.iterator().next()));
  }

  /** Plans, newest first; {@code state} null for all. */
  public Future<List<PlanRow>> plans(String state) {
    Condition c = state == null ? DSL.noCondition() : STATE.eq(state);
    return run(SQL.selectFrom(PLAN).where(c).orderBy(CREATED_AT.desc(), ID))
        .map(
            rs -> {
              List<PlanRow> out = new ArrayList<>();
              rs.forEach(r -> out.add(plan(r)));
              return out;
            });
  }

  /**
   * Moves a plan from state {@code from} to {@code to} atomically, setting the given columns too.
   *
   * @return true when the plan was in state {@code from} (and now is in {@code to}); false
   *     otherwise
   */
  public Future<Boolean> transition(
      String id, String from, String to, String column, String value, String result, Instant at) {
    var q = SQL.update(PLAN).set(STATE, to).set(UPDATED_AT, odt(at));
    if (column != null) {
      q = q.set(DSL.field(DSL.name(column), SQLDataType.CLOB), value);
    }
    if (result != null) {
      q = q.set(RESULT, result);
    }
    return write(q.where(ID.eq(id)).and(STATE.eq(from))).map(rs -> rs.rowCount() == 1);
  }

  /** Stores the executor's progress of a plan. */
  public Future<Void> progress(String id, JsonObject progress, Instant at) {
    return write(
            SQL.update(PLAN)
                .set(PROGRESS, progress.encode())
                .set(UPDATED_AT, odt(at))
                .where(ID.eq(id)))
        .mapEmpty();
  }

  /** Appends an audit row, durably; the Future carries its sequence number. */
  public Future<Long> append(AuditEntry e) {
    return write(
            SQL.insertInto(AUDIT)
                .set(AT, odt(e.at()))
                .set(ACTOR, e.actor())
                .set(WHAT, e.what())
                .set(PLAN_ID, e.planId())
                .set(STEP, e.step())
                .set(OBJECT, e.object())
                .set(WHY, e.why())
                .set(RESULT, e.result())
                .returning(SEQ))
        .map(rs -> rs.iterator().next().getLong(0));
  }

  /** Audit rows in insertion order, filtered by plan, actor and time (each null for any). */
  public Future<List<AuditEntry>> audit(String planId, String actor, Instant since) {
    Condition c = DSL.noCondition();
    if (planId != null) {
      c = c.and(PLAN_ID.eq(planId));
    }
    if (actor != null) {
      c = c.and(ACTOR.eq(actor));
    }
    if (since != null) {
      c = c.and(AT.ge(odt(since)));
    }
    return run(SQL.select(SEQ, AT, ACTOR, WHAT, PLAN_ID, STEP, OBJECT, WHY, RESULT)
            .from(AUDIT)
            .where(c)
            .orderBy(SEQ))
        .map(
            rs -> {
              List<AuditEntry> out = new ArrayList<>();
              for (Row r : rs) {
                out.add(
                    new AuditEntry(
                        r.getLong(0),
                        r.getOffsetDateTime(1).toInstant(),
                        r.getString(2),
                        r.getString(3),
                        r.getString(4),
                        r.getInteger(5),
                        r.getString(6),
                        r.getString(7),
                        r.getString(8)));
              }
              return out;
            });
  }

  private static PlanRow plan(Row r) {
    return new PlanRow(
        r.getString("id"),
        r.getString("action"),
        r.getString("subject"),
        new JsonObject(r.getString("params")),
        r.getString("reason"),
        r.getString("state"),
        r.getString("planned_by"),
        r.getString("approved_by"),
        r.getString("executed_by"),
        r.getString("idempotency_key"),
        new JsonObject(r.getString("dry_run")),
        new JsonObject(r.getString("progress")),
        r.getString("result"),
        r.getOffsetDateTime("created_at").toInstant(),
        r.getOffsetDateTime("updated_at").toInstant());
  }
}
