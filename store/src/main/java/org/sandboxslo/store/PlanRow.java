package org.sandboxslo.store;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A stored remediation plan (table {@code remediation_plan}).
 *
 * @param id plan id ({@code p-} + 12 hex)
 * @param action typed action, one of {@link #ACTIONS}
 * @param subject {@code ns/pool}, a namespace (DeleteExpiredClaims), or {@code controller-lite} /
 *     {@code ns/deployment} (SetRefillPacing)
 * @param params the action's parameters as given
 * @param reason why, as given by the planner
 * @param state {@code planned|approved|executing|succeeded|failed|cancelled}
 * @param plannedBy user who created it
 * @param approvedBy user who approved it, or null
 * @param executedBy user who started execution, or null
 * @param idempotencyKey the {@code Idempotency-Key} of the execute request, or null
 * @param dryRun the plan: steps, objects changed, predicted effect
 * @param progress executor progress (next step, deleted members, observations)
 * @param result final outcome text, or null while not finished
 * @param createdAt creation time
 * @param updatedAt last change
 */
public record PlanRow(
    String id,
    String action,
    String subject,
    JsonObject params,
    String reason,
    String state,
    String plannedBy,
    String approvedBy,
    String executedBy,
    String idempotencyKey,
    JsonObject dryRun,
    JsonObject progress,
    String result,
    Instant createdAt,
    Instant updatedAt) {
  /** The typed actions. */
  public static final List<String> ACTIONS =
      List.of(
          "PacedRecreate",
          "SetUpdateStrategy",
          "ScalePool",
          "ShardPool",
          "SetRefillPacing",
          "DeleteExpiredClaims");

  /** The states. */
  public static final List<String> STATES =
      List.of("planned", "approved", "executing", "succeeded", "failed", "cancelled");

  public PlanRow {
    Objects.requireNonNull(id, "id");
    if (!ACTIONS.contains(action)) {
      throw new IllegalArgumentException("unknown action " + action);
    }
    if (!STATES.contains(state)) {
      throw new IllegalArgumentException("unknown state " + state);
    }
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("action", action)
        .put("subject", subject)
        .put("params", params)
        .put("reason", reason)
        .put("state", state)
        .put("plannedBy", plannedBy)
        .put("approvedBy", approvedBy)
        .put("executedBy", executedBy)
        .put("plan", dryRun)
        .put("progress", progress)
        .put("result", result)
        .put("createdAt", createdAt.toString())
        .put("updatedAt", updatedAt.toString());
  }
}
