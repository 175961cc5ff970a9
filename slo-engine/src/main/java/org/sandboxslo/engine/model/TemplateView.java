package org.sandboxslo.engine.model;

import java.util.List;
import java.util.Objects;

/**
 * A {@code SandboxTemplate} (extensions.agents.x-k8s.io/v1beta1).
 *
 * @param ref namespace/name
 * @param uid metadata.uid
 * @param resourceVersion metadata.resourceVersion
 * @param generation metadata.generation (0 when the server sets none)
 * @param blueprintDigest semantic digest of the blueprint (pod spec after secure defaults, volume
 *     claim templates, service), see {@link org.sandboxslo.engine.upstream.Blueprints}
 * @param envVarsInjectionPolicy spec.envVarsInjectionPolicy, default {@code Disallowed}
 * @param volumeClaimTemplatesPolicy spec.volumeClaimTemplatesPolicy, default {@code Disallowed}
 * @param images container images of spec.podTemplate.spec (init containers first), for evidence
 * @param blueprint the canonical blueprint ({@link
 *     org.sandboxslo.engine.upstream.Blueprints#canonical}); may be null when not kept
 */
public record TemplateView(
    ObjectRef ref,
    String uid,
    String resourceVersion,
    long generation,
    String blueprintDigest,
    String envVarsInjectionPolicy,
    String volumeClaimTemplatesPolicy,
    List<String> images,
    java.util.Map<String, Object> blueprint)
    implements ObjectView {
  /** Without the canonical blueprint. */
  public TemplateView(
      ObjectRef ref,
      String uid,
      String resourceVersion,
      long generation,
      String blueprintDigest,
      String envVarsInjectionPolicy,
      String volumeClaimTemplatesPolicy,
      List<String> images) {
    this(
        ref,
        uid,
        resourceVersion,
        generation,
        blueprintDigest,
        envVarsInjectionPolicy,
        volumeClaimTemplatesPolicy,
        images,
        null);
  }

  public TemplateView {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(blueprintDigest, "blueprintDigest");
    images = images == null ? List.of() : List.copyOf(images);
    envVarsInjectionPolicy = envVarsInjectionPolicy == null ? "Disallowed" : envVarsInjectionPolicy;
    volumeClaimTemplatesPolicy =
        volumeClaimTemplatesPolicy == null ? "Disallowed" : volumeClaimTemplatesPolicy;
  }

  @Override
  public Kind kind() {
    return Kind.SANDBOX_TEMPLATE;
  }
}
