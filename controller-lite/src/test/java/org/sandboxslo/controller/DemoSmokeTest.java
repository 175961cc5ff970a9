package org.sandboxslo.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.controller.api.Resources;
import org.sandboxslo.engine.model.Kind;

class DemoSmokeTest {
  @Test
  void demoPoolsFill() {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0)) {
      KubernetesClient c = api.client();
      DemoManifests.apply(c);
      ControllerLiteConfig cfg = ControllerLiteConfig.fromMap(Map.of(
          ControllerLiteConfig.COLD_START_P50, "50ms", ControllerLiteConfig.COLD_START_P95, "100ms",
          ControllerLiteConfig.WARM_ADOPTION_P50, "10ms", ControllerLiteConfig.WARM_ADOPTION_P95, "20ms"));
      try (ControllerLite ctl = new ControllerLite(c, cfg)) {
        ctl.start();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
          GenericKubernetesResource p = Resources.ops(c, Kind.SANDBOX_WARM_POOL).inNamespace("demo").withName("python-runtime-pool").get();
          System.out.println("STATUS " + Resources.status(p));
          Resources.ops(c, Kind.SANDBOX).inNamespace("demo").list().getItems().stream().limit(1).forEach(s -> System.out.println("SB " + s));
          assertEquals(8, Resources.status(p).get("readyReplicas"));
        });
        for (GenericKubernetesResource s : Resources.ops(c, Kind.SANDBOX).inNamespace("demo").list().getItems()) {
          System.out.println("SB " + s.getMetadata().getName() + " " + s.getMetadata().getLabels() + " " + Resources.status(s));
          break;
        }
      }
    }
  }
}
