package org.sandboxslo.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.upstream.Blueprints;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.engine.upstream.NameHash;

/**
 * controller-lite against the embedded API server with the real upstream CRDs and samples (read
 * from {@code shared.dir}). One namespace per test; fast simulated latencies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControllerLiteTest {
  static final Path UPSTREAM =
      Path.of(System.getProperty("shared.dir", "../../shared"), "upstream", "agent-sandbox");
  static final Duration WAIT = Duration.ofSeconds(60);

  EmbeddedApiServer api;
  KubernetesClient client;
  ControllerLite controller;

  static Map<String, String> fastConfig() {
    return Map.of(
        ControllerLiteConfig.COLD_START_P50, "50ms",
        ControllerLiteConfig.COLD_START_P95, "100ms",
        ControllerLiteConfig.WARM_ADOPTION_P50, "10ms",
        ControllerLiteConfig.WARM_ADOPTION_P95, "30ms",
        ControllerLiteConfig.RESUME_P50, "50ms",
        ControllerLiteConfig.RESUME_P95, "100ms",
        ControllerLiteConfig.SUSPEND_P50, "20ms",
        ControllerLiteConfig.SUSPEND_P95, "40ms");
  }

  @BeforeAll
  void startAll() throws IOException {
    api = EmbeddedApiServer.start(0);
    client = api.client();
    try (Stream<Path> crds = Files.list(UPSTREAM.resolve("k8s/crds"))) {
      for (Path p : crds.sorted().toList()) {
        for (HasMetadata m : client.load(Files.newInputStream(p)).items()) {
          CustomResourceDefinition crd = (CustomResourceDefinition) m;
          client
              .apiextensions()
              .v1()
              .customResourceDefinitions()
              .resource(crd)
              .createOr(NonDeletingOperation::update);
        }
      }
    }
    controller = new ControllerLite(client, ControllerLiteConfig.fromMap(fastConfig()));
    controller.start();
  }

  @AfterAll
  void stopAll() {
    if (controller != null) {
      controller.close();
    }
    if (api != null) {
      api.close();
    }
  }

  // ---- helpers --------------------------------------------------------------------------

  List<HasMetadata> apply(String relPath, String ns, Map<String, String> vars) throws IOException {
    String text = Files.readString(UPSTREAM.resolve(relPath));
    for (Map.Entry<String, String> e : vars.entrySet()) {
      text = text.replace("${" + e.getKey() + "}", e.getValue());
    }
    List<HasMetadata> items =
        client.load(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))).items();
    for (HasMetadata m : items) {
      GenericKubernetesResource g = (GenericKubernetesResource) m;
      g.getMetadata().setNamespace(ns);
      api.createNamespace(ns);
      Resources.ops(client, Kind.ofKindName(g.getKind())).inNamespace(ns).resource(g).create();
    }
    return items;
  }

  List<HasMetadata> apply(String relPath, String ns) throws IOException {
    return apply(relPath, ns, Map.of());
  }

  GenericKubernetesResource get(Kind kind, String ns, String name) {
    return Resources.ops(client, kind).inNamespace(ns).withName(name).get();
  }

  List<GenericKubernetesResource> sandboxes(String ns) {
    return Resources.ops(client, Kind.SANDBOX).inNamespace(ns).list().getItems();
  }

  List<GenericKubernetesResource> members(String ns, String pool) {
    return sandboxes(ns).stream()
        .filter(s -> NameHash.of(pool).equals(Resources.label(s, Labels.WARM_POOL_SANDBOX)))
        .toList();
  }

  GenericKubernetesResource awaitPoolReady(String ns, String pool, int replicas) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              GenericKubernetesResource p = get(Kind.SANDBOX_WARM_POOL, ns, pool);
              assertEquals(replicas, Resources.status(p).get("replicas"));
              assertEquals(replicas, Resources.status(p).get("readyReplicas"));
              assertEquals(replicas, members(ns, pool).size());
            });
    return get(Kind.SANDBOX_WARM_POOL, ns, pool);
  }

  GenericKubernetesResource awaitClaimReady(String ns, String claim) {
    await()
        .atMost(WAIT)
        .until(
            () -> {
              GenericKubernetesResource c = get(Kind.SANDBOX_CLAIM, ns, claim);
              return c != null && Resources.isTrue(c, "Ready");
            });
    return get(Kind.SANDBOX_CLAIM, ns, claim);
  }

  GenericKubernetesResource claim(
      String ns, String name, String pool, Map<String, Object> extraSpec) {
    GenericKubernetesResource c = Resources.newObject(Kind.SANDBOX_CLAIM, ns);
    c.getMetadata().setName(name);
    Map<String, Object> spec = new java.util.LinkedHashMap<>(extraSpec);
    spec.put("warmPoolRef", Map.of("name", pool));
    c.setAdditionalProperty("spec", spec);
    api.createNamespace(ns);
    return Resources.ops(client, Kind.SANDBOX_CLAIM).inNamespace(ns).resource(c).create();
  }

  void createTemplateAndPool(String ns, String name, String image, int replicas, String strategy) {
    GenericKubernetesResource t = Resources.newObject(Kind.SANDBOX_TEMPLATE, ns);
    t.getMetadata().setName(name);
    t.setAdditionalProperty(
        "spec",
        Map.of(
            "podTemplate",
            Map.of(
                "metadata", Map.of("labels", Map.of("app", name)),
                "spec", Map.of("containers", List.of(Map.of("name", "main", "image", image))))));
    api.createNamespace(ns);
    Resources.ops(client, Kind.SANDBOX_TEMPLATE).inNamespace(ns).resource(t).create();
    GenericKubernetesResource p = Resources.newObject(Kind.SANDBOX_WARM_POOL, ns);
    p.getMetadata().setName(name + "-pool");
    p.setAdditionalProperty(
        "spec",
        Map.of(
            "replicas", replicas,
            "sandboxTemplateRef", Map.of("name", name),
            "updateStrategy", Map.of("type", strategy)));
    Resources.ops(client, Kind.SANDBOX_WARM_POOL).inNamespace(ns).resource(p).create();
  }

  void editTemplate(
      String ns, String name, java.util.function.Consumer<Map<String, Object>> podTemplateEdit) {
    Resources.ops(client, Kind.SANDBOX_TEMPLATE)
        .inNamespace(ns)
        .withName(name)
        .edit(
            t -> {
              Map<String, Object> spec = Resources.deepCopy(Resources.spec(t));
              podTemplateEdit.accept(Resources.map(spec, "podTemplate"));
              t.setAdditionalProperty("spec", spec);
              return t;
            });
  }

  /** A condition field, null when the object or the condition is absent (safe inside await). */
  static Object cond(GenericKubernetesResource r, String type, String field) {
    Map<String, Object> c = r == null ? null : Resources.condition(r, type);
    return c == null ? null : c.get(field);
  }

  static Set<String> names(List<GenericKubernetesResource> l) {
    return l.stream().map(s -> s.getMetadata().getName()).collect(Collectors.toSet());
  }

  // ---- tests ----------------------------------------------------------------------------

  @Test
  void upstreamSamplePoolFillsAndSampleClaimAdoptsWarmThenPoolRefills() throws IOException {
    String ns = "samples";
    apply("olm/config/samples/extensions_v1beta1_sandboxtemplate.yaml", ns);
    apply("olm/config/samples/extensions_v1beta1_sandboxwarmpool.yaml", ns);
    GenericKubernetesResource pool = awaitPoolReady(ns, "example-warmpool", 1);
    GenericKubernetesResource template = get(Kind.SANDBOX_TEMPLATE, ns, "example-template");

    assertEquals(
        Map.of(
            "replicas",
            1,
            "readyReplicas",
            1,
            "selector",
            Labels.WARM_POOL_SANDBOX + "=" + NameHash.of("example-warmpool"),
            "observedGeneration",
            1),
        Resources.status(pool));
    GenericKubernetesResource member = members(ns, "example-warmpool").get(0);
    assertTrue(member.getMetadata().getName().startsWith("example-warmpool-"));
    Map<String, String> labels = member.getMetadata().getLabels();
    assertEquals(NameHash.of("example-template"), labels.get(Labels.SANDBOX_TEMPLATE_REF_HASH));
    assertEquals(
        Blueprints.digest(Resources.spec(template)), labels.get(Labels.SANDBOX_TEMPLATE_HASH));
    assertEquals("warm", labels.get(Labels.LAUNCH_TYPE));
    assertEquals("controller", labels.get(Labels.CREATED_BY));
    assertEquals("example-template", Resources.annotation(member, Labels.SANDBOX_TEMPLATE_REF));
    OwnerReference owner = Resources.controllerOwner(member);
    assertEquals("SandboxWarmPool", owner.getKind());
    assertEquals(pool.getMetadata().getUid(), owner.getUid());
    Map<String, Object> podSpec =
        Resources.map(Resources.map(Resources.spec(member), "podTemplate"), "spec");
    assertEquals(false, podSpec.get("automountServiceAccountToken"));
    assertEquals("busybox:1.37.0", Blueprints.images(Resources.spec(member)).get(0));
    assertEquals("True", cond(member, "Ready", "status"));
    assertEquals("DependenciesReady", cond(member, "Ready", "reason"));
    assertFalse(Resources.list(Resources.status(member), "podIPs").isEmpty());
    String ltt = (String) cond(member, "Ready", "lastTransitionTime");
    assertTrue(ltt.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), ltt);

    apply("olm/config/samples/extensions_v1beta1_sandboxclaim.yaml", ns);
    GenericKubernetesResource claim = awaitClaimReady(ns, "example-claim");
    String sbName = Resources.annotation(claim, Labels.SANDBOX_NAME);
    assertEquals(member.getMetadata().getName(), sbName);
    Instant observed =
        Resources.parseTime(Resources.annotation(claim, Labels.CONTROLLER_FIRST_OBSERVED_AT));
    Instant ready = Resources.parseTime(Resources.annotation(claim, Labels.CLAIM_FIRST_READY_AT));
    assertNotNull(observed);
    assertNotNull(ready);
    assertFalse(ready.isBefore(observed));
    assertEquals("DependenciesReady", cond(claim, "Ready", "reason"));
    assertEquals(sbName, Resources.map(Resources.status(claim), "sandbox").get("name"));

    GenericKubernetesResource adopted = get(Kind.SANDBOX, ns, sbName);
    assertEquals("warm", Resources.label(adopted, Labels.LAUNCH_TYPE));
    assertEquals(claim.getMetadata().getUid(), Resources.label(adopted, Labels.CLAIM_UID));
    assertNull(Resources.label(adopted, Labels.WARM_POOL_SANDBOX));
    assertNull(Resources.label(adopted, Labels.SANDBOX_TEMPLATE_HASH));
    assertEquals(claim.getMetadata().getUid(), Resources.controllerOwner(adopted).getUid());
    assertEquals(1, adopted.getMetadata().getOwnerReferences().size());

    // the pool refills with a new member
    awaitPoolReady(ns, "example-warmpool", 1);
    assertNotEquals(sbName, members(ns, "example-warmpool").get(0).getMetadata().getName());
    // first-ready is stamped exactly once
    assertEquals(
        Resources.annotation(claim, Labels.CLAIM_FIRST_READY_AT),
        Resources.annotation(
            get(Kind.SANDBOX_CLAIM, ns, "example-claim"), Labels.CLAIM_FIRST_READY_AT));
  }

  @Test
  void bareSampleSandboxBecomesReady() throws IOException {
    String ns = "bare";
    apply("olm/config/samples/agents_v1beta1_sandbox.yaml", ns);
    await()
        .atMost(WAIT)
        .until(() -> Resources.isTrue(get(Kind.SANDBOX, ns, "hello-world"), "Ready"));
    GenericKubernetesResource sb = get(Kind.SANDBOX, ns, "hello-world");
    assertEquals("True", cond(sb, "PodScheduled", "status"));
    assertEquals("NotSuspended", cond(sb, "Suspended", "reason"));
    assertNotNull(Resources.status(sb).get("nodeName"));
  }

  @Test
  void aiderSampleAdoptsWarmWithItsVolumeClaimTemplates() throws IOException {
    String ns = "aider";
    apply("examples/aider-sandbox/template.yaml", ns);
    apply("examples/aider-sandbox/warmpool.yaml", ns);
    awaitPoolReady(ns, "aider-warmpool", 1);
    GenericKubernetesResource member = members(ns, "aider-warmpool").get(0);
    assertEquals(
        "workspace-volume",
        ((Map<?, ?>)
                ((Map<?, ?>) Resources.list(Resources.spec(member), "volumeClaimTemplates").get(0))
                    .get("metadata"))
            .get("name"));
    apply("examples/aider-sandbox/claim.yaml", ns);
    GenericKubernetesResource claim = awaitClaimReady(ns, "user-session-aider");
    assertEquals(member.getMetadata().getName(), Resources.annotation(claim, Labels.SANDBOX_NAME));
    assertEquals(
        "warm",
        Resources.label(get(Kind.SANDBOX, ns, member.getMetadata().getName()), Labels.LAUNCH_TYPE));
  }

  @Test
  void pythonClientSamplePoolWithZeroReplicasColdStartsEveryClaim() throws IOException {
    String ns = "pyclient";
    Map<String, String> vars =
        Map.of(
            "SANDBOX_TEMPLATE_NAME", "python-sandbox-template",
            "SANDBOX_WARMPOOL_NAME", "python-sandbox-warmpool",
            "SANDBOX_NAMESPACE", ns);
    apply("clients/python/agentic-sandbox-client/python-sandbox-template.yaml", ns, vars);
    apply("clients/python/agentic-sandbox-client/python-sandbox-warmpool.yaml", ns, vars);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertEquals(
                    0,
                    Resources.status(get(Kind.SANDBOX_WARM_POOL, ns, "python-sandbox-warmpool"))
                        .get("replicas")));
    GenericKubernetesResource c = Resources.newObject(Kind.SANDBOX_CLAIM, ns);
    c.getMetadata().setName("py-claim");
    c.getMetadata().setLabels(Map.of(Labels.CREATED_BY, "python-client"));
    c.setAdditionalProperty(
        "spec", Map.of("warmPoolRef", Map.of("name", "python-sandbox-warmpool")));
    api.createNamespace(ns);
    Resources.ops(client, Kind.SANDBOX_CLAIM).inNamespace(ns).resource(c).create();
    GenericKubernetesResource claim = awaitClaimReady(ns, "py-claim");
    assertEquals("py-claim", Resources.annotation(claim, Labels.SANDBOX_NAME));
    GenericKubernetesResource sb = get(Kind.SANDBOX, ns, "py-claim");
    assertEquals("cold", Resources.label(sb, Labels.LAUNCH_TYPE));
    assertEquals("python-client", Resources.label(sb, Labels.CREATED_BY));
    assertEquals(
        NameHash.of("python-sandbox-template"),
        Resources.label(sb, Labels.SANDBOX_TEMPLATE_REF_HASH));
    assertEquals(claim.getMetadata().getUid(), Resources.label(sb, Labels.CLAIM_UID));
    assertEquals(claim.getMetadata().getUid(), Resources.controllerOwner(sb).getUid());
    assertEquals("python-sandbox-template", Resources.annotation(sb, Labels.SANDBOX_TEMPLATE_REF));
    assertTrue(members(ns, "python-sandbox-warmpool").isEmpty());
  }

  @Test
  void claimWithEnvColdStartsWhileReadyMembersIdleAndDisallowedTemplateRejects()
      throws IOException {
    String ns = DemoManifests.NAMESPACE;
    DemoManifests.apply(client);
    awaitPoolReady(ns, "data-notebook-pool", 3);
    Set<String> before = names(members(ns, "data-notebook-pool"));

    claim(
        ns,
        "env-claim",
        "data-notebook-pool",
        Map.of("env", List.of(Map.of("name", "TASK_ID", "value", "42"))));
    GenericKubernetesResource claim = awaitClaimReady(ns, "env-claim");
    GenericKubernetesResource sb = get(Kind.SANDBOX, ns, "env-claim");
    assertEquals("cold", Resources.label(sb, Labels.LAUNCH_TYPE));
    assertEquals("unknown", Resources.label(sb, Labels.CREATED_BY));
    assertEquals("env-claim", Resources.annotation(claim, Labels.SANDBOX_NAME));
    Map<?, ?> container =
        (Map<?, ?>)
            Resources.list(
                    Resources.map(Resources.map(Resources.spec(sb), "podTemplate"), "spec"),
                    "containers")
                .get(0);
    assertEquals(List.of(Map.of("name", "TASK_ID", "value", "42")), container.get("env"));
    assertEquals(before, names(members(ns, "data-notebook-pool")), "idle members untouched");

    // python-runtime's template leaves envVarsInjectionPolicy at Disallowed
    claim(
        ns,
        "env-rejected",
        "python-runtime-pool",
        Map.of("env", List.of(Map.of("name", "TASK_ID", "value", "1"))));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Map<String, Object> ready =
                  Resources.condition(get(Kind.SANDBOX_CLAIM, ns, "env-rejected"), "Ready");
              assertNotNull(ready);
              assertEquals("EnvVarsInjectionRejected", ready.get("reason"));
            });
    assertNull(get(Kind.SANDBOX, ns, "env-rejected"));

    // gpu-trainer's pool has replicas 0: cold
    claim(ns, "gpu-claim", "gpu-trainer-pool", Map.of());
    awaitClaimReady(ns, "gpu-claim");
    assertEquals("cold", Resources.label(get(Kind.SANDBOX, ns, "gpu-claim"), Labels.LAUNCH_TYPE));
  }

  @Test
  void missingPoolAndTemplateWaitWithoutColdStart() {
    String ns = "missing";
    claim(ns, "no-pool", "nope", Map.of());
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertEquals(
                    "WarmPoolNotFound",
                    cond(get(Kind.SANDBOX_CLAIM, ns, "no-pool"), "Ready", "reason")));
    GenericKubernetesResource p = Resources.newObject(Kind.SANDBOX_WARM_POOL, ns);
    p.getMetadata().setName("orphan-pool");
    p.setAdditionalProperty(
        "spec", Map.of("replicas", 1, "sandboxTemplateRef", Map.of("name", "absent")));
    api.createNamespace(ns);
    Resources.ops(client, Kind.SANDBOX_WARM_POOL).inNamespace(ns).resource(p).create();
    claim(ns, "no-template", "orphan-pool", Map.of());
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertEquals(
                    "TemplateNotFound",
                    cond(get(Kind.SANDBOX_CLAIM, ns, "no-template"), "Ready", "reason")));
    assertTrue(sandboxes(ns).isEmpty());
  }

  @Test
  void metadataOnlyTemplateEditMakesNothingStaleEvenUnderRecreate() {
    String ns = "stale-meta";
    createTemplateAndPool(ns, "meta", "busybox:1.37.0", 3, "Recreate");
    awaitPoolReady(ns, "meta-pool", 3);
    Set<String> before = names(members(ns, "meta-pool"));
    editTemplate(
        ns,
        "meta",
        pt -> pt.put("metadata", Map.of("labels", Map.of("app", "meta", "tier", "gold"))));
    await()
        .during(Duration.ofMillis(1500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> names(members(ns, "meta-pool")).equals(before));
  }

  @Test
  void imageChangeUnderRecreateReplacesUnclaimedMembersAndNeverTouchesAdoptedOnes() {
    String ns = "stale-recreate";
    createTemplateAndPool(ns, "rc", "busybox:1.37.0", 3, "Recreate");
    awaitPoolReady(ns, "rc-pool", 3);
    claim(ns, "keeper", "rc-pool", Map.of());
    GenericKubernetesResource claim = awaitClaimReady(ns, "keeper");
    String adoptedName = Resources.annotation(claim, Labels.SANDBOX_NAME);
    String adoptedUid = get(Kind.SANDBOX, ns, adoptedName).getMetadata().getUid();
    awaitPoolReady(ns, "rc-pool", 3);
    Set<String> before = names(members(ns, "rc-pool"));

    editTemplate(
        ns,
        "rc",
        pt -> {
          Map<String, Object> spec = Resources.deepCopy(Resources.map(pt, "spec"));
          spec.put("containers", List.of(Map.of("name", "main", "image", "busybox:1.38.0")));
          pt.put("spec", spec);
        });
    String newDigest = Blueprints.digest(Resources.spec(get(Kind.SANDBOX_TEMPLATE, ns, "rc")));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              List<GenericKubernetesResource> now = members(ns, "rc-pool");
              assertEquals(3, now.size());
              Set<String> overlap = new HashSet<>(names(now));
              overlap.retainAll(before);
              assertTrue(overlap.isEmpty(), "old members still present: " + overlap);
              for (GenericKubernetesResource m : now) {
                assertEquals(newDigest, Blueprints.digest(Resources.spec(m)));
                assertTrue(Resources.isTrue(m, "Ready"));
              }
            });
    GenericKubernetesResource adopted = get(Kind.SANDBOX, ns, adoptedName);
    assertEquals(adoptedUid, adopted.getMetadata().getUid());
    assertEquals(List.of("busybox:1.37.0"), Blueprints.images(Resources.spec(adopted)));
  }

  @Test
  void imageChangeUnderOnReplenishKeepsStaleMembers() {
    String ns = "stale-onreplenish";
    createTemplateAndPool(ns, "or", "busybox:1.37.0", 2, "OnReplenish");
    awaitPoolReady(ns, "or-pool", 2);
    Set<String> before = names(members(ns, "or-pool"));
    editTemplate(
        ns,
        "or",
        pt -> {
          Map<String, Object> spec = Resources.deepCopy(Resources.map(pt, "spec"));
          spec.put("containers", List.of(Map.of("name", "main", "image", "busybox:1.38.0")));
          pt.put("spec", spec);
        });
    await()
        .during(Duration.ofMillis(1500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> names(members(ns, "or-pool")).equals(before));
    // stale members are still handed to claims
    claim(ns, "takes-stale", "or-pool", Map.of());
    GenericKubernetesResource claim = awaitClaimReady(ns, "takes-stale");
    assertTrue(before.contains(Resources.annotation(claim, Labels.SANDBOX_NAME)));
  }

  @Test
  void claimLifecycleRetainDeletesSandboxAndKeepsClaimExpired() {
    String ns = "lifecycle";
    createTemplateAndPool(ns, "lc", "busybox:1.37.0", 0, "OnReplenish");
    String shutdown = Resources.rfc3339(Instant.now().plusSeconds(2));
    claim(
        ns,
        "retained",
        "lc-pool",
        Map.of("lifecycle", Map.of("shutdownTime", shutdown, "shutdownPolicy", "Retain")));
    claim(
        ns,
        "deleted",
        "lc-pool",
        Map.of("lifecycle", Map.of("shutdownTime", shutdown, "shutdownPolicy", "Delete")));
    awaitClaimReady(ns, "retained");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertEquals(
                  "ClaimExpired", cond(get(Kind.SANDBOX_CLAIM, ns, "retained"), "Ready", "reason"));
              assertNull(get(Kind.SANDBOX, ns, "retained"));
              assertNull(get(Kind.SANDBOX_CLAIM, ns, "deleted"));
              assertNull(get(Kind.SANDBOX, ns, "deleted"));
            });
  }

  @Test
  void suspendAndResume() {
    String ns = "suspend";
    GenericKubernetesResource sb = Resources.newObject(Kind.SANDBOX, ns);
    sb.getMetadata().setName("sleepy");
    sb.setAdditionalProperty(
        "spec",
        Map.of(
            "podTemplate",
            Map.of(
                "spec", Map.of("containers", List.of(Map.of("name", "c", "image", "busybox"))))));
    api.createNamespace(ns);
    Resources.ops(client, Kind.SANDBOX).inNamespace(ns).resource(sb).create();
    await().atMost(WAIT).until(() -> Resources.isTrue(get(Kind.SANDBOX, ns, "sleepy"), "Ready"));

    setMode(ns, "sleepy", "Suspended");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              GenericKubernetesResource s = get(Kind.SANDBOX, ns, "sleepy");
              assertEquals("SandboxSuspended", cond(s, "Ready", "reason"));
              assertEquals("True", cond(s, "Suspended", "status"));
              assertEquals("PodTerminated", cond(s, "Suspended", "reason"));
              assertNull(Resources.status(s).get("podIPs"));
            });
    setMode(ns, "sleepy", "Running");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              GenericKubernetesResource s = get(Kind.SANDBOX, ns, "sleepy");
              assertEquals("DependenciesReady", cond(s, "Ready", "reason"));
              assertEquals("NotSuspended", cond(s, "Suspended", "reason"));
              assertFalse(Resources.list(Resources.status(s), "podIPs").isEmpty());
            });
  }

  @Test
  void malformedObjectsAreSkippedAndTheControllerKeepsWorking() {
    String ns = "malformed";
    GenericKubernetesResource bad = Resources.newObject(Kind.SANDBOX_WARM_POOL, ns);
    bad.getMetadata().setName("bad-pool");
    bad.setAdditionalProperty(
        "spec", Map.of("replicas", "lots", "sandboxTemplateRef", Map.of("name", "x")));
    api.createNamespace(ns);
    Resources.ops(client, Kind.SANDBOX_WARM_POOL).inNamespace(ns).resource(bad).create();
    GenericKubernetesResource noRef = Resources.newObject(Kind.SANDBOX_CLAIM, ns);
    noRef.getMetadata().setName("no-ref");
    noRef.setAdditionalProperty("spec", "not a map");
    Resources.ops(client, Kind.SANDBOX_CLAIM).inNamespace(ns).resource(noRef).create();
    GenericKubernetesResource weird = Resources.newObject(Kind.SANDBOX, ns);
    weird.getMetadata().setName("weird");
    weird.setAdditionalProperty("spec", Map.of("shutdownTime", "soon", "podTemplate", "nope"));
    Resources.ops(client, Kind.SANDBOX).inNamespace(ns).resource(weird).create();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertEquals(
                    "InvalidMetadata",
                    cond(get(Kind.SANDBOX_CLAIM, ns, "no-ref"), "Ready", "reason")));
    await().atMost(WAIT).until(() -> Resources.isTrue(get(Kind.SANDBOX, ns, "weird"), "Ready"));
    createTemplateAndPool(ns, "fine", "busybox:1.37.0", 2, "OnReplenish");
    awaitPoolReady(ns, "fine-pool", 2);
    assertTrue(members(ns, "bad-pool").isEmpty());
  }

  void setMode(String ns, String name, String mode) {
    // merge patch without resourceVersion: the controller writes status concurrently
    Resources.ops(client, Kind.SANDBOX)
        .inNamespace(ns)
        .withName(name)
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            "{\"spec\":{\"operatingMode\":\"" + mode + "\"}}");
  }
}
