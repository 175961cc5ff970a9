package org.sandboxslo.engine.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a sandbox reports about its own identity right after it starts or resumes (posted to the
 * console, or recorded for replay). Clones restored from one memory snapshot share memory, so a
 * guest that is not told it was cloned (no VMGenID, or a kernel that does not reseed its CRNG on a
 * VM generation change) hands out the same "random" bytes in every clone.
 *
 * @param sandbox the Sandbox (namespace/name); required
 * @param snapshot the snapshot it was restored from (e.g. the value of GKE's {@code
 *     podsnapshot.gke.io/ps-name}), or null when the sandbox does not know; the engine then uses
 *     the pin on the sandbox's Pod
 * @param arch machine architecture, e.g. {@code x86_64}; may be null
 * @param kernel kernel release ({@code uname -r}), e.g. {@code 6.1.0}; may be null
 * @param vmgenidPresent whether a VM generation ID device is visible to the guest; null when
 *     unknown
 * @param bootId {@code /proc/sys/kernel/random/boot_id}; equal across memory clones by design
 * @param randomSampleHash a hash of bytes read from the guest RNG (or of a freshly minted token);
 *     required, never the bytes themselves
 * @param probeDelay time from the resume to the probe, ≥ 0; may be null
 * @param observedAt when the probe ran (console or sandbox clock); required
 */
public record IdentityProbe(
    ObjectRef sandbox,
    String snapshot,
    String arch,
    String kernel,
    Boolean vmgenidPresent,
    String bootId,
    String randomSampleHash,
    Duration probeDelay,
    Instant observedAt) {
  public IdentityProbe {
    Objects.requireNonNull(sandbox, "sandbox must be namespace/name");
    Objects.requireNonNull(observedAt, "observedAt is required");
    if (randomSampleHash == null || randomSampleHash.isBlank()) {
      throw new IllegalArgumentException("randomSampleHash must be non-empty");
    }
    if (probeDelay != null && probeDelay.isNegative()) {
      throw new IllegalArgumentException("probeDelay must be >= 0, got " + probeDelay);
    }
    snapshot = snapshot == null || snapshot.isBlank() ? null : snapshot;
  }
}
