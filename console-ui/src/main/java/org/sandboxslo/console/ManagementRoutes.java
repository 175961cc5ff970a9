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
import org.sandboxslo.console.engine.ConsoleSources;

/**
 * {@code GET /healthz} (200 {@code {"status":"ok"}} while the process serves), {@code GET /readyz}
 * (503 {@code {"status":"not ready"}} until {@link ConsoleSources#ready()}, then 200 {@code
 * {"status":"ready"}}) and {@code GET /metrics} (the registry in the format chosen from the {@code
 * Accept} header: Prometheus text by default, OpenMetrics for {@code
 * application/openmetrics-text}). Mounted on the management port and on the console port.
 */
public final class ManagementRoutes {
  private static final ExpositionFormats FORMATS = ExpositionFormats.init();

  private ManagementRoutes() {}

  /** Adds the three routes to {@code router}. */
  public static void mount(Router router, ConsoleSources sources, PrometheusRegistry registry) {
    router.get("/healthz").handler(ctx -> json(ctx, 200, new JsonObject().put("status", "ok")));
    router
        .get("/readyz")
        .handler(
            ctx -> {
              boolean ready = sources.ready();
              json(
                  ctx,
                  ready ? 200 : 503,
                  new JsonObject().put("status", ready ? "ready" : "not ready"));
            });
    router.get("/metrics").handler(ctx -> metrics(ctx, registry));
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
