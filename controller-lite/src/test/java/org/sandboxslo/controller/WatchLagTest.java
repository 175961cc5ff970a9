package org.sandboxslo.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;

/** Injected watch lag: the controller sees a lost member late, so refill waits for the lag. */
class WatchLagTest {
  static int members(KubernetesClient c) {
    return Resources.ops(c, Kind.SANDBOX).inNamespace("lag").list().getItems().size();
  }

  @Test
  void refillWaitsForTheLaggingWatch() {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0)) {
      api.createNamespace("lag");
      KubernetesClient c = api.client();
      try (ControllerLite ctl =
          new ControllerLite(c, ControllerLiteConfig.fromMap(ControllerLiteTest.fastConfig()))) {
        ctl.start();
        assertThrows(
            IllegalArgumentException.class, () -> ctl.setWatchDelay(Duration.ofSeconds(-1)));
        Resources.ops(c, Kind.SANDBOX_TEMPLATE)
            .inNamespace("lag")
            .resource(
                json(
                    """
            {"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxTemplate","metadata":{"name":"t","namespace":"lag"},
             "spec":{"podTemplate":{"spec":{"containers":[{"name":"m","image":"img:1"}]}}}}"""))
            .create();
        Resources.ops(c, Kind.SANDBOX_WARM_POOL)
            .inNamespace("lag")
            .resource(
                json(
                    """
            {"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxWarmPool","metadata":{"name":"p","namespace":"lag"},
             "spec":{"replicas":3,"sandboxTemplateRef":{"name":"t"}}}"""))
            .create();
        await().atMost(Duration.ofSeconds(60)).until(() -> members(c) == 3);
        ctl.setWatchDelay(Duration.ofSeconds(5));
        String victim =
            Resources.ops(c, Kind.SANDBOX)
                .inNamespace("lag")
                .list()
                .getItems()
                .get(0)
                .getMetadata()
                .getName();
        Resources.ops(c, Kind.SANDBOX).inNamespace("lag").withName(victim).delete();
        // the controller has not seen the delete yet: no replacement while the watch lags
        await()
            .during(Duration.ofSeconds(3))
            .atMost(Duration.ofSeconds(4))
            .until(() -> members(c) == 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> members(c) == 3);
        ctl.setWatchDelay(Duration.ZERO);
        assertEquals(3, members(c));
      }
    }
  }

  static GenericKubernetesResource json(String s) {
    return io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
        s, GenericKubernetesResource.class);
  }
}
