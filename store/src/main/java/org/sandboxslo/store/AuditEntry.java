package org.sandboxslo.store;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Objects;

/**
 * One row of the append-only audit log (table {@code remediation_audit}).
 *
 * @param seq insertion order (0 before insert)
 * @param at when
 * @param actor user, or {@code executor} for execution steps
 * @param what {@code plan.create}, {@code plan.approve}, {@code plan.execute}, {@code plan.cancel},
 *     {@code step.before}, {@code step.after}, {@code plan.done}, {@code plan.resume}
 * @param planId plan id, or null
 * @param step step number (1-based), or null
 * @param object the object changed, e.g. {@code Sandbox demo/python-runtime-pool-abcde}, or null
 * @param why reason
 * @param result {@code intent} (before a change), {@code ok}, {@code refused: ...}, {@code failed:
 *     ...}, {@code skipped: ...}
 */
public record AuditEntry(
    long seq,
    Instant at,
    String actor,
    String what,
    String planId,
    Integer step,
    String object,
    String why,
    String result) {
  public AuditEntry {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(result, "result");
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("seq", seq)
        .put("at", at.toString())
        .put("actor", actor)
        .put("what", what)
        .put("plan", planId)
        .put("step", step)
        .put("object", object)
        .put("why", why)
        .put("result", result);
  }
}
