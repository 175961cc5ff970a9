package org.sandboxslo.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;

/** The demo fleet applies on the embedded API server, twice without error. */
class DemoManifestsTest {
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
}
