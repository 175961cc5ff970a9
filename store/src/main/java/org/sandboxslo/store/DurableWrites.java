package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.util.function.Function;

/**
 * Runs writes that must survive a crash once acknowledged (audit rows, plan state, SLO definitions
 * and exclusions) in one transaction that commits synchronously: {@code SET LOCAL
 * synchronous_commit = on} makes the commit wait until its WAL record is flushed, whatever the
 * server default is (the embedded server defaults to {@code off}, see {@link EmbeddedDatabase}).
 * Costs three extra round trips and one WAL flush per call.
 */
public final class DurableWrites {
  static final String SYNCHRONOUS = "set local synchronous_commit = on";

  private DurableWrites() {}

  /**
   * Runs {@code work} in a transaction on a connection of {@code pool} and commits it durably.
   *
   * @param deadline see {@link StoreErrors#guard}; when it passes, the outcome is unknown (the
   *     commit may still happen), and the Future fails with {@link StoreUnavailableException}
   * @return {@code work}'s result once committed; fails (rolled back) when {@code work} fails, with
   *     a {@link StoreUnavailableException} when the database is unavailable
   */
  public static <T> Future<T> run(
      Pool pool, Duration deadline, Function<SqlConnection, Future<T>> work) {
    return StoreErrors.guard(
        pool.withTransaction(
            conn -> conn.query(SYNCHRONOUS).execute().compose(x -> work.apply(conn))),
        deadline);
  }
}
