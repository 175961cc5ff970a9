package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
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
 * Incidents in PostgreSQL ({@code V4__incident.sql}): alerts received from Alertmanager, one row
 * per firing episode (fingerprint, startsAt), kept across restarts. SQL is rendered by jOOQ with
 * {@code $n} markers and run by vertx-pg-client; nothing blocks.
 */
public final class IncidentStore {
  static final Table<?> INCIDENT = DSL.table(DSL.name("incident"));
  static final Field<String> FINGERPRINT = DSL.field(DSL.name("fingerprint"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> STARTS_AT =
      DSL.field(DSL.name("starts_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<String> ALERTNAME = DSL.field(DSL.name("alertname"), SQLDataType.CLOB);
  static final Field<String> STATUS = DSL.field(DSL.name("status"), SQLDataType.CLOB);
  static final Field<String> SEVERITY = DSL.field(DSL.name("severity"), SQLDataType.CLOB);
  static final Field<String> NAMESPACE = DSL.field(DSL.name("namespace"), SQLDataType.CLOB);
  static final Field<String> TEMPLATE = DSL.field(DSL.name("sandbox_template"), SQLDataType.CLOB);
  static final Field<String> POOL = DSL.field(DSL.name("warmpool_name"), SQLDataType.CLOB);
  static final Field<String> SLO = DSL.field(DSL.name("slo"), SQLDataType.CLOB);
  static final Field<String> LABELS = DSL.field(DSL.name("labels"), SQLDataType.CLOB);
  static final Field<String> ANNOTATIONS = DSL.field(DSL.name("annotations"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> ENDS_AT =
      DSL.field(DSL.name("ends_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<String> GENERATOR = DSL.field(DSL.name("generator_url"), SQLDataType.CLOB);
  static final Field<String> RECEIVER = DSL.field(DSL.name("receiver"), SQLDataType.CLOB);
  static final Field<OffsetDateTime> FIRST =
      DSL.field(DSL.name("first_received_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<OffsetDateTime> LAST =
      DSL.field(DSL.name("last_received_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6));
  static final Field<Integer> NOTIFICATIONS =
      DSL.field(DSL.name("notifications"), SQLDataType.INTEGER);

  private static final DSLContext SQL =
      DSL.using(
          SQLDialect.POSTGRES,
          new Settings()
              .withParamType(ParamType.NAMED)
              .withRenderNamedParamPrefix("$")
              .withRenderSchema(false));

  private static final List<Field<?>> COLUMNS =
      List.of(
          FINGERPRINT,
          STARTS_AT,
          ALERTNAME,
          STATUS,
          SEVERITY,
          NAMESPACE,
          TEMPLATE,
          POOL,
          SLO,
          LABELS,
          ANNOTATIONS,
          ENDS_AT,
          GENERATOR,
          RECEIVER,
          FIRST,
          LAST,
          NOTIFICATIONS);

  private static Field<Object> current(Field<?> f) {
    return DSL.field(DSL.name("incident", f.getName()));
  }

  /**
   * A notification that changes the episode (status, labels, annotations, endsAt, generator or
   * receiver) updates it, keeps first_received_at and counts one more notification; an identical
   * redelivery changes nothing (not even last_received_at).
   */
  private static final String UPSERT =
      SQL.insertInto(INCIDENT)
          .columns(COLUMNS)
          .values(COLUMNS.stream().map(f -> DSL.val(null, f)).toList())
          .onConflict(FINGERPRINT, STARTS_AT)
          .doUpdate()
          .set(STATUS, DSL.excluded(STATUS))
          .set(LABELS, DSL.excluded(LABELS))
          .set(ANNOTATIONS, DSL.excluded(ANNOTATIONS))
          .set(ENDS_AT, DSL.excluded(ENDS_AT))
          .set(GENERATOR, DSL.excluded(GENERATOR))
          .set(RECEIVER, DSL.excluded(RECEIVER))
          .set(LAST, DSL.excluded(LAST))
          .set(
              NOTIFICATIONS,
              DSL.field(DSL.name("incident", "notifications"), SQLDataType.INTEGER)
                  .plus(DSL.inline(1)))
          .where(
              current(STATUS)
                  .isDistinctFrom(DSL.excluded(STATUS))
                  .or(current(LABELS).isDistinctFrom(DSL.excluded(LABELS)))
                  .or(current(ANNOTATIONS).isDistinctFrom(DSL.excluded(ANNOTATIONS)))
                  .or(current(ENDS_AT).isDistinctFrom(DSL.excluded(ENDS_AT)))
                  .or(current(GENERATOR).isDistinctFrom(DSL.excluded(GENERATOR)))
                  .or(current(RECEIVER).isDistinctFrom(DSL.excluded(RECEIVER))))
          .getSQL();

  private final Pool pool;

  /**
   * @param pool a pool on a database migrated with {@code V4__incident.sql}; not closed here
   */
  public IncidentStore(Pool pool) {
    this.pool = Objects.requireNonNull(pool, "pool");
  }

  /**
   * Inserts new episodes and updates known ones whose content changed (status, annotations, endsAt,
   * last received, one more notification), all in one batch; identical ones are left alone.
   *
   * @return the number of rows inserted or changed; a failed Future when the database rejects the
   *     batch
   */
  public Future<Integer> record(List<IncidentRow> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<Tuple> tuples = new ArrayList<>();
    for (IncidentRow r : rows) {
      tuples.add(
          Tuple.of(
                  r.fingerprint(),
                  utc(r.startsAt()),
                  r.alertname(),
                  r.status(),
                  r.severity(),
                  r.namespace(),
                  r.sandboxTemplate(),
                  r.warmpoolName(),
                  r.slo())
              .addString(r.labels().encode())
              .addString(r.annotations().encode())
              .addOffsetDateTime(utc(r.endsAt()))
              .addString(r.generatorUrl())
              .addString(r.receiver())
              .addOffsetDateTime(utc(r.firstReceivedAt()))
              .addOffsetDateTime(utc(r.lastReceivedAt()))
              .addInteger(r.notifications()));
    }
    return pool.preparedQuery(UPSERT)
        .executeBatch(tuples)
        .map(
            rs -> {
              int n = 0;
              for (io.vertx.sqlclient.RowSet<Row> r = rs; r != null; r = r.next()) {
                n += r.rowCount();
              }
              return n;
            });
  }

  /**
   * Where a page of {@link #list} ended: the last row's startsAt and fingerprint (rows are ordered
   * by startsAt descending, then fingerprint).
   *
   * @param startsAt the last row's start
   * @param fingerprint the last row's fingerprint
   */
  public record Cursor(Instant startsAt, String fingerprint) {
    public Cursor {
      Objects.requireNonNull(startsAt, "startsAt");
      Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /** The cursor after {@code row}. */
    public static Cursor after(IncidentRow row) {
      return new Cursor(row.startsAt(), row.fingerprint());
    }
  }

  /**
   * Episodes newest first (by startsAt).
   *
   * @param status {@code firing}, {@code resolved}, or null for both
   * @param namespace only this namespace, or null
   * @param template only this sandbox_template (with {@code namespace}), or null
   * @param since only episodes still firing or ended at/after this time, or null
   * @param limit at most this many rows, ≥ 1
   */
  public Future<List<IncidentRow>> list(
      String status, String namespace, String template, Instant since, int limit) {
    return list(status, namespace, template, since, limit, null);
  }

  /**
   * One page of episodes newest first (by startsAt, then fingerprint): as {@link #list(String,
   * String, String, Instant, int)}, starting after {@code afterOrNull} (keyset paging: stable while
   * new episodes arrive).
   */
  public Future<List<IncidentRow>> list(
      String status,
      String namespace,
      String template,
      Instant since,
      int limit,
      Cursor afterOrNull) {
    Condition c = DSL.noCondition();
    if (afterOrNull != null) {
      OffsetDateTime t = utc(afterOrNull.startsAt());
      c = c.and(STARTS_AT.lt(t).or(STARTS_AT.eq(t).and(FINGERPRINT.gt(afterOrNull.fingerprint()))));
    }
    if (status != null) {
      c = c.and(STATUS.eq(status));
    }
    if (namespace != null) {
      c = c.and(NAMESPACE.eq(namespace));
    }
    if (template != null) {
      c = c.and(TEMPLATE.eq(template));
    }
    if (since != null) {
      c = c.and(ENDS_AT.isNull().or(ENDS_AT.ge(utc(since))));
    }
    Query q =
        SQL.select(COLUMNS)
            .from(INCIDENT)
            .where(c)
            .orderBy(STARTS_AT.desc(), FINGERPRINT)
            .limit(Math.max(1, limit));
    return pool.preparedQuery(q.getSQL())
        .execute(Tuple.from(q.getBindValues()))
        .map(
            rs -> {
              List<IncidentRow> out = new ArrayList<>();
              for (Row r : rs) {
                out.add(row(r));
              }
              return out;
            });
  }

  private static IncidentRow row(Row r) {
    return new IncidentRow(
        r.getString(0),
        r.getOffsetDateTime(1).toInstant(),
        r.getString(2),
        r.getString(3),
        r.getString(4),
        r.getString(5),
        r.getString(6),
        r.getString(7),
        r.getString(8),
        new JsonObject(r.getString(9)),
        new JsonObject(r.getString(10)),
        instant(r.getOffsetDateTime(11)),
        r.getString(12),
        r.getString(13),
        r.getOffsetDateTime(14).toInstant(),
        r.getOffsetDateTime(15).toInstant(),
        r.getInteger(16));
  }

  private static OffsetDateTime utc(Instant i) {
    return i == null ? null : i.atOffset(ZoneOffset.UTC);
  }

  private static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
