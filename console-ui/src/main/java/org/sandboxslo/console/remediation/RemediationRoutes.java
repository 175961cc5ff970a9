package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Deadline;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.console.api.Replies;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.auth.ConsoleAuth;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.PlanRow;

/**
 * The remediation HTTP routes. The caller is the one {@link ConsoleAuth} resolved for the request
 * (401 without; reads may be anonymous with {@code sloconsole.auth.anonymous-read}); 403 names the
 * missing role:
 *
 * <ul>
 *   <li>{@code POST /api/v1/plans} {@code {"action","subject","params","reason"}} ({@code
 *       application/json}, else 415) → 201 plan (state {@code planned}, {@code plan} = dry run);
 *       400 {@code {"error","field","reason"}}
 *   <li>{@code GET /api/v1/plans} → {@code {"items":[plan...]}}; {@code GET /api/v1/plans/{id}} →
 *       plan with {@code audit}
 *   <li>{@code POST /api/v1/plans/{id}/approve|execute|cancel} (no body) → 200 plan; 409 {@code
 *       {"error":"conflict","field":"state","reason"}}; execute honours {@code Idempotency-Key}
 *   <li>{@code GET /api/v1/audit?plan=&actor=&since=} → {@code {"items":[row...]}}
 * </ul>
 *
 * Without a running {@link Remediation} (none given, or stopped) every route answers 503.
 */
public final class RemediationRoutes {
  private final Remediation remediation;

  /**
   * @param remediationOrNull the service; null when remediation does not run (no database or no
   *     Kubernetes client)
   */
  public RemediationRoutes(Remediation remediationOrNull) {
    this.remediation = remediationOrNull;
  }

  /** Mounts the routes on {@code router}. */
  public void mount(Router router) {
    router.post("/api/v1/plans").handler(JsonBody.reader(JsonBody.DEFAULT_LIMIT_BYTES));
    router
        .post("/api/v1/plans")
        .handler(
            ctx ->
                handle(
                    ctx,
                    201,
                    (s, c) ->
                        s.create(
                                c,
                                JsonBody.object(
                                    ctx, "a plan {\"action\",\"subject\",\"params\",\"reason\"}"),
                                Deadline.of(ctx))
                            .map(PlanRow::toJson)));
    router
        .get("/api/v1/plans")
        .handler(
            ctx ->
                handle(
                    ctx,
                    200,
                    (s, c) ->
                        s.plans(c)
                            .map(
                                ps ->
                                    new JsonObject()
                                        .put(
                                            "items",
                                            new JsonArray(
                                                ps.stream().map(PlanRow::toJson).toList())))));
    router
        .get("/api/v1/plans/:id")
        .handler(
            ctx ->
                handle(
                    ctx,
                    200,
                    (s, c) ->
                        s.plan(c, id(ctx))
                            .compose(
                                p ->
                                    s.audit(c, p.id(), null, null)
                                        .map(a -> p.toJson().put("audit", audit(a))))));
    router
        .post("/api/v1/plans/:id/approve")
        .handler(
            ctx ->
                handle(
                    ctx,
                    200,
                    (s, c) -> s.approve(c, id(ctx), Deadline.of(ctx)).map(PlanRow::toJson)));
    router
        .post("/api/v1/plans/:id/execute")
        .handler(
            ctx ->
                handle(
                    ctx,
                    200,
                    (s, c) ->
                        s.execute(
                                c,
                                id(ctx),
                                ctx.request().getHeader("Idempotency-Key"),
                                Deadline.of(ctx))
                            .map(PlanRow::toJson)));
    router
        .post("/api/v1/plans/:id/cancel")
        .handler(ctx -> handle(ctx, 200, (s, c) -> s.cancel(c, id(ctx)).map(PlanRow::toJson)));
    router
        .get("/api/v1/audit")
        .handler(
            ctx ->
                handle(
                    ctx,
                    200,
                    (s, c) ->
                        s.audit(
                                c,
                                ctx.request().getParam("plan"),
                                ctx.request().getParam("actor"),
                                since(ctx))
                            .map(rows -> new JsonObject().put("items", audit(rows)))));
  }

  private static JsonArray audit(List<AuditEntry> rows) {
    return new JsonArray(rows.stream().map(AuditEntry::toJson).toList());
  }

  private static String id(RoutingContext ctx) {
    return ctx.pathParam("id");
  }

  private static Instant since(RoutingContext ctx) {
    String s = ctx.request().getParam("since");
    if (s == null) {
      return null;
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          "since", "expected an RFC 3339 time like 2026-11-29T09:00:00Z, got '" + s + "'");
    }
  }

  interface Op {
    Future<JsonObject> apply(PlanService s, Caller c);
  }

  private void handle(RoutingContext ctx, int status, Op op) {
    Future<JsonObject> f;
    try {
      if (remediation == null || !remediation.running()) {
        throw ApiException.notReady(
            "remediation is not running (no database or no Kubernetes client)");
      }
      Caller c = ConsoleAuth.caller(ctx);
      f = op.apply(remediation.plans(), c);
    } catch (ApiException e) {
      f = Future.failedFuture(e);
    }
    f.onSuccess(json -> Replies.json(ctx, status, json)).onFailure(ctx::fail);
  }
}
