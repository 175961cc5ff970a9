package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.controller.pool.Member;
import org.sandboxslo.controller.pool.PoolDecision;
import org.sandboxslo.controller.pool.PoolExpectations;
import org.sandboxslo.controller.pool.PoolInput;
import org.sandboxslo.controller.pool.PoolPlan;
import org.sandboxslo.controller.pool.PoolStatus;
import org.sandboxslo.controller.pool.TokenBucket;
import org.sandboxslo.controller.pool.UpdateStrategy;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.upstream.Blueprints;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.engine.upstream.NameHash;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads a pool from the caches, asks {@link PoolDecision}, and applies the plan. */
final class PoolReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(PoolReconciler.class);

  private final Fleet fleet;
  private final PoolDecision decision;
  private final Clock clock;
  private final Map<ObjectRef, PoolExpectations> expectations = new ConcurrentHashMap<>();
  private final Map<ObjectRef, TokenBucket> buckets = new ConcurrentHashMap<>();
  private volatile double refillRate;

  PoolReconciler(Fleet fleet, ControllerLiteConfig config, Clock clock) {
    this.fleet = fleet;
    this.clock = clock;
    this.refillRate = config.maxRefillRate();
    this.decision =
        new PoolDecision(
            config.maxBatchSize(),
            config.readinessGracePeriod(),
            config.expectationsTimeout(),
            config.expectationsRequeue());
  }

  void setMaxRefillRate(double perSecond) {
    if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException("max refill rate must be >= 0, got " + perSecond);
    }
    refillRate = perSecond;
    buckets.values().forEach(b -> b.setRate(perSecond));
  }

  PoolExpectations expectations(ObjectRef pool) {
    return expectations.computeIfAbsent(pool, p -> new PoolExpectations());
  }

  private TokenBucket bucket(ObjectRef pool) {
    return buckets.computeIfAbsent(pool, p -> new TokenBucket(refillRate, clock.instant()));
  }

  /** One pass; returns when to requeue (null = on the next event). */
  Duration reconcile(String namespace, String name) {
    ObjectRef ref = new ObjectRef(namespace, name);
    GenericKubernetesResource pool = fleet.get(Kind.SANDBOX_WARM_POOL, namespace, name);
    if (pool == null) {
      // Stand-in for the garbage collector (the embedded API server has none; harmless on a
      // cluster).
      for (GenericKubernetesResource s :
          fleet.ownedSandboxes(namespace, Kind.SANDBOX_WARM_POOL, name)) {
        fleet.delete(Kind.SANDBOX, namespace, s.getMetadata().getName());
      }
      expectations.remove(ref);
      buckets.remove(ref);
      return null;
    }
    if (pool.getMetadata().getDeletionTimestamp() != null) {
      return null;
    }
    Map<String, Object> spec = Resources.spec(pool);
    int replicas = 1;
    Object r = spec.get("replicas");
    if (r != null) {
      if (!(r instanceof Number n) || n.intValue() < 0) {
        fleet.warnOnce(pool, "skipped: spec.replicas must be an integer >= 0, got " + r);
        return null;
      }
      replicas = n.intValue();
    }
    String templateName = Resources.string(Resources.map(spec, "sandboxTemplateRef"), "name");
    if (templateName == null || templateName.isEmpty()) {
      fleet.warnOnce(pool, "skipped: spec.sandboxTemplateRef.name is required");
      return null;
    }
    UpdateStrategy strategy =
        UpdateStrategy.parse(Resources.string(Resources.map(spec, "updateStrategy"), "type"));
    GenericKubernetesResource template = fleet.get(Kind.SANDBOX_TEMPLATE, namespace, templateName);
    String templateDigest = template == null ? null : Blueprints.digest(Resources.spec(template));

    String hash = NameHash.of(name);
    List<Member> members = new ArrayList<>();
    int terminating = 0;
    for (GenericKubernetesResource s :
        fleet.ownedSandboxes(namespace, Kind.SANDBOX_WARM_POOL, name)) {
      if (!hash.equals(Resources.label(s, Labels.WARM_POOL_SANDBOX))) {
        continue;
      }
      boolean deleting = s.getMetadata().getDeletionTimestamp() != null;
      if (deleting) {
        terminating++;
      }
      members.add(
          new Member(
              s.getMetadata().getName(),
              s.getMetadata().getUid(),
              Resources.creationTime(s),
              Resources.isTrue(s, "Ready"),
              deleting,
              Blueprints.digest(Resources.spec(s)),
              fleet.reserved.contains(s.getMetadata().getUid())));
    }
    Instant now = clock.instant();
    PoolExpectations exp = expectations(ref);
    TokenBucket bucket = bucket(ref);
    PoolInput in =
        new PoolInput(
            ref,
            generation(pool),
            replicas,
            templateDigest,
            strategy,
            members,
            terminating,
            exp.view(),
            bucket.available(now),
            bucket.rate(),
            currentStatus(pool),
            now);
    PoolPlan plan = decision.decide(in);
    apply(pool, template, plan, exp, bucket, now);
    return plan.requeueAfter();
  }

  private void apply(
      GenericKubernetesResource pool,
      GenericKubernetesResource template,
      PoolPlan plan,
      PoolExpectations exp,
      TokenBucket bucket,
      Instant now) {
    String ns = pool.getMetadata().getNamespace();
    String name = pool.getMetadata().getName();
    if (plan.blocked() != null) {
      LOG.debug("pool={}/{}: {}", ns, name, plan.blocked());
    }
    if (!plan.deletes().isEmpty()) {
      exp.expect(0, plan.deletes().stream().map(d -> d.member().uid()).toList(), now);
      for (PoolPlan.Delete d : plan.deletes()) {
        try {
          LOG.info("pool={}/{}: deleting member {} ({})", ns, name, d.member().name(), d.reason());
          fleet.delete(Kind.SANDBOX, ns, d.member().name());
        } catch (KubernetesClientException e) {
          exp.deletionObserved(d.member().uid());
          LOG.warn(
              "pool={}/{}: delete of member {} failed: {}",
              ns,
              name,
              d.member().name(),
              e.getMessage());
        }
      }
    }
    if (plan.creates() > 0) {
      int n = plan.creates();
      bucket.take(n, now);
      exp.expect(n, List.of(), now);
      int issued = 0;
      int batch = 1;
      boolean failed = false;
      while (issued < n && !failed) {
        int size = Math.min(batch, n - issued);
        for (int i = 0; i < size; i++) {
          try {
            Resources.ops(fleet.client, Kind.SANDBOX)
                .inNamespace(ns)
                .resource(member(pool, template))
                .create();
          } catch (KubernetesClientException e) {
            failed = true;
            exp.creationObserved();
            LOG.warn("pool={}/{}: member create failed: {}", ns, name, e.getMessage());
          }
          issued++;
        }
        batch *= 2;
      }
      for (int i = issued; i < n; i++) {
        exp.creationObserved();
      }
      if (issued < n) {
        bucket.refund(n - issued);
      }
      LOG.debug("pool={}/{}: created {} member(s)", ns, name, issued);
    }
    if (plan.status() != null) {
      PoolStatus s = plan.status();
      Map<String, Object> st = new LinkedHashMap<>();
      st.put("replicas", s.replicas());
      st.put("readyReplicas", s.readyReplicas());
      st.put("selector", s.selector());
      st.put("observedGeneration", s.observedGeneration());
      try {
        fleet.patchStatus(Kind.SANDBOX_WARM_POOL, pool, st);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
    }
  }

  /** A new member: template blueprint + secure defaults, labels, ownerRef → pool. */
  static GenericKubernetesResource member(
      GenericKubernetesResource pool, GenericKubernetesResource template) {
    String ns = pool.getMetadata().getNamespace();
    String poolName = pool.getMetadata().getName();
    String templateName = template.getMetadata().getName();
    Map<String, Object> tspec = Resources.spec(template);
    GenericKubernetesResource s = Resources.newObject(Kind.SANDBOX, ns);
    s.getMetadata().setGenerateName(poolName + "-");
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.WARM_POOL_SANDBOX, NameHash.of(poolName));
    labels.put(Labels.SANDBOX_TEMPLATE_REF_HASH, NameHash.of(templateName));
    labels.put(Labels.SANDBOX_TEMPLATE_HASH, Blueprints.digest(tspec));
    labels.put(Labels.LAUNCH_TYPE, Labels.LAUNCH_WARM);
    labels.put(Labels.CREATED_BY, Labels.CREATED_BY_CONTROLLER);
    s.getMetadata().setLabels(labels);
    s.getMetadata()
        .setAnnotations(new LinkedHashMap<>(Map.of(Labels.SANDBOX_TEMPLATE_REF, templateName)));
    s.getMetadata().setOwnerReferences(new ArrayList<>(List.of(Resources.ownerRefTo(pool))));
    s.setAdditionalProperty("spec", blueprint(tspec));
    return s;
  }

  /**
   * The Sandbox spec for a template: {@code podTemplate}, {@code volumeClaimTemplates}, {@code
   * service} copied, {@code automountServiceAccountToken: false} when unset.
   */
  static Map<String, Object> blueprint(Map<String, Object> templateSpec) {
    Map<String, Object> spec = new LinkedHashMap<>();
    Object pt = templateSpec.get("podTemplate");
    Map<String, Object> podTemplate =
        pt instanceof Map<?, ?>
            ? Resources.deepCopy(Resources.map(templateSpec, "podTemplate"))
            : new LinkedHashMap<>();
    Map<String, Object> podSpec =
        podTemplate.get("spec") instanceof Map<?, ?>
            ? Resources.map(podTemplate, "spec")
            : new LinkedHashMap<>();
    if (!podSpec.containsKey("automountServiceAccountToken")) {
      podSpec.put("automountServiceAccountToken", false);
    }
    podTemplate.put("spec", podSpec);
    spec.put("podTemplate", podTemplate);
    if (templateSpec.get("volumeClaimTemplates") instanceof List<?> v && !v.isEmpty()) {
      spec.put("volumeClaimTemplates", Resources.deepCopy(v));
    }
    if (templateSpec.get("service") instanceof Boolean b) {
      spec.put("service", b);
    }
    return spec;
  }

  private static long generation(GenericKubernetesResource r) {
    Long g = r.getMetadata().getGeneration();
    return g == null ? 0 : g;
  }

  private static PoolStatus currentStatus(GenericKubernetesResource pool) {
    Map<String, Object> st = Resources.status(pool);
    if (st.isEmpty()) {
      return null;
    }
    try {
      return new PoolStatus(
          st.get("replicas") instanceof Number n ? n.intValue() : 0,
          st.get("readyReplicas") instanceof Number n ? n.intValue() : 0,
          String.valueOf(st.get("selector")),
          st.get("observedGeneration") instanceof Number n ? n.longValue() : -1);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Is {@code sandbox} a member of a pool (label + controller ownerRef)? Returns the pool name. */
  static String poolOf(GenericKubernetesResource sandbox) {
    OwnerReference o = Resources.controllerOwner(sandbox);
    if (o == null
        || !Kind.SANDBOX_WARM_POOL.kindName().equals(o.getKind())
        || o.getName() == null) {
      return null;
    }
    return o.getName();
  }
}
