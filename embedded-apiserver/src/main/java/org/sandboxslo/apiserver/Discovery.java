package org.sandboxslo.apiserver;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * API discovery as kubectl and client-go read it (the legacy, non-aggregated documents): {@code
 * /api} (APIVersions), {@code /apis} (APIGroupList), {@code /apis/GROUP} (APIGroup) and {@code
 * /api/v1}, {@code /apis/GROUP/VERSION} (APIResourceList with verbs, short names, categories, scope
 * and the status / scale subresources). Served resources are a fixed set of built-in kinds plus
 * every served version of every stored CRD; an instance is a snapshot of one moment.
 */
final class Discovery {
  private static final List<String> SUBRESOURCE_VERBS = List.of("get", "patch", "update");

  /** The built-in kinds discovery lists (the mock stores any other kind too, unlisted). */
  static final List<ServedResource> BUILT_IN =
      List.of(
          builtIn(
              "",
              "v1",
              "Namespace",
              "namespaces",
              false,
              List.of("ns"),
              List.of(),
              true,
              List.of(
                  new ServedResource.Column(
                      "Status", "string", "", "The status of the namespace", 0, ".status.phase"),
                  Tables.AGE)),
          builtIn("", "v1", "ConfigMap", "configmaps", true, List.of("cm"), List.of(), false),
          builtIn("", "v1", "Secret", "secrets", true, List.of(), List.of(), false),
          builtIn("", "v1", "Service", "services", true, List.of("svc"), List.of("all"), true),
          builtIn("", "v1", "Pod", "pods", true, List.of("po"), List.of("all"), true),
          builtIn("", "v1", "Event", "events", true, List.of("ev"), List.of(), false),
          builtIn(
              "", "v1", "ServiceAccount", "serviceaccounts", true, List.of("sa"), List.of(), false),
          builtIn(
              "apps",
              "v1",
              "Deployment",
              "deployments",
              true,
              List.of("deploy"),
              List.of("all"),
              true),
          builtIn(
              "coordination.k8s.io", "v1", "Lease", "leases", true, List.of(), List.of(), false),
          builtIn(
              "apiextensions.k8s.io",
              "v1",
              "CustomResourceDefinition",
              "customresourcedefinitions",
              false,
              List.of("crd", "crds"),
              List.of("api-extensions"),
              true,
              List.of(
                  new ServedResource.Column(
                      "Created At", "string", "", "", 0, ".metadata.creationTimestamp"))));

  private final List<ServedResource> resources;

  Discovery(List<ServedResource> resources) {
    this.resources = List.copyOf(resources);
  }

  /** Built-ins plus the resources of the given CRD objects (JSON trees as stored). */
  static Discovery of(List<JsonNode> crds) {
    List<ServedResource> out = new ArrayList<>(BUILT_IN);
    for (JsonNode crd : crds) {
      out.addAll(fromCrd(crd));
    }
    return new Discovery(out);
  }

  /** Every served version of one CRD; malformed parts read as absent. */
  static List<ServedResource> fromCrd(JsonNode crd) {
    JsonNode spec = crd.path("spec");
    JsonNode names = spec.path("names");
    String group = spec.path("group").asString("");
    String kind = names.path("kind").asString("");
    String plural = names.path("plural").asString("");
    if (group.isEmpty() || kind.isEmpty() || plural.isEmpty()) {
      return List.of();
    }
    String singular = names.path("singular").asString(kind.toLowerCase(java.util.Locale.ROOT));
    boolean namespaced = !"Cluster".equals(spec.path("scope").asString("Namespaced"));
    List<ServedResource> out = new ArrayList<>();
    for (JsonNode v : spec.path("versions")) {
      if (!v.path("served").asBoolean(false)) {
        continue;
      }
      JsonNode sub = v.path("subresources");
      ServedResource.Scale scale = null;
      if (sub.has("scale")) {
        JsonNode s = sub.path("scale");
        scale =
            new ServedResource.Scale(
                s.path("specReplicasPath").asString(".spec.replicas"),
                s.path("statusReplicasPath").asString(".status.replicas"),
                s.path("labelSelectorPath").isString()
                    ? s.path("labelSelectorPath").asString()
                    : null);
      }
      List<ServedResource.Column> columns = new ArrayList<>();
      for (JsonNode c : v.path("additionalPrinterColumns")) {
        columns.add(
            new ServedResource.Column(
                c.path("name").asString(""),
                c.path("type").asString("string"),
                c.path("format").asString(""),
                c.path("description").asString(""),
                c.path("priority").asInt(0),
                c.path("jsonPath").asString("")));
      }
      out.add(
          new ServedResource(
              group,
              v.path("name").asString(""),
              kind,
              plural,
              singular,
              namespaced,
              strings(names.path("shortNames")),
              strings(names.path("categories")),
              sub.has("status"),
              scale,
              columns,
              true));
    }
    return out;
  }

  List<ServedResource> resources() {
    return resources;
  }

  /** The resource served at {@code group/version/plural}. */
  Optional<ServedResource> find(String group, String version, String plural) {
    return resources.stream()
        .filter(
            r ->
                r.group().equals(group) && r.version().equals(version) && r.plural().equals(plural))
        .findFirst();
  }

  /** {@code /api}: the core group's versions. */
  ObjectNode apiVersions(String serverAddress) {
    ObjectNode o = Json.object();
    o.put("kind", "APIVersions");
    o.putArray("versions").add("v1");
    ObjectNode cidr = o.putArray("serverAddressByClientCIDRs").addObject();
    cidr.put("clientCIDR", "0.0.0.0/0");
    cidr.put("serverAddress", serverAddress);
    return o;
  }

  /** {@code /apis}: every named group with its versions, preferred first. */
  ObjectNode groupList() {
    ObjectNode o = Json.object();
    o.put("kind", "APIGroupList");
    o.put("apiVersion", "v1");
    ArrayNode groups = o.putArray("groups");
    for (String g : groups()) {
      groups.add(group(g).orElseThrow());
    }
    return o;
  }

  /** {@code /apis/GROUP}, or empty when no resource is served in that group. */
  Optional<ObjectNode> group(String name) {
    List<String> versions = versions(name);
    if (name.isEmpty() || versions.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode g = Json.object();
    g.put("kind", "APIGroup");
    g.put("apiVersion", "v1");
    g.put("name", name);
    ArrayNode vs = g.putArray("versions");
    for (String v : versions) {
      vs.addObject().put("groupVersion", name + "/" + v).put("version", v);
    }
    g.putObject("preferredVersion")
        .put("groupVersion", name + "/" + versions.get(0))
        .put("version", versions.get(0));
    return Optional.of(g);
  }

  /**
   * {@code /api/v1} or {@code /apis/GROUP/VERSION}: the resources of one group version, each
   * followed by its subresources; empty when nothing is served there.
   */
  Optional<ObjectNode> resourceList(String group, String version) {
    List<ServedResource> rs =
        resources.stream()
            .filter(r -> r.group().equals(group) && r.version().equals(version))
            .toList();
    if (rs.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode o = Json.object();
    o.put("kind", "APIResourceList");
    o.put("apiVersion", "v1");
    o.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
    ArrayNode list = o.putArray("resources");
    for (ServedResource r : rs) {
      ObjectNode e = list.addObject();
      e.put("name", r.plural());
      e.put("singularName", r.singular());
      e.put("namespaced", r.namespaced());
      e.put("kind", r.kind());
      ServedResource.VERBS.forEach(e.putArray("verbs")::add);
      if (!r.shortNames().isEmpty()) {
        r.shortNames().forEach(e.putArray("shortNames")::add);
      }
      if (!r.categories().isEmpty()) {
        r.categories().forEach(e.putArray("categories")::add);
      }
      if (r.status()) {
        ObjectNode s = list.addObject();
        s.put("name", r.plural() + "/status");
        s.put("singularName", "");
        s.put("namespaced", r.namespaced());
        s.put("kind", r.kind());
        SUBRESOURCE_VERBS.forEach(s.putArray("verbs")::add);
      }
      if (r.scale() != null) {
        ObjectNode s = list.addObject();
        s.put("name", r.plural() + "/scale");
        s.put("singularName", "");
        s.put("namespaced", r.namespaced());
        s.put("group", "autoscaling");
        s.put("version", "v1");
        s.put("kind", "Scale");
        SUBRESOURCE_VERBS.forEach(s.putArray("verbs")::add);
      }
    }
    return Optional.of(o);
  }

  /** Named groups in order of first appearance (built-ins first). */
  List<String> groups() {
    Set<String> out = new LinkedHashSet<>();
    for (ServedResource r : resources) {
      if (!r.group().isEmpty()) {
        out.add(r.group());
      }
    }
    return List.copyOf(out);
  }

  /** Versions served in {@code group}, preferred (highest Kubernetes priority) first. */
  List<String> versions(String group) {
    Set<String> vs = new LinkedHashSet<>();
    for (ServedResource r : resources) {
      if (r.group().equals(group)) {
        vs.add(r.version());
      }
    }
    List<String> out = new ArrayList<>(vs);
    out.sort(KUBE_VERSION_ORDER);
    return out;
  }

  private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

  /**
   * Kubernetes version priority: GA before beta before alpha, higher numbers first; versions not of
   * the form {@code vN[alpha|betaM]} last, alphabetically.
   */
  static final Comparator<String> KUBE_VERSION_ORDER =
      Comparator.comparingInt((String v) -> rank(v)[0])
          .thenComparingInt(v -> -rank(v)[1])
          .thenComparingInt(v -> -rank(v)[2])
          .thenComparing(Comparator.naturalOrder());

  private static int[] rank(String v) {
    Matcher m = KUBE_VERSION.matcher(v);
    if (!m.matches()) {
      return new int[] {3, 0, 0};
    }
    int stability = m.group(2) == null ? 0 : m.group(2).equals("beta") ? 1 : 2;
    int minor = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
    return new int[] {stability, Integer.parseInt(m.group(1)), minor};
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : array) {
      if (n.isString()) {
        out.add(n.asString());
      }
    }
    return out;
  }

  private static ServedResource builtIn(
      String group,
      String version,
      String kind,
      String plural,
      boolean namespaced,
      List<String> shortNames,
      List<String> categories,
      boolean status) {
    return builtIn(
        group, version, kind, plural, namespaced, shortNames, categories, status, List.of());
  }

  private static ServedResource builtIn(
      String group,
      String version,
      String kind,
      String plural,
      boolean namespaced,
      List<String> shortNames,
      List<String> categories,
      boolean status,
      List<ServedResource.Column> columns) {
    return new ServedResource(
        group,
        version,
        kind,
        plural,
        kind.toLowerCase(java.util.Locale.ROOT),
        namespaced,
        shortNames,
        categories,
        status,
        null,
        columns,
        false);
  }

  /** Groups and versions keyed for the OpenAPI v3 index: {@code apis/GROUP/VERSION} → resources. */
  Map<String, List<ServedResource>> customByGroupVersion() {
    Map<String, List<ServedResource>> out = new LinkedHashMap<>();
    for (ServedResource r : resources) {
      if (r.custom()) {
        out.computeIfAbsent("apis/" + r.group() + "/" + r.version(), k -> new ArrayList<>()).add(r);
      }
    }
    return out;
  }
}
