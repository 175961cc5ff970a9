package org.sandboxslo.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.Kind;

/**
 * What the embedded API server does for fabric8 clients (the controller, the collector, the
 * console); DESIGN.md quotes these facts.
 */
class EmbeddedApiServerTest {
  static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      ops(KubernetesClient c, Kind k) {
    return c.genericKubernetesResources(
        new ResourceDefinitionContext.Builder()
            .withGroup(k.group())
            .withVersion(Kind.VERSION)
            .withKind(k.kindName())
            .withPlural(k.plural())
            .withNamespaced(true)
            .build());
  }

  static GenericKubernetesResource sandbox(String ns, String name, String generateName) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(Kind.SANDBOX.apiVersion())
        .withKind("Sandbox")
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .withGenerateName(generateName)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("operatingMode", "Running")))
        .build();
  }

  @Test
  void registersTheFourCrdsWithStatusAndSetsServerSideMetadata() {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0)) {
      assertTrue(api.url().startsWith("http://127.0.0.1:"));
      KubernetesClient c = api.client();
      List<CustomResourceDefinition> crds =
          c.apiextensions().v1().customResourceDefinitions().list().getItems();
      assertEquals(
          List.of(
              "sandboxclaims.extensions.agents.x-k8s.io",
              "sandboxes.agents.x-k8s.io",
              "sandboxtemplates.extensions.agents.x-k8s.io",
              "sandboxwarmpools.extensions.agents.x-k8s.io"),
          crds.stream().map(d -> d.getMetadata().getName()).sorted().toList());
      CustomResourceDefinition pools =
          crds.stream()
              .filter(d -> d.getSpec().getNames().getKind().equals("SandboxWarmPool"))
              .findFirst()
              .orElseThrow();
      assertEquals(
          ".spec.replicas",
          pools.getSpec().getVersions().get(0).getSubresources().getScale().getSpecReplicasPath());
      assertEquals("Namespaced", pools.getSpec().getScope());
      // the status a real API server gives an accepted CRD
      assertEquals(List.of("v1beta1"), pools.getStatus().getStoredVersions());
      assertEquals(List.of("swp"), pools.getStatus().getAcceptedNames().getShortNames());
      assertEquals(
          List.of("NamesAccepted=True", "Established=True"),
          pools.getStatus().getConditions().stream()
              .map(x -> x.getType() + "=" + x.getStatus())
              .toList());
      // namespaces exist from the start
      assertEquals(
          List.of("default", "demo", "kube-public", "kube-system"),
          c.namespaces().list().getItems().stream()
              .map(n -> n.getMetadata().getName())
              .sorted()
              .toList());

      c.namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName("x").endMetadata().build())
          .create();
      assertEquals("Active", c.namespaces().withName("x").get().getStatus().getPhase());
      GenericKubernetesResource created =
          ops(c, Kind.SANDBOX).inNamespace("x").resource(sandbox("x", null, "p-")).create();
      // the store sets uid, resourceVersion, generation and creationTimestamp (RFC3339, seconds)
      assertNotNull(created.getMetadata().getUid());
      assertNotNull(created.getMetadata().getResourceVersion());
      assertEquals(1L, created.getMetadata().getGeneration());
      assertTrue(
          created
              .getMetadata()
              .getCreationTimestamp()
              .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
      // generateName: <prefix>-<uid> rather than 5 random characters
      assertEquals("p--" + created.getMetadata().getUid(), created.getMetadata().getName());
      String name = created.getMetadata().getName();

      // status subresource: a status patch leaves generation alone
      GenericKubernetesResource withStatus =
          ops(c, Kind.SANDBOX)
              .inNamespace("x")
              .withName(name)
              .subresource("status")
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"status\":{\"conditions\":[{\"type\":\"A\"}],\"nodeName\":\"n1\"}}");
      assertEquals(1L, withStatus.getMetadata().getGeneration());
      // RFC 7386: a list is replaced, null removes a member
      GenericKubernetesResource replaced =
          ops(c, Kind.SANDBOX)
              .inNamespace("x")
              .withName(name)
              .subresource("status")
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"status\":{\"conditions\":[{\"type\":\"B\"}],\"nodeName\":null}}");
      assertEquals(
          Map.of("conditions", List.of(Map.of("type", "B"))),
          replaced.getAdditionalProperties().get("status"));
      // a spec merge patch bumps generation and keeps the status
      GenericKubernetesResource suspended =
          ops(c, Kind.SANDBOX)
              .inNamespace("x")
              .withName(name)
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"spec\":{\"operatingMode\":\"Suspended\"}}");
      assertEquals(2L, suspended.getMetadata().getGeneration());
      assertEquals(
          Map.of("operatingMode", "Suspended"), suspended.getAdditionalProperties().get("spec"));
      assertEquals(
          replaced.getAdditionalProperties().get("status"),
          suspended.getAdditionalProperties().get("status"));

      // optimistic locking: a stale resourceVersion is a 409
      GenericKubernetesResource stale = c.getKubernetesSerialization().clone(created);
      stale.getMetadata().setLabels(Map.of("x", "y"));
      KubernetesClientException e =
          assertThrows(
              KubernetesClientException.class,
              () -> ops(c, Kind.SANDBOX).inNamespace("x").resource(stale).update());
      assertEquals(409, e.getCode());
      assertNotEquals(
          created.getMetadata().getResourceVersion(), replaced.getMetadata().getResourceVersion());

      // delete is immediate: no finalizers, no deletionTimestamp phase, no garbage collector
      GenericKubernetesResource child = sandbox("x", "child", null);
      child
          .getMetadata()
          .setOwnerReferences(
              List.of(
                  new OwnerReferenceBuilder()
                      .withApiVersion(Kind.SANDBOX.apiVersion())
                      .withKind("Sandbox")
                      .withName(name)
                      .withUid(created.getMetadata().getUid())
                      .withController(true)
                      .build()));
      ops(c, Kind.SANDBOX).inNamespace("x").resource(child).create();
      ops(c, Kind.SANDBOX).inNamespace("x").withName(name).delete();
      assertNull(ops(c, Kind.SANDBOX).inNamespace("x").withName(name).get());
      assertNotNull(
          ops(c, Kind.SANDBOX).inNamespace("x").withName("child").get(), "no GC in the store");
    }
  }

  @Test
  void refusesObjectsInAMissingNamespace() {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0)) {
      KubernetesClient c = api.client();
      KubernetesClientException e =
          assertThrows(
              KubernetesClientException.class,
              () ->
                  ops(c, Kind.SANDBOX)
                      .inNamespace("nowhere")
                      .resource(sandbox("nowhere", "s", null))
                      .create());
      assertEquals(404, e.getCode());
      assertEquals("namespaces \"nowhere\" not found", e.getStatus().getMessage());
      assertEquals(List.of(), ops(c, Kind.SANDBOX).inAnyNamespace().list().getItems());
    }
  }

  @Test
  void rejectsABadPort() {
    assertEquals(
        "port must be in 0..65535, got -1",
        assertThrows(IllegalArgumentException.class, () -> EmbeddedApiServer.start(-1))
            .getMessage());
  }
}
