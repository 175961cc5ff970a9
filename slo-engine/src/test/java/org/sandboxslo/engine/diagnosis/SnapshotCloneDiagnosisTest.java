package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.Timeline.NS;
import static org.sandboxslo.engine.diagnosis.Timeline.at;
import static org.sandboxslo.engine.diagnosis.Timeline.cond;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.IdentityProbe;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PodView;

/** Fault kind 8: clones of one memory snapshot that share random state. */
class SnapshotCloneDiagnosisTest {
  static IdentityProbe probe(
      String sandbox,
      String snapshot,
      String kernel,
      Boolean vmgenid,
      String bootId,
      String hash,
      double atS) {
    return new IdentityProbe(
        new ObjectRef(NS, sandbox),
        snapshot,
        "x86_64",
        kernel,
        vmgenid,
        bootId,
        hash,
        Duration.ofMillis(800),
        at(atS));
  }

  static void report(Timeline tl, IdentityProbe p) {
    tl.apply(new FleetEvent.ProbeReported(p, p.observedAt()));
  }

  /** Claimed sandboxes s1..s3 whose Pods carry the GKE pin podsnapshot.gke.io/ps-name=golden-1. */
  static Timeline clones(String... names) {
    Timeline tl = new Timeline();
    for (String n : names) {
      tl.up(
          tl.sandbox(
              n,
              new OwnerView("SandboxClaim", "claim-" + n, "uid-claim-" + n),
              "tpl",
              "Running",
              cond("True", "DependenciesReady", 5),
              cond("False", "NotSuspended", 5)),
          5);
      tl.apply(
          new FleetEvent.PodUpserted(
              new PodView(
                  new ObjectRef(NS, n),
                  "pod-" + n,
                  "1",
                  at(1),
                  n,
                  null,
                  "Running",
                  List.of(),
                  null,
                  null,
                  "node-1",
                  "golden-1",
                  false),
              at(5)));
    }
    return tl;
  }

  @Test
  void equalRandomSamplesAcrossClonesAreCriticalAndNameSnapshotPairsAndCause() {
    Timeline tl = clones("s1", "s2", "s3");
    // snapshot not in the probes: taken from the Pods' pin
    report(tl, probe("s1", null, "5.15.0", false, "boot-A", "aaaa1111", 10));
    report(tl, probe("s2", null, "5.15.0", false, "boot-A", "aaaa1111", 12));
    report(tl, probe("s3", null, "5.15.0", false, "boot-A", "bbbb2222", 14));
    Finding f = tl.findings(20, FindingKind.SNAPSHOT_CLONES_SHARE_RANDOMNESS).get(0);
    assertEquals(Severity.CRITICAL, f.severity());
    assertEquals("PodSnapshot team-a/golden-1", f.subject());
    assertEquals(at(12), f.firstSeen()); // the second sandbox's probe completes the pair
    assertEquals("golden-1", f.evidence("snapshot"));
    assertEquals("3", f.evidence("clonesProbed"));
    assertEquals("2 of 3", f.evidence("distinctRandomSamples"));
    assertEquals("1", f.evidence("collidingPairs"));
    assertEquals("s1 ↔ s2 (sample aaaa1111)", f.evidence("collision"));
    assertEquals("NO_VMGENID", f.evidence("likelyCause"));
    assertEquals("0 of 2", f.evidence("vmgenidPresent"));
    assertEquals("shared by all 3 clones", f.evidence("bootId"));
    assertTrue(f.objects().contains("SandboxClaim team-a/claim-s1"));
    assertEquals(
        List.of("StopSnapshotClones", "RotateCredentials", "AddReseedOnRestore", "None"),
        f.proposals().stream().map(p -> p.action()).toList());
    assertTrue(f.proposals().stream().noneMatch(p -> p.automatic()));
    assertTrue(
        f.proposals().get(0).steps().get(2).equals("running clones are not deleted: s1, s2, s3"),
        f.proposals().get(0).steps().get(2));
  }

  @Test
  void negativeControlEqualBootIdsWithDistinctSamplesAreExpected() {
    Timeline tl = clones("s1", "s2", "s3");
    report(tl, probe("s1", "golden-1", "6.1.0", true, "boot-A", "h1", 10));
    report(tl, probe("s2", "golden-1", "6.1.0", true, "boot-A", "h2", 11));
    report(tl, probe("s3", "golden-1", "6.1.0", true, "boot-A", "h3", 12));
    // the same sandbox reporting the same sample twice is not a clone collision
    report(tl, probe("s1", "golden-1", "6.1.0", true, "boot-A", "h1", 30));
    assertEquals(List.of(), tl.findings(40, FindingKind.SNAPSHOT_CLONES_SHARE_RANDOMNESS));
  }

  @Test
  void reseedingKernelWithVmgenidPointsAtUserSpaceState() {
    Timeline tl = clones("s1", "s2", "s3");
    report(tl, probe("s1", "golden-1", "6.1.0", true, "boot-A", "same", 10));
    report(tl, probe("s2", "golden-1", "6.1.0", true, "boot-A", "same", 11));
    report(tl, probe("s3", "golden-1", "6.1.0", true, "boot-A", "same", 12));
    Finding f = tl.findings(20, FindingKind.SNAPSHOT_CLONES_SHARE_RANDOMNESS).get(0);
    assertEquals("3", f.evidence("collidingPairs")); // C(3, 2)
    assertEquals("1 of 3", f.evidence("distinctRandomSamples"));
    assertEquals("USER_SPACE_STATE_CLONED", f.evidence("likelyCause"));
    assertEquals(at(11), f.firstSeen());
  }

  @Test
  void oldKernelWithoutVmgenidReportIsTheKernelCause() {
    Timeline tl = clones("s1", "s2");
    report(tl, probe("s1", "golden-2", "5.10.0-28-cloud-amd64", null, "b1", "x", 10));
    report(tl, probe("s2", "golden-2", "5.10.0-28-cloud-amd64", null, "b2", "x", 10));
    // another snapshot's probe with the same sample is a different group
    report(tl, probe("s9", "golden-3", "5.10.0", null, "b9", "x", 10));
    List<Finding> fs = tl.findings(20, FindingKind.SNAPSHOT_CLONES_SHARE_RANDOMNESS);
    assertEquals(1, fs.size());
    assertEquals("PodSnapshot team-a/golden-2", fs.get(0).subject());
    assertEquals("KERNEL_WITHOUT_FORK_RESEED", fs.get(0).evidence("likelyCause"));
  }

  @Test
  void probesValidateTheirFields() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> probe("s1", null, "6.1", true, "b", " ", 0));
    assertEquals("randomSampleHash must be non-empty", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new IdentityProbe(
                new ObjectRef(NS, "s1"),
                null,
                null,
                null,
                null,
                null,
                "h",
                Duration.ofSeconds(-1),
                at(0)));
    assertEquals(true, SnapshotCloneDiagnosis.kernelBefore("5.17.3", 5, 18));
    assertEquals(false, SnapshotCloneDiagnosis.kernelBefore("6.1.0", 5, 18));
    assertEquals(null, SnapshotCloneDiagnosis.kernelBefore("gvisor", 5, 18));
  }
}
