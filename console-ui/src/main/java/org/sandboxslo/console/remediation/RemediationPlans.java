package org.sandboxslo.console.remediation;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.remediation.RecreatePlan;
import org.sandboxslo.engine.remediation.RemediationPlanner;

/**
 * Builds the dry run of a plan request: validates action, subject and params against the engine's
 * view, and lists exactly which objects change, step by step, with the predicted effect on the pool
 * SLIs. The per-action builders are pure and throw {@link ApiException} 400 naming the field for
 * bad input.
 *
 * <p>Dry-run JSON: {@code {"steps":[{"n","op","objects":[...],"description",...}], "destructive",
 * "automatic", "predicted":{...}}} plus action-specific fields (PacedRecreate: {@code
 * maxUnavailable, floorReady, floorFraction, replicas, batches, untouched}). Step ops: {@code
 * delete-members} (paced batches), {@code patch-pool}, {@code create-pool}, {@code
 * wait-pool-ready}, {@code delete-claim}, {@code set-refill-rate}, {@code patch-deployment-args}.
 */
final class RemediationPlans {
  private RemediationPlans() {}

  /** Largest refill pacing, sandboxes per second per pool. */
  static final double MAX_REFILL_RATE = 10_000;

  static String refillArg(double rate) {
    return "--sandbox-warm-pool-max-refill-rate=" + fmt(rate);
  }

  static String fmt(double d) {
    return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.2f", d);
  }

  /**
   * The dry run of a plan request. Pool actions read the engine's view of the pool first ({@link
   * RemediationFleet#pool}, a Future: no thread waits); the rest is pure.
   *
   * @return the dry-run JSON; a failed Future with a 400 {@link ApiException} naming {@code
   *     subject} or {@code params.x} for bad input
   */
  static Future<JsonObject> dryRun(
      PlanAction action,
      String subject,
      JsonObject params,
      RemediationFleet fleet,
      double fraction) {
    return switch (action) {
      case PACED_RECREATE ->
          pool(subject, fleet).map(s -> pacedRecreate(s, fraction, hazard(s.pool(), fleet)));
      case SET_UPDATE_STRATEGY -> pool(subject, fleet).map(s -> setUpdateStrategy(s, params));
      case SCALE_POOL -> pool(subject, fleet).map(s -> scalePool(s, params));
      case SHARD_POOL -> pool(subject, fleet).map(s -> shardPool(s, params));
      case SET_REFILL_PACING -> attempt(() -> setRefillPacing(subject, params, fleet));
      case DELETE_EXPIRED_CLAIMS -> attempt(() -> deleteExpiredClaims(subject, params, fleet));
    };
  }

  private static <T> Future<T> attempt(Supplier<T> f) {
    try {
      return Future.succeededFuture(f.get());
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
  }

  /** The engine's view of the pool {@code subject}; 400 naming {@code subject} when unknown. */
  private static Future<PoolState> pool(String subject, RemediationFleet fleet) {
    ObjectRef ref;
    try {
      ref = ObjectRef.parse(subject);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(
          ApiException.badRequest("subject", "expected namespace/pool, got '" + subject + "'"));
    }
    return fleet
        .pool(ref)
        .map(
            s -> {
              if (s == null) {
                throw ApiException.badRequest("subject", "no SandboxWarmPool " + ref + " is known");
              }
              return s;
            });
  }

  private static JsonArray objects(String kind, String ns, List<String> names) {
    JsonArray a = new JsonArray();
    names.forEach(n -> a.add(kind + " " + ns + "/" + n));
    return a;
  }

  /**
   * Why no plan that adds creates may run on {@code pool} now, from the open findings: the pool
   * over-creates, its refill is gated behind watch lag, or an informer is suspect-stale; null when
   * none holds.
   */
  static String hazard(ObjectRef pool, RemediationFleet fleet) {
    String subject = "SandboxWarmPool " + pool;
    for (FindingState f : fleet.findings()) {
      if (!f.open()) {
        continue;
      }
      FindingKind k = f.finding().kind();
      if ((k == FindingKind.POOL_OVER_CREATION || k == FindingKind.REFILL_GATED_BY_WATCH_LAG)
          && f.finding().subject().equals(subject)) {
        return "the open finding " + k.wireName() + " on " + subject + " forbids new creates";
      }
      if (k == FindingKind.INFORMER_SUSPECT_STALE) {
        return "the console's own data is suspect (" + f.finding().subject() + ")";
      }
    }
    return null;
  }

  static JsonObject pacedRecreate(PoolState s, double fraction) {
    return pacedRecreate(s, fraction, null);
  }

  static JsonObject pacedRecreate(PoolState s, double fraction, String hazard) {
    RecreatePlan p = RemediationPlanner.pacedRecreate(s, fraction);
    if (p.batches().isEmpty()) {
      throw ApiException.badRequest(
          "subject", "SandboxWarmPool " + s.pool() + " has no stale unclaimed members");
    }
    RemediationPlanner.Offer offer = RemediationPlanner.offer(s, fraction, hazard);
    if (offer instanceof RemediationPlanner.Offer.Refused r) {
      throw new ApiException(
          409,
          "conflict",
          "subject",
          "no paced Recreate is offered for " + s.pool() + ": " + r.reason());
    }
    int surge = ((RemediationPlanner.Offer.Planned) offer).surge();
    String ns = s.pool().namespace();
    JsonArray steps = new JsonArray();
    JsonArray batches = new JsonArray();
    int n = 1;
    if (surge > 0) {
      steps.add(
          new JsonObject()
              .put("n", n++)
              .put("op", "surge")
              .put("objects", new JsonArray().add("SandboxWarmPool " + s.pool()))
              .put(
                  "description",
                  "scale spec.replicas "
                      + p.replicas()
                      + " → "
                      + (p.replicas() + surge)
                      + " first: no member on the current template is Ready, so "
                      + surge
                      + " canary member(s) must be Ready before a Ready stale member is deleted;"
                      + " restored to "
                      + p.replicas()
                      + " at the end"));
    }
    for (List<String> b : p.batches()) {
      batches.add(new JsonArray(new ArrayList<>(b)));
      steps.add(
          new JsonObject()
              .put("n", n++)
              .put("op", StepOp.DELETE_MEMBERS.wireName())
              .put("objects", objects("Sandbox", ns, b))
              .put(
                  "description",
                  "delete "
                      + String.join(", ", b)
                      + " (re-checked just before: still owned by the pool, "
                      + "still stale), then wait until the replacement"
                      + (b.size() > 1 ? "s are" : " is")
                      + " Ready and at least "
                      + p.floorReady()
                      + " of "
                      + p.replicas()
                      + " members are Ready"));
    }
    double before =
        s.replicas() == 0 ? 1.0 : (double) p.readyCurrentTemplateBefore() / s.replicas();
    return new JsonObject()
        .put("replicas", p.replicas())
        .put("surge", surge)
        .put("maxUnavailable", p.maxUnavailable())
        .put(
            "maxUnavailableArithmetic",
            "max(1, floor(" + fraction + " × " + p.replicas() + ")) = " + p.maxUnavailable())
        .put("floorReady", p.floorReady())
        .put("floorFraction", round(p.floorFraction()))
        .put("batches", batches)
        .put("untouched", new JsonArray(new ArrayList<>(p.untouched())))
        .put("steps", steps)
        .put("destructive", true)
        .put("automatic", true)
        .put(
            "predicted",
            new JsonObject()
                .put(
                    "staleMembers", new JsonObject().put("before", p.staleBefore()).put("after", 0))
                .put(
                    "readyFractionCurrentTemplate",
                    new JsonObject().put("before", round(before)).put("after", 1.0))
                .put("minReadyFractionDuringRollout", round(p.floorFraction()))
                .put(
                    "note",
                    "Ready members never drop below "
                        + p.floorReady()
                        + " of "
                        + p.replicas()
                        + "; upstream Recreate would delete all "
                        + p.staleBefore()
                        + " stale members at once (agent-sandbox#426)"));
  }

  private static double round(double d) {
    return Math.round(d * 100) / 100.0;
  }

  static JsonObject setUpdateStrategy(PoolState s, JsonObject params) {
    Object t = params.getValue("type");
    if (!"Recreate".equals(t) && !"OnReplenish".equals(t)) {
      throw ApiException.badRequest("params.type", "expected Recreate or OnReplenish, got " + t);
    }
    int stale = s.staleUnclaimed().size();
    JsonObject patch = new JsonObject().put("updateStrategy", new JsonObject().put("type", t));
    return new JsonObject()
        .put(
            "steps",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("n", 1)
                        .put("op", StepOp.PATCH_POOL.wireName())
                        .put("objects", new JsonArray().add("SandboxWarmPool " + s.pool()))
                        .put("patch", patch)
                        .put(
                            "description",
                            "set spec.updateStrategy.type " + s.updateStrategy() + " → " + t)))
        .put("destructive", "Recreate".equals(t) && stale > 0)
        .put("automatic", true)
        .put(
            "predicted",
            new JsonObject()
                .put(
                    "warning",
                    "Recreate".equals(t) && stale > 0
                        ? "the controller deletes all "
                            + stale
                            + " stale members in one pass: Ready members drop to "
                            + (s.readyUnclaimed()
                                - (int)
                                    s.unclaimed().stream()
                                        .filter(m -> m.stale() && m.ready())
                                        .count())
                            + " of "
                            + s.replicas()
                            + " (agent-sandbox#426); prefer PacedRecreate"
                        : "no members change now"));
  }

  /**
   * An integer parameter in {@code min..max}, checked on the number's exact value before any
   * narrowing ({@code 4294967296} is out of range, not 0).
   */
  static int intParam(JsonObject params, String key, int min, int max) {
    Object v = params.getValue(key);
    java.math.BigDecimal exact = null;
    if (v instanceof Number n) {
      try {
        exact = new java.math.BigDecimal(n.toString());
      } catch (NumberFormatException e) {
        exact = null; // NaN, Infinity
      }
    }
    if (exact == null
        || exact.stripTrailingZeros().scale() > 0
        || exact.compareTo(java.math.BigDecimal.valueOf(min)) < 0
        || exact.compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
      throw ApiException.badRequest(
          "params." + key,
          "expected an integer "
              + min
              + ".."
              + max
              + ", got "
              + (v instanceof String str ? "'" + str + "'" : String.valueOf(v)));
    }
    return exact.intValueExact();
  }

  static JsonObject scalePool(PoolState s, JsonObject params) {
    int replicas = intParam(params, "replicas", 0, 10_000);
    if (replicas == s.replicas()) {
      throw ApiException.badRequest(
          "params.replicas",
          "SandboxWarmPool " + s.pool() + " already has " + replicas + " replicas");
    }
    boolean down = replicas < s.replicas();
    return new JsonObject()
        .put(
            "steps",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("n", 1)
                        .put("op", StepOp.PATCH_POOL.wireName())
                        .put("objects", new JsonArray().add("SandboxWarmPool " + s.pool()))
                        .put("patch", new JsonObject().put("replicas", replicas))
                        .put(
                            "description",
                            "set spec.replicas "
                                + s.replicas()
                                + " → "
                                + replicas
                                + (down
                                    ? " (the controller deletes "
                                        + (s.replicas() - replicas)
                                        + " idle members, not-Ready first)"
                                    : ""))))
        .put("destructive", down)
        .put("automatic", true)
        .put(
            "predicted",
            new JsonObject()
                .put(
                    "replicas",
                    new JsonObject().put("before", s.replicas()).put("after", replicas)));
  }

  static JsonObject shardPool(PoolState s, JsonObject params) {
    int shards = intParam(params, "shards", 2, 64);
    int per = (int) Math.ceil((double) s.replicas() / shards);
    int old = Math.max(0, s.replicas() - per * (shards - 1));
    JsonArray steps = new JsonArray();
    int n = 1;
    List<String> names = new ArrayList<>();
    for (int i = 1; i < shards; i++) {
      String name = s.pool().name() + "-shard-" + i;
      names.add(name);
      steps.add(
          new JsonObject()
              .put("n", n++)
              .put("op", StepOp.CREATE_POOL.wireName())
              .put(
                  "objects",
                  new JsonArray().add("SandboxWarmPool " + s.pool().namespace() + "/" + name))
              .put("template", s.templateName())
              .put("replicas", per)
              .put(
                  "description",
                  "create SandboxWarmPool "
                      + name
                      + " (template "
                      + s.templateName()
                      + ", replicas "
                      + per
                      + ")"));
    }
    for (String name : names) {
      steps.add(
          new JsonObject()
              .put("n", n++)
              .put("op", StepOp.WAIT_POOL_READY.wireName())
              .put(
                  "objects",
                  new JsonArray().add("SandboxWarmPool " + s.pool().namespace() + "/" + name))
              .put("minReady", per)
              .put("description", "wait until " + name + " has " + per + " Ready members"));
    }
    steps.add(
        new JsonObject()
            .put("n", n)
            .put("op", StepOp.PATCH_POOL.wireName())
            .put("objects", new JsonArray().add("SandboxWarmPool " + s.pool()))
            .put("patch", new JsonObject().put("replicas", old))
            .put(
                "description",
                "shrink " + s.pool().name() + " " + s.replicas() + " → " + old + " replicas"));
    return new JsonObject()
        .put("steps", steps)
        .put("destructive", true)
        .put("automatic", true)
        .put(
            "predicted",
            new JsonObject()
                .put("pools", shards)
                .put("replicasPerPool", per)
                .put(
                    "note",
                    "the new pools are Ready before the old one shrinks; claims must be spread over the "
                        + shards
                        + " pools (spec.warmPoolRef)"));
  }

  static JsonObject setRefillPacing(String subject, JsonObject params, RemediationFleet fleet) {
    Object v = params.getValue("maxRefillRate");
    if (!(v instanceof Number rate)
        || !(rate.doubleValue() >= 0)
        || rate.doubleValue() > MAX_REFILL_RATE) {
      throw ApiException.badRequest(
          "params.maxRefillRate",
          "expected a number 0.."
              + (int) MAX_REFILL_RATE
              + " (sandboxes/s per pool; 0 = unpaced), got "
              + v);
    }
    JsonObject step = new JsonObject().put("n", 1).put("maxRefillRate", rate.doubleValue());
    if (subject.equals("controller-lite")) {
      if (!fleet.controllerLite()) {
        throw ApiException.badRequest(
            "subject",
            "controller-lite does not run in this process; give the upstream "
                + "controller Deployment as namespace/name");
      }
      step.put("op", StepOp.SET_REFILL_RATE.wireName())
          .put("objects", new JsonArray().add("controller-lite max-refill-rate"))
          .put(
              "description",
              "set controller-lite's per-pool max refill rate to "
                  + fmt(rate.doubleValue())
                  + "/s (live)");
    } else {
      ObjectRef d;
      try {
        d = ObjectRef.parse(subject);
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest(
            "subject", "expected controller-lite or namespace/deployment, got '" + subject + "'");
      }
      step.put("op", StepOp.PATCH_DEPLOYMENT_ARGS.wireName())
          .put("objects", new JsonArray().add("Deployment " + d))
          .put(
              "patch",
              "containers[0].args: replace --sandbox-warm-pool-max-refill-rate with "
                  + refillArg(rate.doubleValue()))
          .put(
              "description",
              "patch the upstream controller Deployment " + d + " (rolls the controller pod)");
    }
    return new JsonObject()
        .put("steps", new JsonArray().add(step))
        .put("destructive", false)
        .put("automatic", true)
        .put("predicted", new JsonObject().put("maxRefillRatePerPool", rate.doubleValue()));
  }

  static JsonObject deleteExpiredClaims(
      String namespace, JsonObject params, RemediationFleet fleet) {
    if (namespace.isEmpty() || namespace.contains("/")) {
      throw ApiException.badRequest("subject", "expected a namespace, got '" + namespace + "'");
    }
    TreeSet<String> claims = new TreeSet<>();
    for (FindingState f : fleet.findings()) {
      FindingKind k = f.finding().kind();
      if (f.open()
          && (k == FindingKind.EXPIRED_CLAIMS_ACCUMULATING
              || k == FindingKind.NEVER_EXPIRING_FINISHED_CLAIMS)
          && f.finding().subject().equals("Namespace " + namespace)) {
        f.finding().objects().stream()
            .filter(o -> o.startsWith("SandboxClaim "))
            .forEach(claims::add);
      }
    }
    if (claims.isEmpty()) {
      throw ApiException.badRequest(
          "subject",
          "no expired or never-expiring finished claims are known in namespace " + namespace);
    }
    JsonArray steps = new JsonArray();
    int n = 1;
    for (String c : claims) {
      steps.add(
          new JsonObject()
              .put("n", n++)
              .put("op", StepOp.DELETE_CLAIM.wireName())
              .put("objects", new JsonArray().add(c))
              .put(
                  "description",
                  "delete "
                      + c
                      + " (re-checked just before: still expired, or finished without lifecycle)"));
    }
    return new JsonObject()
        .put("steps", steps)
        .put("destructive", true)
        .put("automatic", false)
        .put(
            "predicted",
            new JsonObject()
                .put("claimsDeleted", claims.size())
                .put(
                    "note",
                    "never automatic: deletion only after explicit approval and execute; recommend clients set "
                        + "lifecycle {shutdownPolicy: Delete, ttlSecondsAfterFinished: 0} (agent-sandbox#1306)"));
  }
}
