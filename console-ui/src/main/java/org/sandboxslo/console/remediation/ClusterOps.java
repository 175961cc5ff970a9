package org.sandboxslo.console.remediation;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.json.JsonObject;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolMember;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.engine.upstream.Blueprints;

/**
 * The remediation's edge toward the Kubernetes API. Every method blocks (fabric8): call it on the
 * worker pool {@code sloconsole-remediation} only. Methods throw {@link
 * io.fabric8.kubernetes.client.KubernetesClientException} when the API server refuses or is
 * unreachable.
 */
final class ClusterOps {
  private final KubernetesClient client;

  ClusterOps(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  GenericKubernetesResource get(Kind kind, ObjectRef ref) {
    return Resources.ops(client, kind).inNamespace(ref.namespace()).withName(ref.name()).get();
  }

  /**
   * The annotations of an agent-sandbox object named {@code Kind ns/name} (blocking), for trace
   * continuation; empty for another kind, a missing object or a failed read (tracing never fails a
   * step).
   */
  Map<String, String> annotations(String object) {
    int sp = object.indexOf(' ');
    if (sp < 0) {
      return Map.of();
    }
    String kindName = object.substring(0, sp);
    for (Kind k : Kind.values()) {
      if (k.kindName().equals(kindName)) {
        try {
          GenericKubernetesResource r = get(k, ObjectRef.parse(object.substring(sp + 1)));
          Map<String, String> a = r == null ? null : r.getMetadata().getAnnotations();
          return a == null ? Map.of() : a;
        } catch (RuntimeException e) {
          return Map.of();
        }
      }
    }
    return Map.of();
  }

  /** {@link #livePool(ObjectRef, Set)} without engine hints. */
  PoolState livePool(ObjectRef pool) {
    return livePool(pool, Set.of());
  }

  /**
   * The pool now, read from the API: its members by controller ownerReference (not deleting),
   * Ready, and stale against the live template: the semantic digests differ and either the member's
   * blueprint contradicts the template's or the engine also reports it stale ({@code engineStale}:
   * the engine additionally catches pure additions to the template, such as a new env var, by the
   * upstream hash label). Null when the pool is gone.
   */
  PoolState livePool(ObjectRef pool, Set<String> engineStale) {
    GenericKubernetesResource p = get(Kind.SANDBOX_WARM_POOL, pool);
    if (p == null) {
      return null;
    }
    Map<String, Object> spec = Resources.spec(p);
    String templateName = Resources.string(Resources.map(spec, "sandboxTemplateRef"), "name");
    GenericKubernetesResource t =
        templateName == null
            ? null
            : get(Kind.SANDBOX_TEMPLATE, new ObjectRef(pool.namespace(), templateName));
    Map<String, Object> tspec = t == null ? null : Resources.spec(t);
    List<PoolMember> members = new ArrayList<>();
    for (GenericKubernetesResource s :
        Resources.ops(client, Kind.SANDBOX).inNamespace(pool.namespace()).list().getItems()) {
      OwnerReference o = Resources.controllerOwner(s);
      if (o == null || s.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      if ("SandboxWarmPool".equals(o.getKind()) && pool.name().equals(o.getName())) {
        members.add(
            new PoolMember(
                s.getMetadata().getName(),
                s.getMetadata().getUid(),
                Resources.isTrue(s, "Ready"),
                stale(Resources.spec(s), tspec, engineStale.contains(s.getMetadata().getName())),
                null));
      }
    }
    Object replicas = spec.get("replicas");
    String strategy = Resources.string(Resources.map(spec, "updateStrategy"), "type");
    return new PoolState(
        pool,
        templateName == null ? "" : templateName,
        replicas instanceof Number n ? n.intValue() : 1,
        strategy,
        members);
  }

  static boolean stale(
      Map<String, Object> memberSpec, Map<String, Object> templateSpec, boolean engineSaysStale) {
    if (templateSpec == null) {
      return false;
    }
    return !Blueprints.digest(memberSpec).equals(Blueprints.digest(templateSpec))
        && (engineSaysStale
            || Blueprints.contradicts(
                Blueprints.canonical(memberSpec), Blueprints.canonical(templateSpec)));
  }

  /**
   * Deletes a pool member after re-checking, right before, that it still exists, is not being
   * deleted, is still owned by the pool (controller ownerReference, not a claim) and is still
   * stale. The delete carries the member's resourceVersion as a precondition where the server
   * honours it.
   *
   * @return {@code ok}, or {@code skipped: <why>} when a check fails (nothing deleted)
   */
  String deleteStaleMember(ObjectRef pool, String name, Set<String> engineStale) {
    ObjectRef ref = new ObjectRef(pool.namespace(), name);
    GenericKubernetesResource s = get(Kind.SANDBOX, ref);
    if (s == null) {
      return "skipped: Sandbox " + ref + " no longer exists";
    }
    if (s.getMetadata().getDeletionTimestamp() != null) {
      return "skipped: Sandbox " + ref + " is already being deleted";
    }
    OwnerReference o = Resources.controllerOwner(s);
    if (o == null || !"SandboxWarmPool".equals(o.getKind()) || !pool.name().equals(o.getName())) {
      return "skipped: Sandbox "
          + ref
          + " is owned by "
          + (o == null ? "nobody" : o.getKind() + " " + o.getName())
          + ", not the pool";
    }
    PoolState live = livePool(pool, engineStale);
    PoolMember m = live == null ? null : live.member(name);
    if (m == null || !m.stale()) {
      return "skipped: Sandbox " + ref + " is no longer stale";
    }
    Resources.ops(client, Kind.SANDBOX)
        .inNamespace(ref.namespace())
        .resource(s)
        .lockResourceVersion()
        .delete();
    return "ok";
  }

  /** Merge-patches {@code spec} of a pool. */
  void patchPoolSpec(ObjectRef pool, JsonObject specPatch) {
    Resources.ops(client, Kind.SANDBOX_WARM_POOL)
        .inNamespace(pool.namespace())
        .withName(pool.name())
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            new JsonObject().put("spec", specPatch).encode());
  }

  /**
   * Creates a pool of the given template; idempotent. A pool that already exists (AlreadyExists, or
   * found on the re-read) with the same template and replicas is success.
   *
   * @return {@code ok}, or {@code ok: already exists with the same spec}
   * @throws StepFailure when the pool exists with another template or replica count (nothing is
   *     changed)
   */
  String createPool(ObjectRef pool, String template, int replicas) {
    GenericKubernetesResource existing = get(Kind.SANDBOX_WARM_POOL, pool);
    if (existing == null) {
      GenericKubernetesResource r = Resources.newObject(Kind.SANDBOX_WARM_POOL, pool.namespace());
      r.getMetadata().setName(pool.name());
      r.setAdditionalProperty(
          "spec", Map.of("replicas", replicas, "sandboxTemplateRef", Map.of("name", template)));
      try {
        Resources.ops(client, Kind.SANDBOX_WARM_POOL)
            .inNamespace(pool.namespace())
            .resource(r)
            .create();
        return "ok";
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          throw e;
        }
        existing = get(Kind.SANDBOX_WARM_POOL, pool);
        if (existing == null) {
          throw e;
        }
      }
    }
    Map<String, Object> spec = Resources.spec(existing);
    String hasTemplate = Resources.string(Resources.map(spec, "sandboxTemplateRef"), "name");
    Object hasReplicas = spec.get("replicas");
    boolean same =
        template.equals(hasTemplate)
            && hasReplicas instanceof Number n
            && n.longValue() == replicas;
    if (!same) {
      throw new StepFailure(
          "SandboxWarmPool "
              + pool
              + " already exists with template "
              + hasTemplate
              + " and replicas "
              + hasReplicas
              + "; the plan wants template "
              + template
              + " and replicas "
              + replicas);
    }
    return "ok: already exists with the same spec";
  }

  /** Whether the pool exists now. */
  boolean poolExists(ObjectRef pool) {
    return get(Kind.SANDBOX_WARM_POOL, pool) != null;
  }

  /** Ready members owned by the pool, or -1 when the pool does not exist. */
  int readyMembers(ObjectRef pool) {
    PoolState s = livePool(pool);
    return s == null ? -1 : s.readyUnclaimed();
  }

  /**
   * Whether a claim is expired-and-retained (Ready=False/ClaimExpired) or finished without
   * lifecycle.
   */
  static boolean expiredOrNeverExpiring(GenericKubernetesResource c) {
    Map<String, Object> ready = Resources.condition(c, "Ready");
    if (ready != null
        && "False".equals(ready.get("status"))
        && "ClaimExpired".equals(ready.get("reason"))) {
      return true;
    }
    return Resources.isTrue(c, "Finished") && Resources.spec(c).get("lifecycle") == null;
  }

  /** Deletes a claim after re-checking it is still expired or finished without lifecycle. */
  String deleteExpiredClaim(ObjectRef claim) {
    GenericKubernetesResource c = get(Kind.SANDBOX_CLAIM, claim);
    if (c == null) {
      return "skipped: SandboxClaim " + claim + " no longer exists";
    }
    if (!expiredOrNeverExpiring(c)) {
      return "skipped: SandboxClaim "
          + claim
          + " is neither expired nor finished without lifecycle";
    }
    Resources.ops(client, Kind.SANDBOX_CLAIM)
        .inNamespace(claim.namespace())
        .resource(c)
        .lockResourceVersion()
        .delete();
    return "ok";
  }

  /**
   * Sets {@code --sandbox-warm-pool-max-refill-rate=<rate>} in the first container's args of the
   * upstream controller Deployment (replacing an existing value).
   *
   * @return {@code ok}, or {@code skipped: ...} when the Deployment does not exist
   */
  String setRefillRateArg(ObjectRef deployment, double rate) {
    Deployment d =
        client
            .apps()
            .deployments()
            .inNamespace(deployment.namespace())
            .withName(deployment.name())
            .get();
    if (d == null) {
      return "skipped: Deployment " + deployment + " does not exist";
    }
    client
        .apps()
        .deployments()
        .inNamespace(deployment.namespace())
        .withName(deployment.name())
        .edit(
            x -> {
              var c = x.getSpec().getTemplate().getSpec().getContainers().get(0);
              List<String> args = new ArrayList<>(c.getArgs() == null ? List.of() : c.getArgs());
              args.removeIf(a -> a.startsWith("--sandbox-warm-pool-max-refill-rate"));
              args.add(RemediationPlans.refillArg(rate));
              c.setArgs(args);
              return x;
            });
    return "ok";
  }
}
