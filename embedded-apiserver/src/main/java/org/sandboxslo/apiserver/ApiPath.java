package org.sandboxslo.apiserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Kubernetes resource path, parsed: {@code /api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUB]]} or
 * {@code /apis/GROUP/VERSION/[namespaces/NS/]RESOURCE[/NAME[/SUB]]}. The namespace object itself is
 * {@code /api/v1/namespaces/NAME[/status|/finalize]}.
 *
 * @param group API group, empty for the core group
 * @param version API version, e.g. {@code v1beta1}
 * @param namespace namespace of a namespaced request, or null (cluster scope or all namespaces)
 * @param resource plural resource name, e.g. {@code sandboxwarmpools}
 * @param name object name, or null for a collection
 * @param subresource {@code status}, {@code scale}, ... or null
 */
record ApiPath(
    String group,
    String version,
    String namespace,
    String resource,
    String name,
    String subresource) {

  /**
   * Parses the path part of a request URI (no query).
   *
   * @return empty when the path is not a resource path (discovery, openapi, unknown)
   */
  static Optional<ApiPath> parse(String path) {
    List<String> s = new ArrayList<>();
    for (String p : path.split("/")) {
      if (!p.isEmpty()) {
        s.add(p);
      }
    }
    String group;
    String version;
    int rest;
    if (s.size() >= 3 && s.get(0).equals("api")) {
      group = "";
      version = s.get(1);
      rest = 2;
    } else if (s.size() >= 4 && s.get(0).equals("apis")) {
      group = s.get(1);
      version = s.get(2);
      rest = 3;
    } else {
      return Optional.empty();
    }
    List<String> r = s.subList(rest, s.size());
    if (r.get(0).equals("namespaces")) {
      if (r.size() == 1) {
        return Optional.of(new ApiPath(group, version, null, "namespaces", null, null));
      }
      if (r.size() == 2) {
        return Optional.of(new ApiPath(group, version, null, "namespaces", r.get(1), null));
      }
      if (r.size() == 3 && (r.get(2).equals("status") || r.get(2).equals("finalize"))) {
        return Optional.of(new ApiPath(group, version, null, "namespaces", r.get(1), r.get(2)));
      }
      if (r.size() > 5) {
        return Optional.empty();
      }
      return Optional.of(
          new ApiPath(
              group,
              version,
              r.get(1),
              r.get(2),
              r.size() > 3 ? r.get(3) : null,
              r.size() > 4 ? r.get(4) : null));
    }
    if (r.size() > 3) {
      return Optional.empty();
    }
    return Optional.of(
        new ApiPath(
            group,
            version,
            null,
            r.get(0),
            r.size() > 1 ? r.get(1) : null,
            r.size() > 2 ? r.get(2) : null));
  }

  /** {@code group/version}, or {@code v1} for the core group. */
  String groupVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** {@code RESOURCE.GROUP} as used in error messages ({@code namespaces} for the core group). */
  String qualifiedResource() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  /** The path of this object without subresource (requires a name). */
  String objectPath() {
    return prefix()
        + (namespace == null ? "" : "/namespaces/" + namespace)
        + "/"
        + resource
        + "/"
        + name;
  }

  /** The path of the collection this path is in (this namespace, or cluster scope). */
  String collectionPath() {
    return prefix() + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + resource;
  }

  /** This path without name and subresource. */
  ApiPath withoutName() {
    return new ApiPath(group, version, namespace, resource, null, null);
  }

  /** The path of this object's status subresource (requires a name). */
  String statusPath() {
    return objectPath() + "/status";
  }

  private String prefix() {
    return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
  }
}
