package org.sandboxslo.engine.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BlueprintDiffTest {
  static final Map<String, Object> A =
      Map.of(
          "podSpec",
          Map.of(
              "containers",
              List.of(
                  Map.of("name", "main", "image", "py:3.11"),
                  new TreeMap<>(Map.of("name", "side", "image", "envoy:1"))),
              "nodeSelector",
              new TreeMap<>(Map.of("pool", "gpu"))),
          "service",
          true);
  static final Map<String, Object> B =
      Map.of(
          "podSpec",
          Map.of("containers", List.of(Map.of("name", "main", "image", "py:3.12"))),
          "service",
          true);

  @Test
  void namesEveryDifferingLeafWithListIndices() {
    // containers[0].image changed; containers[1] only on the member (absent on the template: one
    // difference for the whole entry);
    // nodeSelector only on the member; service equal
    assertEquals(
        List.of(
            new FieldDiff("podSpec.containers[0].image", "py:3.11", "py:3.12"),
            new FieldDiff("podSpec.containers[1]", "{image=envoy:1, name=side}", null),
            new FieldDiff("podSpec.nodeSelector", "{pool=gpu}", null)),
        BlueprintDiff.between(A, B, 20));
  }

  @Test
  void equalOrMissingBlueprintsGiveNothingAndTheLimitCuts() {
    assertEquals(List.of(), BlueprintDiff.between(A, A, 20));
    assertEquals(List.of(), BlueprintDiff.between(null, B, 20));
    assertEquals(List.of(), BlueprintDiff.between(A, null, 20));
    assertEquals(1, BlueprintDiff.between(A, B, 1).size());
    assertEquals("podSpec.containers[0].image", BlueprintDiff.between(A, B, 1).get(0).path());
    assertThrows(IllegalArgumentException.class, () -> BlueprintDiff.between(A, B, 0));
  }

  @Test
  void longValuesAreCut() {
    String image = "registry.example/" + "x".repeat(100);
    FieldDiff d = BlueprintDiff.between(Map.of("image", image), Map.of("image", "short"), 5).get(0);
    assertEquals(BlueprintDiff.MAX_VALUE, d.member().length());
    assertEquals('…', d.member().charAt(BlueprintDiff.MAX_VALUE - 1));
    assertEquals("short", d.template());
  }
}
