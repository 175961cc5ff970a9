package org.sandboxslo.console.routes;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.List;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.engine.inspect.ClaimDetail;
import org.sandboxslo.engine.inspect.ClaimOutcome;

/**
 * {@code GET /api/v1/claims?template=&namespace=&createdBy=&launchType=warm|cold&outcome=&limit=}:
 * recent SandboxClaims, newest first (at most {@code limit}, default 500, max 5000):
 *
 * <pre>{@code
 * {"total":n,"matched":m,"items":[{"namespace","name","uid","createdAt","firstSeen","readyAt",
 *   "warmPool","template","createdBy","sandbox","launchType":"warm|cold|null",
 *   "claimToReadySeconds","coldStartCause":"spec.env|spec.volumeClaimTemplates|no-warm-member|null",
 *   "outcome":"ready|pending|rejected|expired-unserved|deleted-before-ready","reason"}]}
 * }</pre>
 *
 * Only claims the engine still holds are listed (deleted claims are not kept yet, so {@code
 * deleted-before-ready} does not occur). 400 naming the field for an unknown launch type or
 * outcome.
 */
public final class ClaimRoutes {
  private ClaimRoutes() {}

  public static void mount(Router router, Vertx vertx, ConsoleSources sources) {
    router.get("/api/v1/claims").handler(ctx -> claims(ctx, vertx, sources));
  }

  private static void claims(RoutingContext ctx, Vertx vertx, ConsoleSources sources) {
    String template = Json.param(ctx, "template");
    String namespace = Json.param(ctx, "namespace");
    String createdBy = Json.param(ctx, "createdBy");
    String launchType = Json.param(ctx, "launchType");
    String outcome = Json.param(ctx, "outcome");
    int limit = Json.intParam(ctx, "limit", 500, 1, 5000);
    if (launchType != null && !List.of("warm", "cold").contains(launchType)) {
      throw ApiException.badRequest(
          "launchType", "unknown launch type '" + launchType + "'; known: warm, cold");
    }
    List<String> outcomes =
        Arrays.stream(ClaimOutcome.values()).map(ClaimOutcome::wireName).toList();
    if (outcome != null && !outcomes.contains(outcome)) {
      throw ApiException.badRequest(
          "outcome", "unknown outcome '" + outcome + "'; known: " + String.join(", ", outcomes));
    }
    Json.reply(
        ctx,
        sources
            .call(e -> e.claimDetails())
            .map(
                all -> {
                  JsonArray items = new JsonArray();
                  int matched = 0;
                  for (ClaimDetail c : all) {
                    if ((namespace == null || namespace.equals(c.claim().namespace()))
                        && (template == null || template.equals(c.template()))
                        && (createdBy == null || createdBy.equals(c.createdBy()))
                        && (launchType == null || launchType.equals(c.launchType()))
                        && (outcome == null || outcome.equals(c.outcome().wireName()))) {
                      if (matched++ < limit) {
                        items.add(json(c));
                      }
                    }
                  }
                  return new JsonObject()
                      .put("total", all.size())
                      .put("matched", matched)
                      .put("items", items);
                }));
  }

  static JsonObject json(ClaimDetail c) {
    return new JsonObject()
        .put("namespace", c.claim().namespace())
        .put("name", c.claim().name())
        .put("uid", c.uid())
        .put("createdAt", Json.time(c.createdAt()))
        .put("firstSeen", Json.time(c.firstSeen()))
        .put("readyAt", Json.time(c.readyAt()))
        .put("warmPool", c.warmPool())
        .put("template", c.template())
        .put("createdBy", c.createdBy())
        .put("sandbox", c.sandbox())
        .put("launchType", c.launchType())
        .put("claimToReadySeconds", Json.seconds(c.claimToReady()))
        .put("coldStartCause", c.coldStartCause() == null ? null : c.coldStartCause().wireName())
        .put("outcome", c.outcome().wireName())
        .put("reason", c.reason());
  }
}
