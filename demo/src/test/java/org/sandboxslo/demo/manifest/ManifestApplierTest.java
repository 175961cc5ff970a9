package org.sandboxslo.demo.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.engine.model.Kind;

/** The applier against the fabric8 mock API server (CRUD mode) with the real upstream manifests. */
@EnableKubernetesMockClient(crud = true)
class ManifestApplierTest {
  static KubernetesClient client;

  @TempDir Path tmp;

  private final ManifestApplier applier = new ManifestApplier();

  static Path upstream(String rel) {
    return Path.of(System.getProperty("shared.dir")).resolve("upstream/agent-sandbox").resolve(rel);
  }

  @BeforeAll
  static void installCrdsThroughTheApplier() {
    ApplyReport r = new ManifestApplier().apply(client, upstream("k8s/crds"), Map.of());
    assertEquals(List.of(), r.errors());
    assertEquals(
        List.of(
            "CustomResourceDefinition sandboxes.agents.x-k8s.io",
            "CustomResourceDefinition sandboxclaims.extensions.agents.x-k8s.io",
            "CustomResourceDefinition sandboxtemplates.extensions.agents.x-k8s.io",
            "CustomResourceDefinition sandboxwarmpools.extensions.agents.x-k8s.io"),
        r.applied());
    assertNotNull(
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName("sandboxclaims.extensions.agents.x-k8s.io")
            .get());
  }

  static GenericKubernetesResource get(Kind kind, String ns, String name) {
    return client
        .genericKubernetesResources(SandboxCollector.context(kind))
        .inNamespace(ns)
        .withName(name)
        .get();
  }

  @SuppressWarnings("unchecked")
  static Object specField(GenericKubernetesResource r, String... path) {
    Object cur = r.getAdditionalProperties().get("spec");
    for (String p : path) {
      cur = ((Map<String, Object>) cur).get(p);
    }
    return cur;
  }

  @Test
  void olmSamplesApplyInDependencyOrderAndKustomizationIsSkipped() {
    Path samples = upstream("olm/config/samples");
    ApplyReport r = applier.apply(client, samples, Map.of());
    assertEquals(List.of(), r.errors());
    List<String> expected =
        List.of(
            "SandboxTemplate default/example-template",
            "SandboxWarmPool default/example-warmpool",
            "Sandbox default/hello-world",
            "SandboxClaim default/example-claim");
    assertEquals(expected, r.applied());
    assertEquals(
        List.of(
            "file "
                + samples.resolve("kustomization.yaml")
                + ": document 1: Kustomization skipped (not expanded)"),
        r.skipped());
    assertEquals(
        "example-warmpool",
        specField(get(Kind.SANDBOX_CLAIM, "default", "example-claim"), "warmPoolRef", "name"));
    assertEquals(
        1, specField(get(Kind.SANDBOX_WARM_POOL, "default", "example-warmpool"), "replicas"));

    // applying again updates in place
    ApplyReport again = applier.apply(client, samples, Map.of());
    assertEquals(List.of(), again.errors());
    assertEquals(expected, again.applied());
  }

  @Test
  void pythonClientManifestsWithVariables() {
    Path dir = upstream("clients/python/agentic-sandbox-client");
    ApplyReport r =
        applier.apply(
            client,
            dir,
            Map.of(
                "SANDBOX_NAMESPACE", "py-ns",
                "SANDBOX_TEMPLATE_NAME", "python-runtime-template",
                "SANDBOX_WARMPOOL_NAME", "python-pool"));
    assertEquals(List.of(), r.errors());
    assertEquals(
        List.of(
            "SandboxTemplate sandbox-test/python-counter-template",
            "SandboxTemplate py-ns/python-runtime-template",
            "SandboxWarmPool sandbox-test/python-counter-pool",
            "SandboxWarmPool py-ns/python-pool"),
        r.applied());
    GenericKubernetesResource pool = get(Kind.SANDBOX_WARM_POOL, "py-ns", "python-pool");
    assertEquals("python-runtime-template", specField(pool, "sandboxTemplateRef", "name"));
    assertEquals(
        "Overrides",
        specField(
            get(Kind.SANDBOX_TEMPLATE, "py-ns", "python-runtime-template"),
            "volumeClaimTemplatesPolicy"));
    assertNotNull(client.namespaces().withName("py-ns").get(), "namespace created when absent");
  }

  @Test
  void unresolvedVariablesNameFileObjectVariableAndField() {
    Path file = upstream("clients/python/agentic-sandbox-client/python-sandbox-warmpool.yaml");
    ApplyReport r = applier.apply(client, file, Map.of("SANDBOX_NAMESPACE", "py-ns2"));
    assertEquals(
        List.of(
            "file "
                + file
                + ": SandboxWarmPool py-ns2/${SANDBOX_WARMPOOL_NAME}: unresolved variables"
                + " ${SANDBOX_WARMPOOL_NAME} (metadata.name),"
                + " ${SANDBOX_TEMPLATE_NAME} (spec.sandboxTemplateRef.name)"),
        r.errors());
    assertEquals(List.of(), r.applied());
  }

  @Test
  void aiderExample() {
    ApplyReport r = applier.apply(client, upstream("examples/aider-sandbox"), Map.of());
    assertEquals(List.of(), r.errors());
    assertEquals(
        List.of(
            "SandboxTemplate default/aider-browser-template",
            "SandboxWarmPool default/aider-warmpool",
            "SandboxClaim default/user-session-aider"),
        r.applied());
    // $REPO_URL (no braces) is shell syntax inside the script, not a placeholder: left alone
    assertTrue(
        client
            .getKubernetesSerialization()
            .asJson(get(Kind.SANDBOX_TEMPLATE, "default", "aider-browser-template"))
            .contains("git clone \\\"$REPO_URL\\\""));
  }

  @Test
  void badDocumentsGiveOneLineErrorsAndGoodDocumentsInTheSameFileAreApplied() throws IOException {
    Path file = tmp.resolve("mixed.yaml");
    Files.writeString(
        file,
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxTemplate
        metadata: {name: tpl-good, namespace: t-bad}
        spec: {podTemplate: {spec: {containers: [{name: main, image: busybox}]}}}
        ---
        apiVersion: v1
        kind: Foo
        metadata: {name: x}
        ---
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxClaim
        metadata: {name: c1, namespace: t-bad}
        spec: {}
        ---
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxWarmPool
        metadata: {name: "${POOL_NAME}", namespace: t-bad}
        spec: {sandboxTemplateRef: {name: tpl-good}}
        ---
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxClaim
        metadata: {name: c2, namespace: t-bad}
        spec: {warmPoolRef: {name: "${POOL}"}}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cfg, namespace: t-bad}
        data: {k: v}
        """);
    ApplyReport r = applier.apply(client, file, Map.of("POOL", "pool-good"));
    assertEquals(
        List.of(
            "file " + file + ": document 2: unknown kind 'Foo' (apiVersion v1)",
            "file " + file + ": SandboxClaim t-bad/c1: spec.warmPoolRef.name: missing",
            "file "
                + file
                + ": SandboxWarmPool t-bad/${POOL_NAME}: unresolved variable ${POOL_NAME} (metadata.name)"),
        r.errors());
    assertEquals(
        List.of("ConfigMap t-bad/cfg", "SandboxTemplate t-bad/tpl-good", "SandboxClaim t-bad/c2"),
        r.applied());
    assertEquals(
        "pool-good", specField(get(Kind.SANDBOX_CLAIM, "t-bad", "c2"), "warmPoolRef", "name"));
    assertEquals(
        "v", client.configMaps().inNamespace("t-bad").withName("cfg").get().getData().get("k"));
  }

  @Test
  void brokenYamlIsOneErrorAndEarlierDocumentsAreApplied() throws IOException {
    Path file = tmp.resolve("broken.yaml");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: before-break, namespace: t-broken}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: broken
         namespace: t-broken
        """);
    ApplyReport r = applier.apply(client, file, Map.of());
    assertEquals(List.of("ConfigMap t-broken/before-break"), r.applied());
    assertEquals(
        List.of(
            "file "
                + file
                + ": YAML parse error at line 9: expected <block end>, but found '<block mapping start>'"),
        r.errors());
  }

  @Test
  void serverRejectionIsReportedWithItsStatusCode() throws IOException {
    client
        .configMaps()
        .inNamespace("t-conflict")
        .resource(
            new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata()
                .withName("cm")
                .withNamespace("t-conflict")
                .endMetadata()
                .addToData("k", "v1")
                .build())
        .create();
    Path file = tmp.resolve("stale.yaml");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, namespace: t-conflict, resourceVersion: "1"}
        data: {k: v2}
        """);
    ApplyReport r = applier.apply(client, file, Map.of());
    assertEquals(List.of(), r.applied());
    assertEquals(1, r.errors().size());
    String e = r.errors().get(0);
    assertTrue(
        e.startsWith("file " + file + ": ConfigMap t-conflict/cm: rejected by the server (409): "),
        e);
    assertEquals(-1, e.indexOf('\n'));
    assertEquals(
        "v1",
        client.configMaps().inNamespace("t-conflict").withName("cm").get().getData().get("k"));
  }

  @Test
  void namespacesAndBuiltInsComeBeforeSandboxKindsAcrossFiles() throws IOException {
    Files.writeString(
        tmp.resolve("a-claim.yaml"),
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxClaim
        metadata: {name: c, namespace: t-order}
        spec: {warmPoolRef: {name: p}}
        """);
    Files.writeString(
        tmp.resolve("b-config.yml"),
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, namespace: t-order}
        """);
    Files.writeString(
        tmp.resolve("c-namespace.yaml"),
        """
        apiVersion: v1
        kind: Namespace
        metadata: {name: t-order}
        ---
        """);
    Files.writeString(tmp.resolve("notes.txt"), "not a manifest");
    ApplyReport r = applier.apply(client, tmp, Map.of());
    assertEquals(List.of(), r.errors());
    assertEquals(
        List.of("Namespace t-order", "ConfigMap t-order/cm", "SandboxClaim t-order/c"),
        r.applied());
  }

  @Test
  void missingPathIsAnError() {
    Path missing = tmp.resolve("nope.yaml");
    ApplyReport r = applier.apply(client, missing, Map.of());
    assertEquals(List.of("file " + missing + ": not found"), r.errors());
  }
}
