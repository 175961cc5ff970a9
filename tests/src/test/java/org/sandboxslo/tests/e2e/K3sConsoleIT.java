package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.controller.ControllerLite;
import org.sandboxslo.controller.ControllerLiteConfig;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.server.wiring.ConsoleProcess;
import org.sandboxslo.server.wiring.KubeClients;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The console in {@code watch} mode and controller-lite against a real API server: k3s through
 * Testcontainers, with the upstream agent-sandbox CRDs ({@code shared.dir}/upstream/agent-sandbox/
 * k8s/crds, real schemas and status subresources) instead of the demo's minimal ones. Where Docker
 * is absent (these machines and CI) the class is skipped cleanly; the same flow runs against the
 * embedded API server in {@link WatchModeE2E}.
 */
@Testcontainers(disabledWithoutDocker = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class K3sConsoleIT {
  @Container
  static final K3sContainer K3S =
      new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));

  @TempDir static Path dir;
  KubernetesClient admin;
  ControllerLite controller;
  ConsoleProcess app;

  @BeforeAll
  void start() throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, K3S.getKubeConfigYaml());
    admin = KubeClients.forKubeconfig(kubeconfig, null);
    Path crds =
        Path.of(System.getProperty("shared.dir", "../../shared"))
            .resolve("upstream/agent-sandbox/k8s/crds");
    try (DirectoryStream<Path> files = Files.newDirectoryStream(crds, "*.yaml")) {
      for (Path f : files) {
        try (InputStream in = Files.newInputStream(f)) {
          CustomResourceDefinition crd =
              admin.apiextensions().v1().customResourceDefinitions().load(in).item();
          admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
          admin
              .apiextensions()
              .v1()
              .customResourceDefinitions()
              .withName(crd.getMetadata().getName())
              .waitUntilCondition(
                  c ->
                      c.getStatus() != null
                          && c.getStatus().getConditions().stream()
                              .anyMatch(
                                  x ->
                                      x.getType().equals("Established")
                                          && x.getStatus().equals("True")),
                  60,
                  java.util.concurrent.TimeUnit.SECONDS);
        }
      }
    }
    DemoManifests.apply(admin);
    controller =
        new ControllerLite(
            admin,
            ControllerLiteConfig.fromMap(
                Map.of(
                    "sloconsole.controller.cold-start-p50", "200ms",
                    "sloconsole.controller.cold-start-p95", "400ms")));
    controller.start();
    Map<String, String> settings = new HashMap<>(Demo.settings(dir));
    settings.remove("sloconsole.app.kubeconfig");
    settings.put("sloconsole.collector.namespaces", "demo");
    app = ConsoleProcess.watch(settings, KubeClients.forKubeconfig(kubeconfig, null));
    Demo.awaitReady(app);
  }

  @AfterAll
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {app, controller, admin}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // stopping anyway
      }
    }
  }

  @Test
  void aClaimOnAFullPoolIsServedWarmAndCounted() throws Exception {
    await()
        .atMost(Duration.ofSeconds(120))
        .ignoreExceptions()
        .until(
            () ->
                Http.get(Demo.api(app, "/api/v1/pools/demo/node-runtime-pool"))
                        .json()
                        .path("pool")
                        .path("readyFractionCurrentTemplate")
                        .asDouble()
                    == 1.0);
    admin
        .resource(
            Http.JSON.readValue(
                """
                {"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxClaim",
                 "metadata":{"name":"k3s-claim","namespace":"demo"},
                 "spec":{"warmPoolRef":{"name":"node-runtime-pool"}}}
                """,
                GenericKubernetesResource.class))
        .create();
    await()
        .atMost(Duration.ofSeconds(120))
        .untilAsserted(
            () -> {
              JsonNode t = Http.get(Demo.api(app, "/api/v1/templates/demo/node-runtime")).json();
              assertEquals(1, t.get("windows").get("1h").get("warmLaunches").asLong());
            });
  }
}
