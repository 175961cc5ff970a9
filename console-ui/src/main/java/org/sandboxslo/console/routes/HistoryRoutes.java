package org.sandboxslo.console.routes;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.engine.sli.Scope;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.SliName;
import org.sandboxslo.store.SliSeriesStore;
import org.sandboxslo.store.SliStore;

/**
 * Several SLIs of one subject in one call, downsampled for charts: {@code GET
 * /api/v1/{templates|pools}/{ns}/{name}/history?sli=a&sli=b&window=&from=&to=&step=}. Answers when
 * more than one {@code sli} or a {@code step} is given (a single {@code sli} without {@code step}
 * keeps the one-series answer of the console's history route):
 *
 * <pre>{@code
 * {"namespace","name","window","from","to","stepSeconds",
 *  "series":[{"sli","window","unit":"ratio|seconds|count",
 *             "points":[{"at","value","min","max"}]}]}
 * }</pre>
 *
 * {@code value} is the mean of the stored values in the bucket ({@code null} = no data), {@code
 * min}/{@code max} their range. Windowed SLIs are read at {@code window} (default the first
 * configured), pool-state SLIs at {@code now}. {@code step} is a duration ({@code 30s}, {@code
 * 5m}), default the span / 600 rounded up to a whole second and at least the store interval; at
 * most 10,000 buckets. 400 naming the field; 503 without a store.
 */
public final class HistoryRoutes {
  static final int MAX_BUCKETS = 10_000;
  static final int TARGET_BUCKETS = 600;

  private HistoryRoutes() {}

  public static void mount(
      Router router,
      ConsoleSources sources,
      SliStore storeOrNull,
      Duration storeInterval,
      Clock clock) {
    SliSeriesStore series = storeOrNull == null ? null : new SliSeriesStore(storeOrNull.pool());
    router
        .get("/api/v1/templates/:ns/:name/history")
        .handler(ctx -> history(ctx, Scope.TEMPLATE, sources, series, storeInterval, clock));
    router
        .get("/api/v1/pools/:ns/:name/history")
        .handler(ctx -> history(ctx, Scope.POOL, sources, series, storeInterval, clock));
  }

  private static void history(
      RoutingContext ctx,
      Scope scope,
      ConsoleSources sources,
      SliSeriesStore series,
      Duration storeInterval,
      Clock clock) {
    List<String> requested = ctx.queryParam("sli");
    String stepParam = Json.param(ctx, "step");
    if (requested.size() <= 1 && stepParam == null) {
      ctx.next();
      return;
    }
    String known = String.join(", ", SliName.wireNames());
    if (requested.isEmpty()) {
      throw ApiException.badRequest("sli", "at least one sli is required; known: " + known);
    }
    List<String> windowed = new ArrayList<>();
    List<String> pointInTime = new ArrayList<>();
    for (String s : new LinkedHashSet<>(requested)) {
      SliName n =
          SliName.byWireName(s)
              .orElseThrow(
                  () -> ApiException.badRequest("sli", "unknown SLI '" + s + "'; known: " + known));
      (n.poolState() ? pointInTime : windowed).add(s);
    }
    List<String> windows = sources.windows().stream().map(Durations::format).toList();
    String window = Json.param(ctx, "window");
    if (window == null) {
      window = windows.get(0);
    } else if (!windows.contains(window)) {
      throw ApiException.badRequest(
          "window", "unknown window '" + window + "'; known: " + String.join(", ", windows));
    }
    Instant to = Json.instant("to", Json.param(ctx, "to"), clock.instant());
    Instant from = Json.instant("from", Json.param(ctx, "from"), to.minus(Duration.ofHours(1)));
    if (from.isAfter(to)) {
      throw ApiException.badRequest("from", "from " + from + " is after to " + to);
    }
    Duration span = Duration.between(from, to);
    Duration step;
    if (stepParam != null) {
      try {
        step = Durations.parse("step", stepParam);
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("step", e.getMessage());
      }
      if (step.toSeconds() < 1) {
        throw ApiException.badRequest("step", "step must be at least 1s, got " + stepParam);
      }
    } else {
      long s =
          Math.max(
              storeInterval.toSeconds(), (span.toSeconds() + TARGET_BUCKETS - 1) / TARGET_BUCKETS);
      step = Duration.ofSeconds(Math.max(1, s));
    }
    if (span.toSeconds() / step.toSeconds() > MAX_BUCKETS) {
      throw ApiException.badRequest(
          "step",
          "from..to / step gives more than "
              + MAX_BUCKETS
              + " buckets; use a larger step than "
              + Durations.format(step));
    }
    if (series == null) {
      throw ApiException.notReady("history needs the SLI store, which is not configured");
    }
    String w = window;
    Duration st = step;
    String ns = ctx.pathParam("ns");
    String name = ctx.pathParam("name");
    Json.reply(
        ctx,
        series
            .series(scope, ns, name, windowed, w, pointInTime, from, to, st)
            .map(
                m -> {
                  JsonArray out = new JsonArray();
                  for (Map.Entry<String, List<SliSeriesStore.Bucket>> e : m.entrySet()) {
                    JsonArray points = new JsonArray();
                    for (SliSeriesStore.Bucket b : e.getValue()) {
                      points.add(
                          new JsonObject()
                              .put("at", b.at().toString())
                              .put("value", b.mean())
                              .put("min", b.min())
                              .put("max", b.max()));
                    }
                    out.add(
                        new JsonObject()
                            .put("sli", e.getKey())
                            .put(
                                "window", pointInTime.contains(e.getKey()) ? SliName.NOW_WINDOW : w)
                            .put("unit", unit(e.getKey()))
                            .put("points", points));
                  }
                  return new JsonObject()
                      .put("namespace", ns)
                      .put("name", name)
                      .put("window", w)
                      .put("from", from.toString())
                      .put("to", to.toString())
                      .put("stepSeconds", st.toSeconds())
                      .put("series", out);
                }));
  }

  /** {@code seconds} for latencies, {@code count} for launches and members, else {@code ratio}. */
  static String unit(String sli) {
    if (sli.endsWith("_seconds")) {
      return "seconds";
    }
    if (sli.endsWith("_launches") || sli.equals("stale_members")) {
      return "count";
    }
    return "ratio";
  }
}
