package org.sandboxslo.store;

import static org.sandboxslo.store.jooq.Tables.REMEDIATION_AUDIT;
import static org.sandboxslo.store.jooq.Tables.REMEDIATION_PLAN;

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
import org.jooq.impl.DSL;

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
  private static final DSLContext SQL = Sql.SQL;

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
            SQL.insertInto(REMEDIATION_PLAN)
                .set(REMEDIATION_PLAN.ID, p.id())
                .set(REMEDIATION_PLAN.ACTION, p.action())
                .set(REMEDIATION_PLAN.SUBJECT, p.subject())
                .set(REMEDIATION_PLAN.PARAMS, p.params().encode())
                .set(REMEDIATION_PLAN.REASON, p.reason())
                .set(REMEDIATION_PLAN.STATE, p.state())
                .set(REMEDIATION_PLAN.PLANNED_BY, p.plannedBy())
                .set(REMEDIATION_PLAN.APPROVED_BY, p.approvedBy())
                .set(REMEDIATION_PLAN.EXECUTED_BY, p.executedBy())
                .set(REMEDIATION_PLAN.IDEMPOTENCY_KEY, p.idempotencyKey())
                .set(REMEDIATION_PLAN.DRY_RUN, p.dryRun().encode())
                .set(REMEDIATION_PLAN.PROGRESS, p.progress().encode())
                .set(REMEDIATION_PLAN.RESULT, p.result())
                .set(REMEDIATION_PLAN.CREATED_AT, odt(p.createdAt()))
                .set(REMEDIATION_PLAN.UPDATED_AT, odt(p.updatedAt())))
        .mapEmpty();
  }

  /** The plan, or null when there is none with that id. */
  public Future<PlanRow> plan(String id) {
    return run(SQL.selectFrom(REMEDIATION_PLAN).where(REMEDIATION_PLAN.ID.eq(id)))
        .map(rs -> rs.size() == 0 ? null : plan(rs.iterator().next()));
  }

  /** Plans, newest first; {@code state} null for all. */
  public Future<List<PlanRow>> plans(String state) {
    Condition c = state == null ? DSL.noCondition() : REMEDIATION_PLAN.STATE.eq(state);
    return run(SQL.selectFrom(REMEDIATION_PLAN)
            .where(c)
            .orderBy(REMEDIATION_PLAN.CREATED_AT.desc(), REMEDIATION_PLAN.ID))
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
   * @param column a text column of {@code remediation_plan} to set to {@code value} (e.g. {@code
   *     approved_by}), or null
   * @return true when the plan was in state {@code from} (and now is in {@code to}); false
   *     otherwise; a failed Future for a column {@code remediation_plan} does not have
   */
  public Future<Boolean> transition(
      String id, String from, String to, String column, String value, String result, Instant at) {
    var q =
        SQL.update(REMEDIATION_PLAN)
            .set(REMEDIATION_PLAN.STATE, to)
            .set(REMEDIATION_PLAN.UPDATED_AT, odt(at));
    if (column != null) {
      Field<String> f = REMEDIATION_PLAN.field(column, String.class);
      if (f == null) {
        return Future.failedFuture(
            new IllegalArgumentException("remediation_plan has no text column '" + column + "'"));
      }
      q = q.set(f, value);
    }
    if (result != null) {
      q = q.set(REMEDIATION_PLAN.RESULT, result);
    }
    return write(q.where(REMEDIATION_PLAN.ID.eq(id)).and(REMEDIATION_PLAN.STATE.eq(from)))
        .map(rs -> rs.rowCount() == 1);
  }

  /** Stores the executor's progress of a plan. */
  public Future<Void> progress(String id, JsonObject progress, Instant at) {
    return write(
            SQL.update(REMEDIATION_PLAN)
                .set(REMEDIATION_PLAN.PROGRESS, progress.encode())
                .set(REMEDIATION_PLAN.UPDATED_AT, odt(at))
                .where(REMEDIATION_PLAN.ID.eq(id)))
        .mapEmpty();
  }

  /** Appends an audit row, durably; the Future carries its sequence number. */
  public Future<Long> append(AuditEntry e) {
    return write(
            SQL.insertInto(REMEDIATION_AUDIT)
                .set(REMEDIATION_AUDIT.AT, odt(e.at()))
                .set(REMEDIATION_AUDIT.ACTOR, e.actor())
                .set(REMEDIATION_AUDIT.WHAT, e.what())
                .set(REMEDIATION_AUDIT.PLAN_ID, e.planId())
                .set(REMEDIATION_AUDIT.STEP, e.step())
                .set(REMEDIATION_AUDIT.OBJECT, e.object())
                .set(REMEDIATION_AUDIT.WHY, e.why())
                .set(REMEDIATION_AUDIT.RESULT, e.result())
                .returning(REMEDIATION_AUDIT.SEQ))
        .map(rs -> rs.iterator().next().getLong(0));
  }

  /** Audit rows in insertion order, filtered by plan, actor and time (each null for any). */
  public Future<List<AuditEntry>> audit(String planId, String actor, Instant since) {
    Condition c = DSL.noCondition();
    if (planId != null) {
      c = c.and(REMEDIATION_AUDIT.PLAN_ID.eq(planId));
    }
    if (actor != null) {
      c = c.and(REMEDIATION_AUDIT.ACTOR.eq(actor));
    }
    if (since != null) {
      c = c.and(REMEDIATION_AUDIT.AT.ge(odt(since)));
    }
    return run(SQL.select(
                REMEDIATION_AUDIT.SEQ,
                REMEDIATION_AUDIT.AT,
                REMEDIATION_AUDIT.ACTOR,
                REMEDIATION_AUDIT.WHAT,
                REMEDIATION_AUDIT.PLAN_ID,
                REMEDIATION_AUDIT.STEP,
                REMEDIATION_AUDIT.OBJECT,
                REMEDIATION_AUDIT.WHY,
                REMEDIATION_AUDIT.RESULT)
            .from(REMEDIATION_AUDIT)
            .where(c)
            .orderBy(REMEDIATION_AUDIT.SEQ))
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
        r.getString(REMEDIATION_PLAN.ID.getName()),
        r.getString(REMEDIATION_PLAN.ACTION.getName()),
        r.getString(REMEDIATION_PLAN.SUBJECT.getName()),
        new JsonObject(r.getString(REMEDIATION_PLAN.PARAMS.getName())),
        r.getString(REMEDIATION_PLAN.REASON.getName()),
        r.getString(REMEDIATION_PLAN.STATE.getName()),
        r.getString(REMEDIATION_PLAN.PLANNED_BY.getName()),
        r.getString(REMEDIATION_PLAN.APPROVED_BY.getName()),
        r.getString(REMEDIATION_PLAN.EXECUTED_BY.getName()),
        r.getString(REMEDIATION_PLAN.IDEMPOTENCY_KEY.getName()),
        new JsonObject(r.getString(REMEDIATION_PLAN.DRY_RUN.getName())),
        new JsonObject(r.getString(REMEDIATION_PLAN.PROGRESS.getName())),
        r.getString(REMEDIATION_PLAN.RESULT.getName()),
        r.getOffsetDateTime(REMEDIATION_PLAN.CREATED_AT.getName()).toInstant(),
        r.getOffsetDateTime(REMEDIATION_PLAN.UPDATED_AT.getName()).toInstant());
  }
}
