package org.sandboxslo.console.routes;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.TreeSet;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.remediation.Caller;
import org.sandboxslo.console.remediation.PlanAction;
import org.sandboxslo.console.remediation.Remediation;

/**
 * {@code GET /api/v1/whoami} with {@code Authorization: Bearer <token>}: {@code {"user","roles":[
 * "approver:team-a",...], "twoPerson", "approverRoles":{"PacedRecreate":["approver"],...}}}, so the
 * page can show who is signed in and disable what the roles do not allow. 401 for a missing or
 * unknown token, 503 when remediation (which holds the identities) is not running.
 */
public final class WhoamiRoutes {
  private WhoamiRoutes() {}

  /**
   * @param remediation the service that holds the identities, or null (then 503)
   */
  public static void mount(Router router, Remediation remediation) {
    router
        .get("/api/v1/whoami")
        .handler(
            ctx -> {
              Remediation s = remediation;
              if (s == null) {
                throw ApiException.notReady(
                    "sign-in needs the remediation service (database and Kubernetes client)");
              }
              Caller c = s.authenticator().authenticate(ctx.request().getHeader("Authorization"));
              JsonObject approvers = new JsonObject();
              for (PlanAction a : PlanAction.values()) {
                approvers.put(a.wireName(), new JsonArray(s.config().approversOf(a)));
              }
              Json.ok(
                  ctx,
                  new JsonObject()
                      .put("user", c.user())
                      .put("roles", new JsonArray(new TreeSet<>(c.roles()).stream().toList()))
                      .put("twoPerson", s.config().twoPerson())
                      .put("approverRoles", approvers));
            });
  }
}
