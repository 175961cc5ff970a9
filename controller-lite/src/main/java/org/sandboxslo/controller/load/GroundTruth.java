package org.sandboxslo.controller.load;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One ground-truth line: a claim that became Ready, as the load generator saw it. Written as one
 * JSON object per line (JSONL) with the keys in component order.
 *
 * @param namespace claim namespace
 * @param claim claim name
 * @param uid claim uid
 * @param pool {@code spec.warmPoolRef.name}
 * @param template template name (Sandbox annotation {@code agents.x-k8s.io/sandbox-template-ref},
 *     else the pool's {@code spec.sandboxTemplateRef.name})
 * @param createdAt when the generator sent the create (RFC3339Nano, UTC)
 * @param firstObservedAt claim annotation {@code agents.x-k8s.io/controller-first-observed-at}
 *     (RFC3339Nano)
 * @param readyAt claim annotation {@code agents.x-k8s.io/claim-first-ready-at} (RFC3339Nano)
 * @param launchType adopted Sandbox label {@code agents.x-k8s.io/launch-type}: {@code warm} or
 *     {@code cold}
 * @param latencyMs readyAt − firstObservedAt in milliseconds, sub-millisecond precision
 * @param env the claim set {@code spec.env}
 */
public record GroundTruth(
    String namespace,
    String claim,
    String uid,
    String pool,
    String template,
    String createdAt,
    String firstObservedAt,
    String readyAt,
    String launchType,
    double latencyMs,
    boolean env) {
  public GroundTruth {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(launchType, "launchType");
  }

  /** The JSON object, keys in the documented order. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("namespace", namespace);
    m.put("claim", claim);
    m.put("uid", uid);
    m.put("pool", pool);
    m.put("template", template);
    m.put("createdAt", createdAt);
    m.put("firstObservedAt", firstObservedAt);
    m.put("readyAt", readyAt);
    m.put("launchType", launchType);
    m.put("latencyMs", latencyMs);
    m.put("env", env);
    return m;
  }
}
