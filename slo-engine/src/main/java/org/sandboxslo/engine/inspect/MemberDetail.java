package org.sandboxslo.engine.inspect;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One Sandbox of a {@code SandboxWarmPool} as the pool page shows it.
 *
 * @param name metadata.name
 * @param uid metadata.uid, may be null
 * @param state the member's one state (see {@link MemberState} for the order)
 * @param ready condition Ready is True
 * @param stale built from an older blueprint than the current template
 * @param claim the adopting SandboxClaim's name, or null while the pool owns it
 * @param createdAt metadata.creationTimestamp (server time), may be null
 * @param readyAt Ready condition's lastTransitionTime when Ready, else null
 * @param reason reason of the condition that explains the state (PodScheduled or Ready), or null
 * @param templateGeneration metadata.generation of the template this member was built from, when
 *     known (the current generation for a member that is not stale); null for stale members
 * @param olderThanGeneration for a stale member: the template generation it predates (the
 *     generation seen at the last observed blueprint change, else the current one); null otherwise
 * @param images container images of the member's pod template
 * @param differences for a stale member, the blueprint leaves that differ from the template (at
 *     most 20); empty when not stale or when a blueprint was not kept
 */
public record MemberDetail(
    String name,
    String uid,
    MemberState state,
    boolean ready,
    boolean stale,
    String claim,
    Instant createdAt,
    Instant readyAt,
    String reason,
    Long templateGeneration,
    Long olderThanGeneration,
    List<String> images,
    List<FieldDiff> differences) {
  public MemberDetail {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    images = List.copyOf(images);
    differences = List.copyOf(differences);
  }
}
