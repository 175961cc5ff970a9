package org.sandboxslo.console.routes;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.TreeSet;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.console.auth.ConsoleAuth;
import org.sandboxslo.console.remediation.PlanAction;
import org.sandboxslo.console.remediation.Remediation;

/**
 * {@code GET /api/v1/whoami}: the caller the console's sign-in ({@link ConsoleAuth}) resolved for
 * this request, {@code {"user","roles":["approver:team-a",...], "twoPerson",
 * "approverRoles":{"PacedRecreate":["approver"],...}}}, so the page can show who is signed in and
 * disable what the roles do not allow. {@code twoPerson} and {@code approverRoles} are null when
 * remediation is not running. 401 for a missing (with anonymous reads off) or unknown credential.
 */
public final class WhoamiRoutes {
  private WhoamiRoutes() {}

  /**
   * @param remediationOrNull the remediation service whose approval rules are reported, or null
   */
  public static void mount(Router router, Remediation remediationOrNull) {
    router
        .get("/api/v1/whoami")
        .handler(
            ctx -> {
              Caller c = ConsoleAuth.caller(ctx);
              JsonObject approvers = null;
              Boolean twoPerson = null;
              if (remediationOrNull != null) {
                approvers = new JsonObject();
                for (PlanAction a : PlanAction.values()) {
                  approvers.put(
                      a.wireName(), new JsonArray(remediationOrNull.config().approversOf(a)));
                }
                twoPerson = remediationOrNull.config().twoPerson();
              }
              Json.ok(
                  ctx,
                  new JsonObject()
                      .put("user", c.user())
                      .put("roles", new JsonArray(new TreeSet<>(c.roles()).stream().toList()))
                      .put("twoPerson", twoPerson)
                      .put("approverRoles", approvers));
            });
  }
}
