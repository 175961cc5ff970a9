package org.sandboxslo.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.engine.model.Kind;

/**
 * The real {@code kubectl} (a subprocess with the kubeconfig the server writes, each call bounded
 * by a timeout) against the embedded API server: the operator commands of the agent-sandbox docs.
 * One namespace per test; skipped when kubectl is not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlCompatibilityTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  Path dir;
  EmbeddedApiServer api;
  KubernetesClient client;
  Path kubeconfig;

  record Result(int exit, String out, String err) {
    List<String> lines() {
      return out.lines().toList();
    }
  }

  @BeforeAll
  void start(@TempDir Path tmp) {
    dir = tmp;
    Assumptions.assumeTrue(kubectl() != null, "kubectl is not installed");
    api = EmbeddedApiServer.start(0);
    client = api.client();
    kubeconfig = api.writeKubeconfig(dir.resolve("kube/config"));
  }

  @AfterAll
  void stop() {
    if (api != null) {
      api.close();
    }
  }

  static String kubectl() {
    for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(p, "kubectl"))) {
        return Path.of(p, "kubectl").toString();
      }
    }
    return null;
  }

  ProcessBuilder process(List<String> command) {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("KUBECONFIG", kubeconfig.toString());
    // discovery cache and kubectl's own files go to the test's directory
    pb.environment().put("HOME", dir.toString());
    return pb;
  }

  Result kubectl(String stdin, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(kubectl()));
    command.addAll(Arrays.asList(args));
    return run(command, stdin);
  }

  Result run(List<String> command, String stdin) throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process p = process(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try (var in = p.getOutputStream()) {
      if (stdin != null) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
    }
    if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail(command + " did not finish within " + TIMEOUT + "; stderr: " + Files.readString(err));
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  void namespace(String ns) throws Exception {
    Result r = kubectl(null, "create", "namespace", ns);
    assertEquals(0, r.exit(), r.err());
  }

  static GenericKubernetesResource pool(String ns, String name, int replicas) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(Kind.SANDBOX_WARM_POOL.apiVersion())
        .withKind("SandboxWarmPool")
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(
            Map.of(
                "spec",
                Map.of("replicas", replicas, "sandboxTemplateRef", Map.of("name", "python"))))
        .build();
  }

  static GenericKubernetesResource sandbox(String ns, String name) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(Kind.SANDBOX.apiVersion())
        .withKind("Sandbox")
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(
            Map.of(
                "spec",
                Map.of(
                    "operatingMode",
                    "Running",
                    "podTemplate",
                    Map.of(
                        "spec",
                        Map.of(
                            "containers", List.of(Map.of("name", "main", "image", "busybox")))))))
        .build();
  }

  static List<String> tokens(String line) {
    return List.of(line.trim().split("\\s+"));
  }

  @Test
  void apiResourcesListsTheFourKindsWithShortNames() throws Exception {
    Result r = kubectl(null, "api-resources");
    assertEquals(0, r.exit(), r.err());
    List<List<String>> rows =
        r.lines().stream()
            .map(KubectlCompatibilityTest::tokens)
            .filter(t -> t.size() == 5)
            .toList();
    assertEquals(List.of("NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"), rows.get(0));
    for (List<String> want :
        List.of(
            List.of("sandboxes", "sandbox", "agents.x-k8s.io/v1beta1", "true", "Sandbox"),
            List.of(
                "sandboxclaims",
                "sandboxclaim",
                "extensions.agents.x-k8s.io/v1beta1",
                "true",
                "SandboxClaim"),
            List.of(
                "sandboxtemplates",
                "sandboxtemplate",
                "extensions.agents.x-k8s.io/v1beta1",
                "true",
                "SandboxTemplate"),
            List.of(
                "sandboxwarmpools",
                "swp",
                "extensions.agents.x-k8s.io/v1beta1",
                "true",
                "SandboxWarmPool"))) {
      assertTrue(rows.contains(want), want + " not in " + r.out());
    }
    // explain reads the OpenAPI v3 document of the group version
    Result explain = kubectl(null, "explain", "swp");
    assertEquals(0, explain.exit(), explain.err());
    assertTrue(explain.out().contains("KIND:       SandboxWarmPool"), explain.out());
  }

  @Test
  void getWarmPoolsShowsReadyAndDesiredColumns() throws Exception {
    String ns = "columns";
    namespace(ns);
    EmbeddedApiServerTest.ops(client, Kind.SANDBOX_WARM_POOL)
        .inNamespace(ns)
        .resource(pool(ns, "python-pool", 3))
        .create();
    EmbeddedApiServerTest.ops(client, Kind.SANDBOX_WARM_POOL)
        .inNamespace(ns)
        .resource(pool(ns, "empty-pool", 0))
        .create();
    EmbeddedApiServerTest.ops(client, Kind.SANDBOX_WARM_POOL)
        .inNamespace(ns)
        .withName("python-pool")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"replicas\":3,\"readyReplicas\":2}}");

    Result r = kubectl(null, "get", "sandboxwarmpools", "-A");
    assertEquals(0, r.exit(), r.err());
    String header = r.lines().get(0);
    assertEquals(List.of("NAMESPACE", "NAME", "READY", "DESIRED", "AGE"), tokens(header));
    List<List<String>> ours =
        r.lines().stream()
            .skip(1)
            .map(l -> cells(header, l))
            .filter(c -> c.get(0).equals(ns))
            .toList();
    // sorted by namespace, then name; READY = status.readyReplicas (blank when unset), DESIRED =
    // spec.replicas
    assertEquals(List.of(ns, "empty-pool", "", "0"), ours.get(0).subList(0, 4));
    assertEquals(List.of(ns, "python-pool", "2", "3"), ours.get(1).subList(0, 4));
    assertTrue(ours.get(1).get(4).matches("\\d+s"), ours.get(1).get(4));
  }

  /** The cells of a table line, cut at the header's column starts. */
  static List<String> cells(String header, String line) {
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < header.length(); i++) {
      if (header.charAt(i) != ' ' && (i == 0 || header.charAt(i - 1) == ' ')) {
        starts.add(i);
      }
    }
    List<String> out = new ArrayList<>();
    for (int c = 0; c < starts.size(); c++) {
      int from = Math.min(starts.get(c), line.length());
      int to = c + 1 < starts.size() ? Math.min(starts.get(c + 1), line.length()) : line.length();
      out.add(line.substring(from, to).strip());
    }
    return out;
  }

  @Test
  void createNamespace() throws Exception {
    Result r = kubectl(null, "create", "namespace", "team-x");
    assertEquals(0, r.exit(), r.err());
    assertEquals("namespace/team-x created", r.out().strip());
    assertEquals("Active", client.namespaces().withName("team-x").get().getStatus().getPhase());
  }

  @Test
  void applyOfATemplateTwiceLeavesOneContainer() throws Exception {
    String ns = "apply";
    namespace(ns);
    String template =
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxTemplate
        metadata:
          name: python
          namespace: apply
        spec:
          podTemplate:
            spec:
              containers:
              - name: main
                image: python:IMAGE
        """;
    Result first = kubectl(template.replace("IMAGE", "3.12"), "apply", "-f", "-");
    assertEquals(0, first.exit(), first.err());
    assertEquals("sandboxtemplate.extensions.agents.x-k8s.io/python created", first.out().strip());
    Result second = kubectl(template.replace("IMAGE", "3.13"), "apply", "-f", "-");
    assertEquals(0, second.exit(), second.err());
    assertEquals(
        "sandboxtemplate.extensions.agents.x-k8s.io/python configured", second.out().strip());
    Result third = kubectl(template.replace("IMAGE", "3.13"), "apply", "-f", "-");
    assertEquals(
        "sandboxtemplate.extensions.agents.x-k8s.io/python unchanged", third.out().strip());
    GenericKubernetesResource t =
        EmbeddedApiServerTest.ops(client, Kind.SANDBOX_TEMPLATE)
            .inNamespace(ns)
            .withName("python")
            .get();
    // a merge patch replaces the list: one container, the new image
    assertEquals(
        Map.of(
            "spec", Map.of("containers", List.of(Map.of("name", "main", "image", "python:3.13")))),
        ((Map<?, ?>) t.getAdditionalProperties().get("spec")).get("podTemplate"));
  }

  @Test
  void watchShowsAChangeWithinFiveSeconds() throws Exception {
    String ns = "watch";
    namespace(ns);
    EmbeddedApiServerTest.ops(client, Kind.SANDBOX)
        .inNamespace(ns)
        .resource(sandbox(ns, "first"))
        .create();
    List<String> command = List.of(kubectl(), "get", "sandboxes", "-A", "-w");
    Process p = process(command).redirectErrorStream(true).start();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                  lines.add(l);
                }
              } catch (IOException e) {
                lines.add("read failed: " + e);
              }
            },
            "kubectl-watch-reader");
    reader.setDaemon(true);
    reader.start();
    try {
      assertNotNull(awaitLine(lines, "first", Duration.ofSeconds(20)), "initial list");
      EmbeddedApiServerTest.ops(client, Kind.SANDBOX)
          .inNamespace(ns)
          .resource(sandbox(ns, "second"))
          .create();
      String seen = awaitLine(lines, "second", Duration.ofSeconds(5));
      assertNotNull(seen, "the new Sandbox within 5 s; lines so far: " + lines);
      assertEquals(List.of(ns, "second"), tokens(seen).subList(0, 2));
    } finally {
      p.destroy();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  static String awaitLine(BlockingQueue<String> lines, String containing, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    for (long left = within.toNanos(); left > 0; left = deadline - System.nanoTime()) {
      String l = lines.poll(left, TimeUnit.NANOSECONDS);
      if (l != null && l.contains(containing)) {
        return l;
      }
    }
    return null;
  }

  @Test
  void scaleChangesThePoolSpec() throws Exception {
    String ns = "scale";
    namespace(ns);
    EmbeddedApiServerTest.ops(client, Kind.SANDBOX_WARM_POOL)
        .inNamespace(ns)
        .resource(pool(ns, "python-pool", 1))
        .create();
    Result r = kubectl(null, "scale", "sandboxwarmpool/python-pool", "-n", ns, "--replicas=4");
    assertEquals(0, r.exit(), r.err());
    assertEquals("sandboxwarmpool.extensions.agents.x-k8s.io/python-pool scaled", r.out().strip());
    GenericKubernetesResource p =
        EmbeddedApiServerTest.ops(client, Kind.SANDBOX_WARM_POOL)
            .inNamespace(ns)
            .withName("python-pool")
            .get();
    assertEquals(4, ((Map<?, ?>) p.getAdditionalProperties().get("spec")).get("replicas"));
    // with a precondition on the current size (GET then PUT of the Scale)
    Result wrong =
        kubectl(null, "scale", "swp/python-pool", "-n", ns, "--current-replicas=2", "--replicas=6");
    assertNotEquals(0, wrong.exit());
    Result right =
        kubectl(null, "scale", "swp/python-pool", "-n", ns, "--current-replicas=4", "--replicas=6");
    assertEquals(0, right.exit(), right.err());
  }

  @Test
  void storedVersionsLoopPrintsV1beta1FourTimes() throws Exception {
    String loop =
        "for crd in sandboxes.agents.x-k8s.io sandboxclaims.extensions.agents.x-k8s.io"
            + " sandboxtemplates.extensions.agents.x-k8s.io"
            + " sandboxwarmpools.extensions.agents.x-k8s.io; do"
            + " kubectl get crd $crd -o jsonpath='{.status.storedVersions}'; echo; done";
    Result r = run(List.of("bash", "-c", loop), null);
    assertEquals(0, r.exit(), r.err());
    assertEquals(
        List.of("[\"v1beta1\"]", "[\"v1beta1\"]", "[\"v1beta1\"]", "[\"v1beta1\"]"), r.lines());
  }

  @Test
  void patchSuspendsAndResumesASandbox() throws Exception {
    String ns = "suspend";
    namespace(ns);
    EmbeddedApiServerTest.ops(client, Kind.SANDBOX)
        .inNamespace(ns)
        .resource(sandbox(ns, "s1"))
        .create();
    Result suspend =
        kubectl(
            null,
            "patch",
            "sandbox",
            "s1",
            "-n",
            ns,
            "--type=merge",
            "-p",
            "{\"spec\":{\"operatingMode\":\"Suspended\"}}");
    assertEquals(0, suspend.exit(), suspend.err());
    GenericKubernetesResource s =
        EmbeddedApiServerTest.ops(client, Kind.SANDBOX).inNamespace(ns).withName("s1").get();
    assertEquals(
        "Suspended", ((Map<?, ?>) s.getAdditionalProperties().get("spec")).get("operatingMode"));
    assertEquals(2L, s.getMetadata().getGeneration());
    Result resume =
        kubectl(
            null,
            "patch",
            "sandbox",
            "s1",
            "-n",
            ns,
            "--type=json",
            "-p",
            "[{\"op\":\"replace\",\"path\":\"/spec/operatingMode\",\"value\":\"Running\"}]");
    assertEquals(0, resume.exit(), resume.err());
    s = EmbeddedApiServerTest.ops(client, Kind.SANDBOX).inNamespace(ns).withName("s1").get();
    assertEquals(
        "Running", ((Map<?, ?>) s.getAdditionalProperties().get("spec")).get("operatingMode"));
    assertEquals(3L, s.getMetadata().getGeneration());
    // the containers list is untouched by either patch
    assertEquals(
        List.of(Map.of("name", "main", "image", "busybox")),
        ((Map<?, ?>)
                ((Map<?, ?>)
                        ((Map<?, ?>) s.getAdditionalProperties().get("spec")).get("podTemplate"))
                    .get("spec"))
            .get("containers"));
  }

  @Test
  void createInAMissingNamespaceFailsWithNotFound() throws Exception {
    Result r =
        kubectl(
            """
            apiVersion: agents.x-k8s.io/v1beta1
            kind: Sandbox
            metadata: {name: lost, namespace: nowhere}
            spec: {operatingMode: Running}
            """,
            "create",
            "-f",
            "-");
    assertNotEquals(0, r.exit());
    assertTrue(
        r.err().contains("Error from server (NotFound)")
            && r.err().contains("namespaces \"nowhere\" not found"),
        r.err());
  }
}
