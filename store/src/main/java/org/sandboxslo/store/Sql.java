package org.sandboxslo.store;

import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.jooq.conf.RenderTable;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * The one jOOQ context of the stores: renders {@link SQLDialect#POSTGRES} SQL with {@code $1},
 * {@code $2}, ... bind markers (vertx-pg-client's syntax), no schema, and column names qualified
 * only when a query reads several tables. It never connects: the stores take {@code getSQL()} and
 * {@code getBindValues()} and run them on the vertx-pg-client pool. Tables and fields are the ones
 * jOOQ generated from the Flyway migrations ({@code org.sandboxslo.store.jooq.Tables}).
 */
final class Sql {
  static {
    // jOOQ prints a banner and "tips of the day" at INFO on first use; this is a library
    if (System.getProperty("org.jooq.no-logo") == null) {
      System.setProperty("org.jooq.no-logo", "true");
    }
    if (System.getProperty("org.jooq.no-tips") == null) {
      System.setProperty("org.jooq.no-tips", "true");
    }
  }

  static final DSLContext SQL =
      DSL.using(
          SQLDialect.POSTGRES,
          new Settings()
              .withParamType(ParamType.NAMED)
              .withRenderNamedParamPrefix("$")
              .withRenderSchema(false)
              .withRenderTable(RenderTable.WHEN_MULTIPLE_TABLES));

  private Sql() {}
}
