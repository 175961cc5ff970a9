package org.sandboxslo.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Runs writes that must survive a crash once acknowledged (audit rows, plan state, SLO definitions
 * and exclusions) in one transaction that commits synchronously: {@code SET LOCAL
 * synchronous_commit = on} makes the commit wait until its WAL record is flushed, whatever the
 * server default is (the embedded server defaults to {@code off}, see {@link EmbeddedDatabase}).
 * Costs three extra round trips and one WAL flush per call.
 *
 * <p>A write whose caller has been answered already (its deadline passed, e.g. while the server was
 * frozen) is rolled back instead of committed when the server resumes: the change is not applied
 * late. Only a commit already sent when the deadline passes may still land.
 */
public final class DurableWrites {
  static final String SYNCHRONOUS = "set local synchronous_commit = on";

  private DurableWrites() {}

  /**
   * Runs {@code work} in a transaction on a connection of {@code pool} and commits it durably.
   *
   * @param deadline see {@link StoreErrors#guard}; when it passes the Future fails with {@link
   *     StoreUnavailableException} and the transaction is rolled back when it gets that far (only a
   *     commit already sent may still happen)
   * @return {@code work}'s result once committed; fails (rolled back) when {@code work} fails, with
   *     a {@link StoreUnavailableException} when the database is unavailable
   */
  public static <T> Future<T> run(
      Pool pool, Duration deadline, Function<SqlConnection, Future<T>> work) {
    AtomicBoolean abandoned = new AtomicBoolean();
    return StoreErrors.guard(
            pool.withTransaction(
                conn ->
                    conn.query(SYNCHRONOUS)
                        .execute()
                        .compose(x -> work.apply(conn))
                        .compose(
                            r ->
                                abandoned.get()
                                    ? Future.<T>failedFuture(
                                        new StoreUnavailableException(
                                            "the write was rolled back: its caller had been"
                                                + " answered before the database resumed"))
                                    : Future.succeededFuture(r))),
            deadline)
        .onFailure(e -> abandoned.set(true));
  }
}
