package org.sandboxslo.engine.inspect;

import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * A {@code SandboxWarmPool} and its members as the engine holds them now.
 *
 * @param pool namespace/name
 * @param templateName spec.sandboxTemplateRef.name
 * @param templateKnown whether the SandboxTemplate has been seen
 * @param templateGeneration the template's metadata.generation, null when the template is unknown
 * @param templateImages the template's container images (empty when unknown)
 * @param replicas spec.replicas
 * @param updateStrategy {@code OnReplenish} or {@code Recreate}
 * @param members pool-owned members and Sandboxes adopted from the pool, by name
 */
public record PoolDetail(
    ObjectRef pool,
    String templateName,
    boolean templateKnown,
    Long templateGeneration,
    List<String> templateImages,
    int replicas,
    String updateStrategy,
    List<MemberDetail> members) {
  public PoolDetail {
    Objects.requireNonNull(pool, "pool");
    templateImages = List.copyOf(templateImages);
    members = List.copyOf(members);
  }

  /** Members in {@code state}. */
  public long count(MemberState state) {
    return members.stream().filter(m -> m.state() == state).count();
  }
}
