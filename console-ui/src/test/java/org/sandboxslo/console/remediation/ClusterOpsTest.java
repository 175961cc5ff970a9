package org.sandboxslo.console.remediation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live staleness re-check made right before each delete. */
class ClusterOpsTest {
  static Map<String, Object> spec(String image, List<Map<String, Object>> env) {
    Map<String, Object> c =
        new java.util.HashMap<>(Map.of("name", "python-runtime", "image", image));
    if (env != null) {
      c.put("env", env);
    }
    return Map.of("podTemplate", Map.of("spec", Map.of("containers", List.of(c))));
  }

  @Test
  void anImageChangeIsStaleOnItsOwn() {
    assertTrue(ClusterOps.stale(spec("py:3.11", null), spec("py:3.12", null), false));
  }

  @Test
  void aMemberOnTheCurrentBlueprintIsNeverStaleWhateverTheEngineSays() {
    assertFalse(ClusterOps.stale(spec("py:3.12", null), spec("py:3.12", null), true));
  }

  @Test
  void aPureAdditionToTheTemplateIsStaleOnlyWhenTheEngineSaysSo() {
    Map<String, Object> withEnv =
        spec("py:3.12", List.of(Map.of("name", "TASK_QUEUE", "value", "q1")));
    // the member was read back without the env var: no contradiction, the engine's hash rule
    // decides
    assertFalse(ClusterOps.stale(spec("py:3.12", null), withEnv, false));
    assertTrue(ClusterOps.stale(spec("py:3.12", null), withEnv, true));
  }

  @Test
  void withoutATemplateNothingIsStale() {
    assertFalse(ClusterOps.stale(spec("py:3.11", null), null, true));
  }
}
