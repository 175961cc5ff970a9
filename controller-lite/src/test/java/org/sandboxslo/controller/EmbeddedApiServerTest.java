package org.sandboxslo.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;

/** What the embedded API server (fabric8 mock, CRUD mode) does; DESIGN.md quotes these facts. */
class EmbeddedApiServerTest {
  @Test
  void registersTheFourCrdsAndSetsServerSideMetadata() {
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

      GenericKubernetesResource r = Resources.newObject(Kind.SANDBOX, "x");
      r.getMetadata().setGenerateName("p-");
      r.setAdditionalProperty("spec", Map.of("operatingMode", "Running"));
      GenericKubernetesResource created =
          Resources.ops(c, Kind.SANDBOX).inNamespace("x").resource(r).create();
      // the mock sets uid, resourceVersion, generation and creationTimestamp (RFC3339, seconds)
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

      // status subresource: a status patch leaves generation alone
      GenericKubernetesResource withStatus =
          Resources.ops(c, Kind.SANDBOX)
              .inNamespace("x")
              .withName(created.getMetadata().getName())
              .subresource("status")
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"status\":{\"conditions\":[{\"type\":\"A\"}]}}");
      assertEquals(1L, withStatus.getMetadata().getGeneration());
      // merge patch APPENDS lists here (RFC 7386 says replace): controller-lite writes status with
      // JSON Patch
      GenericKubernetesResource appended =
          Resources.ops(c, Kind.SANDBOX)
              .inNamespace("x")
              .withName(created.getMetadata().getName())
              .subresource("status")
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"status\":{\"conditions\":[{\"type\":\"B\"}]}}");
      assertEquals(2, Resources.list(Resources.status(appended), "conditions").size());

      // optimistic locking: a stale resourceVersion is a 409
      GenericKubernetesResource stale = c.getKubernetesSerialization().clone(created);
      stale.getMetadata().getLabels().put("x", "y");
      KubernetesClientException e =
          assertThrows(
              KubernetesClientException.class,
              () -> Resources.ops(c, Kind.SANDBOX).inNamespace("x").resource(stale).update());
      assertEquals(409, e.getCode());
      assertNotEquals(
          created.getMetadata().getResourceVersion(), appended.getMetadata().getResourceVersion());

      // delete is immediate: no finalizers, no deletionTimestamp phase, no garbage collector
      GenericKubernetesResource child = Resources.newObject(Kind.SANDBOX, "x");
      child.getMetadata().setName("child");
      child.getMetadata().setOwnerReferences(List.of(Resources.ownerRefTo(created)));
      Resources.ops(c, Kind.SANDBOX).inNamespace("x").resource(child).create();
      Resources.ops(c, Kind.SANDBOX)
          .inNamespace("x")
          .withName(created.getMetadata().getName())
          .delete();
      assertEquals(
          null,
          Resources.ops(c, Kind.SANDBOX)
              .inNamespace("x")
              .withName(created.getMetadata().getName())
              .get());
      assertNotNull(
          Resources.ops(c, Kind.SANDBOX).inNamespace("x").withName("child").get(),
          "no GC in the mock");
    }
  }

  @Test
  void demoManifestsApplyIdempotently() {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0)) {
      KubernetesClient c = api.client();
      List<HasMetadata> first = DemoManifests.apply(c);
      List<HasMetadata> second = DemoManifests.apply(c);
      assertEquals(10, first.size());
      assertEquals(
          first.stream().map(m -> m.getKind() + "/" + m.getMetadata().getName()).toList(),
          second.stream().map(m -> m.getKind() + "/" + m.getMetadata().getName()).toList());
      GenericKubernetesResource gpu =
          Resources.ops(c, Kind.SANDBOX_WARM_POOL)
              .inNamespace("demo")
              .withName("gpu-trainer-pool")
              .get();
      assertEquals(0, Resources.spec(gpu).get("replicas"));
      GenericKubernetesResource nb =
          Resources.ops(c, Kind.SANDBOX_TEMPLATE)
              .inNamespace("demo")
              .withName("data-notebook")
              .get();
      assertEquals("Allowed", Resources.spec(nb).get("envVarsInjectionPolicy"));
      assertEquals("Allowed", Resources.spec(nb).get("volumeClaimTemplatesPolicy"));
      assertEquals(
          List.of(
              "demo/python-runtime-pool",
              "demo/node-runtime-pool",
              "demo/data-notebook-pool",
              "demo/gpu-trainer-pool",
              "demo/legacy-tools-pool"),
          DemoManifests.POOLS);
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
