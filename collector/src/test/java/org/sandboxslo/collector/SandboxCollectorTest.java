package org.sandboxslo.collector;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;

/**
 * The collector against the fabric8 mock API server in CRUD mode with the upstream CRDs. One mock
 * server per test (instance field): closing a watch while the mock is still sending on it blocks
 * the mock's event loop for 30 s (its close handler waits for the pending write, which needs that
 * same loop), so a test must never inherit a mock another test may have wedged on teardown.
 */
@EnableKubernetesMockClient(crud = true)
class SandboxCollectorTest {
  KubernetesClient client;

  private static final Instant NOW = Instant.parse("2026-09-01T10:00:00Z");
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final List<FleetEvent> events = new CopyOnWriteArrayList<>();
  private SandboxCollector collector;

  /** The collector's namespace (null = all) and its objects per kind when it started. */
  private String scope;

  private final Map<Kind, Integer> atStart = new java.util.EnumMap<>(Kind.class);

  @BeforeEach
  void installCrds() throws IOException {
    Path crds = CaseFiles.shared().resolve("upstream/agent-sandbox/k8s/crds");
    try (Stream<Path> files = Files.list(crds)) {
      for (Path p : files.sorted().toList()) {
        CustomResourceDefinition crd =
            client.apiextensions().v1().customResourceDefinitions().load(p.toFile()).item();
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
    }
  }

  @AfterEach
  void stop() {
    if (collector != null) {
      awaitReplayed(); // see the class comment
      collector.close();
    }
  }

  private SandboxCollector start(String namespace, Consumer<FleetEvent> sink) {
    scope = namespace;
    for (Kind k : Kind.values()) {
      atStart.put(k, count(k));
    }
    CollectorConfig cfg =
        CollectorConfig.fromMap(
            namespace == null
                ? Map.of()
                : Map.of(
                    CollectorConfig.NAMESPACES, namespace, CollectorConfig.RESYNC_PERIOD, "0s"));
    collector = new SandboxCollector(client, cfg, sink, Clock.fixed(NOW, ZoneOffset.UTC));
    collector.start();
    return collector;
  }

  private SandboxCollector start(String namespace) {
    return start(namespace, events::add);
  }

  GenericKubernetesResource create(Kind kind, String ns, String yaml) {
    GenericKubernetesResource r =
        client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    return client
        .genericKubernetesResources(SandboxCollector.context(kind))
        .inNamespace(ns)
        .resource(r)
        .create();
  }

  GenericKubernetesResource template(String ns, String name) {
    return create(
        Kind.SANDBOX_TEMPLATE,
        ns,
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxTemplate
        metadata: {name: %s, namespace: %s}
        spec:
          podTemplate:
            spec:
              containers: [{name: main, image: "python:3.12"}]
        """
            .formatted(name, ns));
  }

  GenericKubernetesResource pool(String ns, String name, String template) {
    return create(
        Kind.SANDBOX_WARM_POOL,
        ns,
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxWarmPool
        metadata: {name: %s, namespace: %s}
        spec: {replicas: 2, sandboxTemplateRef: {name: %s}}
        """
            .formatted(name, ns, template));
  }

  GenericKubernetesResource sandbox(String ns, String name, String pool, String poolUid) {
    return create(
        Kind.SANDBOX,
        ns,
        """
        apiVersion: agents.x-k8s.io/v1beta1
        kind: Sandbox
        metadata:
          name: %s
          namespace: %s
          labels: {agents.x-k8s.io/launch-type: warm, agents.x-k8s.io/created-by: controller}
          ownerReferences:
          - {apiVersion: extensions.agents.x-k8s.io/v1beta1, kind: SandboxWarmPool, name: %s, uid: %s, controller: true}
        spec:
          podTemplate:
            spec:
              containers: [{name: main, image: "python:3.12"}]
        """
            .formatted(name, ns, pool, poolUid));
  }

  GenericKubernetesResource claim(String ns, String name, String pool) {
    String ref = pool == null ? "" : "warmPoolRef: {name: " + pool + "}";
    return create(
        Kind.SANDBOX_CLAIM,
        ns,
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxClaim
        metadata: {name: %s, namespace: %s, labels: {agents.x-k8s.io/created-by: python-client}}
        spec: {%s}
        """
            .formatted(name, ns, ref));
  }

  private List<FleetEvent.Upserted> upserts(String ns, String name) {
    return events.stream()
        .filter(
            e ->
                e instanceof FleetEvent.Upserted u
                    && u.view().ref().equals(new ObjectRef(ns, name)))
        .map(e -> (FleetEvent.Upserted) e)
        .toList();
  }

  private FleetEvent.Upserted awaitUpsert(String ns, String name, String rv) {
    return await()
        .atMost(WAIT)
        .until(
            () ->
                upserts(ns, name).stream()
                    .filter(u -> rv == null || rv.equals(u.view().resourceVersion()))
                    .findFirst()
                    .orElse(null),
            u -> u != null);
  }

  private int indexOf(FleetEvent e) {
    return events.indexOf(e);
  }

  @Test
  void deliversViewsSyncedPerKindUpdatesAndDeletes() {
    String ns = "t-basic";
    GenericKubernetesResource tpl = template(ns, "tpl-py");
    GenericKubernetesResource pool = pool(ns, "pool-py", "tpl-py");

    start(ns);
    await().atMost(WAIT).until(collector::hasSynced);
    for (Kind k : Kind.values()) {
      assertEquals(
          1,
          events.stream().filter(e -> e.equals(new FleetEvent.Synced(k, NOW))).count(),
          k.name());
      assertTrue(collector.syncState().get(k));
    }
    // objects listed before the start arrive before their kind's Synced
    FleetEvent.Upserted tplEvent = awaitUpsert(ns, "tpl-py", null);
    assertTrue(indexOf(tplEvent) < indexOf(new FleetEvent.Synced(Kind.SANDBOX_TEMPLATE, NOW)));
    TemplateView tv = (TemplateView) tplEvent.view();
    assertEquals(tpl.getMetadata().getUid(), tv.uid());
    assertEquals(tpl.getMetadata().getResourceVersion(), tv.resourceVersion());
    assertEquals(List.of("python:3.12"), tv.images());
    assertEquals(NOW, tplEvent.receivedAt());
    assertEquals(
        ObjectViews.parseTime(tpl.getMetadata().getCreationTimestamp()), tplEvent.serverTime());

    PoolView pv = (PoolView) awaitUpsert(ns, "pool-py", null).view();
    assertEquals("tpl-py", pv.templateName());
    assertEquals(2, pv.replicas());
    assertNull(pv.statusReplicas());

    // created after the sync
    GenericKubernetesResource sbx =
        sandbox(ns, "pool-py-a1", "pool-py", pool.getMetadata().getUid());
    SandboxView sv = (SandboxView) awaitUpsert(ns, "pool-py-a1", null).view();
    assertEquals(
        new OwnerView("SandboxWarmPool", "pool-py", pool.getMetadata().getUid()), sv.owner());
    assertEquals("warm", sv.launchType());
    assertTrue(sv.ownedByPool("pool-py"));
    assertEquals(sbx.getMetadata().getUid(), sv.uid());

    GenericKubernetesResource c = claim(ns, "claim-1", "pool-py");
    ClaimView cv = (ClaimView) awaitUpsert(ns, "claim-1", null).view();
    assertEquals("pool-py", cv.warmPoolName());
    assertEquals("python-client", cv.createdBy());
    assertNull(cv.ready());

    // status update: the claim becomes Ready
    GenericKubernetesResource ready =
        client
            .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
            .inNamespace(ns)
            .withName("claim-1")
            .editStatus(
                r -> {
                  r.setAdditionalProperty(
                      "status",
                      Map.of(
                          "conditions",
                          List.of(
                              Map.of(
                                  "type", "Ready",
                                  "status", "True",
                                  "reason", "DependenciesReady",
                                  "lastTransitionTime", "2026-09-01T09:59:58Z"))));
                  return r;
                });
    ClaimView readyView =
        (ClaimView) awaitUpsert(ns, "claim-1", ready.getMetadata().getResourceVersion()).view();
    assertTrue(readyView.isReady());
    assertEquals(Instant.parse("2026-09-01T09:59:58Z"), readyView.readyAt());

    // delete
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
        .inNamespace(ns)
        .withName("claim-1")
        .delete();
    FleetEvent.Deleted expected =
        new FleetEvent.Deleted(
            Kind.SANDBOX_CLAIM, new ObjectRef(ns, "claim-1"), c.getMetadata().getUid(), NOW);
    await().atMost(WAIT).until(() -> events.contains(expected));

    assertTrue(collector.ingestErrors().isEmpty(), collector.ingestErrors().toString());
    assertEquals(3L, collector.eventsReceived().get(Kind.SANDBOX_CLAIM)); // add, update, delete
    assertEquals(1L, collector.eventsReceived().get(Kind.SANDBOX_TEMPLATE));
  }

  @Test
  void malformedClaimIsCountedAndSkippedWhileLaterObjectsArrive() {
    String ns = "t-malformed";
    start(ns);
    await().atMost(WAIT).until(collector::hasSynced);
    claim(ns, "no-pool-ref", null);
    claim(ns, "good", "pool-py");
    awaitUpsert(ns, "good", null);
    assertEquals(
        Map.of(new IngestError(Kind.SANDBOX_CLAIM, "spec.warmPoolRef.name missing"), 1L),
        collector.ingestErrors());
    assertTrue(upserts(ns, "no-pool-ref").isEmpty());
  }

  @Test
  void sinkFailureIsCountedAndDoesNotStopTheInformer() {
    String ns = "t-sink";
    start(
        ns,
        e -> {
          if (e instanceof FleetEvent.Upserted u && u.view().ref().name().equals("boom")) {
            throw new IllegalStateException("sink broke");
          }
          events.add(e);
        });
    await().atMost(WAIT).until(collector::hasSynced);
    claim(ns, "boom", "pool-py");
    claim(ns, "after", "pool-py");
    awaitUpsert(ns, "after", null);
    assertEquals(Map.of(new IngestError(Kind.SANDBOX_CLAIM, "sink"), 1L), collector.ingestErrors());
  }

  @Test
  void relistDeliversTheSameObjectsAgainWithIdenticalUidAndResourceVersion() {
    String ns = "t-relist";
    template(ns, "tpl-a");
    pool(ns, "pool-a", "tpl-a");
    claim(ns, "claim-a", "pool-a");
    GenericKubernetesResource doomed = claim(ns, "claim-doomed", "pool-a");
    start(ns);
    await().atMost(WAIT).until(collector::hasSynced);
    Set<String> before = keys(events);
    assertEquals(
        Set.of(
            "tpl-a@" + rv(ns, Kind.SANDBOX_TEMPLATE, "tpl-a"),
            "pool-a@" + rv(ns, Kind.SANDBOX_WARM_POOL, "pool-a"),
            "claim-a@" + rv(ns, Kind.SANDBOX_CLAIM, "claim-a"),
            "claim-doomed@" + rv(ns, Kind.SANDBOX_CLAIM, "claim-doomed")),
        before.stream().map(s -> s.substring(s.indexOf(' ') + 1)).collect(Collectors.toSet()));

    events.clear();
    awaitReplayed();
    collector.relist();
    assertFalse(collector.hasSynced());
    await().atMost(WAIT).until(collector::hasSynced);
    for (Kind k : Kind.values()) {
      assertEquals(
          1, events.stream().filter(new FleetEvent.Synced(k, NOW)::equals).count(), k.name());
    }
    // every object comes again with identical uid + resourceVersion (the engine dedupes them),
    // flagged as listed: their age is not watch lag
    assertEquals(before, keys(events));
    assertTrue(
        events.stream()
            .filter(e -> e instanceof FleetEvent.Upserted)
            .allMatch(e -> ((FleetEvent.Upserted) e).listed()));
    assertTrue(events.stream().noneMatch(e -> e instanceof FleetEvent.Deleted));

    // an object deleted while no informer watched is reported once the new informer has synced
    events.clear();
    suspendAndLetTheMockSettle(ns);
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
        .inNamespace(ns)
        .withName("claim-doomed")
        .delete();
    collector.resumeWatches();
    await().atMost(WAIT).until(collector::hasSynced);
    FleetEvent.Deleted gone =
        new FleetEvent.Deleted(
            Kind.SANDBOX_CLAIM,
            new ObjectRef(ns, "claim-doomed"),
            doomed.getMetadata().getUid(),
            NOW,
            true); // found gone by the re-list: its final state is unknown
    assertEquals(1, events.stream().filter(gone::equals).count());
    // and it comes after the survivors were re-listed, before the kind's Synced
    assertTrue(
        events.indexOf(gone) < events.indexOf(new FleetEvent.Synced(Kind.SANDBOX_CLAIM, NOW)));
    assertEquals(
        before.stream().filter(s -> !s.contains("claim-doomed")).collect(Collectors.toSet()),
        keys(events));

    // deleted and re-created under the same name while nothing watched: the old UID's Deleted
    // comes before the new object's Upserted (the engine keys objects by namespace/name)
    events.clear();
    String oldUid =
        client
            .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
            .inNamespace(ns)
            .withName("claim-a")
            .get()
            .getMetadata()
            .getUid();
    suspendAndLetTheMockSettle(ns);
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
        .inNamespace(ns)
        .withName("claim-a")
        .delete();
    GenericKubernetesResource reborn = claim(ns, "claim-a", "pool-a");
    collector.resumeWatches();
    await().atMost(WAIT).until(collector::hasSynced);
    FleetEvent.Deleted oldGone =
        new FleetEvent.Deleted(Kind.SANDBOX_CLAIM, new ObjectRef(ns, "claim-a"), oldUid, NOW, true);
    FleetEvent.Upserted newOne = awaitUpsert(ns, "claim-a", null);
    assertEquals(reborn.getMetadata().getUid(), newOne.view().uid());
    assertEquals(1, events.stream().filter(oldGone::equals).count());
    assertTrue(events.indexOf(oldGone) < events.indexOf(newOne));
  }

  @Test
  void informerStoreHoldsTrimmedObjects() {
    String ns = "t-trim";
    claim(ns, "claim-t", "pool-t");
    start(ns);
    await().atMost(WAIT).until(collector::hasSynced);
    List<GenericKubernetesResource> stored = collector.storedItems(Kind.SANDBOX_CLAIM);
    assertEquals(1, stored.size());
    GenericKubernetesResource item = stored.get(0);
    assertEquals("claim-t", item.getMetadata().getName());
    assertEquals(ns, item.getMetadata().getNamespace());
    assertEquals(rv(ns, Kind.SANDBOX_CLAIM, "claim-t"), item.getMetadata().getResourceVersion());
    assertTrue(item.getMetadata().getUid() != null && !item.getMetadata().getUid().isEmpty());
    assertNull(item.getAdditionalProperties().get("spec"));
    assertNull(item.getAdditionalProperties().get("status"));
    assertTrue(item.getMetadata().getLabels() == null || item.getMetadata().getLabels().isEmpty());
    // while the view built from the watch event is complete
    assertEquals("pool-t", ((ClaimView) awaitUpsert(ns, "claim-t", null).view()).warmPoolName());
  }

  @Test
  void watchesOnlyTheConfiguredNamespaces() {
    claim("t-other", "elsewhere", "pool-x");
    claim("t-mine", "mine", "pool-x");
    start("t-mine");
    await().atMost(WAIT).until(collector::hasSynced);
    awaitUpsert("t-mine", "mine", null);
    assertTrue(upserts("t-other", "elsewhere").isEmpty());
  }

  @Test
  void allNamespacesByDefault() {
    claim("t-all-1", "c1", "pool-x");
    claim("t-all-2", "c2", "pool-x");
    start(null);
    await().atMost(WAIT).until(collector::hasSynced);
    awaitUpsert("t-all-1", "c1", null);
    awaitUpsert("t-all-2", "c2", null);
  }

  /**
   * Mock-server limit: its watch listener's close handler blocks the mock's only event loop until
   * pending event sends finish (up to 1 min), so a change racing the close of a watch can wedge the
   * mock. suspendWatches() waits for the informers to stop; one read afterwards is queued behind
   * the close frames, so the mock has processed them before the test changes anything.
   */
  private void suspendAndLetTheMockSettle(String ns) {
    awaitReplayed();
    collector.suspendWatches();
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
        .inNamespace(ns)
        .list();
  }

  /**
   * Waits until the mock has re-sent (and the informers received) every object of the namespace as
   * it does when a watch starts, so closing the watches cannot race a pending send.
   */
  private void awaitReplayed() {
    for (Kind k : Kind.values()) {
      long n = Math.min(atStart.get(k), count(k));
      await().atMost(WAIT).until(() -> collector.sameVersionWrites(k) >= n);
    }
  }

  /** Objects of a kind in the collector's scope (its namespace, or all). */
  private int count(Kind k) {
    var op = client.genericKubernetesResources(SandboxCollector.context(k));
    return (scope == null ? op.inAnyNamespace().list() : op.inNamespace(scope).list())
        .getItems()
        .size();
  }

  private String rv(String ns, Kind kind, String name) {
    return client
        .genericKubernetesResources(SandboxCollector.context(kind))
        .inNamespace(ns)
        .withName(name)
        .get()
        .getMetadata()
        .getResourceVersion();
  }

  /** "uid name@rv" of every Upserted. */
  private static Set<String> keys(List<FleetEvent> evs) {
    return evs.stream()
        .filter(e -> e instanceof FleetEvent.Upserted)
        .map(e -> ((FleetEvent.Upserted) e).view())
        .map(v -> v.uid() + " " + v.ref().name() + "@" + v.resourceVersion())
        .collect(Collectors.toSet());
  }
}
