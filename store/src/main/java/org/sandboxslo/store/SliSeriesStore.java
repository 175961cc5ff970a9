package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sandboxslo.engine.sli.Scope;

/**
 * Several stored SLI series of one subject in one query, downsampled into buckets of {@code step}
 * (for charts over 1 h … 7 d): per bucket the mean, minimum and maximum of the stored values. Rows
 * without data (NULL) do not count; a bucket whose rows are all NULL has a null mean ("no data").
 * Reads the table of {@link SliStore} ({@code sli_snapshot}).
 */
public final class SliSeriesStore {
  /**
   * One bucket of a series.
   *
   * @param at bucket start (a multiple of the step since the epoch)
   * @param mean mean of the non-null values, null when none
   * @param min smallest value, null when none
   * @param max largest value, null when none
   */
  public record Bucket(Instant at, Double mean, Double min, Double max) {
    public Bucket {
      Objects.requireNonNull(at, "at");
    }
  }

  static final String QUERY =
      "select sli, floor(extract(epoch from at)::float8 / $4::float8)::bigint as b,"
          + " avg(value), min(value), max(value)"
          + " from sli_snapshot"
          + " where scope = $1 and namespace = $2 and name = $3"
          + " and at between $5 and $6"
          + " and ((sli = any($7::text[]) and sli_window = $8) or (sli = any($9::text[]) and sli_window = 'now'))"
          + " group by sli, b order by sli, b";

  private final Pool pool;

  /**
   * @param pool a pool on a migrated database; not closed here
   */
  public SliSeriesStore(Pool pool) {
    this.pool = Objects.requireNonNull(pool, "pool");
  }

  /**
   * @param scope {@link Scope#TEMPLATE} or {@link Scope#POOL}
   * @param windowed windowed SLI wire names (read with {@code window})
   * @param window e.g. {@code 5m}
   * @param pointInTime pool-state SLI wire names (window {@code now})
   * @param from first time (inclusive)
   * @param to last time (inclusive)
   * @param step bucket width, ≥ 1 s (whole seconds)
   * @return per requested SLI (in request order, windowed first) its buckets oldest first; an SLI
   *     without stored rows maps to an empty list; a failed Future when the query fails
   */
  public Future<Map<String, List<Bucket>>> series(
      Scope scope,
      String namespace,
      String name,
      List<String> windowed,
      String window,
      List<String> pointInTime,
      Instant from,
      Instant to,
      Duration step) {
    long stepSeconds = step.toSeconds();
    if (stepSeconds < 1) {
      throw new IllegalArgumentException("step must be >= 1s, got " + step);
    }
    Map<String, List<Bucket>> out = new LinkedHashMap<>();
    windowed.forEach(s -> out.put(s, new ArrayList<>()));
    pointInTime.forEach(s -> out.put(s, new ArrayList<>()));
    Tuple args =
        Tuple.of(
                SliStore.scopeName(scope),
                namespace,
                name,
                (double) stepSeconds,
                from.atOffset(ZoneOffset.UTC),
                to.atOffset(ZoneOffset.UTC))
            .addArrayOfString(windowed.toArray(String[]::new))
            .addString(window)
            .addArrayOfString(pointInTime.toArray(String[]::new));
    return pool.preparedQuery(QUERY)
        .execute(args)
        .map(
            rs -> {
              for (Row r : rs) {
                List<Bucket> b = out.get(r.getString(0));
                if (b != null) {
                  b.add(
                      new Bucket(
                          Instant.ofEpochSecond(r.getLong(1) * stepSeconds),
                          number(r, 2),
                          number(r, 3),
                          number(r, 4)));
                }
              }
              return out;
            });
  }

  private static Double number(Row r, int i) {
    Object v = r.getValue(i);
    return v == null ? null : ((Number) v).doubleValue();
  }
}
