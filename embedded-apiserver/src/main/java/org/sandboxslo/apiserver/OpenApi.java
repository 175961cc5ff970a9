package org.sandboxslo.apiserver;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAPI documents, enough for kubectl: {@code /openapi/v2} is an empty Swagger 2.0 document
 * (kubectl downloads it before client-side validation and for strategic merge patches; with no
 * definitions it validates nothing and falls back to JSON merge patch for custom resources), and
 * {@code /openapi/v3} lists one document per CRD group version with the CRD schemas, so {@code
 * kubectl explain} works. The PATCH operations accept JSON patch, merge patch and apply patch but
 * not strategic merge patch, as for real custom resources.
 */
final class OpenApi {
  private OpenApi() {}

  /** Media type of the protobuf Swagger document (as the API server labels it). */
  static final String V2_PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

  /**
   * The empty Swagger 2.0 document as the gnostic {@code openapi_v2.Document} protobuf: swagger =
   * 1, info = 2 (title = 1, version = 2), paths = 8.
   */
  static byte[] v2Protobuf(String kubernetesVersion) {
    ByteArrayOutputStream info = new ByteArrayOutputStream();
    field(info, 1, "Kubernetes".getBytes(StandardCharsets.UTF_8));
    field(info, 2, kubernetesVersion.getBytes(StandardCharsets.UTF_8));
    ByteArrayOutputStream doc = new ByteArrayOutputStream();
    field(doc, 1, "2.0".getBytes(StandardCharsets.UTF_8));
    field(doc, 2, info.toByteArray());
    field(doc, 8, new byte[0]);
    return doc.toByteArray();
  }

  /** The same empty document as JSON. */
  static ObjectNode v2Json(String kubernetesVersion) {
    ObjectNode d = Json.object();
    d.put("swagger", "2.0");
    d.putObject("info").put("title", "Kubernetes").put("version", kubernetesVersion);
    d.putObject("paths");
    d.putObject("definitions");
    return d;
  }

  private static void field(ByteArrayOutputStream out, int number, byte[] value) {
    out.write(number << 3 | 2); // length-delimited; field numbers < 16 fit in one byte
    int len = value.length;
    while (len >= 0x80) {
      out.write(len & 0x7f | 0x80);
      len >>>= 7;
    }
    out.write(len);
    out.writeBytes(value);
  }

  /** {@code /openapi/v3}: the group versions of the stored CRDs, each with its document URL. */
  static ObjectNode v3Index(List<JsonNode> crds) {
    ObjectNode o = Json.object();
    ObjectNode paths = o.putObject("paths");
    for (Map.Entry<String, ObjectNode> e : v3Documents(crds).entrySet()) {
      String hash = Integer.toHexString(Json.write(e.getValue()).hashCode());
      paths
          .putObject(e.getKey())
          .put("serverRelativeURL", "/openapi/v3/" + e.getKey() + "?hash=" + hash);
    }
    return o;
  }

  /** {@code /openapi/v3/apis/GROUP/VERSION}, or empty when no CRD serves it. */
  static Optional<ObjectNode> v3Document(List<JsonNode> crds, String groupVersionPath) {
    return Optional.ofNullable(v3Documents(crds).get(groupVersionPath));
  }

  private static Map<String, ObjectNode> v3Documents(List<JsonNode> crds) {
    Map<String, ObjectNode> docs = new LinkedHashMap<>();
    for (JsonNode crd : crds) {
      JsonNode spec = crd.path("spec");
      String group = spec.path("group").asString("");
      JsonNode names = spec.path("names");
      String kind = names.path("kind").asString("");
      String plural = names.path("plural").asString("");
      boolean namespaced = !"Cluster".equals(spec.path("scope").asString("Namespaced"));
      for (JsonNode v : spec.path("versions")) {
        if (!v.path("served").asBoolean(false)) {
          continue;
        }
        String version = v.path("name").asString("");
        ObjectNode doc =
            docs.computeIfAbsent(
                "apis/" + group + "/" + version,
                k -> {
                  ObjectNode d = Json.object();
                  d.put("openapi", "3.0.0");
                  d.putObject("info")
                      .put("title", "Kubernetes CRD Swagger")
                      .put("version", "v0.1.0");
                  d.putObject("paths");
                  d.putObject("components").putObject("schemas");
                  return d;
                });
        String schemaName = reverseDomain(group) + "." + version + "." + kind;
        ObjectNode gvk =
            Json.object().put("group", group).put("version", version).put("kind", kind);
        JsonNode declared = v.path("schema").path("openAPIV3Schema");
        ObjectNode schema =
            declared.isObject()
                ? (ObjectNode) declared.deepCopy()
                : Json.object().put("type", "object");
        if (!schema.has("description")) {
          schema.put(
              "description",
              kind + " (" + group + "/" + version + "), served by the embedded API server.");
        }
        ObjectNode props = schema.withObjectProperty("properties");
        props.putObject("apiVersion").put("type", "string");
        props.putObject("kind").put("type", "string");
        props.putObject("metadata").put("type", "object");
        schema.putArray("x-kubernetes-group-version-kind").add(gvk.deepCopy());
        ((ObjectNode) doc.path("components").path("schemas")).set(schemaName, schema);

        String base =
            "/apis/"
                + group
                + "/"
                + version
                + (namespaced ? "/namespaces/{namespace}/" : "/")
                + plural
                + "/{name}";
        ObjectNode ref = Json.object().put("$ref", "#/components/schemas/" + schemaName);
        ObjectNode item = ((ObjectNode) doc.path("paths")).putObject(base);
        ObjectNode get = item.putObject("get");
        get.put("operationId", "read" + kind);
        get.set("x-kubernetes-group-version-kind", gvk.deepCopy());
        get.putObject("responses")
            .putObject("200")
            .put("description", "OK")
            .putObject("content")
            .putObject("application/json")
            .set("schema", ref.deepCopy());
        ObjectNode patch = item.putObject("patch");
        patch.put("operationId", "patch" + kind);
        patch.set("x-kubernetes-group-version-kind", gvk.deepCopy());
        ObjectNode content = patch.putObject("requestBody").putObject("content");
        for (String mt :
            List.of(
                "application/json-patch+json",
                "application/merge-patch+json",
                "application/apply-patch+yaml")) {
          content.putObject(mt).putObject("schema").put("type", "object");
        }
        patch
            .putObject("responses")
            .putObject("200")
            .put("description", "OK")
            .putObject("content")
            .putObject("application/json")
            .set("schema", ref.deepCopy());
      }
    }
    return docs;
  }

  /** {@code extensions.agents.x-k8s.io} → {@code io.x-k8s.agents.extensions}. */
  static String reverseDomain(String group) {
    List<String> parts = new ArrayList<>(List.of(group.split("\\.")));
    java.util.Collections.reverse(parts);
    return String.join(".", parts);
  }
}
