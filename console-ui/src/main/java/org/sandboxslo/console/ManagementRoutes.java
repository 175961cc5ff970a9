package org.sandboxslo.console;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.sandboxslo.console.api.SnapshotJson;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.engine.diagnosis.InformerHealth;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.store.DatabaseStatus;

/**
 * {@code GET /healthz} (200 {@code {"status":"ok"}} while the process serves), {@code GET /readyz}
 * (200 {@code {"status":"ready"}} once {@link ConsoleSources#ready()}, no kind's data is
 * suspect-stale ({@link ConsoleSources#suspectStale()}) and, with a database, while its last probe
 * answered; otherwise 503 {@code {"status":"not ready"}}, with {@code reason} and {@code
 * suspectStale} while a kind is suspect-stale; always with {@code "checks":{"informers":"synced|not
 * synced","database":"up|down: <reason>"}} and, while the database is down, {@code
 * "databaseDownSince"}) and {@code GET /metrics} (the registry in the format chosen from the {@code
 * Accept} header: Prometheus text by default, OpenMetrics for {@code
 * application/openmetrics-text}). Mounted on the management port and on the console port.
 */
public final class ManagementRoutes {
  private static final ExpositionFormats FORMATS = ExpositionFormats.init();

  private ManagementRoutes() {}

  /** Adds the three routes to {@code router}, without a database check. */
  public static void mount(Router router, ConsoleSources sources, PrometheusRegistry registry) {
    mount(router, sources, registry, null);
  }

  /**
   * Adds the three routes to {@code router}.
   *
   * @param databaseOrNull the database health, or null when the console runs without one
   */
  public static void mount(
      Router router,
      ConsoleSources sources,
      PrometheusRegistry registry,
      Supplier<DatabaseStatus> databaseOrNull) {
    router.get("/healthz").handler(ctx -> json(ctx, 200, new JsonObject().put("status", "ok")));
    router.get("/readyz").handler(ctx -> readyz(ctx, sources, databaseOrNull));
    router.get("/metrics").handler(ctx -> metrics(ctx, registry));
  }

  private static void readyz(
      RoutingContext ctx, ConsoleSources sources, Supplier<DatabaseStatus> databaseOrNull) {
    boolean synced = sources.ready();
    JsonObject checks = new JsonObject().put("informers", synced ? "synced" : "not synced");
    JsonObject body = new JsonObject();
    boolean dbUp = true;
    if (databaseOrNull != null) {
      DatabaseStatus db = databaseOrNull.get();
      dbUp = db.up();
      checks.put("database", db.up() ? "up" : "down: " + db.reason());
      if (!db.up()) {
        body.put("databaseDownSince", db.since().toString());
      }
      body.put("databaseRestarts", db.restarts());
    }
    Map<Kind, InformerHealth.Suspicion> suspects = synced ? sources.suspectStale() : Map.of();
    if (!suspects.isEmpty()) {
      body = suspectBody(suspects).mergeIn(body);
    }
    boolean ready = synced && dbUp && suspects.isEmpty();
    json(
        ctx,
        ready ? 200 : 503,
        body.put("status", ready ? "ready" : "not ready").put("checks", checks));
  }

  /**
   * {@code {"status":"not ready","reason":"suspect-stale data: ...","suspectStale":[{"kind",
   * "since","reason"}]}}, kinds in upstream order.
   */
  static JsonObject suspectBody(Map<Kind, InformerHealth.Suspicion> suspects) {
    List<String> reasons = new ArrayList<>();
    new TreeMap<>(suspects)
        .values()
        .forEach(
            s ->
                reasons.add(s.kind().kindName() + " since " + s.since() + " (" + s.reason() + ")"));
    return new JsonObject()
        .put("status", "not ready")
        .put("reason", "suspect-stale data: " + String.join("; ", reasons))
        .put("suspectStale", SnapshotJson.suspectStale(suspects));
  }

  private static void metrics(RoutingContext ctx, PrometheusRegistry registry) {
    ExpositionFormatWriter writer = FORMATS.findWriter(ctx.request().getHeader("Accept"));
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ctx.response()
        .putHeader("Content-Type", writer.getContentType())
        .end(Buffer.buffer(out.toByteArray()));
  }

  static void json(RoutingContext ctx, int status, JsonObject body) {
    org.sandboxslo.console.api.Replies.json(ctx, status, body);
  }
}
