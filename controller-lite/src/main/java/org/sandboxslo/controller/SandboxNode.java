package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.controller.node.LatencyDistribution;
import org.sandboxslo.engine.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulated node and the Sandbox controller's status logic (there is no kubelet): a Running
 * Sandbox becomes Ready after a sampled cold-start latency; {@code Suspended} terminates the "pod";
 * back to {@code Running} resumes after a sampled resume latency (or fails with {@code
 * ReconcilerError}); {@code spec.shutdownTime} expires the Sandbox (reference §b, §g).
 */
final class SandboxNode {
  private static final Logger LOG = LoggerFactory.getLogger(SandboxNode.class);

  /** Per-sandbox simulation state (lost on restart: a new latency is drawn then). */
  private record NodeState(Instant readyAt, boolean resume, Instant terminatedAt, boolean settled) {
    NodeState(Instant readyAt, boolean resume, Instant terminatedAt) {
      this(readyAt, resume, terminatedAt, false);
    }
  }

  private final Fleet fleet;
  private final ControllerLiteConfig config;
  private final Clock clock;
  private final Random random;
  private final Map<String, NodeState> state = new ConcurrentHashMap<>();

  SandboxNode(Fleet fleet, ControllerLiteConfig config, Clock clock) {
    this.fleet = fleet;
    this.config = config;
    this.clock = clock;
    this.random = new Random(config.seed());
  }

  void forget(String uid) {
    if (uid != null) {
      state.remove(uid);
    }
  }

  private Duration sample(LatencyDistribution d) {
    synchronized (random) {
      return d.sample(random);
    }
  }

  private boolean resumeFails() {
    if (config.resumeFailureProbability() == 0) {
      return false;
    }
    synchronized (random) {
      return random.nextDouble() < config.resumeFailureProbability();
    }
  }

  /** One pass; returns when to requeue (null = on the next event). */
  Duration reconcile(String ns, String name) {
    GenericKubernetesResource sb = fleet.get(Kind.SANDBOX, ns, name);
    if (sb == null || sb.getMetadata().getDeletionTimestamp() != null) {
      return null;
    }
    String uid = sb.getMetadata().getUid();
    Map<String, Object> spec = Resources.spec(sb);
    Instant now = clock.instant();
    Duration requeue = null;

    Object shutdown = spec.get("shutdownTime");
    if (shutdown != null) {
      Instant at = shutdown instanceof String s ? Resources.parseTime(s) : null;
      if (at == null) {
        fleet.warnOnce(sb, "spec.shutdownTime ignored, not an RFC3339 time: " + shutdown);
      } else if (!now.isBefore(at)) {
        expire(sb, spec, now);
        return null;
      } else {
        requeue = Duration.between(now, at);
      }
    }

    String mode = Resources.string(spec, "operatingMode");
    if ("Suspended".equals(mode)) {
      return Requeues.sooner(requeue, suspend(sb, uid, now));
    }
    if (mode != null && !"Running".equals(mode)) {
      fleet.warnOnce(sb, "skipped: spec.operatingMode must be Running or Suspended, got " + mode);
      return requeue;
    }
    return Requeues.sooner(requeue, run(sb, uid, now));
  }

  private void expire(GenericKubernetesResource sb, Map<String, Object> spec, Instant now) {
    String ns = sb.getMetadata().getNamespace();
    String name = sb.getMetadata().getName();
    Map<String, Object> ready = Resources.condition(sb, "Ready");
    if (ready == null || !"SandboxExpired".equals(ready.get("reason"))) {
      List<Object> conds =
          Resources.withCondition(
              Resources.withoutCondition(conditions(sb), "PodScheduled"),
              "Ready",
              "False",
              "SandboxExpired",
              "Sandbox has expired",
              now,
              null);
      Map<String, Object> st = new LinkedHashMap<>();
      st.put("conditions", conds);
      st.put("podIPs", null);
      st.put("nodeName", null);
      writeStatus(sb, st);
    }
    if ("Delete".equals(Resources.string(spec, "shutdownPolicy"))) {
      LOG.debug("sandbox={}/{}: expired, deleting (shutdownPolicy Delete)", ns, name);
      fleet.delete(Kind.SANDBOX, ns, name);
    }
  }

  private Duration suspend(GenericKubernetesResource sb, String uid, Instant now) {
    String ns = sb.getMetadata().getNamespace();
    String name = sb.getMetadata().getName();
    Map<String, Object> suspended = Resources.condition(sb, "Suspended");
    String sStatus = suspended == null ? null : (String) suspended.get("status");
    String sReason = suspended == null ? null : String.valueOf(suspended.get("reason"));
    NodeState ns0 = state.get(uid);
    if ("True".equals(sStatus)) {
      state.remove(uid);
      return null;
    }
    if ("False".equals(sStatus)
        && "PodTerminating".equals(sReason)
        && ns0 != null
        && ns0.terminatedAt() != null) {
      if (now.isBefore(ns0.terminatedAt())) {
        return Duration.between(now, ns0.terminatedAt());
      }
      List<Object> conds =
          Resources.withCondition(
              conditions(sb), "Suspended", "True", "PodTerminated", "Pod terminated", now, null);
      writeStatus(sb, Map.of("conditions", conds));
      state.remove(uid);
      return null;
    }
    Instant terminatedAt = now.plus(sample(config.suspend()));
    state.put(uid, new NodeState(null, false, terminatedAt));
    List<Object> conds = Resources.withoutCondition(conditions(sb), "PodScheduled");
    conds =
        Resources.withCondition(
            conds, "Ready", "False", "SandboxSuspended", "Sandbox is suspended", now, null);
    conds =
        Resources.withCondition(
            conds, "Suspended", "False", "PodTerminating", "Pod is terminating", now, null);
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("conditions", conds);
    st.put("podIPs", null);
    st.put("nodeName", null);
    writeStatus(sb, st);
    return Duration.between(now, terminatedAt);
  }

  private Duration run(GenericKubernetesResource sb, String uid, Instant now) {
    String ns = sb.getMetadata().getNamespace();
    String name = sb.getMetadata().getName();
    Map<String, Object> ready = Resources.condition(sb, "Ready");
    Map<String, Object> suspended = Resources.condition(sb, "Suspended");
    boolean wasSuspended =
        suspended != null
            && ("True".equals(suspended.get("status"))
                || "PodTerminating".equals(suspended.get("reason")));
    if (!wasSuspended && ready != null) {
      String reason = String.valueOf(ready.get("reason"));
      if ("True".equals(ready.get("status")) || "ReconcilerError".equals(reason)) {
        return null; // steady state (a failed resume stays failed)
      }
    }
    NodeState st = state.get(uid);
    if (st != null && st.settled() && !wasSuspended) {
      return null; // outcome already written; the cache has not caught up with our write yet
    }
    if (st == null || st.readyAt() == null || wasSuspended && !st.resume()) {
      Duration latency = sample(wasSuspended ? config.resume() : config.coldStart());
      st = new NodeState(now.plus(latency), wasSuspended, null);
      state.put(uid, st);
    }
    List<Object> conds = conditions(sb);
    if (now.isBefore(st.readyAt())) {
      List<Object> want =
          Resources.withCondition(
              Resources.withCondition(
                  conds, "Ready", "False", "DependenciesNotReady", "Pod is not ready", now, null),
              "Suspended",
              "False",
              "NotSuspended",
              "Sandbox is running",
              now,
              null);
      if (!want.toString().equals(conds.toString())) {
        writeStatus(sb, Map.of("conditions", want));
      }
      return Duration.between(now, st.readyAt());
    }
    Map<String, Object> status = new LinkedHashMap<>();
    if (st.resume() && resumeFails()) {
      conds =
          Resources.withCondition(
              conds, "Ready", "False", "ReconcilerError", "simulated resume failure", now, null);
      conds =
          Resources.withCondition(
              conds, "Suspended", "False", "NotSuspended", "Sandbox is running", now, null);
      status.put("conditions", conds);
      LOG.info("sandbox={}/{}: resume failed (simulated)", ns, name);
    } else {
      conds = Resources.withCondition(conds, "PodScheduled", "True", "PodScheduled", "", now, null);
      conds =
          Resources.withCondition(
              conds, "Suspended", "False", "NotSuspended", "Sandbox is running", now, null);
      conds =
          Resources.withCondition(
              conds, "Ready", "True", "DependenciesReady", "Pod is Ready", now, null);
      status.put("conditions", conds);
      status.put("podIPs", List.of(podIp(uid)));
      status.put("nodeName", "sim-node-" + Math.floorMod(uid.hashCode(), 3));
    }
    writeStatus(sb, status);
    state.put(uid, new NodeState(st.readyAt(), false, null, true));
    return null;
  }

  private static String podIp(String uid) {
    int h = uid.hashCode();
    return "10.244." + ((h >>> 8) & 0xff) + "." + (h & 0xff);
  }

  private static List<Object> conditions(GenericKubernetesResource sb) {
    return new ArrayList<>(Resources.list(Resources.status(sb), "conditions"));
  }

  private void writeStatus(GenericKubernetesResource sb, Map<String, Object> status) {
    try {
      fleet.patchStatus(Kind.SANDBOX, sb, status);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }
}
