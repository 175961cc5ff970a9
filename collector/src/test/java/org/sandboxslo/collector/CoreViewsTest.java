package org.sandboxslo.collector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.ContainerStatusView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.IdentityProbe;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PodView;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** core/v1 Pod and Event, the controller Deployment, CRDs and probe bodies → engine records. */
class CoreViewsTest {
  static final Instant NOW = Instant.parse("2026-09-01T10:00:00Z");

  @SuppressWarnings("unchecked")
  static Map<String, Object> yaml(String text) {
    return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
  }

  static final String POD =
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: pool-py-b1
        namespace: team-a
        uid: pod-1
        resourceVersion: "42"
        creationTimestamp: "2026-09-01T10:05:02Z"
        labels:
          agents.x-k8s.io/sandbox-name-hash: 1a2b3c4d
        annotations:
          podsnapshot.gke.io/ps-name: golden-1
        ownerReferences:
        - {apiVersion: agents.x-k8s.io/v1beta1, kind: Sandbox, name: pool-py-b1, uid: sb-1, controller: true}
      spec:
        nodeName: node-1
      status:
        phase: Pending
        conditions:
        - {type: Ready, status: "False", reason: ContainersNotReady, lastTransitionTime: "2026-09-01T10:05:03Z"}
        initContainerStatuses:
        - name: init
          ready: true
          restartCount: 0
          state: {terminated: {reason: Completed, exitCode: 0}}
        containerStatuses:
        - name: main
          image: python-runtime:3.13-typo
          ready: false
          restartCount: 0
          state:
            waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image "python-runtime:3.13-typo"'}
        - name: sidecar
          ready: false
          restartCount: 5
          state: {waiting: {reason: CrashLoopBackOff, message: back-off 2m40s}}
          lastState: {terminated: {reason: Error, exitCode: 1}}
      """;

  @Test
  void podWithPullAndCrashLoopIsTrimmedToItsEvidence() {
    PodView p = CoreViews.pod(yaml(POD));
    assertEquals(new ObjectRef("team-a", "pool-py-b1"), p.ref());
    assertEquals("pool-py-b1", p.sandboxName());
    assertEquals("1a2b3c4d", p.sandboxNameHash());
    assertEquals("golden-1", p.snapshot());
    assertEquals("Pending", p.phase());
    assertEquals(3, p.containers().size());
    assertTrue(p.containers().get(0).init());
    assertEquals(5, p.restarts());
    assertEquals(
        List.of("ImagePullBackOff", "CrashLoopBackOff"),
        p.failingContainers().stream().map(ContainerStatusView::waitingReason).toList());
    assertEquals(
        "sidecar: CrashLoopBackOff (restarts 5, last exit 1 Error) — back-off 2m40s",
        p.containers().get(2).describe());
    assertEquals("False", p.ready().status());
    assertTrue(CoreViews.handles(yaml(POD)));
    FleetEvent.PodDeleted d = (FleetEvent.PodDeleted) CoreViews.toEvent(yaml(POD), true, NOW);
    assertEquals("pod-1", d.uid());
  }

  @Test
  void coreAndEventsV1EventsAreRead() {
    var core =
        CoreViews.event(
            yaml(
                """
                apiVersion: v1
                kind: Event
                metadata: {name: pool-py-b1.17f, namespace: team-a, uid: e1}
                involvedObject: {kind: Pod, name: pool-py-b1}
                type: Warning
                reason: Failed
                message: 'Failed to pull image "python-runtime:3.13-typo": not found'
                count: 7
                lastTimestamp: "2026-09-01T10:06:00Z"
                """));
    assertEquals("Pod", core.involvedKind());
    assertEquals(7, core.count());
    assertTrue(core.isWarning());
    assertEquals(Instant.parse("2026-09-01T10:06:00Z"), core.lastSeen());
    var v1 =
        CoreViews.event(
            yaml(
                """
                apiVersion: events.k8s.io/v1
                kind: Event
                metadata: {name: e2, namespace: team-a}
                regarding: {kind: SandboxWarmPool, name: pool-py}
                type: Warning
                reason: WarmPoolNotProgressing
                note: 3 members unschedulable
                series: {count: 4, lastObservedTime: "2026-09-01T10:07:00.250000Z"}
                """));
    assertEquals("SandboxWarmPool", v1.involvedKind());
    assertEquals("3 members unschedulable", v1.message());
    assertEquals(4, v1.count());
    assertNull(
        CoreViews.toEvent(yaml("kind: Event\nmetadata: {name: x, namespace: a}\n"), true, NOW));
    MalformedObjectException e =
        assertThrows(
            MalformedObjectException.class,
            () -> CoreViews.event(yaml("kind: Event\nmetadata: {name: x, namespace: a}\n")));
    assertEquals("Event a/x: involvedObject: missing", e.getMessage());
  }

  @Test
  void controllerDeploymentAndCrds() {
    var d =
        CoreViews.deployment(
            yaml(
                """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: agent-sandbox-controller, namespace: agent-sandbox-system}
                spec:
                  template:
                    spec:
                      containers:
                      - name: kube-rbac-proxy
                        image: quay.io/brancz/kube-rbac-proxy:v0.18.0
                      - name: manager
                        image: registry.k8s.io/agent-sandbox/agent-sandbox-controller:v0.5.1
                        command: [/manager]
                        args: [--extensions, --sandbox-warm-pool-max-refill-rate=0, --sandbox-warm-pool-concurrent-workers=2]
                """));
    assertEquals(
        List.of(
            "/manager",
            "--extensions",
            "--sandbox-warm-pool-max-refill-rate=0",
            "--sandbox-warm-pool-concurrent-workers=2"),
        d.args());
    assertEquals(2, d.warmPoolWorkers());
    assertNull(
        CoreViews.deployment(
            yaml(
                "kind: Deployment\nmetadata: {name: web, namespace: a}\n"
                    + "spec: {template: {spec: {containers: [{name: web, image: nginx}]}}}\n")));
    var crd =
        CoreViews.crd(
            yaml(
                """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: sandboxes.agents.x-k8s.io}
                spec:
                  versions:
                  - {name: v1alpha1, served: true, storage: false}
                  - {name: v1beta1, served: true, storage: true}
                status:
                  storedVersions: [v1alpha1, v1beta1]
                """));
    assertEquals(List.of("v1alpha1", "v1beta1"), crd.storedVersions());
    assertEquals("v1beta1", crd.storageVersion());
  }

  @Test
  void probeBodiesParseOrFailOnOneLine() {
    IdentityProbe p =
        CoreViews.probe(
            yaml(
                """
                sandbox: team-a/s1
                snapshot: golden-1
                arch: x86_64
                kernel: 5.15.0
                vmgenidPresent: false
                bootId: 6f1c
                randomSampleHash: sha256:ab12
                probeDelay: 800ms
                """),
            NOW);
    assertEquals(new ObjectRef("team-a", "s1"), p.sandbox());
    assertEquals(Boolean.FALSE, p.vmgenidPresent());
    assertEquals(Duration.ofMillis(800), p.probeDelay());
    assertEquals(NOW, p.observedAt());
    IdentityProbe q =
        CoreViews.probe(
            Map.of(
                "namespace",
                "team-a",
                "name",
                "s2",
                "randomSampleHash",
                "h",
                "probeDelay",
                1.5,
                "observedAt",
                "2026-09-01T10:00:05Z"),
            NOW);
    assertEquals(Duration.ofMillis(1500), q.probeDelay());
    assertEquals(Instant.parse("2026-09-01T10:00:05Z"), q.observedAt());
    assertEquals(
        "IdentityProbe team-a/s1: randomSampleHash: missing",
        assertThrows(
                MalformedObjectException.class,
                () -> CoreViews.probe(Map.of("sandbox", "team-a/s1"), NOW))
            .getMessage());
    assertEquals(
        "IdentityProbe <unnamed>: sandbox: expected namespace/name, got 's1'",
        assertThrows(
                MalformedObjectException.class,
                () -> CoreViews.probe(Map.of("sandbox", "s1", "randomSampleHash", "h"), NOW))
            .getMessage());
    assertEquals(
        "IdentityProbe team-a/s1: vmgenidPresent: not a boolean",
        assertThrows(
                MalformedObjectException.class,
                () ->
                    CoreViews.probe(
                        Map.of(
                            "sandbox",
                            "team-a/s1",
                            "randomSampleHash",
                            "h",
                            "vmgenidPresent",
                            "no"),
                        NOW))
            .getMessage());
  }
}
