package org.sandboxslo.apiserver;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** YAML request bodies ({@code application/yaml}, apply patches), read by fabric8's serializer. */
final class Yaml {
  private Yaml() {}

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /**
   * One YAML document as a JSON tree.
   *
   * @throws IllegalArgumentException with a one-line reason when the text is not a YAML mapping
   */
  static JsonNode toJson(String yaml) {
    try {
      Map<?, ?> map = SERIALIZATION.unmarshal(yaml, Map.class);
      if (map == null) {
        throw new IllegalArgumentException("the YAML body is empty");
      }
      return Json.MAPPER.valueToTree(map);
    } catch (RuntimeException e) {
      if (e instanceof IllegalArgumentException i) {
        throw i;
      }
      throw new IllegalArgumentException("the body is not a YAML mapping: " + e.getMessage(), e);
    }
  }
}
