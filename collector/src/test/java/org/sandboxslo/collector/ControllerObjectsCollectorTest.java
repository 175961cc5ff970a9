package org.sandboxslo.collector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;

/** Reads of the controller Deployment and the CRDs against the fabric8 mock in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class ControllerObjectsCollectorTest {
  KubernetesClient client;
  private final List<FleetEvent> events = new CopyOnWriteArrayList<>();

  static Deployment controller(String ns, String name, String... args) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewTemplate()
        .withNewSpec()
        .addNewContainer()
        .withName("manager")
        .withImage("registry.k8s.io/agent-sandbox/agent-sandbox-controller:v0.5.2")
        .withArgs(args)
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  static CustomResourceDefinition crd(Kind k, String... stored) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(k.crdName())
        .endMetadata()
        .withNewSpec()
        .withGroup(k.group())
        .withScope("Namespaced")
        .withNewNames()
        .withKind(k.kindName())
        .withPlural(k.plural())
        .endNames()
        .addNewVersion()
        .withName("v1beta1")
        .withServed(true)
        .withStorage(true)
        .endVersion()
        .endSpec()
        .withNewStatus()
        .withStoredVersions(stored)
        .endStatus()
        .build();
  }

  ControllerObjectsCollector collector(Map<String, String> settings) {
    return new ControllerObjectsCollector(
        client,
        CollectorConfig.fromMap(settings),
        events::add,
        Clock.fixed(Instant.parse("2026-10-05T09:00:00Z"), ZoneOffset.UTC));
  }

  @Test
  void readsTheConfiguredDeploymentAndTheCrdsOncePerChange() {
    client
        .apps()
        .deployments()
        .inNamespace("sandbox-ops")
        .resource(
            controller(
                "sandbox-ops",
                "asc",
                "--extensions",
                "--sandbox-warm-pool-max-refill-rate=0",
                "--separate-watch-connection=false"))
        .create();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(crd(Kind.SANDBOX, "v1alpha1", "v1beta1"))
        .create();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(crd(Kind.SANDBOX_CLAIM, "v1beta1"))
        .create();
    // another Deployment under the default name is not read: the key names the one to read
    client
        .apps()
        .deployments()
        .inNamespace("agent-sandbox-system")
        .resource(controller("agent-sandbox-system", "agent-sandbox-controller", "--extensions"))
        .create();
    ControllerObjectsCollector c =
        collector(Map.of("sloconsole.collector.controller-deployment", "sandbox-ops/asc"));
    c.pollOnce();
    // 1 Deployment + the 2 CRDs that exist (the other two are missing, which is fine)
    assertEquals(3, events.size(), events.toString());
    FleetEvent.ControllerObserved d = (FleetEvent.ControllerObserved) events.get(0);
    assertEquals(new ObjectRef("sandbox-ops", "asc"), d.deployment().ref());
    assertEquals(0.0, d.deployment().maxRefillRate());
    assertEquals(false, d.deployment().separateWatchConnection());
    FleetEvent.CrdObserved sandboxes = (FleetEvent.CrdObserved) events.get(1);
    assertEquals("sandboxes.agents.x-k8s.io", sandboxes.crd().name());
    assertEquals(List.of("v1alpha1", "v1beta1"), sandboxes.crd().storedVersions());
    assertEquals(Instant.parse("2026-10-05T09:00:00Z"), sandboxes.receivedAt());

    // nothing changed: nothing sent again
    c.pollOnce();
    assertEquals(3, events.size());
    // the storage migration finished: only that CRD is sent again
    CustomResourceDefinition migrated = crd(Kind.SANDBOX, "v1beta1");
    client.apiextensions().v1().customResourceDefinitions().resource(migrated).update();
    c.pollOnce();
    assertEquals(4, events.size());
    assertEquals(
        List.of("v1beta1"), ((FleetEvent.CrdObserved) events.get(3)).crd().storedVersions());
    assertEquals(Map.of(), c.ingestErrors());
  }

  @Test
  void noDeploymentNoEventAndBadKeysAreRejected() {
    ControllerObjectsCollector c = collector(Map.of());
    c.pollOnce();
    assertTrue(events.isEmpty(), events.toString());
    assertEquals(
        "sloconsole.collector.controller-deployment: expected namespace/name, got 'asc'",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    CollectorConfig.fromMap(
                        Map.of("sloconsole.collector.controller-deployment", "asc")))
            .getMessage());
    assertEquals(
        "sloconsole.collector.controller-poll-interval must be >= 0, got PT-1S",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new CollectorConfig(
                        List.of(),
                        Duration.ZERO,
                        3,
                        CollectorConfig.DEFAULT_CONTROLLER_DEPLOYMENT,
                        Duration.ofSeconds(-1)))
            .getMessage());
    // a zero interval starts nothing
    ControllerObjectsCollector off =
        collector(Map.of("sloconsole.collector.controller-poll-interval", "0s"));
    off.start();
    off.close();
  }
}
