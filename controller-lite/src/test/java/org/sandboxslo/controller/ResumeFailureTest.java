package org.sandboxslo.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;

class ResumeFailureTest {
  @Test
  void resumeFailsWithReconcilerErrorWhenProbabilityIsOne() {
    Map<String, String> cfg = new HashMap<>(ControllerLiteTest.fastConfig());
    cfg.put(ControllerLiteConfig.RESUME_FAILURE_PROBABILITY, "1");
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0);
        ControllerLite ctl = new ControllerLite(api.client(), ControllerLiteConfig.fromMap(cfg))) {
      ctl.start();
      KubernetesClient c = api.client();
      api.createNamespace("resume");
      GenericKubernetesResource sb = Resources.newObject(Kind.SANDBOX, "resume");
      sb.getMetadata().setName("fragile");
      sb.setAdditionalProperty(
          "spec",
          Map.of(
              "operatingMode",
              "Suspended",
              "podTemplate",
              Map.of(
                  "spec", Map.of("containers", List.of(Map.of("name", "c", "image", "busybox"))))));
      Resources.ops(c, Kind.SANDBOX).inNamespace("resume").resource(sb).create();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  Resources.isTrue(
                      Resources.ops(c, Kind.SANDBOX)
                          .inNamespace("resume")
                          .withName("fragile")
                          .get(),
                      "Suspended"));
      // merge patch without resourceVersion: the controller writes status concurrently
      Resources.ops(c, Kind.SANDBOX)
          .inNamespace("resume")
          .withName("fragile")
          .patch(
              io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                  io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
              "{\"spec\":{\"operatingMode\":\"Running\"}}");
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                GenericKubernetesResource s =
                    Resources.ops(c, Kind.SANDBOX).inNamespace("resume").withName("fragile").get();
                assertEquals("ReconcilerError", Resources.condition(s, "Ready").get("reason"));
                assertEquals("False", Resources.condition(s, "Ready").get("status"));
                assertEquals("NotSuspended", Resources.condition(s, "Suspended").get("reason"));
              });
    }
  }
}
