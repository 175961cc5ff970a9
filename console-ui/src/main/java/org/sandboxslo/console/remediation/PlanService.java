package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Deadline;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.store.AuditEntry;
import org.sandboxslo.store.PlanRow;
import org.sandboxslo.store.RemediationStore;

/**
 * The plan API: create (dry run), read, approve, execute, cancel, and the audit trail.
 *
 * <ul>
 *   <li>Plans are dry runs ({@link RemediationPlans}) stored in {@code remediation_plan} with state
 *       {@link PlanState#PLANNED}; approval needs a role that {@code
 *       sloconsole.auth.approver-roles} allows for the action (default {@code approver}) in the
 *       subject's namespace and, for destructive actions under {@code sloconsole.auth.two-person},
 *       a user other than the planner; execution needs role {@code operator} and an approved plan.
 *   <li>State changes are conditional UPDATEs, so a duplicated or retried execute gets 409 and does
 *       nothing; refusals (403/409) are audited as {@code refused: <status> ...}.
 *   <li>An executed plan is handed to the {@link PlanExecutor}.
 * </ul>
 *
 * Every method returns a Future that fails with an {@link ApiException} (400 naming the field, 403
 * naming the role, 404, 409) for a refused request, and with the store's error otherwise.
 */
public final class PlanService {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final RemediationConfig config;
  private final RemediationStore store;
  private final RemediationAudit audit;
  private final RemediationFleet fleet;
  private final PlanExecutor executor;
  private final PlanListeners listeners;

  PlanService(
      RemediationConfig config,
      RemediationStore store,
      RemediationAudit audit,
      RemediationFleet fleet,
      PlanExecutor executor,
      PlanListeners listeners) {
    this.listeners = Objects.requireNonNull(listeners, "listeners");
    this.config = Objects.requireNonNull(config, "config");
    this.store = Objects.requireNonNull(store, "store");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.fleet = Objects.requireNonNull(fleet, "fleet");
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  static void require(Caller c, String role, String namespace) {
    if (!c.has(role, namespace)) {
      throw lacksRole(c, role + scope(namespace));
    }
  }

  /** 403 {@code forbidden} on field {@code role}: "user U lacks role {@code what}". */
  private static ApiException lacksRole(Caller c, String what) {
    return new ApiException(403, "forbidden", "role", "user " + c.user() + " lacks role " + what);
  }

  /** " for namespace N", or " (cluster-wide)" for a subject without a namespace. */
  private static String scope(String namespace) {
    return namespace == null ? " (cluster-wide)" : " for namespace " + namespace;
  }

  private static String namespaceOf(PlanRow p) {
    return PlanAction.of(p.action()).namespaceOf(p.subject());
  }

  /**
   * Creates a plan (dry run) from {@code {"action","subject","params"?,"reason"}}.
   *
   * @return the stored plan; fails with 400 (field named), 403 (role operator)
   */
  public Future<PlanRow> create(Caller c, JsonObject body) {
    return create(c, body, Deadline.NONE);
  }

  /**
   * As above; the plan is not stored once {@code deadline} has passed (503 {@code deadline passed},
   * e.g. the dry run waited on a slow API server and the client gave up).
   */
  public Future<PlanRow> create(Caller c, JsonObject body, Deadline deadline) {
    Object action = body.getValue("action");
    Object subject = body.getValue("subject");
    Object params = body.getValue("params", new JsonObject());
    Object reason = body.getValue("reason");
    PlanAction a = action instanceof String name ? PlanAction.ofWireName(name).orElse(null) : null;
    if (a == null) {
      return Future.failedFuture(
          ApiException.badRequest(
              "action",
              "unknown action "
                  + (action == null ? "(missing)" : "'" + action + "'")
                  + "; actions: "
                  + String.join(", ", PlanAction.wireNames())));
    }
    if (!(subject instanceof String s) || s.isBlank()) {
      return Future.failedFuture(ApiException.badRequest("subject", "expected a non-empty string"));
    }
    if (!(params instanceof JsonObject ps)) {
      return Future.failedFuture(ApiException.badRequest("params", "expected an object"));
    }
    if (!(reason instanceof String r) || r.isBlank()) {
      return Future.failedFuture(
          ApiException.badRequest("reason", "expected a non-empty string: why this change"));
    }
    try {
      require(c, "operator", a.namespaceOf(s));
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    String id = "p-" + HexFormat.of().formatHex(bytes());
    return RemediationPlans.dryRun(a, s, ps, fleet, config.maxUnavailableFraction())
        .map(
            dry ->
                new PlanRow(
                    id,
                    a.wireName(),
                    s,
                    ps,
                    r,
                    PlanState.PLANNED.wireName(),
                    c.user(),
                    null,
                    null,
                    null,
                    dry,
                    new JsonObject(),
                    null,
                    audit.now(),
                    audit.now()))
        .compose(
            p -> {
              deadline.check("storing plan " + id);
              return store.insert(p).map(p);
            })
        .compose(p -> audit.append(c.user(), "plan.create", id, null, a + " " + s, r, "ok").map(p));
  }

  /**
   * The dry run a plan of {@code action} on {@code subject} would get, without storing anything
   * (the first step of a two-step write, e.g. from chat).
   *
   * @return the dry-run JSON; fails with 400 (field named), 403 (role operator) or 409 (refused
   *     offer), as {@link #create} would
   */
  public Future<JsonObject> preview(Caller c, String action, String subject, JsonObject params) {
    PlanAction a = PlanAction.ofWireName(action).orElse(null);
    if (a == null) {
      return Future.failedFuture(
          ApiException.badRequest(
              "action",
              "unknown action '"
                  + action
                  + "'; actions: "
                  + String.join(", ", PlanAction.wireNames())));
    }
    if (subject == null || subject.isBlank()) {
      return Future.failedFuture(ApiException.badRequest("subject", "expected a non-empty string"));
    }
    try {
      require(c, "operator", a.namespaceOf(subject));
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    return RemediationPlans.dryRun(a, subject, params, fleet, config.maxUnavailableFraction());
  }

  private static byte[] bytes() {
    byte[] b = new byte[6];
    RANDOM.nextBytes(b);
    return b;
  }

  private Future<PlanRow> found(String id) {
    return store
        .plan(id)
        .compose(
            p ->
                p == null
                    ? Future.failedFuture(
                        ApiException.notFound("id", "no plan " + id + " is known"))
                    : Future.succeededFuture(p));
  }

  /** A plan (role viewer). */
  public Future<PlanRow> plan(Caller c, String id) {
    return found(id)
        .map(
            p -> {
              require(c, "viewer", namespaceOf(p));
              return p;
            });
  }

  /** The plans the caller may view, newest first. */
  public Future<List<PlanRow>> plans(Caller c) {
    return store
        .plans(null)
        .map(ps -> ps.stream().filter(p -> c.has("viewer", namespaceOf(p))).toList());
  }

  /** Audit rows (role viewer, unscoped or admin: everything). */
  public Future<List<AuditEntry>> audit(Caller c, String planId, String actor, Instant since) {
    return store
        .audit(planId, actor, since)
        .map(
            rows -> {
              if (planId == null) {
                require(c, "viewer", null);
              }
              return rows;
            })
        .compose(rows -> planId == null ? Future.succeededFuture(rows) : plan(c, planId).map(rows));
  }

  /**
   * Approves a planned plan.
   *
   * @return the plan, now {@code approved}; fails with 404, 403 (role approver for the namespace;
   *     two-person rule) or 409 (not in state planned)
   */
  public Future<PlanRow> approve(Caller c, String id) {
    return approve(c, id, Deadline.NONE);
  }

  /** As above; nothing is approved once {@code deadline} has passed (503). */
  public Future<PlanRow> approve(Caller c, String id, Deadline deadline) {
    return found(id).compose(p -> live(p).compose(live -> approve(c, p, live, deadline)));
  }

  /**
   * Destructiveness of a plan against live state: the dry run recomputed from the engine's current
   * view of the subject (e.g. the pool's replicas now). When it cannot be recomputed (subject gone,
   * nothing left to do, a hazard), the plan counts as destructive if it was when planned.
   *
   * @param destructive whether executing the plan now deletes or shrinks something
   * @param effect one line: what the plan does now, for refusals
   */
  record Live(boolean destructive, String effect) {}

  Future<Live> live(PlanRow p) {
    PlanAction action = PlanAction.of(p.action());
    boolean planned = p.dryRun().getBoolean("destructive", false);
    return RemediationPlans.dryRun(
            action, p.subject(), p.params(), fleet, config.maxUnavailableFraction())
        .map(d -> new Live(d.getBoolean("destructive", false) || planned, effect(d)))
        .recover(
            e ->
                Future.succeededFuture(
                    new Live(planned, "live state unavailable (" + e.getMessage() + ")")));
  }

  private static String effect(JsonObject dryRun) {
    var steps = dryRun.getJsonArray("steps");
    if (steps == null || steps.isEmpty() || !(steps.getValue(0) instanceof JsonObject first)) {
      return "no steps";
    }
    return first.getString("description", "");
  }

  private Future<PlanRow> approve(Caller c, PlanRow p, Live live, Deadline deadline) {
    String id = p.id();
    PlanAction action = PlanAction.of(p.action());
    String ns = action.namespaceOf(p.subject());
    List<String> allowed = config.approversOf(action);
    if (allowed.stream().noneMatch(role -> c.has(role, ns))) {
      return audit.refuse(
          c,
          "plan.approve",
          p,
          lacksRole(
              c,
              String.join(" or ", allowed)
                  + scope(ns)
                  + ", which approving "
                  + action
                  + " requires"));
    }
    if (config.twoPerson() && live.destructive() && c.user().equals(p.plannedBy())) {
      return audit.refuse(
          c,
          "plan.approve",
          p,
          new ApiException(
              403,
              "forbidden",
              "approver",
              "two-person rule: "
                  + action
                  + " is destructive against live state ("
                  + live.effect()
                  + ") and was planned by "
                  + p.plannedBy()
                  + "; another approver must approve it"));
    }
    if (PlanState.of(p.state()) != PlanState.PLANNED) {
      return audit.refuse(
          c,
          "plan.approve",
          p,
          new ApiException(
              409,
              "conflict",
              "state",
              "plan " + id + " is " + p.state() + ", only a planned plan can be approved"));
    }
    String object = p.action() + " " + p.subject();
    return audit
        .append(c.user(), "plan.approve", id, null, object, p.reason(), "intent")
        .compose(x -> late(c, "plan.approve", p, deadline, "approving plan " + id))
        .compose(x -> move(id, PlanState.PLANNED, PlanState.APPROVED, "approved_by", c.user()))
        .compose(
            ok ->
                ok
                    ? audit.append(c.user(), "plan.approve", id, null, object, p.reason(), "ok")
                    : audit.refuse(
                        c,
                        "plan.approve",
                        p,
                        new ApiException(
                            409,
                            "conflict",
                            "state",
                            "plan " + id + " changed state concurrently; nothing was approved")))
        .compose(x -> found(id));
  }

  /**
   * Starts executing an approved plan.
   *
   * @param idempotencyKey the request's {@code Idempotency-Key}, or null
   * @return the plan, now {@code executing}; fails with 404, 403 (role operator) or 409 (not
   *     approved; already executing or finished — nothing is done twice)
   */
  public Future<PlanRow> execute(Caller c, String id, String idempotencyKey) {
    return execute(c, id, idempotencyKey, Deadline.NONE);
  }

  /** As above; nothing is started once {@code deadline} has passed (503). */
  public Future<PlanRow> execute(Caller c, String id, String idempotencyKey, Deadline deadline) {
    return found(id)
        .compose(
            p ->
                PlanState.of(p.state()) == PlanState.APPROVED
                    ? live(p).compose(live -> reapprovalNeeded(c, p, live))
                    : Future.succeededFuture(p))
        .compose(p -> execute(c, p, idempotencyKey, deadline));
  }

  /**
   * Fails (audited {@code refused: 503 ...}) when the request's deadline has passed, e.g. after the
   * database was unavailable while the client waited: the change is not applied late.
   */
  private Future<Void> late(Caller c, String what, PlanRow p, Deadline deadline, String change) {
    try {
      deadline.check(change);
      return Future.succeededFuture();
    } catch (ApiException e) {
      return audit.refuse(c, what, p, e);
    }
  }

  /**
   * The two-person rule at execute time: a plan that is destructive against live state but was
   * approved by its own planner (it was not destructive then, e.g. ScalePool 0 → 1 executed when
   * the pool has 4) is refused with 403 and goes back to {@code planned} for a second approver.
   */
  private Future<PlanRow> reapprovalNeeded(Caller c, PlanRow p, Live live) {
    if (!config.twoPerson()
        || !live.destructive()
        || p.approvedBy() == null
        || !p.approvedBy().equals(p.plannedBy())) {
      return Future.succeededFuture(p);
    }
    ApiException refused =
        new ApiException(
            403,
            "forbidden",
            "approver",
            "two-person rule: "
                + p.action()
                + " "
                + p.subject()
                + " is destructive against live state ("
                + live.effect()
                + ") but was approved by its planner "
                + p.plannedBy()
                + "; it is back in state planned and another approver must approve it");
    return store
        .transition(
            p.id(),
            PlanState.APPROVED.wireName(),
            PlanState.PLANNED.wireName(),
            "approved_by",
            null,
            null,
            audit.now())
        .compose(x -> audit.refuse(c, "plan.execute", p, refused));
  }

  private Future<PlanRow> execute(Caller c, PlanRow p, String idempotencyKey, Deadline deadline) {
    String id = p.id();
    String ns = namespaceOf(p);
    if (!c.has("operator", ns)) {
      return audit.refuse(c, "plan.execute", p, lacksRole(c, "operator" + scope(ns)));
    }
    PlanState state = PlanState.of(p.state());
    if (state == PlanState.PLANNED) {
      return audit.refuse(
          c,
          "plan.execute",
          p,
          new ApiException(
              409,
              "conflict",
              "state",
              "plan "
                  + id
                  + " is not approved; an approver must approve it before it can be executed"));
    }
    if (state != PlanState.APPROVED) {
      boolean sameKey = idempotencyKey != null && idempotencyKey.equals(p.idempotencyKey());
      return audit.refuse(
          c,
          "plan.execute",
          p,
          new ApiException(
              409,
              "conflict",
              "state",
              "plan "
                  + id
                  + " is already "
                  + state
                  + (p.executedBy() == null ? "" : " (started by " + p.executedBy() + ")")
                  + (sameKey ? "; Idempotency-Key " + idempotencyKey + " was already used" : "")
                  + "; nothing was done twice"));
    }
    String object = p.action() + " " + p.subject();
    return audit
        .append(c.user(), "plan.execute", id, null, object, p.reason(), "intent")
        .compose(x -> late(c, "plan.execute", p, deadline, "executing plan " + id))
        .compose(x -> move(id, PlanState.APPROVED, PlanState.EXECUTING, "executed_by", c.user()))
        .compose(
            ok ->
                ok
                    ? Future.succeededFuture()
                    : audit.refuse(
                        c,
                        "plan.execute",
                        p,
                        new ApiException(
                            409,
                            "conflict",
                            "state",
                            "plan " + id + " is already executing; nothing was done twice")))
        .compose(
            x ->
                idempotencyKey == null
                    ? Future.succeededFuture()
                    : move(
                        id,
                        PlanState.EXECUTING,
                        PlanState.EXECUTING,
                        "idempotency_key",
                        idempotencyKey))
        .compose(x -> audit.append(c.user(), "plan.execute", id, null, object, p.reason(), "ok"))
        .onSuccess(x -> executor.schedule(id))
        .compose(x -> found(id))
        .onSuccess(listeners::executing);
  }

  /**
   * Cancels a plan that has not finished; an executing plan stops before its next step. A cancel of
   * a plan this process executes is handed to the executor first ({@link
   * PlanExecutor#requestCancel}), so it holds even when the database cannot store it now: the
   * answer is then 503 (the cancel is not confirmed; retry to confirm), while no further step
   * starts and the executor stores the cancel once the database answers. Cancelling a cancelled
   * plan answers the plan (nothing changes).
   *
   * @return the plan, now {@code cancelled}; fails with 404, 403 (operator or approver), 409
   *     (succeeded or failed) or 503 (database unavailable)
   */
  public Future<PlanRow> cancel(Caller c, String id) {
    PlanRow running = executor.executing(id);
    boolean handed = false;
    if (running != null && mayCancel(c, namespaceOf(running))) {
      executor.requestCancel(id, c.user());
      handed = true;
    }
    boolean stopped = handed;
    return found(id)
        .compose(p -> cancel(c, p))
        .recover(
            e ->
                stopped && org.sandboxslo.store.StoreErrors.unavailable(e).isPresent()
                    ? Future.failedFuture(
                        new ApiException(
                            503,
                            "database unavailable",
                            null,
                            "the cancel of plan "
                                + id
                                + " is not confirmed ("
                                + org.sandboxslo.store.StoreErrors.unavailable(e).get()
                                + "); this console starts no further step of it and stores the"
                                + " cancel when the database answers; retry to confirm"))
                    : Future.failedFuture(e));
  }

  private static boolean mayCancel(Caller c, String ns) {
    return c.has("operator", ns) || c.has("approver", ns);
  }

  private Future<PlanRow> cancel(Caller c, PlanRow p) {
    String id = p.id();
    String ns = namespaceOf(p);
    if (!mayCancel(c, ns)) {
      return audit.refuse(
          c,
          "plan.cancel",
          p,
          lacksRole(c, "operator or approver" + (ns == null ? "" : scope(ns))));
    }
    PlanState state = PlanState.of(p.state());
    if (state == PlanState.CANCELLED) {
      return Future.succeededFuture(p); // a retried cancel, or the executor stored it first
    }
    if (state.finished()) {
      return audit.refuse(
          c,
          "plan.cancel",
          p,
          new ApiException(409, "conflict", "state", "plan " + id + " is already " + state));
    }
    return store
        .transition(
            id,
            state.wireName(),
            PlanState.CANCELLED.wireName(),
            null,
            null,
            "cancelled by " + c.user(),
            audit.now())
        .compose(
            ok ->
                ok
                    ? audit.append(
                        c.user(),
                        "plan.cancel",
                        id,
                        null,
                        p.action() + " " + p.subject(),
                        p.reason(),
                        "ok")
                    : found(id)
                        .compose(
                            now ->
                                PlanState.of(now.state()) == PlanState.CANCELLED
                                    ? Future.succeededFuture() // the executor stored this cancel
                                    : audit.refuse(
                                        c,
                                        "plan.cancel",
                                        p,
                                        new ApiException(
                                            409,
                                            "conflict",
                                            "state",
                                            "plan "
                                                + id
                                                + " changed state concurrently; try again"))))
        .onSuccess(x -> listeners.finished(p, PlanState.CANCELLED))
        .compose(x -> found(id));
  }

  /**
   * One conditional UPDATE {@code from → to} setting {@code column = value}; false if not in from.
   */
  private Future<Boolean> move(
      String id, PlanState from, PlanState to, String column, String value) {
    return store.transition(id, from.wireName(), to.wireName(), column, value, null, audit.now());
  }
}
