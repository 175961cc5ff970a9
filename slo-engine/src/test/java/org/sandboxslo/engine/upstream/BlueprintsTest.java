package org.sandboxslo.engine.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BlueprintsTest {
  @Test
  void nameHashMatchesUpstreamValues() {
    assertEquals("d6848635", NameHash.of("pool-py"));
    assertEquals("8cc203bf", NameHash.of("sbx-victim"));
    assertEquals("811c9dc5", NameHash.of(""));
  }

  private static Map<String, Object> spec(
      Map<String, Object> podMeta, Map<String, Object> podSpec) {
    Map<String, Object> pt = new LinkedHashMap<>();
    if (podMeta != null) {
      pt.put("metadata", podMeta);
    }
    pt.put("spec", podSpec);
    return Map.of("podTemplate", pt);
  }

  private static Map<String, Object> container(String image) {
    return Map.of("name", "main", "image", image);
  }

  @Test
  void metadataOnlyEditIsNotAChange() {
    Map<String, Object> a =
        spec(
            Map.of("labels", Map.of("app", "x")),
            Map.of("containers", List.of(container("py:3.11"))));
    Map<String, Object> b =
        spec(
            Map.of("labels", Map.of("app", "y"), "annotations", Map.of("k", "v")),
            Map.of("containers", List.of(container("py:3.11"))));
    assertEquals(Blueprints.digest(a), Blueprints.digest(b));
    assertEquals(List.of(), Blueprints.differingFields(a, b));
  }

  @Test
  void imageChangeIsAChangeAndNamedAsEvidence() {
    Map<String, Object> a = spec(null, Map.of("containers", List.of(container("py:3.11"))));
    Map<String, Object> b = spec(null, Map.of("containers", List.of(container("py:3.12"))));
    assertNotEquals(Blueprints.digest(a), Blueprints.digest(b));
    assertEquals(List.of("podSpec.containers"), Blueprints.differingFields(a, b));
    assertEquals(List.of("py:3.12"), Blueprints.images(b));
  }

  @Test
  void secureDefaultsAndEmptyFieldsAreSemanticNoOps() {
    Map<String, Object> template = spec(null, Map.of("containers", List.of(container("py"))));
    Map<String, Object> member =
        spec(
            null,
            Map.of(
                "containers", List.of(container("py")),
                "automountServiceAccountToken", false,
                "dnsPolicy", "None",
                "dnsConfig", Map.of("nameservers", List.of("8.8.8.8", "1.1.1.1")),
                "tolerations", List.of()));
    assertEquals(Blueprints.digest(template), Blueprints.digest(member));
    Map<String, Object> mounted =
        spec(
            null,
            Map.of("containers", List.of(container("py")), "automountServiceAccountToken", true));
    assertNotEquals(Blueprints.digest(template), Blueprints.digest(mounted));
  }

  @Test
  void volumeClaimTemplatesCompareOnNameAndSpecOnly() {
    Map<String, Object> pod = Map.of("containers", List.of(container("py")));
    Map<String, Object> a =
        Map.of(
            "podTemplate",
            Map.of("spec", pod),
            "volumeClaimTemplates",
            List.of(
                Map.of(
                    "metadata",
                    Map.of("name", "ws", "labels", Map.of("a", "b")),
                    "spec",
                    Map.of("resources", Map.of("requests", Map.of("storage", "1Gi"))))));
    Map<String, Object> b =
        Map.of(
            "podTemplate",
            Map.of("spec", pod),
            "volumeClaimTemplates",
            List.of(
                Map.of(
                    "metadata",
                    Map.of("name", "ws"),
                    "spec",
                    Map.of("resources", Map.of("requests", Map.of("storage", "1Gi"))))));
    Map<String, Object> c =
        Map.of(
            "podTemplate",
            Map.of("spec", pod),
            "volumeClaimTemplates",
            List.of(
                Map.of(
                    "metadata",
                    Map.of("name", "ws"),
                    "spec",
                    Map.of("resources", Map.of("requests", Map.of("storage", "2Gi"))))));
    assertEquals(Blueprints.digest(a), Blueprints.digest(b));
    assertNotEquals(Blueprints.digest(a), Blueprints.digest(c));
    Map<String, Object> svc = Map.of("podTemplate", Map.of("spec", pod), "service", true);
    assertNotEquals(
        Blueprints.digest(Map.of("podTemplate", Map.of("spec", pod))), Blueprints.digest(svc));
  }
}
