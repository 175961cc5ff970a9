package org.sandboxslo.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.Kind;

class EmbeddedApiServerTest {
  @Test
  void probe() {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0)) {
      KubernetesClient c = api.client();
      ResourceDefinitionContext rdc =
          new ResourceDefinitionContext.Builder()
              .withGroup(Kind.SANDBOX.group())
              .withVersion("v1beta1")
              .withKind("Sandbox")
              .withPlural("sandboxes")
              .withNamespaced(true)
              .build();
      GenericKubernetesResource r = new GenericKubernetesResource();
      r.setApiVersion(Kind.SANDBOX.apiVersion());
      r.setKind("Sandbox");
      r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withGenerateName("p-").withNamespace("x").build());
      r.setAdditionalProperty("spec", Map.of("a", 1));
      GenericKubernetesResource created = c.genericKubernetesResources(rdc).inNamespace("x").resource(r).create();
      System.out.println("PROBE " + created.getMetadata());
      r.getMetadata().setGenerateName(null);
      r.getMetadata().setName("named");
      created = c.genericKubernetesResources(rdc).inNamespace("x").resource(r).create();
      System.out.println("PROBE2 " + created.getMetadata());
      created.setAdditionalProperty("status", Map.of("x", "y"));
      GenericKubernetesResource st = c.genericKubernetesResources(rdc).inNamespace("x").resource(created).updateStatus();
      System.out.println("PROBE3 " + st.getMetadata() + st.getAdditionalProperties());
      assertNotNull(created.getMetadata().getUid());
    }
  }
}
