package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.http.MockResponse;
import tools.jackson.databind.node.ObjectNode;

/** {@code meta/v1 Status} error responses as a real API server writes them. */
final class StatusBodies {
  private StatusBodies() {}

  static final String JSON = "application/json";

  /** A JSON response. */
  static MockResponse json(int code, String body) {
    return new MockResponse().setResponseCode(code).setHeader("Content-Type", JSON).setBody(body);
  }

  /**
   * A failure Status.
   *
   * @param code HTTP code (also {@code .code})
   * @param reason machine reason, e.g. {@code NotFound}
   * @param message one-line human message
   * @param kind details kind (resource), may be null
   * @param name details name, may be null
   */
  static MockResponse failure(int code, String reason, String message, String kind, String name) {
    return json(code, Json.write(status(code, reason, message, kind, name)));
  }

  static ObjectNode status(int code, String reason, String message, String kind, String name) {
    ObjectNode s = Json.object();
    s.put("kind", "Status");
    s.put("apiVersion", "v1");
    s.putObject("metadata");
    s.put("status", "Failure");
    s.put("message", message);
    s.put("reason", reason);
    if (kind != null || name != null) {
      ObjectNode d = s.putObject("details");
      if (name != null) {
        d.put("name", name);
      }
      if (kind != null) {
        d.put("kind", kind);
      }
    }
    s.put("code", code);
    return s;
  }

  /** 404 {@code RESOURCE.GROUP "name" not found}. */
  static MockResponse notFound(ApiPath p, String name) {
    return failure(
        404, "NotFound", p.qualifiedResource() + " \"" + name + "\" not found", p.resource(), name);
  }

  /** 404 {@code namespaces "ns" not found}, as the NamespaceLifecycle admission answers. */
  static MockResponse namespaceNotFound(String namespace) {
    return failure(
        404, "NotFound", "namespaces \"" + namespace + "\" not found", "namespaces", namespace);
  }

  /** 404 for a path no resource serves. */
  static MockResponse noSuchResource() {
    return failure(404, "NotFound", "the server could not find the requested resource", null, null);
  }

  /** 415 for a body the server does not read (protobuf, strategic merge patch on a CR, ...). */
  static MockResponse unsupportedMediaType(String contentType, String accepted) {
    return failure(
        415,
        "UnsupportedMediaType",
        "the body of the request was in an unknown format ("
            + contentType
            + ") - accepted media types include: "
            + accepted,
        null,
        null);
  }

  static MockResponse badRequest(String message) {
    return failure(400, "BadRequest", message, null, null);
  }
}
