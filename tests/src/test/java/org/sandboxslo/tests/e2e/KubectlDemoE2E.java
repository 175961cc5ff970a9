package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.sandboxslo.demo.DemoApp;

/**
 * The operator's commands of the agent-sandbox docs, run with the real {@code kubectl} against the
 * running demo through the kubeconfig it writes (issue 7, Done means 3): discovery with short
 * names, printer columns, namespaces, {@code apply} twice, {@code get -w}, {@code scale}, the
 * storedVersions upgrade gate, and suspend/resume by {@code kubectl patch} arriving in the
 * console's resume SLIs. Every kubectl call is a subprocess bounded by a timeout; the class is
 * skipped when kubectl is not installed ({@code .ci/run} installs Debian's kubernetes-client).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlDemoE2E {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir static Path dir;
  DemoApp app;
  String kubectl;

  record Result(int exit, String out, String err) {
    List<String> lines() {
      return out.lines().toList();
    }
  }

  @BeforeAll
  void start() {
    kubectl = kubectlPath();
    Assumptions.assumeTrue(kubectl != null, "kubectl is not installed");
    Map<String, String> settings = Demo.settings(dir);
    settings.put("sloconsole.load.enabled", "false");
    settings.put("sloconsole.controller.cold-start-p50", "200ms");
    settings.put("sloconsole.controller.cold-start-p95", "500ms");
    settings.put("sloconsole.controller.resume-p50", "300ms");
    settings.put("sloconsole.controller.resume-p95", "600ms");
    app = DemoApp.start(settings, List.of(), Map.of(), e -> fail("apply error: " + e));
    Demo.awaitReady(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  static String kubectlPath() {
    for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(p, "kubectl"))) {
        return Path.of(p, "kubectl").toString();
      }
    }
    return null;
  }

  ProcessBuilder process(List<String> command) {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("KUBECONFIG", app.kubeconfig().toString());
    pb.environment().put("HOME", dir.toString()); // kubectl's discovery cache stays in the test
    return pb;
  }

  Result kubectl(String stdin, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(kubectl));
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

  Result ok(String stdin, String... args) throws Exception {
    Result r = kubectl(stdin, args);
    assertEquals(0, r.exit(), "kubectl " + String.join(" ", args) + ": " + r.err());
    return r;
  }

  static List<String> tokens(String line) {
    return List.of(line.trim().split("\\s+"));
  }

  /** The cells of a table line, cut at the header's column starts (empty cells stay empty). */
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

  static String template(String ns, String name, String image) {
    return """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxTemplate
        metadata:
          name: %s
          namespace: %s
        spec:
          podTemplate:
            spec:
              containers:
              - name: main
                image: %s
        """
        .formatted(name, ns, image);
  }

  @Test
  void apiResourcesListsTheFourKindsWithShortNames() throws Exception {
    Result r = ok(null, "api-resources");
    List<List<String>> rows =
        r.lines().stream().map(KubectlDemoE2E::tokens).filter(t -> t.size() == 5).toList();
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
  }

  @Test
  void getWarmPoolsShowsReadyAndDesiredOfTheDemoPools() {
    // the demo's pools (python-runtime-pool 8, node-runtime-pool 4) fill up: READY reaches DESIRED
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Result r = ok(null, "get", "sandboxwarmpools", "-A");
              String header = r.lines().get(0);
              assertEquals(List.of("NAMESPACE", "NAME", "READY", "DESIRED", "AGE"), tokens(header));
              List<List<String>> demo =
                  r.lines().stream()
                      .skip(1)
                      .map(l -> cells(header, l))
                      .filter(c -> c.get(0).equals("demo"))
                      .map(c -> c.subList(0, 4))
                      .toList();
              assertTrue(demo.contains(List.of("demo", "python-runtime-pool", "8", "8")), r.out());
              assertTrue(demo.contains(List.of("demo", "node-runtime-pool", "4", "4")), r.out());
            });
  }

  @Test
  void createNamespaceThenApplyATemplateTwiceLeavesOneContainer() throws Exception {
    assertEquals(
        "namespace/kubectl-apply created",
        ok(null, "create", "namespace", "kubectl-apply").out().strip());
    assertEquals(
        "sandboxtemplate.extensions.agents.x-k8s.io/py created",
        ok(template("kubectl-apply", "py", "python:3.12"), "apply", "-f", "-").out().strip());
    assertEquals(
        "sandboxtemplate.extensions.agents.x-k8s.io/py configured",
        ok(template("kubectl-apply", "py", "python:3.13"), "apply", "-f", "-").out().strip());
    // one container with the new image (a merge patch replaces the list, never appends)
    assertEquals(
        "main=python:3.13",
        ok(
                null,
                "get",
                "sandboxtemplate",
                "py",
                "-n",
                "kubectl-apply",
                "-o",
                "jsonpath={range .spec.podTemplate.spec.containers[*]}{.name}={.image}{end}")
            .out());
    // and the console saw the template in the new namespace
    await()
        .atMost(WAIT)
        .until(() -> Http.get(Demo.api(app, "/api/v1/templates/kubectl-apply/py")).status() == 200);
  }

  @Test
  void getSandboxesWatchShowsANewSandboxWithinFiveSeconds() throws Exception {
    ok(null, "create", "namespace", "kubectl-watch");
    Process p =
        process(List.of(kubectl, "get", "sandboxes", "-A", "-w")).redirectErrorStream(true).start();
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
      // the initial list shows the demo's pool members
      assertNotNull(awaitLine(lines, "python-runtime-pool-", Duration.ofSeconds(20)), "list");
      ok(
          """
          apiVersion: agents.x-k8s.io/v1beta1
          kind: Sandbox
          metadata: {name: watched, namespace: kubectl-watch}
          spec:
            operatingMode: Running
            podTemplate: {spec: {containers: [{name: main, image: busybox}]}}
          """,
          "apply",
          "-f",
          "-");
      String seen = awaitLine(lines, "watched", Duration.ofSeconds(5));
      assertNotNull(seen, "the new Sandbox within 5 s of the apply; lines so far: " + lines);
      assertEquals(List.of("kubectl-watch", "watched"), tokens(seen).subList(0, 2));
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
  void scaleExitsZeroAndTheConsoleSeesTheNewSize() throws Exception {
    ok(null, "create", "namespace", "kubectl-scale");
    ok(template("kubectl-scale", "go", "golang:1.23"), "apply", "-f", "-");
    ok(
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxWarmPool
        metadata: {name: go-pool, namespace: kubectl-scale}
        spec: {replicas: 1, sandboxTemplateRef: {name: go}}
        """,
        "apply",
        "-f",
        "-");
    Result r = ok(null, "scale", "swp/go-pool", "-n", "kubectl-scale", "--replicas=3");
    assertEquals("sandboxwarmpool.extensions.agents.x-k8s.io/go-pool scaled", r.out().strip());
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertEquals(
                    3,
                    Http.get(Demo.api(app, "/api/v1/pools/kubectl-scale/go-pool"))
                        .json()
                        .path("pool")
                        .path("replicas")
                        .asInt()));
  }

  @Test
  void storedVersionsLoopPrintsV1beta1FourTimes() throws Exception {
    // the upgrade gate of the agent-sandbox docs, verbatim but for the kubectl path
    String loop =
        "for crd in sandboxes.agents.x-k8s.io sandboxclaims.extensions.agents.x-k8s.io"
            + " sandboxtemplates.extensions.agents.x-k8s.io"
            + " sandboxwarmpools.extensions.agents.x-k8s.io; do '"
            + kubectl
            + "' get crd $crd -o jsonpath='{.status.storedVersions}'; echo; done";
    Result r = run(List.of("bash", "-c", loop), null);
    assertEquals(0, r.exit(), r.err());
    assertEquals(
        List.of("[\"v1beta1\"]", "[\"v1beta1\"]", "[\"v1beta1\"]", "[\"v1beta1\"]"), r.lines());
  }

  static JsonNode resume5m(JsonNode template) {
    return template.path("windows").path("5m").path("resume");
  }

  @Test
  void suspendAndResumeByKubectlPatchShowUpInTheResumeSlis() throws Exception {
    String tpl = "/api/v1/templates/demo/node-runtime";
    // claim only from a full pool, so the claim is served at once
    await()
        .atMost(WAIT)
        .until(
            () ->
                Http.get(Demo.api(app, "/api/v1/pools/demo/node-runtime-pool"))
                        .json()
                        .path("pool")
                        .path("readyFractionCurrentTemplate")
                        .asDouble()
                    == 1.0);
    assertEquals(0, resume5m(Http.get(Demo.api(app, tpl)).json()).path("attempts").asLong());
    ok(
        """
        apiVersion: extensions.agents.x-k8s.io/v1beta1
        kind: SandboxClaim
        metadata: {name: kubectl-claim, namespace: demo}
        spec: {warmPoolRef: {name: node-runtime-pool}}
        """,
        "apply",
        "-f",
        "-");
    String sandbox =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    kubectl(
                            null,
                            "get",
                            "sandboxclaim",
                            "kubectl-claim",
                            "-n",
                            "demo",
                            "-o",
                            "jsonpath={.metadata.annotations.agents\\.x-k8s\\.io/sandbox-name}")
                        .out()
                        .strip(),
                s -> !s.isEmpty());
    String condition = "jsonpath={.status.conditions[?(@.type==\"%s\")].status}";
    await()
        .atMost(WAIT)
        .until(
            () ->
                kubectl(
                        null,
                        "get",
                        "sandbox",
                        sandbox,
                        "-n",
                        "demo",
                        "-o",
                        condition.formatted("Ready"))
                    .out()
                    .equals("True"));

    // spec.operatingMode per upstream v1beta1: Suspended, then Running again
    ok(
        null,
        "patch",
        "sandbox",
        sandbox,
        "-n",
        "demo",
        "--type",
        "merge",
        "-p",
        "{\"spec\":{\"operatingMode\":\"Suspended\"}}");
    await()
        .atMost(WAIT)
        .until(
            () ->
                kubectl(
                        null,
                        "get",
                        "sandbox",
                        sandbox,
                        "-n",
                        "demo",
                        "-o",
                        condition.formatted("Suspended"))
                    .out()
                    .equals("True"));
    ok(
        null,
        "patch",
        "sandbox",
        sandbox,
        "-n",
        "demo",
        "--type",
        "merge",
        "-p",
        "{\"spec\":{\"operatingMode\":\"Running\"}}");

    // one resume attempt, successful, with its latency, in the console's template SLIs
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode resume = resume5m(Http.get(Demo.api(app, tpl)).json());
              assertEquals(1, resume.path("attempts").asLong(), resume.toString());
              assertEquals(0, resume.path("errors").asLong(), resume.toString());
              assertEquals(0.0, resume.path("errorRatio").asDouble(), resume.toString());
              assertTrue(
                  resume.path("latencySeconds").path("count").asLong() == 1, resume.toString());
            });
  }
}
