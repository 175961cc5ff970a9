package org.sandboxslo.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class DiscoveryTest {
  static List<JsonNode> ourCrds() {
    return EmbeddedApiServer.crds().stream()
        .map(c -> (JsonNode) Json.MAPPER.valueToTree(c))
        .toList();
  }

  @Test
  void versionsOrderLikeKubernetes() {
    List<String> v =
        new ArrayList<>(List.of("v1alpha1", "foo", "v1beta1", "v2", "v1", "v1beta2", "v10alpha1"));
    v.sort(Discovery.KUBE_VERSION_ORDER);
    assertEquals(List.of("v2", "v1", "v1beta2", "v1beta1", "v10alpha1", "v1alpha1", "foo"), v);
  }

  @Test
  void groupVersionListsResourcesWithShortNamesAndSubresources() {
    Discovery d = Discovery.of(ourCrds());
    JsonNode list = d.resourceList("extensions.agents.x-k8s.io", "v1beta1").orElseThrow();
    List<String> names =
        list.path("resources").valueStream().map(r -> r.path("name").asString()).toList();
    assertEquals(
        List.of(
            "sandboxtemplates",
            "sandboxtemplates/status",
            "sandboxwarmpools",
            "sandboxwarmpools/status",
            "sandboxwarmpools/scale",
            "sandboxclaims",
            "sandboxclaims/status"),
        names);
    JsonNode pools = list.path("resources").get(2);
    assertEquals(Json.parse("[\"swp\"]"), pools.path("shortNames"));
    assertEquals(true, pools.path("namespaced").asBoolean());
    assertEquals(
        Json.parse(
            "[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]"),
        pools.path("verbs"));
    JsonNode scale = list.path("resources").get(4);
    assertEquals("autoscaling", scale.path("group").asString());
    assertEquals("Scale", scale.path("kind").asString());
    assertEquals(true, d.resourceList("extensions.agents.x-k8s.io", "v1alpha1").isEmpty());
  }

  @Test
  void groupsPreferTheHighestServedVersion() {
    // an upstream-like CRD serving v1beta1 (storage) and v1alpha1
    JsonNode crd =
        Json.parse(
            """
            {"spec":{"group":"agents.x-k8s.io","scope":"Namespaced",
              "names":{"kind":"Sandbox","plural":"sandboxes","singular":"sandbox","shortNames":["sandbox"]},
              "versions":[{"name":"v1alpha1","served":true,"storage":false},
                          {"name":"v1beta1","served":true,"storage":true,
                           "subresources":{"status":{}}},
                          {"name":"v1","served":false,"storage":false}]}}
            """);
    Discovery d = Discovery.of(List.of(crd));
    JsonNode g = d.group("agents.x-k8s.io").orElseThrow();
    assertEquals("v1beta1", g.path("preferredVersion").path("version").asString());
    assertEquals(
        List.of("agents.x-k8s.io/v1beta1", "agents.x-k8s.io/v1alpha1"),
        g.path("versions").valueStream().map(v -> v.path("groupVersion").asString()).toList());
    JsonNode all = d.groupList();
    assertEquals(
        List.of("apps", "coordination.k8s.io", "apiextensions.k8s.io", "agents.x-k8s.io"),
        all.path("groups").valueStream().map(x -> x.path("name").asString()).toList());
  }
}
