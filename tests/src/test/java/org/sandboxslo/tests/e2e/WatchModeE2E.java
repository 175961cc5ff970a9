package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.controller.ControllerLite;
import org.sandboxslo.controller.ControllerLiteConfig;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.server.wiring.ConsoleProcess;
import org.sandboxslo.server.wiring.KubeClients;

/**
 * {@code watch} mode against a "cluster" the console does not own: an API server with the
 * agent-sandbox CRDs and a controller running elsewhere, reached through a kubeconfig file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WatchModeE2E {
  @TempDir static Path dir;
  EmbeddedApiServer cluster;
  ControllerLite controller;
  ConsoleProcess app;

  @BeforeAll
  void start() throws Exception {
    cluster = EmbeddedApiServer.start(0);
    DemoManifests.apply(cluster.client());
    Map<String, String> fast =
        Map.of(
            "sloconsole.controller.cold-start-p50",
            "200ms",
            "sloconsole.controller.cold-start-p95",
            "400ms");
    controller = new ControllerLite(cluster.client(), ControllerLiteConfig.fromMap(fast));
    controller.start();
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: test
          cluster: {server: "%s"}
        users:
        - name: test
          user: {token: test-token}
        contexts:
        - name: test
          context: {cluster: test, user: test, namespace: demo}
        current-context: test
        """
            .formatted(cluster.url()));
    Map<String, String> settings = new java.util.HashMap<>(Demo.settings(dir));
    settings.remove("sloconsole.app.kubeconfig"); // a demo key: watch mode rejects it
    settings.put("sloconsole.collector.resync-period", "0s");
    settings.put("sloconsole.collector.namespaces", "demo");
    // watch mode is production: reads need a caller unless anonymous reads are switched on
    settings.put("sloconsole.auth.anonymous-read", "true");
    app = ConsoleProcess.watch(settings, KubeClients.forKubeconfig(kubeconfig, "test"));
    Demo.awaitReady(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    if (controller != null) {
      controller.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void watchModeSeesTheClustersPoolsAndClaims() throws Exception {
    // claim only once the pool is full, so the claim is served warm
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(
            () ->
                Http.get(Demo.api(app, "/api/v1/pools/demo/node-runtime-pool"))
                        .json()
                        .path("pool")
                        .path("readyFractionCurrentTemplate")
                        .asDouble()
                    == 1.0);
    cluster
        .client()
        .resource(
            Http.JSON.readValue(
                """
        {"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxClaim",
         "metadata":{"name":"watched-claim","namespace":"demo"},
         "spec":{"warmPoolRef":{"name":"node-runtime-pool"}}}
        """,
                io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
        .create();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              JsonNode t = Http.get(Demo.api(app, "/api/v1/templates/demo/node-runtime")).json();
              assertEquals(1, t.get("windows").get("1h").get("warmLaunches").asLong());
              assertEquals(4, t.get("pool").get("replicas").asInt());
            });
  }

  @Test
  void aBadKubeconfigIsAOneLineError() throws Exception {
    Path bad = dir.resolve("bad-kubeconfig");
    Files.writeString(bad, "clusters: [");
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> KubeClients.forKubeconfig(bad, null));
    assertTrue(e.getMessage().startsWith("--kubeconfig " + bad + ": "), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }
}
