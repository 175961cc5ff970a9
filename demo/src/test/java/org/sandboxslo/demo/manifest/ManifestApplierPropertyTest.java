package org.sandboxslo.demo.manifest;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.sandboxslo.apiserver.EmbeddedApiServer;

/**
 * Issue 9: manifests are caller input. For arbitrary and near-valid YAML (wrong types, unknown
 * kinds, broken syntax, unresolved variables, overflowing numbers), {@link ManifestApplier#apply}
 * never throws: every refused document is one error line.
 */
class ManifestApplierPropertyTest {
  static EmbeddedApiServer api;
  static KubernetesClient client;
  static Path dir;

  @BeforeContainer
  static void start() throws Exception {
    api = EmbeddedApiServer.start(0);
    client = api.client();
    dir = Files.createTempDirectory("manifest-prop");
    new ManifestApplier()
        .apply(
            client,
            Path.of(System.getProperty("shared.dir")).resolve("upstream/agent-sandbox/k8s/crds"),
            Map.of());
  }

  @AfterContainer
  static void stop() throws Exception {
    client.close();
    api.close();
  }

  @Property(tries = 80)
  void manifestsAreAppliedOrReportedLineByLine(@ForAll("manifests") String yaml) throws Exception {
    Path f = Files.createTempFile(dir, "m", ".yaml");
    Files.writeString(f, yaml);
    ApplyReport r = new ManifestApplier().apply(client, f, Map.of("NS", "prop"));
    r.errors().forEach(e -> assertFalse(e.contains("\n"), e));
    r.errors().forEach(e -> assertFalse(e.contains("Exception:"), e));
  }

  @Provide
  Arbitrary<String> manifests() {
    Arbitrary<String> kind =
        Arbitraries.of(
            "SandboxTemplate",
            "SandboxWarmPool",
            "SandboxClaim",
            "Sandbox",
            "ConfigMap",
            "Foo",
            "");
    Arbitrary<String> api =
        Arbitraries.of(
            "extensions.agents.x-k8s.io/v1beta1", "agents.x-k8s.io/v1beta1", "v1", "nope/v9");
    Arbitrary<String> name =
        Arbitraries.of("a", "${NS}", "${MISSING}", "Bad_Name", "", "x".repeat(300));
    Arbitrary<String> spec =
        Arbitraries.of(
            "{replicas: 4294967296, sandboxTemplateRef: {name: t}}",
            "{replicas: -1}",
            "{replicas: '3'}",
            "{warmPoolRef: {name: 5}}",
            "{podTemplate: {spec: {containers: [{name: c, image: i, env: [{name: A, value: v}]}]}}}",
            "5",
            "[]",
            "{env: {a: b}}");
    Arbitrary<String> doc =
        Arbitraries.oneOf(
            Combinators.combine(api, kind, name, spec)
                .as(
                    (a, k, n, s) ->
                        "apiVersion: "
                            + a
                            + "\nkind: "
                            + k
                            + "\nmetadata: {name: '"
                            + n
                            + "', namespace: prop}\nspec: "
                            + s
                            + "\n"),
            Arbitraries.of("key: [unclosed\n", "- a\n- b\n", "just text\n", "{}\n", "\u0000\n"),
            Arbitraries.strings().ofMaxLength(40));
    return doc.list().ofMinSize(1).ofMaxSize(3).map(ds -> String.join("---\n", ds));
  }
}
