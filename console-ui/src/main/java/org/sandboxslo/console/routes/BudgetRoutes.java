package org.sandboxslo.console.routes;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.slo.SloJson;
import org.sandboxslo.console.slo.SloRegistry;
import org.sandboxslo.engine.slo.SloLedger;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.SliStore;
import org.sandboxslo.store.SloStore;

/**
 * The error-budget burn-down of one SLO over its period, from the stored budget buckets ({@code
 * slo_budget_bucket}, written every {@code sloconsole.slo.persist-interval}): {@code GET
 * /api/v1/slos/{id}/budget}.
 *
 * <pre>{@code
 * {"id","objective","errorBudget","period","from","to","status","budgetRemaining",
 *  "tiers":[...],"exclusions":[...],
 *  "points":[{"at","good","valid","remaining"}]}
 * }</pre>
 *
 * Each point is cumulative from the start of the period to {@code at} (a bucket end): remaining = 1
 * − (Σbad / Σvalid) / error budget, negative when overspent, {@code null} while Σvalid is 0 (no
 * data). Buckets starting inside an exclusion do not count, as in the ledger. Fine buckets are used
 * where they exist, coarse ones before the first fine bucket. At most 500 points (every k-th
 * cumulative point); the last point is the SLO evaluated now. 404 for an unknown SLO, 503 without
 * the SLO service or the store.
 */
public final class BudgetRoutes {
  static final int MAX_POINTS = 500;

  private BudgetRoutes() {}

  /**
   * @param slosOrNull the SLO registry, or null (then 503)
   */
  public static void mount(
      Router router, SloRegistry slosOrNull, SliStore storeOrNull, Clock clock) {
    SloStore store = storeOrNull == null ? null : new SloStore(storeOrNull.pool());
    router.get("/api/v1/slos/:id/budget").handler(ctx -> budget(ctx, slosOrNull, store, clock));
  }

  private static void budget(RoutingContext ctx, SloRegistry slos, SloStore store, Clock clock) {
    if (slos == null) {
      throw ApiException.notReady("the SLO service is not running");
    }
    if (store == null) {
      throw ApiException.notReady("the budget history needs the store, which is not configured");
    }
    String id = ctx.pathParam("id");
    Instant now = clock.instant();
    Json.reply(
        ctx,
        slos.get(id)
            .map(SloJson::slo)
            .compose(
                slo -> {
                  Duration period = Durations.parse("period", slo.getString("period"));
                  Instant from = now.minus(period);
                  // a user SLO's own history, or the built-in SLO's (never the other's)
                  org.sandboxslo.store.BudgetOwner owner =
                      "user".equals(slo.getString("origin"))
                          ? org.sandboxslo.store.BudgetOwner.USER
                          : org.sandboxslo.store.BudgetOwner.BUILTIN;
                  return store.buckets(id, owner, from).map(b -> json(slo, b, from, now));
                }));
  }

  static JsonObject json(JsonObject slo, List<SloLedger.Bucket> buckets, Instant from, Instant to) {
    double budget = slo.getDouble("errorBudget");
    List<Instant[]> excluded = new ArrayList<>();
    JsonArray exclusions = slo.getJsonArray("exclusions", new JsonArray());
    for (int i = 0; i < exclusions.size(); i++) {
      JsonObject x = exclusions.getJsonObject(i);
      excluded.add(
          new Instant[] {Instant.parse(x.getString("from")), Instant.parse(x.getString("to"))});
    }
    Instant firstFine = null;
    for (SloLedger.Bucket b : buckets) {
      if (b.resolution().equals("fine") && (firstFine == null || b.start().isBefore(firstFine))) {
        firstFine = b.start();
      }
    }
    List<JsonObject> all = new ArrayList<>();
    long good = 0;
    long valid = 0;
    for (SloLedger.Bucket b : buckets) {
      Instant end = b.start().plus(b.width());
      boolean use = b.resolution().equals("fine") || firstFine == null || !end.isAfter(firstFine);
      boolean skip = false;
      for (Instant[] x : excluded) {
        skip |= !b.start().isBefore(x[0]) && b.start().isBefore(x[1]);
      }
      if (!use || skip) {
        continue;
      }
      good += b.good();
      valid += b.valid();
      all.add(point(end, good, valid, budget));
    }
    JsonArray points = new JsonArray();
    int k = Math.max(1, (all.size() + MAX_POINTS - 2) / (MAX_POINTS - 1));
    for (int i = 0; i < all.size(); i++) {
      if (i % k == 0 || i == all.size() - 1) {
        points.add(all.get(i));
      }
    }
    points.add(
        new JsonObject()
            .put("at", to.toString())
            .put("good", slo.getValue("good"))
            .put("valid", slo.getValue("valid"))
            .put("remaining", slo.getValue("budgetRemaining"))
            .put("live", true));
    return new JsonObject()
        .put("id", slo.getString("id"))
        .put("objective", slo.getValue("objective"))
        .put("errorBudget", budget)
        .put("period", slo.getString("period"))
        .put("from", from.toString())
        .put("to", to.toString())
        .put("status", slo.getValue("status"))
        .put("budgetRemaining", slo.getValue("budgetRemaining"))
        .put("tiers", slo.getValue("tiers"))
        .put("exclusions", exclusions)
        .put("points", points);
  }

  private static JsonObject point(Instant at, long good, long valid, double budget) {
    Double remaining = valid == 0 ? null : 1 - ((double) (valid - good) / valid) / budget;
    return new JsonObject()
        .put("at", at.toString())
        .put("good", good)
        .put("valid", valid)
        .put("remaining", remaining);
  }
}
