package org.sandboxslo.apiserver;

import java.util.List;

/**
 * One resource (group, version, plural) as discovery lists it and as tables and subresources need
 * it. Built from a stored CRD version, or one of the fixed built-in kinds.
 *
 * @param group API group, empty for core
 * @param version served version
 * @param kind kind name, e.g. {@code SandboxWarmPool}
 * @param plural resource name, e.g. {@code sandboxwarmpools}
 * @param singular singular name (lower case)
 * @param namespaced true for namespaced kinds
 * @param shortNames short names, e.g. {@code swp} (empty allowed)
 * @param categories categories, e.g. {@code all} (empty allowed)
 * @param status true when the status subresource is enabled
 * @param scale the scale subresource, or null
 * @param columns additional printer columns (empty: the default Age column)
 * @param custom true for a CRD-defined resource (no strategic merge patch)
 */
record ServedResource(
    String group,
    String version,
    String kind,
    String plural,
    String singular,
    boolean namespaced,
    List<String> shortNames,
    List<String> categories,
    boolean status,
    Scale scale,
    List<Column> columns,
    boolean custom) {

  ServedResource {
    shortNames = List.copyOf(shortNames);
    categories = List.copyOf(categories);
    columns = List.copyOf(columns);
  }

  /** The verbs every resource here supports. */
  static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  String groupVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /**
   * The scale subresource's JSON paths (dotted, e.g. {@code .spec.replicas}).
   *
   * @param specReplicasPath desired replicas
   * @param statusReplicasPath observed replicas
   * @param labelSelectorPath selector string, may be null
   */
  record Scale(String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {}

  /**
   * An additional printer column.
   *
   * @param name header
   * @param type {@code string}, {@code integer}, {@code number}, {@code boolean} or {@code date}
   * @param format OpenAPI format, may be empty
   * @param description column description, may be empty
   * @param priority 0 = shown by default, higher = {@code -o wide}
   * @param jsonPath simple JSONPath, e.g. {@code .status.conditions[?(@.type=='Ready')].status}
   */
  record Column(
      String name, String type, String format, String description, int priority, String jsonPath) {}
}
