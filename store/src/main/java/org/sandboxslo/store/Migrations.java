package org.sandboxslo.store;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Applies the versioned SQL migrations in {@code classpath:db/migration} ({@code
 * V1__sli_snapshots.sql}, ...) with Flyway over JDBC. Blocking: call it from a worker thread (e.g.
 * {@code vertx.executeBlocking}); queries at runtime go through vertx-pg-client, not JDBC.
 */
public final class Migrations {
  /** Where the migrations live on the classpath. */
  public static final String LOCATION = "classpath:db/migration";

  private Migrations() {}

  /**
   * Migrates the database to the newest version. Re-running it on a migrated database is a no-op
   * that returns 0.
   *
   * @param jdbcUrl e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres}
   * @param user database user
   * @param password database password; may be empty
   * @return the number of migrations applied by this call (0 when already up to date)
   * @throws org.flywaydb.core.api.FlywayException when the database is unreachable or a migration
   *     fails or a checksum no longer matches
   */
  public static int migrate(String jdbcUrl, String user, String password) {
    MigrateResult result =
        Flyway.configure().dataSource(jdbcUrl, user, password).locations(LOCATION).load().migrate();
    return result.migrationsExecuted;
  }
}
