package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.controller.pool.UpdateStrategy;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.upstream.Blueprints;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.engine.upstream.NameHash;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SandboxClaim controller (reference §b, §c): first-observed stamp, lifecycle expiry, launch
 * decision (warm adoption or cold start), Ready mirroring and the first-ready stamp.
 */
final class ClaimReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(ClaimReconciler.class);
  static final Duration MISSING_REF_REQUEUE = Duration.ofSeconds(5);
  static final Duration CREATE_PENDING_REQUEUE = Duration.ofMillis(200);

  /** Upstream: candidates without podIPs are waited for this long from the claim, then cold. */
  static final Duration PENDING_GRACE = Duration.ofSeconds(2);

  static final Duration PENDING_RETRY = Duration.ofMillis(500);

  private final Fleet fleet;
  private final ControllerLiteConfig config;
  private final Clock clock;
  private final Random random;

  /** claim uid → when its warm adoption may complete (simulated adoption latency). */
  private final Map<String, Instant> adoptAt = new ConcurrentHashMap<>();

  /** The upstream-named metrics; null when not exported. */
  volatile ControllerMetrics metrics;

  ClaimReconciler(Fleet fleet, ControllerLiteConfig config, Clock clock) {
    this.fleet = fleet;
    this.config = config;
    this.clock = clock;
    this.random = new Random(config.seed() * 31 + 7);
  }

  void forget(String uid) {
    if (uid != null) {
      adoptAt.remove(uid);
      written.remove(uid);
    }
  }

  /**
   * Annotations this controller wrote, per claim uid. The informer cache may not show our own write
   * yet when the next pass runs; reading through this overlay keeps the first-observed and
   * first-ready stamps written exactly once and the sandbox assignment stable.
   */
  private final Map<String, Map<String, String>> written = new ConcurrentHashMap<>();

  private void remember(GenericKubernetesResource claim, String key, String value) {
    Map<String, String> m =
        written.computeIfAbsent(claim.getMetadata().getUid(), u -> new ConcurrentHashMap<>());
    if (value == null) {
      m.remove(key);
    } else {
      m.put(key, value);
    }
  }

  /** The claim with our own not-yet-observed annotations applied (a copy when anything differs). */
  private GenericKubernetesResource overlay(GenericKubernetesResource claim) {
    Map<String, String> mine = written.get(claim.getMetadata().getUid());
    if (mine == null || mine.isEmpty()) {
      return claim;
    }
    Map<String, String> cur = claim.getMetadata().getAnnotations();
    boolean missing = false;
    for (String k : mine.keySet()) {
      missing |= cur == null || cur.get(k) == null;
    }
    if (!missing) {
      return claim;
    }
    GenericKubernetesResource copy = fleet.copy(claim);
    Map<String, String> ann = new LinkedHashMap<>();
    if (cur != null) {
      ann.putAll(cur);
    }
    mine.forEach(ann::putIfAbsent);
    copy.getMetadata().setAnnotations(ann);
    return copy;
  }

  /** The launch decision, pure. */
  sealed interface Launch permits Launch.Warm, Launch.Cold, Launch.Reject, Launch.Wait {
    /** Only candidates without podIPs exist and the grace has not passed: look again later. */
    record Wait(Duration after) implements Launch {}

    /** Adopt {@code candidate}. */
    record Warm(GenericKubernetesResource candidate) implements Launch {}

    /** Cold start; {@code why} for logs. */
    record Cold(String why) implements Launch {}

    /** Claim rejected with a Ready=False reason. */
    record Reject(String reason, String message) implements Launch {}
  }

  /**
   * Chooses how to launch a claim: env/volumeClaimTemplates ⇒ cold (or rejected by template
   * policy); else the first adoptable candidate with podIPs, Ready first, oldest first; under
   * Recreate stale candidates are skipped; no candidate ⇒ cold; only candidates without podIPs ⇒
   * wait (retry 500 ms) until 2 s after the claim was first observed, then cold.
   *
   * @param claimSpec the claim's spec
   * @param templateSpec the template's spec
   * @param strategy the pool's update strategy
   * @param candidates adoptable members (any order; not deleting, not reserved)
   * @param sinceFirstObserved time since the claim's controller-first-observed-at
   */
  static Launch decideLaunch(
      Map<String, Object> claimSpec,
      Map<String, Object> templateSpec,
      UpdateStrategy strategy,
      List<GenericKubernetesResource> candidates,
      Duration sinceFirstObserved) {
    boolean env = !Resources.list(claimSpec, "env").isEmpty();
    boolean vct = !Resources.list(claimSpec, "volumeClaimTemplates").isEmpty();
    if (env && !allows(Resources.string(templateSpec, "envVarsInjectionPolicy"))) {
      return new Launch.Reject(
          "EnvVarsInjectionRejected",
          "template envVarsInjectionPolicy is Disallowed; the claim sets spec.env");
    }
    if (vct && !allows(Resources.string(templateSpec, "volumeClaimTemplatesPolicy"))) {
      return new Launch.Reject(
          "VolumeClaimTemplatesError",
          "template volumeClaimTemplatesPolicy is Disallowed; the claim sets spec.volumeClaimTemplates");
    }
    if (env || vct) {
      return new Launch.Cold(env ? "claim sets spec.env" : "claim sets spec.volumeClaimTemplates");
    }
    String digest = Blueprints.digest(templateSpec);
    List<GenericKubernetesResource> usable = new ArrayList<>();
    for (GenericKubernetesResource c : candidates) {
      if (strategy == UpdateStrategy.RECREATE
          && !digest.equals(Blueprints.digest(Resources.spec(c)))) {
        continue;
      }
      usable.add(c);
    }
    if (usable.isEmpty()) {
      return new Launch.Cold(
          candidates.isEmpty() ? "no warm member" : "only stale members (Recreate)");
    }
    List<GenericKubernetesResource> withIps =
        usable.stream()
            .filter(c -> !Resources.list(Resources.status(c), "podIPs").isEmpty())
            .toList();
    if (withIps.isEmpty()) {
      // upstream: candidates without podIPs are "pending"; wait up to 2 s from the claim, then cold
      if (sinceFirstObserved.compareTo(PENDING_GRACE) < 0) {
        return new Launch.Wait(PENDING_RETRY);
      }
      return new Launch.Cold(
          "warm members still pending after " + PENDING_GRACE.toMillis() + " ms");
    }
    usable = new ArrayList<>(withIps);
    usable.sort(
        Comparator.comparing((GenericKubernetesResource c) -> !Resources.isTrue(c, "Ready"))
            .thenComparing(
                c -> Resources.creationTime(c), Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(c -> c.getMetadata().getName()));
    return new Launch.Warm(usable.get(0));
  }

  private static boolean allows(String policy) {
    return "Allowed".equals(policy) || "Overrides".equals(policy);
  }

  /** One pass; returns when to requeue (null = on the next event). */
  Duration reconcile(String ns, String name) {
    GenericKubernetesResource claim = fleet.get(Kind.SANDBOX_CLAIM, ns, name);
    if (claim == null) {
      // Stand-in for the garbage collector (harmless on a real cluster).
      for (GenericKubernetesResource s : fleet.ownedSandboxes(ns, Kind.SANDBOX_CLAIM, name)) {
        fleet.delete(Kind.SANDBOX, ns, s.getMetadata().getName());
      }
      return null;
    }
    if (claim.getMetadata().getDeletionTimestamp() != null) {
      return null;
    }
    Instant now = clock.instant();
    claim = overlay(claim);
    if (Resources.annotation(claim, Labels.CONTROLLER_FIRST_OBSERVED_AT) == null) {
      String stamp = Resources.rfc3339Nano(now);
      claim =
          fleet.mergePatch(
              Kind.SANDBOX_CLAIM,
              ns,
              name,
              Map.of(
                  "metadata",
                  Map.of("annotations", Map.of(Labels.CONTROLLER_FIRST_OBSERVED_AT, stamp))));
      remember(claim, Labels.CONTROLLER_FIRST_OBSERVED_AT, stamp);
    }
    Duration requeue = null;
    Instant expiry = expiry(claim);
    if (expiry != null) {
      if (!now.isBefore(expiry)) {
        expire(claim, now);
        return null;
      }
      requeue = Duration.between(now, expiry);
    }
    return Requeues.sooner(requeue, launchOrMirror(claim, now));
  }

  private Duration launchOrMirror(GenericKubernetesResource claim, Instant now) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    String uid = claim.getMetadata().getUid();
    String sbName = Resources.annotation(claim, Labels.SANDBOX_NAME);
    if (sbName != null) {
      GenericKubernetesResource sb = fleet.get(Kind.SANDBOX, ns, sbName);
      if (sb == null) {
        sb = fetch(Kind.SANDBOX, ns, sbName);
      }
      if (sb == null) {
        Instant created = Resources.creationTime(claim);
        if (Resources.isTrue(claim, "Ready")
            || created == null
            || now.isAfter(created.plusSeconds(30))) {
          setReady(claim, "False", "SandboxMissing", "Sandbox " + sbName + " not found", now);
          return null;
        }
        return CREATE_PENDING_REQUEUE;
      }
      OwnerReference owner = Resources.controllerOwner(sb);
      if (owner != null && uid.equals(owner.getUid())) {
        mirror(claim, sb, now);
        return null;
      }
      if (owner != null && Kind.SANDBOX_WARM_POOL.kindName().equals(owner.getKind())) {
        return finishAdoption(claim, sb, now); // adoption interrupted between the two writes
      }
      setReady(
          claim,
          "False",
          "AdoptionConflict",
          "Sandbox " + sbName + " is owned by someone else",
          now);
      return null;
    }

    Map<String, Object> spec = Resources.spec(claim);
    String poolName = Resources.string(Resources.map(spec, "warmPoolRef"), "name");
    if (poolName == null || poolName.isEmpty()) {
      fleet.warnOnce(claim, "not launched: spec.warmPoolRef.name is required");
      setReady(claim, "False", "InvalidMetadata", "spec.warmPoolRef.name is required", now);
      return null;
    }
    GenericKubernetesResource pool = fleet.get(Kind.SANDBOX_WARM_POOL, ns, poolName);
    if (pool == null) {
      setReady(
          claim, "False", "WarmPoolNotFound", "SandboxWarmPool " + poolName + " not found", now);
      return MISSING_REF_REQUEUE;
    }
    Map<String, Object> poolSpec = Resources.spec(pool);
    String templateName = Resources.string(Resources.map(poolSpec, "sandboxTemplateRef"), "name");
    GenericKubernetesResource template =
        templateName == null ? null : fleet.get(Kind.SANDBOX_TEMPLATE, ns, templateName);
    if (template == null) {
      setReady(
          claim,
          "False",
          "TemplateNotFound",
          "SandboxTemplate " + templateName + " not found",
          now);
      return MISSING_REF_REQUEUE;
    }
    UpdateStrategy strategy =
        UpdateStrategy.parse(Resources.string(Resources.map(poolSpec, "updateStrategy"), "type"));
    Instant observed =
        Resources.parseTime(Resources.annotation(claim, Labels.CONTROLLER_FIRST_OBSERVED_AT));
    Duration age = observed == null ? Duration.ZERO : Duration.between(observed, now);
    Launch launch =
        decideLaunch(spec, Resources.spec(template), strategy, candidates(ns, poolName), age);
    if (launch instanceof Launch.Wait w) {
      return w.after();
    }
    if (launch instanceof Launch.Reject r) {
      setReady(claim, "False", r.reason(), r.message(), now);
      return null;
    }
    if (launch instanceof Launch.Warm) {
      Instant at = adoptAt.computeIfAbsent(uid, u -> now.plus(sampleAdoption()));
      if (now.isBefore(at)) {
        return Duration.between(now, at);
      }
      // re-decide after the delay: candidates may have gone meanwhile
      for (int attempt = 0; attempt < 3; attempt++) {
        launch =
            decideLaunch(spec, Resources.spec(template), strategy, candidates(ns, poolName), age);
        if (launch instanceof Launch.Wait wait) {
          return wait.after();
        }
        if (!(launch instanceof Launch.Warm w)) {
          break;
        }
        String sbUid = w.candidate().getMetadata().getUid();
        if (!fleet.reserved.add(sbUid)) {
          continue;
        }
        Duration d = adopt(claim, w.candidate(), now);
        if (d != ADOPTION_LOST) {
          if (d == null) {
            adoptAt.remove(uid);
          }
          return d;
        }
        // reservation stays until the informer sees the Sandbox change; try the next candidate
        claim = fleet.get(Kind.SANDBOX_CLAIM, ns, name);
        if (claim == null) {
          return null;
        }
      }
      if (launch instanceof Launch.Warm) {
        return RETRY;
      }
      adoptAt.remove(uid);
    }
    return coldStart(claim, template, ((Launch.Cold) launch).why(), now);
  }

  private Duration sampleAdoption() {
    synchronized (random) {
      return config.warmAdoption().sample(random);
    }
  }

  private List<GenericKubernetesResource> candidates(String ns, String poolName) {
    String hash = NameHash.of(poolName);
    List<GenericKubernetesResource> out = new ArrayList<>();
    for (GenericKubernetesResource s : fleet.ownedSandboxes(ns, Kind.SANDBOX_WARM_POOL, poolName)) {
      if (s.getMetadata().getDeletionTimestamp() == null
          && hash.equals(Resources.label(s, Labels.WARM_POOL_SANDBOX))
          && Resources.label(s, Labels.SANDBOX_TEMPLATE_REF_HASH) != null
          && !fleet.reserved.contains(s.getMetadata().getUid())) {
        out.add(s);
      }
    }
    return out;
  }

  private static final Duration ADOPTION_LOST = Duration.ofNanos(-1);
  private static final Duration RETRY = Duration.ofMillis(50);

  /** Claim annotation first (optimistic lock), then the Sandbox. */
  private Duration adopt(
      GenericKubernetesResource claim, GenericKubernetesResource sb, Instant now) {
    String ns = claim.getMetadata().getNamespace();
    GenericKubernetesResource copy = fleet.copy(claim);
    Map<String, String> ann = new LinkedHashMap<>();
    if (claim.getMetadata().getAnnotations() != null) {
      ann.putAll(claim.getMetadata().getAnnotations());
    }
    ann.put(Labels.SANDBOX_NAME, sb.getMetadata().getName());
    copy.getMetadata().setAnnotations(ann);
    GenericKubernetesResource updated;
    try {
      updated =
          Resources.ops(fleet.client, Kind.SANDBOX_CLAIM).inNamespace(ns).resource(copy).update();
      remember(updated, Labels.SANDBOX_NAME, sb.getMetadata().getName());
    } catch (KubernetesClientException e) {
      fleet.reserved.remove(sb.getMetadata().getUid());
      if (e.getCode() == 409) {
        return RETRY; // claim changed under us: retry with the fresh object
      }
      throw e;
    }
    return finishAdoption(updated, sb, now);
  }

  private Duration finishAdoption(
      GenericKubernetesResource claim, GenericKubernetesResource sb, Instant now) {
    String ns = claim.getMetadata().getNamespace();
    String sbUid = sb.getMetadata().getUid();
    fleet.reserved.add(sbUid);
    GenericKubernetesResource cur = sb;
    for (int attempt = 0; attempt < 3; attempt++) {
      GenericKubernetesResource copy = fleet.copy(cur);
      Map<String, String> labels = new LinkedHashMap<>();
      if (cur.getMetadata().getLabels() != null) {
        labels.putAll(cur.getMetadata().getLabels());
      }
      labels.remove(Labels.WARM_POOL_SANDBOX);
      labels.remove(Labels.SANDBOX_TEMPLATE_HASH);
      labels.put(Labels.LAUNCH_TYPE, Labels.LAUNCH_WARM);
      labels.put(Labels.CLAIM_UID, claim.getMetadata().getUid());
      copy.getMetadata().setLabels(labels);
      copy.getMetadata().setOwnerReferences(new ArrayList<>(List.of(Resources.ownerRefTo(claim))));
      try {
        GenericKubernetesResource adopted =
            Resources.ops(fleet.client, Kind.SANDBOX).inNamespace(ns).resource(copy).update();
        LOG.debug(
            "claim={}/{}: adopted warm sandbox {}",
            ns,
            claim.getMetadata().getName(),
            adopted.getMetadata().getName());
        ControllerMetrics m = metrics;
        if (m != null) {
          OwnerReference poolRef = Resources.controllerOwner(cur);
          m.claimCreated(
              ns,
              Resources.annotation(cur, Labels.SANDBOX_TEMPLATE_REF),
              Labels.LAUNCH_WARM,
              poolRef == null ? null : poolRef.getName(),
              Resources.isTrue(cur, "Ready"),
              Resources.label(claim, Labels.CREATED_BY));
        }
        mirror(claim, adopted, now);
        return null;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          cur = fetch(Kind.SANDBOX, ns, sb.getMetadata().getName());
          if (cur != null && poolOwned(cur)) {
            continue;
          }
        } else if (e.getCode() != 404) {
          fleet.reserved.remove(sbUid);
          throw e;
        }
        break;
      }
    }
    // The member is gone or taken: drop our annotation so the next pass decides again.
    fleet.reserved.remove(sbUid);
    try {
      remember(claim, Labels.SANDBOX_NAME, null);
      fleet.removeAnnotation(
          Kind.SANDBOX_CLAIM, ns, claim.getMetadata().getName(), Labels.SANDBOX_NAME);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && e.getCode() != 422) {
        throw e;
      }
    }
    return ADOPTION_LOST;
  }

  private static boolean poolOwned(GenericKubernetesResource s) {
    OwnerReference o = Resources.controllerOwner(s);
    return o != null && Kind.SANDBOX_WARM_POOL.kindName().equals(o.getKind());
  }

  private Duration coldStart(
      GenericKubernetesResource claim,
      GenericKubernetesResource template,
      String why,
      Instant now) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    claim =
        fleet.mergePatch(
            Kind.SANDBOX_CLAIM,
            ns,
            name,
            Map.of("metadata", Map.of("annotations", Map.of(Labels.SANDBOX_NAME, name))));
    remember(claim, Labels.SANDBOX_NAME, name);
    GenericKubernetesResource sb = coldSandbox(claim, template);
    try {
      sb = Resources.ops(fleet.client, Kind.SANDBOX).inNamespace(ns).resource(sb).create();
      LOG.debug("claim={}/{}: cold start ({})", ns, name, why);
      ControllerMetrics m = metrics;
      if (m != null) {
        m.claimCreated(
            ns,
            template.getMetadata().getName(),
            Labels.LAUNCH_COLD,
            Resources.string(Resources.map(Resources.spec(claim), "warmPoolRef"), "name"),
            false,
            Resources.label(claim, Labels.CREATED_BY));
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      sb = fetch(Kind.SANDBOX, ns, name);
      if (sb == null) {
        return CREATE_PENDING_REQUEUE;
      }
    }
    OwnerReference owner = Resources.controllerOwner(sb);
    if (owner != null && claim.getMetadata().getUid().equals(owner.getUid())) {
      mirror(claim, sb, now);
      return null;
    }
    setReady(
        claim,
        "False",
        "AdoptionConflict",
        "Sandbox " + name + " exists and is not owned by the claim",
        now);
    return null;
  }

  /** The cold Sandbox for a claim: named like the claim, ownerRef → claim, env merged. */
  static GenericKubernetesResource coldSandbox(
      GenericKubernetesResource claim, GenericKubernetesResource template) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    String templateName = template.getMetadata().getName();
    Map<String, Object> spec = PoolReconciler.blueprint(Resources.spec(template));
    Map<String, Object> claimSpec = Resources.spec(claim);
    List<Object> env = Resources.list(claimSpec, "env");
    if (!env.isEmpty()) {
      mergeEnv(spec, env);
    }
    List<Object> vcts = Resources.list(claimSpec, "volumeClaimTemplates");
    if (!vcts.isEmpty()) {
      spec.put(
          "volumeClaimTemplates", mergeByName(Resources.list(spec, "volumeClaimTemplates"), vcts));
    }
    GenericKubernetesResource sb = Resources.newObject(Kind.SANDBOX, ns);
    sb.getMetadata().setName(name);
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.LAUNCH_TYPE, Labels.LAUNCH_COLD);
    labels.put(Labels.CLAIM_UID, claim.getMetadata().getUid());
    labels.put(Labels.SANDBOX_TEMPLATE_REF_HASH, NameHash.of(templateName));
    String createdBy = Resources.label(claim, Labels.CREATED_BY);
    labels.put(Labels.CREATED_BY, createdBy == null || createdBy.isEmpty() ? "unknown" : createdBy);
    sb.getMetadata().setLabels(labels);
    sb.getMetadata()
        .setAnnotations(new LinkedHashMap<>(Map.of(Labels.SANDBOX_TEMPLATE_REF, templateName)));
    sb.getMetadata().setOwnerReferences(new ArrayList<>(List.of(Resources.ownerRefTo(claim))));
    sb.setAdditionalProperty("spec", spec);
    return sb;
  }

  @SuppressWarnings("unchecked")
  private static void mergeEnv(Map<String, Object> spec, List<Object> env) {
    Map<String, Object> podSpec = Resources.map(Resources.map(spec, "podTemplate"), "spec");
    List<Object> containers = Resources.list(podSpec, "containers");
    Map<String, List<Object>> byContainer = new LinkedHashMap<>();
    for (Object e : env) {
      if (!(e instanceof Map<?, ?> m) || !(m.get("name") instanceof String)) {
        continue;
      }
      String target = m.get("containerName") instanceof String cn ? cn : null;
      Map<String, Object> var = new LinkedHashMap<>();
      var.put("name", m.get("name"));
      if (m.get("value") != null) {
        var.put("value", m.get("value"));
      }
      byContainer.computeIfAbsent(target, k -> new ArrayList<>()).add(var);
    }
    for (int i = 0; i < containers.size(); i++) {
      if (!(containers.get(i) instanceof Map<?, ?>)) {
        continue;
      }
      Map<String, Object> c = (Map<String, Object>) containers.get(i);
      List<Object> add = new ArrayList<>();
      if (i == 0 && byContainer.containsKey(null)) {
        add.addAll(byContainer.get(null));
      }
      if (c.get("name") instanceof String cn && byContainer.containsKey(cn)) {
        add.addAll(byContainer.get(cn));
      }
      if (!add.isEmpty()) {
        c.put("env", mergeByName(Resources.list(c, "env"), add));
      }
    }
  }

  /** Entries of {@code base} replaced by same-named entries of {@code over}, others appended. */
  private static List<Object> mergeByName(List<Object> base, List<Object> over) {
    Map<String, Object> out = new LinkedHashMap<>();
    int anon = 0;
    for (List<Object> l : List.of(base, over)) {
      for (Object o : l) {
        String n = nameOf(o);
        out.put(n == null ? "\0" + anon++ : n, Resources.deepCopy(o));
      }
    }
    return new ArrayList<>(out.values());
  }

  private static String nameOf(Object o) {
    if (o instanceof Map<?, ?> m) {
      if (m.get("name") instanceof String s) {
        return s;
      }
      if (m.get("metadata") instanceof Map<?, ?> md && md.get("name") instanceof String s) {
        return s;
      }
    }
    return null;
  }

  /** Claim Ready mirrors the Sandbox's Ready; first Ready is stamped once. */
  private void mirror(GenericKubernetesResource claim, GenericKubernetesResource sb, Instant now) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    Map<String, Object> ready = Resources.condition(sb, "Ready");
    String status = ready == null ? "False" : String.valueOf(ready.get("status"));
    String reason = ready == null ? "SandboxNotReady" : String.valueOf(ready.get("reason"));
    String message =
        ready == null
            ? "Sandbox has no Ready condition yet"
            : String.valueOf(ready.getOrDefault("message", ""));
    if ("True".equals(status) && Resources.annotation(claim, Labels.CLAIM_FIRST_READY_AT) == null) {
      String stamp = Resources.rfc3339Nano(now);
      claim =
          fleet.mergePatch(
              Kind.SANDBOX_CLAIM,
              ns,
              name,
              Map.of(
                  "metadata", Map.of("annotations", Map.of(Labels.CLAIM_FIRST_READY_AT, stamp))));
      remember(claim, Labels.CLAIM_FIRST_READY_AT, stamp);
      ControllerMetrics m = metrics;
      Instant observed =
          Resources.parseTime(Resources.annotation(claim, Labels.CONTROLLER_FIRST_OBSERVED_AT));
      if (m != null && observed != null) {
        m.claimReady(
            Resources.label(sb, Labels.LAUNCH_TYPE),
            Resources.annotation(sb, Labels.SANDBOX_TEMPLATE_REF),
            Duration.between(observed, now));
      }
    }
    Map<String, Object> sbRef = new LinkedHashMap<>();
    sbRef.put("name", sb.getMetadata().getName());
    List<Object> ips = Resources.list(Resources.status(sb), "podIPs");
    if (!ips.isEmpty()) {
      sbRef.put("podIPs", ips);
    }
    Map<String, Object> cur = Resources.status(claim);
    Map<String, Object> curReady = Resources.condition(claim, "Ready");
    boolean same =
        curReady != null
            && status.equals(curReady.get("status"))
            && reason.equals(curReady.get("reason"))
            && sbRef.toString().equals(String.valueOf(cur.get("sandbox")));
    if (same) {
      return;
    }
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("conditions", conditionsWithReady(claim, status, reason, message, now));
    st.put("sandbox", sbRef);
    writeStatus(claim, st);
  }

  private void setReady(
      GenericKubernetesResource claim, String status, String reason, String message, Instant now) {
    Map<String, Object> cur = Resources.condition(claim, "Ready");
    if (cur != null && status.equals(cur.get("status")) && reason.equals(cur.get("reason"))) {
      return;
    }
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("conditions", conditionsWithReady(claim, status, reason, message, now));
    writeStatus(claim, st);
  }

  private static List<Object> conditionsWithReady(
      GenericKubernetesResource claim, String status, String reason, String message, Instant now) {
    Long gen = claim.getMetadata().getGeneration();
    return Resources.withCondition(
        new ArrayList<>(Resources.list(Resources.status(claim), "conditions")),
        "Ready",
        status,
        reason,
        message,
        now,
        gen);
  }

  private void writeStatus(GenericKubernetesResource claim, Map<String, Object> status) {
    try {
      fleet.patchStatus(Kind.SANDBOX_CLAIM, claim, status);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /**
   * Earliest of spec.lifecycle.shutdownTime and Finished + ttlSecondsAfterFinished; null if none.
   */
  static Instant expiry(GenericKubernetesResource claim) {
    Map<String, Object> lc = Resources.map(Resources.spec(claim), "lifecycle");
    Instant out = null;
    if (lc.get("shutdownTime") instanceof String s) {
      out = Resources.parseTime(s);
    }
    if (lc.get("ttlSecondsAfterFinished") instanceof Number ttl) {
      Map<String, Object> fin = Resources.condition(claim, "Finished");
      if (fin != null
          && "True".equals(fin.get("status"))
          && fin.get("lastTransitionTime") instanceof String lt) {
        Instant t = Resources.parseTime(lt);
        if (t != null) {
          Instant e = t.plusSeconds(ttl.longValue());
          out = out == null || e.isBefore(out) ? e : out;
        }
      }
    }
    return out;
  }

  private void expire(GenericKubernetesResource claim, Instant now) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    String policy =
        Resources.string(Resources.map(Resources.spec(claim), "lifecycle"), "shutdownPolicy");
    String sbName = Resources.annotation(claim, Labels.SANDBOX_NAME);
    List<String> sandboxes = new ArrayList<>();
    if (sbName != null) {
      sandboxes.add(sbName);
    }
    for (GenericKubernetesResource s : fleet.ownedSandboxes(ns, Kind.SANDBOX_CLAIM, name)) {
      if (!sandboxes.contains(s.getMetadata().getName())) {
        sandboxes.add(s.getMetadata().getName());
      }
    }
    if ("Delete".equals(policy) || "DeleteForeground".equals(policy)) {
      LOG.debug("claim={}/{}: expired, deleting claim (shutdownPolicy {})", ns, name, policy);
      for (String s : sandboxes) {
        GenericKubernetesResource sb = fleet.get(Kind.SANDBOX, ns, s);
        if (sb == null || !poolOwned(sb)) {
          fleet.delete(Kind.SANDBOX, ns, s);
        }
      }
      fleet.delete(Kind.SANDBOX_CLAIM, ns, name);
      adoptAt.remove(claim.getMetadata().getUid());
      return;
    }
    for (String s : sandboxes) {
      GenericKubernetesResource sb = fleet.get(Kind.SANDBOX, ns, s);
      if (sb == null || !poolOwned(sb)) {
        fleet.delete(Kind.SANDBOX, ns, s);
      }
    }
    setReady(claim, "False", "ClaimExpired", "Claim has expired (shutdownPolicy Retain)", now);
  }

  private GenericKubernetesResource fetch(Kind kind, String ns, String name) {
    try {
      return Resources.ops(fleet.client, kind).inNamespace(ns).withName(name).get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return null;
      }
      throw e;
    }
  }
}
