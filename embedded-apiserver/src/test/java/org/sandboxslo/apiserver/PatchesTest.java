package org.sandboxslo.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PatchesTest {
  /** RFC 7386 Appendix A, plus the Kubernetes case that used to break (containers appended). */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":\"b\"}                 | {\"a\":\"c\"}              | {\"a\":\"c\"}",
        "{\"a\":\"b\"}                 | {\"b\":\"c\"}              | {\"a\":\"b\",\"b\":\"c\"}",
        "{\"a\":\"b\"}                 | {\"a\":null}               | {}",
        "{\"a\":\"b\",\"b\":\"c\"}     | {\"a\":null}               | {\"b\":\"c\"}",
        "{\"a\":[\"b\"]}               | {\"a\":\"c\"}              | {\"a\":\"c\"}",
        "{\"a\":\"c\"}                 | {\"a\":[\"b\"]}            | {\"a\":[\"b\"]}",
        "{\"a\":{\"b\":\"c\"}}         | {\"a\":{\"b\":\"d\",\"c\":null}} | {\"a\":{\"b\":\"d\"}}",
        "{\"a\":[{\"b\":\"c\"}]}       | {\"a\":[1]}                | {\"a\":[1]}",
        "[\"a\",\"b\"]                 | [\"c\",\"d\"]              | [\"c\",\"d\"]",
        "{\"a\":\"b\"}                 | [\"c\"]                    | [\"c\"]",
        "{\"e\":null}                  | {\"a\":1}                  | {\"e\":null,\"a\":1}",
        "[1,2]                         | {\"a\":\"b\",\"c\":null}   | {\"a\":\"b\"}",
        "{}                            | {\"a\":{\"bb\":{\"ccc\":null}}} | {\"a\":{\"bb\":{}}}",
        "{\"c\":[{\"n\":\"main\",\"i\":\"v1\"}]} | {\"c\":[{\"n\":\"main\",\"i\":\"v2\"}]} | {\"c\":[{\"n\":\"main\",\"i\":\"v2\"}]}",
      })
  void mergePatchFollowsRfc7386(String target, String patch, String expected) {
    assertEquals(Json.parse(expected), Patches.mergePatch(Json.parse(target), Json.parse(patch)));
  }

  @Test
  void mergePatchLeavesTheTargetAlone() {
    var target = Json.parse("{\"a\":{\"b\":1}}");
    Patches.mergePatch(target, Json.parse("{\"a\":{\"b\":2}}"));
    assertEquals(Json.parse("{\"a\":{\"b\":1}}"), target);
  }

  @Test
  void jsonPatchFollowsRfc6902() {
    var target = Json.parse("{\"spec\":{\"operatingMode\":\"Running\",\"list\":[1,2]}}");
    assertEquals(
        Json.parse("{\"spec\":{\"operatingMode\":\"Suspended\",\"list\":[1,3,2]}}"),
        Patches.jsonPatch(
            target,
            Json.parse(
                "[{\"op\":\"test\",\"path\":\"/spec/operatingMode\",\"value\":\"Running\"},"
                    + "{\"op\":\"replace\",\"path\":\"/spec/operatingMode\",\"value\":\"Suspended\"},"
                    + "{\"op\":\"add\",\"path\":\"/spec/list/1\",\"value\":3}]")));
    // a failed test operation is a one-line error, the target is unchanged
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Patches.jsonPatch(
                    target,
                    Json.parse(
                        "[{\"op\":\"test\",\"path\":\"/spec/operatingMode\",\"value\":\"Suspended\"}]")));
    assertTrue(
        e.getMessage().contains("Suspended") && !e.getMessage().contains("\n"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Patches.jsonPatch(target, Json.parse("{}")));
  }

  @Test
  void strategicDirectivesAreDropped() {
    assertEquals(
        Json.parse("{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"finalizers\":[\"x\"]}}"),
        Patches.withoutDirectives(
            Json.parse(
                "{\"$setElementOrder/finalizers\":[\"x\"],\"metadata\":{\"labels\":{\"a\":\"b\"}},"
                    + "\"spec\":{\"$retainKeys\":[\"finalizers\"],\"finalizers\":[\"x\"]}}")));
  }

  @Test
  void patchTypesComeFromTheContentType() {
    assertEquals(
        Optional.of(Patches.PatchType.MERGE_PATCH),
        Patches.PatchType.of("application/merge-patch+json; charset=utf-8"));
    assertEquals(
        Optional.of(Patches.PatchType.STRATEGIC_MERGE_PATCH),
        Patches.PatchType.of("application/strategic-merge-patch+json"));
    assertEquals(Optional.empty(), Patches.PatchType.of("application/json"));
    assertEquals(Optional.empty(), Patches.PatchType.of(null));
  }
}
