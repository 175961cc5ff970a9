package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.IdentityProbe;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PodView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.engine.upstream.SnapshotPins;

/**
 * {@code SnapshotClonesShareRandomness}: sandboxes restored from one memory snapshot reported the
 * same random sample in their identity probes. Memory clones share everything the snapshot
 * captured, including the kernel CRNG and user-space PRNG state; unless the guest learns it was
 * cloned (a VMGenID device, and a kernel that reseeds on a generation change — Linux 5.18+) and
 * user space reseeds too, every clone draws the same keys, nonces and tokens. An equal boot id
 * alone is expected for memory clones and is not a finding.
 *
 * <p>Probes are grouped by namespace and snapshot (the probe's own, else the pin annotation on the
 * sandbox's Pod, {@link SnapshotPins}); two different sandboxes with the same {@code
 * randomSampleHash} in a group are a colliding pair. CRITICAL at once. Proposals need confirmation
 * and never delete a running sandbox.
 */
public final class SnapshotCloneDiagnosis implements Diagnosis {
  /** Kernel release from which a VM generation change reseeds the CRNG. */
  static final int[] RESEED_KERNEL = {5, 18};

  /** Why clones repeat random values, in the order the evidence rules them in. */
  public enum LikelyCause {
    /** A probe reported no VMGenID device. */
    NO_VMGENID,
    /** The kernel predates VM-fork reseeding. */
    KERNEL_WITHOUT_FORK_RESEED,
    /** VMGenID and a reseeding kernel: the state was seeded in user space before the snapshot. */
    USER_SPACE_STATE_CLONED,
    /** The probes do not say (no vmgenid/kernel fields). */
    UNKNOWN
  }

  @Override
  public void diagnose(DiagnosisContext ctx, List<Finding> out) {
    Map<String, List<IdentityProbe>> groups = new TreeMap<>();
    Map<String, String> snapshotOfGroup = new LinkedHashMap<>();
    for (IdentityProbe p : ctx.observations().probes()) {
      String snap = snapshotOf(ctx, p);
      String key = p.sandbox().namespace() + "/" + (snap == null ? "" : snap);
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
      snapshotOfGroup.put(key, snap);
    }
    groups.forEach(
        (k, ps) -> group(ctx, k.substring(0, k.indexOf('/')), snapshotOfGroup.get(k), ps, out));
  }

  static String snapshotOf(DiagnosisContext ctx, IdentityProbe p) {
    if (p.snapshot() != null) {
      return p.snapshot();
    }
    PodView pod = ctx.observations().podOf(p.sandbox());
    return pod == null ? null : pod.snapshot();
  }

  private static void group(
      DiagnosisContext ctx,
      String ns,
      String snapshot,
      List<IdentityProbe> probes,
      List<Finding> out) {
    // hash → sandbox name → earliest probe with it
    Map<String, TreeMap<String, IdentityProbe>> byHash = new TreeMap<>();
    TreeSet<String> sandboxes = new TreeSet<>();
    for (IdentityProbe p : probes) {
      sandboxes.add(p.sandbox().name());
      TreeMap<String, IdentityProbe> m =
          byHash.computeIfAbsent(p.randomSampleHash(), h -> new TreeMap<>());
      IdentityProbe prev = m.get(p.sandbox().name());
      if (prev == null || p.observedAt().isBefore(prev.observedAt())) {
        m.put(p.sandbox().name(), p);
      }
    }
    List<String> pairs = new ArrayList<>();
    TreeSet<String> colliding = new TreeSet<>();
    List<IdentityProbe> involved = new ArrayList<>();
    Instant firstSeen = null;
    int pairCount = 0;
    for (Map.Entry<String, TreeMap<String, IdentityProbe>> e : byHash.entrySet()) {
      if (e.getValue().size() < 2) {
        continue;
      }
      List<IdentityProbe> ps = new ArrayList<>(e.getValue().values());
      ps.sort((a, b) -> a.observedAt().compareTo(b.observedAt()));
      Instant completes = ps.get(1).observedAt();
      firstSeen = firstSeen == null || completes.isBefore(firstSeen) ? completes : firstSeen;
      List<String> names = new ArrayList<>(e.getValue().keySet());
      for (int i = 0; i < names.size(); i++) {
        for (int j = i + 1; j < names.size(); j++) {
          pairCount++;
          if (pairs.size() < 10) {
            pairs.add(
                names.get(i) + " ↔ " + names.get(j) + " (sample " + shortHash(e.getKey()) + ")");
          }
        }
      }
      colliding.addAll(names);
      involved.addAll(ps);
    }
    if (colliding.isEmpty()) {
      return; // equal boot ids alone are expected for memory clones
    }
    int vmgenAbsent = 0;
    int vmgenPresent = 0;
    TreeSet<String> kernels = new TreeSet<>();
    TreeSet<String> archs = new TreeSet<>();
    boolean oldKernel = false;
    boolean newKernel = false;
    Duration minDelay = null;
    for (IdentityProbe p : involved) {
      if (Boolean.FALSE.equals(p.vmgenidPresent())) {
        vmgenAbsent++;
      } else if (Boolean.TRUE.equals(p.vmgenidPresent())) {
        vmgenPresent++;
      }
      if (p.kernel() != null) {
        kernels.add(p.kernel());
        Boolean before = kernelBefore(p.kernel(), RESEED_KERNEL[0], RESEED_KERNEL[1]);
        oldKernel |= Boolean.TRUE.equals(before);
        newKernel |= Boolean.FALSE.equals(before);
      }
      if (p.arch() != null) {
        archs.add(p.arch());
      }
      if (p.probeDelay() != null && (minDelay == null || p.probeDelay().compareTo(minDelay) < 0)) {
        minDelay = p.probeDelay();
      }
    }
    LikelyCause cause =
        vmgenAbsent > 0
            ? LikelyCause.NO_VMGENID
            : oldKernel
                ? LikelyCause.KERNEL_WITHOUT_FORK_RESEED
                : vmgenPresent > 0 && newKernel
                    ? LikelyCause.USER_SPACE_STATE_CLONED
                    : LikelyCause.UNKNOWN;
    String causeText =
        switch (cause) {
          case NO_VMGENID ->
              "no VMGenID device in "
                  + vmgenAbsent
                  + " of "
                  + involved.size()
                  + " colliding probes: the guest cannot tell it was cloned, so its CRNG is not"
                  + " reseeded after the restore";
          case KERNEL_WITHOUT_FORK_RESEED ->
              "kernel "
                  + String.join(", ", kernels)
                  + " predates CRNG reseeding on a VM generation change (Linux 5.18): the clones"
                  + " keep the snapshot's CRNG state";
          case USER_SPACE_STATE_CLONED ->
              "VMGenID present and kernel "
                  + String.join(", ", kernels)
                  + " reseeds on VM fork: the repeated values come from state seeded in user space"
                  + " before the snapshot (language runtime PRNG, TLS library DRBG, pre-minted"
                  + " tokens)";
          case UNKNOWN ->
              "the probes report neither VMGenID nor kernel: the CRNG was most likely not"
                  + " reseeded after the restore";
        };

    TreeSet<String> bootIds = new TreeSet<>();
    for (IdentityProbe p : probes) {
      if (p.bootId() != null) {
        bootIds.add(p.bootId());
      }
    }
    String snapName = snapshot == null ? "(unknown)" : snapshot;
    List<Evidence> ev = new ArrayList<>();
    ev.add(
        Evidence.of(
            "snapshot",
            snapName,
            snapshot == null
                ? "no snapshot named by the probes or pinned on their Pods"
                : "from the probes or the Pods' " + SnapshotPins.GKE_POD_SNAPSHOT + " pin"));
    ev.add(
        Evidence.of(
            "clonesProbed",
            sandboxes.size(),
            probes.size() + " probes of " + sandboxes.size() + " sandboxes"));
    ev.add(
        Evidence.of(
            "distinctRandomSamples",
            byHash.size() + " of " + sandboxes.size(),
            "every clone should report its own sample"));
    ev.add(
        Evidence.of(
            "collidingPairs", pairCount, colliding.size() + " sandboxes share a random sample"));
    for (String p : pairs) {
      ev.add(Evidence.of("collision", p));
    }
    ev.add(Evidence.of("likelyCause", cause.name(), causeText));
    ev.add(
        Evidence.of(
            "vmgenidPresent",
            vmgenPresent + " of " + involved.size(),
            vmgenAbsent
                + " absent, "
                + (involved.size() - vmgenPresent - vmgenAbsent)
                + " unknown"));
    if (!kernels.isEmpty()) {
      ev.add(Evidence.of("kernel", String.join(", ", kernels)));
    }
    if (!archs.isEmpty()) {
      ev.add(Evidence.of("arch", String.join(", ", archs)));
    }
    if (minDelay != null) {
      ev.add(Evidence.of("probeDelayMin", Durations.format(minDelay), "resume → probe"));
    }
    if (bootIds.size() == 1 && sandboxes.size() > 1) {
      ev.add(
          Evidence.of(
              "bootId",
              "shared by all " + sandboxes.size() + " clones",
              "expected for memory clones; not itself a finding"));
    }

    List<String> objects = new ArrayList<>();
    List<String> running = new ArrayList<>();
    for (String name : colliding) {
      ObjectRef ref = new ObjectRef(ns, name);
      objects.add("Sandbox " + ref);
      SandboxView s = ctx.sandboxes().get(ref);
      if (s != null && s.owner() != null && "SandboxClaim".equals(s.owner().kind())) {
        objects.add("SandboxClaim " + ns + "/" + s.owner().name());
      }
      if (s != null && !s.deleting()) {
        running.add(name);
      }
    }
    List<String> otherClones = new ArrayList<>();
    if (snapshot != null) {
      for (PodView pod : ctx.observations().pods().values()) {
        if (pod.ref().namespace().equals(ns)
            && snapshot.equals(pod.snapshot())
            && !pod.deleting()
            && pod.sandboxName() != null
            && !colliding.contains(pod.sandboxName())) {
          otherClones.add(pod.sandboxName());
        }
      }
      otherClones.sort(null);
      if (!otherClones.isEmpty()) {
        ev.add(
            Evidence.of(
                "otherClonesOfSnapshot",
                otherClones.size(),
                String.join(", ", otherClones) + " (pinned, not probed)"));
      }
    }
    List<String> all = new ArrayList<>(running);
    all.addAll(otherClones);
    List<Proposal> proposals =
        List.of(
            new Proposal(
                "StopSnapshotClones",
                "Stop handing out clones of snapshot "
                    + snapName
                    + " until restores reseed (needs confirmation)",
                List.of(
                    "remove the "
                        + SnapshotPins.GKE_POD_SNAPSHOT
                        + "="
                        + snapName
                        + " pin from new claims' spec.additionalPodMetadata (and from any template"
                        + " or client default that sets it)",
                    "new sandboxes start fresh, or from a snapshot taken after reseed-on-restore is"
                        + " in place",
                    "running clones are not deleted: " + String.join(", ", all)),
                false),
            new Proposal(
                "RotateCredentials",
                "Rotate every key, token and credential minted inside these clones after their"
                    + " resume: they may be identical across clones",
                List.of("clones: " + String.join(", ", all)),
                false),
            new Proposal(
                "AddReseedOnRestore",
                "Reseed on restore: expose a VMGenID device to the guest (kernel ≥ 5.18 reseeds its"
                    + " CRNG on a generation change) and reseed user-space generators in a"
                    + " post-restore hook before the sandbox serves; then probe again",
                List.of(),
                false),
            Proposal.none(
                "No automatic remediation: running sandboxes are never deleted by the console."));
    out.add(
        new Finding(
            FindingKind.SNAPSHOT_CLONES_SHARE_RANDOMNESS,
            snapshot == null ? "Namespace " + ns : "PodSnapshot " + ns + "/" + snapshot,
            Severity.CRITICAL,
            firstSeen,
            ctx.now(),
            colliding.size()
                + " sandboxes restored from snapshot "
                + snapName
                + " drew the same random sample ("
                + pairCount
                + " colliding pair(s)): keys, nonces and tokens generated after resume are shared"
                + " across clones. Likely cause: "
                + causeText
                + ".",
            ev,
            objects,
            proposals));
  }

  /** Whether a kernel release is before major.minor; null when it does not parse. */
  static Boolean kernelBefore(String release, int major, int minor) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release);
    if (!m.find()) {
      return null;
    }
    int a = Integer.parseInt(m.group(1));
    int b = Integer.parseInt(m.group(2));
    return a != major ? a < major : b < minor;
  }

  private static String shortHash(String h) {
    return h.length() <= 12 ? h : h.substring(0, 12) + "…";
  }
}
