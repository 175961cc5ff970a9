package org.sandboxslo.apiserver;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The JSON trees the server works on (Jackson 3, as fabric8 8 uses). */
final class Json {
  private Json() {}

  static final ObjectMapper MAPPER = JsonMapper.builder().build();

  /**
   * Parses a JSON document.
   *
   * @throws IllegalArgumentException with a one-line message when the text is not JSON
   */
  static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text == null ? "" : text);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    }
  }

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static String write(JsonNode node) {
    return MAPPER.writeValueAsString(node);
  }

  /** {@code node.a.b.c} for a dotted path {@code .a.b.c}; a missing node when absent. */
  static JsonNode at(JsonNode node, String dottedPath) {
    JsonNode n = node;
    for (String p : dottedPath.split("\\.")) {
      if (!p.isEmpty()) {
        n = n.path(p);
      }
    }
    return n;
  }

  /** Sets {@code value} at a dotted path {@code .a.b}, creating objects on the way. */
  static void set(ObjectNode node, String dottedPath, JsonNode value) {
    String[] parts = dottedPath.replaceFirst("^\\.", "").split("\\.");
    ObjectNode n = node;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode next = n.get(parts[i]);
      n = next instanceof ObjectNode o ? o : n.putObject(parts[i]);
    }
    n.set(parts[parts.length - 1], value);
  }
}
