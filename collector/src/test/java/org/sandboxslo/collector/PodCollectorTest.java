package org.sandboxslo.collector;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.upstream.Labels;

/** The label-selected Pod informer against the fabric8 mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class PodCollectorTest {
  KubernetesClient client;
  private final List<FleetEvent> events = new CopyOnWriteArrayList<>();
  private PodCollector collector;

  @AfterEach
  void stop() {
    if (collector != null) {
      collector.close();
    }
  }

  static Pod pod(String name, boolean sandboxLabel) {
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("team-a")
            .addToAnnotations("podsnapshot.gke.io/ps-name", "golden-1")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("main")
            .withImage("img:2")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase("Pending")
            .addNewContainerStatus()
            .withName("main")
            .withRestartCount(0)
            .withNewState()
            .withNewWaiting()
            .withReason("ErrImagePull")
            .endWaiting()
            .endState()
            .endContainerStatus()
            .endStatus();
    if (sandboxLabel) {
      b.editMetadata().addToLabels(Labels.SANDBOX_NAME_HASH, "1a2b3c4d").endMetadata();
    }
    return b.build();
  }

  @Test
  void labelledPodsBecomeTrimmedViewsAndDeletes() {
    client.pods().inNamespace("team-a").resource(pod("sbx-1", true)).create();
    client.pods().inNamespace("team-a").resource(pod("web-1", false)).create();
    collector =
        new PodCollector(
            client,
            CollectorConfig.fromMap(java.util.Map.of()),
            events::add,
            Clock.fixed(Instant.parse("2026-09-01T10:00:00Z"), ZoneOffset.UTC));
    collector.start();
    await().atMost(Duration.ofSeconds(90)).until(() -> !events.isEmpty() && collector.hasSynced());
    FleetEvent.PodUpserted up = (FleetEvent.PodUpserted) events.get(0);
    assertEquals("sbx-1", up.pod().ref().name());
    assertEquals("golden-1", up.pod().snapshot());
    assertEquals("ErrImagePull", up.pod().failingContainers().get(0).waitingReason());
    // the informer's watch opens after its list: a delete in between is never replayed by the mock
    // server (a real API server would, from the list's resourceVersion); a second labelled Pod
    // arriving as an event proves the watch is open before the delete is sent
    client.pods().inNamespace("team-a").resource(pod("sbx-2", true)).create();
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                events.stream()
                    .anyMatch(
                        e ->
                            e instanceof FleetEvent.PodUpserted p
                                && p.pod().ref().name().equals("sbx-2")));
    client.pods().inNamespace("team-a").withName("sbx-1").delete();
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                events.stream()
                    .anyMatch(
                        e ->
                            e instanceof FleetEvent.PodDeleted d
                                && d.ref().name().equals("sbx-1")));
    assertTrue(
        events.stream()
            .noneMatch(
                e ->
                    e instanceof FleetEvent.PodUpserted p && p.pod().ref().name().equals("web-1")));
    assertEquals(java.util.Map.of(), collector.ingestErrors());
  }
}
