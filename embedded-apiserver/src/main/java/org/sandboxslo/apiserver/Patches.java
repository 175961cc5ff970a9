package org.sandboxslo.apiserver;

import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The PATCH body types and how each applies to a stored object. */
final class Patches {
  private Patches() {}

  /** A PATCH request's body type, from its Content-Type. */
  enum PatchType {
    /** RFC 6902 operations ({@code application/json-patch+json}). */
    JSON_PATCH("application/json-patch+json"),
    /** RFC 7386 merge patch ({@code application/merge-patch+json}). */
    MERGE_PATCH("application/merge-patch+json"),
    /** Kubernetes strategic merge patch: built-in kinds only. */
    STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json"),
    /** Server-side apply ({@code application/apply-patch+yaml}). */
    APPLY_PATCH("application/apply-patch+yaml");

    final String mediaType;

    PatchType(String mediaType) {
      this.mediaType = mediaType;
    }

    /** The type named by a Content-Type header (parameters ignored), or empty. */
    static Optional<PatchType> of(String contentType) {
      if (contentType == null) {
        return Optional.empty();
      }
      String base = contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
      for (PatchType t : values()) {
        if (t.mediaType.equals(base)) {
          return Optional.of(t);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * RFC 7386 JSON merge patch: objects merge recursively, {@code null} removes a member, anything
   * else (arrays included) replaces the target value.
   *
   * @param target the current document (not modified)
   * @param patch the merge patch
   * @return the patched document
   */
  static JsonNode mergePatch(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode out = target instanceof ObjectNode o ? (ObjectNode) o.deepCopy() : Json.object();
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      if (e.getValue().isNull()) {
        out.remove(e.getKey());
      } else {
        out.set(e.getKey(), mergePatch(out.get(e.getKey()), e.getValue()));
      }
    }
    return out;
  }

  /**
   * RFC 6902 JSON patch.
   *
   * @param target the current document (not modified)
   * @param operations the operations array
   * @return the patched document
   * @throws IllegalArgumentException with a one-line reason when an operation does not apply (a
   *     missing path, a failed {@code test}, a malformed operation)
   */
  static JsonNode jsonPatch(JsonNode target, JsonNode operations) {
    if (!operations.isArray()) {
      throw new IllegalArgumentException("a JSON patch must be an array of operations");
    }
    try {
      return JsonPatch.apply(operations, target);
    } catch (JsonPatchException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("invalid JSON patch: " + e.getMessage(), e);
    }
  }

  /**
   * A strategic merge patch read as a merge patch: the {@code $patch}, {@code $retainKeys}, {@code
   * $setElementOrder/...} and {@code $deleteFromPrimitiveList/...} directives are dropped (lists
   * are therefore replaced, not merged by key). Good enough for the built-in kinds kubectl patches
   * here (namespaces, config maps).
   */
  static JsonNode withoutDirectives(JsonNode patch) {
    if (patch.isObject()) {
      ObjectNode out = Json.object();
      for (Map.Entry<String, JsonNode> e : patch.properties()) {
        if (!e.getKey().startsWith("$")) {
          out.set(e.getKey(), withoutDirectives(e.getValue()));
        }
      }
      return out;
    }
    if (patch.isArray()) {
      ArrayNode out = Json.MAPPER.createArrayNode();
      for (JsonNode n : new ArrayList<>(patch.values())) {
        out.add(withoutDirectives(n));
      }
      return out;
    }
    return patch;
  }
}
