package org.sandboxslo.collector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.diagnosis.DiagnosisSettings;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.model.FleetEvent;

/** Replay entries of every type become engine events; a probe timeline ends in a finding. */
class ReplayEventsTest {
  static final Instant AT = Instant.parse("2026-09-01T10:00:00Z");

  static Map<String, Object> pod(String name) {
    return Map.of(
        "apiVersion", "v1",
        "kind", "Pod",
        "metadata",
            Map.of(
                "name",
                name,
                "namespace",
                "team-a",
                "uid",
                "u-" + name,
                "annotations",
                Map.of("podsnapshot.gke.io/ps-name", "golden-1"),
                "ownerReferences",
                List.of(Map.of("kind", "Sandbox", "name", name, "controller", true))));
  }

  @Test
  void everyEntryTypeMapsAndAProbeTimelineIsDiagnosed() {
    FleetEngine engine = new FleetEngine(EngineConfig.defaults());
    for (String s : List.of("s1", "s2")) {
      for (FleetEvent e : ReplayEvents.of("ADDED", Map.of("object", pod(s)), AT)) {
        assertInstanceOf(FleetEvent.PodUpserted.class, e);
        engine.apply(e);
      }
      for (FleetEvent e :
          ReplayEvents.of(
              "PROBE",
              Map.of(
                  "probe",
                  Map.of(
                      "sandbox",
                      "team-a/" + s,
                      "randomSampleHash",
                      "same",
                      "vmgenidPresent",
                      false,
                      "kernel",
                      "5.15.0")),
              AT.plusSeconds(5))) {
        engine.apply(e);
      }
    }
    List<Finding> fs =
        engine.findings(
            AT.plusSeconds(10), DiagnosisConfig.defaults(), DiagnosisSettings.defaults());
    Finding f =
        fs.stream()
            .filter(x -> x.kind() == FindingKind.SNAPSHOT_CLONES_SHARE_RANDOMNESS)
            .findFirst()
            .orElseThrow();
    assertEquals("PodSnapshot team-a/golden-1", f.subject());

    assertEquals(4, ReplayEvents.of("SYNCED", Map.of(), AT).size());
    assertInstanceOf(
        FleetEvent.Scraped.class,
        ReplayEvents.of("SCRAPE", Map.of("text", "up 1\n", "target", "ctrl"), AT).get(0));
    assertEquals(
        List.of(),
        ReplayEvents.of(
            "DELETED",
            Map.of(
                "object",
                Map.of("kind", "Event", "metadata", Map.of("name", "e", "namespace", "team-a"))),
            AT));
    assertEquals(
        "unknown type 'PATCHED'",
        assertThrows(IllegalArgumentException.class, () -> ReplayEvents.of("PATCHED", Map.of(), AT))
            .getMessage());
    assertEquals(
        "Pod team-a/p: metadata.uid: missing",
        assertThrows(
                MalformedObjectException.class,
                () ->
                    ReplayEvents.of(
                        "ADDED",
                        Map.of(
                            "object",
                            Map.of(
                                "kind",
                                "Pod",
                                "metadata",
                                Map.of("name", "p", "namespace", "team-a"))),
                        AT))
            .getMessage());
  }
}
