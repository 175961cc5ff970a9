package org.sandboxslo.console.routes;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.api.SnapshotJson;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.engine.finding.Finding;

/**
 * {@code GET /api/v1/findings/{id}}: one tracked finding ({@link
 * SnapshotJson#finding(FindingState)} with {@code id}), open or recently closed. The id is stable
 * for a kind and subject: {@code <kind>-<FNV-1a of "kind subject">}, e.g. {@code
 * StalePoolMembers-3f2a9c10}, so a link to a finding keeps working while it stays open and after it
 * closes (while it is kept). 404 for an unknown id.
 */
public final class FindingRoutes {
  private FindingRoutes() {}

  /** The id of a finding ({@link SnapshotJson#findingId}). */
  public static String id(Finding f) {
    return SnapshotJson.findingId(f);
  }

  public static void mount(Router router, ConsoleSources sources) {
    router.get("/api/v1/findings/:id").handler(ctx -> one(ctx, sources));
  }

  private static void one(RoutingContext ctx, ConsoleSources sources) {
    String id = ctx.pathParam("id");
    for (FindingState f : sources.findings()) {
      if (id(f.finding()).equals(id)) {
        Json.ok(ctx, SnapshotJson.finding(f));
        return;
      }
    }
    throw ApiException.notFound(
        "id", "no finding " + id + " is known (closed findings are kept for a while only)");
  }
}
