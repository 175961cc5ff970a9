package org.sandboxslo.tests.artefacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.server.cli.Settings;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Renders {@code deploy/} (the kustomize base) and its overlays {@code read-only} and {@code
 * remediation} with the real {@code kubectl kustomize} and checks the objects: the set of kinds,
 * least-privilege RBAC (no wildcard anywhere; write verbs only on the election Lease outside the
 * remediation overlay; in it exactly the writes of the typed remediation actions), the Deployment
 * (replicas, probes on the management port, resources, security context, topology spread), that
 * Service, PodDisruptionBudget, NetworkPolicy and ServiceMonitor select its pods, that the settings
 * are keys the server accepts, the dashboards ConfigMaps, and the PrometheusRule (its groups are
 * those of {@code alerts/}; the extracted spec passes {@code promtool check rules}).
 *
 * <p>Skipped when {@code kubectl} is not on {@code PATH} (it is no Debian package of a recent
 * version); the promtool part is skipped without promtool.
 */
class DeployManifestsTest {
  static final String NS = "sandbox-slo";
  static final Set<String> READ_VERBS = Set.of("get", "list", "watch");

  static List<Map<String, Object>> base;
  static List<Map<String, Object>> readOnly;
  static List<Map<String, Object>> remediation;

  @BeforeAll
  static void render() {
    ExternalTool kubectl =
        ExternalTool.find("kubectl").map(p -> new ExternalTool("kubectl", p)).orElse(null);
    Assumptions.assumeTrue(kubectl != null, "kubectl not on PATH: deploy/ not rendered");
    Path deploy = Artefacts.repoRoot().resolve("deploy");
    base = render(kubectl, deploy);
    readOnly = render(kubectl, deploy.resolve("overlays/read-only"));
    remediation = render(kubectl, deploy.resolve("overlays/remediation"));
    System.out.printf(
        "rendered objects: base %d, read-only %d, remediation %d%n",
        base.size(), readOnly.size(), remediation.size());
  }

  static List<Map<String, Object>> render(ExternalTool kubectl, Path dir) {
    ExternalTool.Result r =
        kubectl.run(dir, Duration.ofSeconds(60), List.of("kustomize", dir.toString()));
    assertEquals(0, r.exitCode(), "kubectl kustomize " + dir + " failed:\n" + r.output());
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(r.output())) {
      if (doc != null) {
        out.add(Artefacts.cast(doc));
      }
    }
    return out;
  }

  // ---- helpers over plain maps --------------------------------------------------------------

  static Map<String, Object> map(Object o, String... path) {
    Object cur = o;
    for (String p : path) {
      cur = cur == null ? null : ((Map<?, ?>) cur).get(p);
    }
    return cur == null ? Map.of() : Artefacts.cast(cur);
  }

  static Object at(Object o, String... path) {
    Object cur = o;
    for (String p : path) {
      cur = cur == null ? null : ((Map<?, ?>) cur).get(p);
    }
    return cur;
  }

  static String kind(Map<String, Object> o) {
    return String.valueOf(o.get("kind"));
  }

  static String name(Map<String, Object> o) {
    return String.valueOf(at(o, "metadata", "name"));
  }

  static List<Map<String, Object>> ofKind(List<Map<String, Object>> objs, String kind) {
    return objs.stream().filter(o -> kind.equals(kind(o))).toList();
  }

  static Map<String, Object> one(List<Map<String, Object>> objs, String kind) {
    List<Map<String, Object>> all = ofKind(objs, kind);
    assertEquals(1, all.size(), "one " + kind + " expected, got " + all.size());
    return all.get(0);
  }

  static Map<String, Long> kindCounts(List<Map<String, Object>> objs) {
    return objs.stream()
        .collect(
            Collectors.groupingBy(DeployManifestsTest::kind, TreeMap::new, Collectors.counting()));
  }

  static List<String> strings(Object o) {
    return Artefacts.<List<Object>>cast(o == null ? List.of() : o).stream()
        .map(String::valueOf)
        .toList();
  }

  /** Whether a label selector's matchLabels all hold on {@code labels}. */
  static boolean selects(Map<String, Object> matchLabels, Map<String, Object> labels) {
    return !matchLabels.isEmpty()
        && matchLabels.entrySet().stream()
            .allMatch(
                e -> String.valueOf(e.getValue()).equals(String.valueOf(labels.get(e.getKey()))));
  }

  /** One RBAC rule flattened: (role kind/name, apiGroup, resource, verb, resourceNames). */
  record Grant(String role, String group, String resource, String verb, List<String> names) {}

  static List<Grant> grants(List<Map<String, Object>> objs) {
    List<Grant> out = new ArrayList<>();
    for (Map<String, Object> r : objs) {
      if (!kind(r).equals("Role") && !kind(r).equals("ClusterRole")) {
        continue;
      }
      for (Map<String, Object> rule : Artefacts.list(r.get("rules"))) {
        for (String g : strings(rule.get("apiGroups"))) {
          for (String res : strings(rule.get("resources"))) {
            for (String v : strings(rule.get("verbs"))) {
              out.add(
                  new Grant(
                      kind(r) + "/" + name(r), g, res, v, strings(rule.get("resourceNames"))));
            }
          }
        }
      }
    }
    return out;
  }

  // ---- tests --------------------------------------------------------------------------------

  @Test
  void baseHasEveryObject() {
    Map<String, Long> expected = new TreeMap<>();
    for (String k :
        List.of(
            "Namespace",
            "ServiceAccount",
            "ClusterRole",
            "ClusterRoleBinding",
            "Role",
            "RoleBinding",
            "Deployment",
            "Service",
            "PodDisruptionBudget",
            "NetworkPolicy",
            "ServiceMonitor",
            "PrometheusRule",
            "Secret")) {
      expected.put(k, 1L);
    }
    // the settings ConfigMap and one per dashboard
    expected.put("ConfigMap", 1L + dashboardFiles().size());
    assertEquals(expected, kindCounts(base));
    for (Map<String, Object> o : base) {
      boolean clusterScoped =
          Set.of("Namespace", "ClusterRole", "ClusterRoleBinding").contains(kind(o));
      assertEquals(
          clusterScoped ? null : NS, at(o, "metadata", "namespace"), kind(o) + " " + name(o));
    }
    assertEquals(NS, name(one(base, "Namespace")));
  }

  @Test
  void overlaysAddOnlyTheRemediationRole() {
    assertEquals(kindCounts(base), kindCounts(readOnly));
    Map<String, Long> expected = new TreeMap<>(kindCounts(base));
    expected.merge("ClusterRole", 1L, Long::sum);
    expected.merge("ClusterRoleBinding", 1L, Long::sum);
    assertEquals(expected, kindCounts(remediation));
  }

  @Test
  void noWildcardInAnyRole() {
    for (List<Map<String, Object>> render : List.of(base, readOnly, remediation)) {
      for (Grant g : grants(render)) {
        assertFalse(
            g.group().contains("*")
                || g.resource().contains("*")
                || g.verb().contains("*")
                || g.names().contains("*"),
            "wildcard in " + g);
      }
    }
  }

  @Test
  void readsCoverTheFourKindsOfTheUpstreamCrdsPodsAndEvents() throws IOException {
    // (group, plural) of every upstream CRD, read from the CRD files themselves
    Set<String> expected = new TreeSet<>(Set.of("/pods", "/events"));
    Path crds = Path.of(System.getProperty("shared.dir"), "upstream/agent-sandbox/k8s/crds");
    Assumptions.assumeTrue(Files.isDirectory(crds), crds + " absent");
    for (Path f : Artefacts.filesEndingWith(crds, ".yaml")) {
      Map<String, Object> crd = Artefacts.loadYaml(f);
      expected.add(at(crd, "spec", "group") + "/" + at(crd, "spec", "names", "plural"));
    }
    assertEquals(6, expected.size(), "4 kinds + pods + events: " + expected);
    for (List<Map<String, Object>> render : List.of(base, readOnly, remediation)) {
      for (String verb : READ_VERBS) {
        Set<String> granted =
            grants(render).stream()
                .filter(g -> g.verb().equals(verb) && g.names().isEmpty())
                .filter(g -> g.role().startsWith("ClusterRole/"))
                .map(g -> g.group() + "/" + g.resource())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, granted, verb + " cluster-wide");
      }
    }
  }

  @Test
  void writesOutsideTheRemediationOverlayOnlyOnTheElectionLease() {
    for (List<Map<String, Object>> render : List.of(base, readOnly)) {
      List<Grant> writes =
          grants(render).stream().filter(g -> !READ_VERBS.contains(g.verb())).toList();
      assertFalse(writes.isEmpty(), "the election Lease needs create and update");
      for (Grant g : writes) {
        assertEquals("coordination.k8s.io/leases", g.group() + "/" + g.resource(), "" + g);
        assertTrue(g.role().startsWith("Role/"), "namespaced only: " + g);
      }
      // update is limited to the one Lease named in the settings
      String leaseName = consoleEnv(render).get("SLOCONSOLE_LEADER_LEASE_NAME");
      for (Grant g : writes) {
        if (g.verb().equals("update")) {
          assertEquals(List.of(leaseName), g.names());
        }
      }
      Set<String> verbs = writes.stream().map(Grant::verb).collect(Collectors.toSet());
      assertEquals(Set.of("create", "update"), verbs);
    }
  }

  @Test
  void remediationOverlayGrantsExactlyTheWritesOfTheTypedActions() {
    Set<String> writes =
        grants(remediation).stream()
            .filter(g -> !READ_VERBS.contains(g.verb()))
            .filter(g -> !g.resource().equals("leases"))
            .map(
                g ->
                    g.group()
                        + "/"
                        + g.resource()
                        + ":"
                        + g.verb()
                        + (g.names().isEmpty() ? "" : g.names()))
            .collect(Collectors.toCollection(TreeSet::new));
    // ClusterOps: deleteStaleMember, patchPoolSpec, createPool, deleteExpiredClaim,
    // setRefillRateArg (fabric8 edit = PATCH on the named controller Deployment)
    assertEquals(
        new TreeSet<>(
            Set.of(
                "agents.x-k8s.io/sandboxes:delete",
                "extensions.agents.x-k8s.io/sandboxwarmpools:create",
                "extensions.agents.x-k8s.io/sandboxwarmpools:patch",
                "extensions.agents.x-k8s.io/sandboxclaims:delete",
                "apps/deployments:patch[agent-sandbox-controller]")),
        writes);
    Map<String, Object> binding =
        ofKind(remediation, "ClusterRoleBinding").stream()
            .filter(b -> name(b).contains("remediation"))
            .findFirst()
            .orElseThrow();
    Map<String, Object> subject = Artefacts.list(binding.get("subjects")).get(0);
    assertEquals("ServiceAccount", subject.get("kind"));
    assertEquals(name(one(remediation, "ServiceAccount")), subject.get("name"));
    assertEquals(NS, subject.get("namespace"));
  }

  @Test
  void deploymentIsHardened() {
    Map<String, Object> d = one(base, "Deployment");
    assertEquals(2, at(d, "spec", "replicas"));
    Map<String, Object> pod = map(d, "spec", "template", "spec");
    assertEquals(name(one(base, "ServiceAccount")), pod.get("serviceAccountName"));
    assertEquals(true, at(pod, "securityContext", "runAsNonRoot"));
    assertTrue(((Number) at(pod, "securityContext", "runAsUser")).intValue() > 0);
    Map<String, Object> podLabels = map(d, "spec", "template", "metadata", "labels");
    List<Map<String, Object>> spread = Artefacts.list(pod.get("topologySpreadConstraints"));
    assertTrue(
        spread.stream().anyMatch(s -> "kubernetes.io/hostname".equals(s.get("topologyKey"))));
    spread.forEach(s -> assertTrue(selects(map(s, "labelSelector", "matchLabels"), podLabels)));
    assertTrue(selects(map(d, "spec", "selector", "matchLabels"), podLabels));

    Map<String, Object> c = Artefacts.list(pod.get("containers")).get(0);
    Map<String, Object> ports = new LinkedHashMap<>();
    Artefacts.list(c.get("ports"))
        .forEach(p -> ports.put(String.valueOf(p.get("name")), p.get("containerPort")));
    assertEquals(Map.of("http", 8080, "management", 8081), ports);
    assertEquals("/healthz", at(c, "livenessProbe", "httpGet", "path"));
    assertEquals("/readyz", at(c, "readinessProbe", "httpGet", "path"));
    for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
      assertEquals(8081, ports.get(String.valueOf(at(c, probe, "httpGet", "port"))), probe);
    }
    assertNotNull(at(c, "resources", "requests", "cpu"));
    assertNotNull(at(c, "resources", "requests", "memory"));
    assertNotNull(at(c, "resources", "limits", "memory"));
    assertEquals(true, at(c, "securityContext", "readOnlyRootFilesystem"));
    assertEquals(false, at(c, "securityContext", "allowPrivilegeEscalation"));
    assertEquals(List.of("ALL"), strings(at(c, "securityContext", "capabilities", "drop")));
    // the read-only root needs a writable /tmp (the image's working directory and Vert.x cache)
    assertTrue(
        Artefacts.list(c.get("volumeMounts")).stream()
            .anyMatch(m -> "/tmp".equals(m.get("mountPath"))));

    // envFrom names exist after kustomize's hash suffixes
    Set<String> configMaps =
        ofKind(base, "ConfigMap").stream()
            .map(DeployManifestsTest::name)
            .collect(Collectors.toSet());
    Set<String> secrets =
        ofKind(base, "Secret").stream().map(DeployManifestsTest::name).collect(Collectors.toSet());
    for (Map<String, Object> e : Artefacts.list(c.get("envFrom"))) {
      if (e.containsKey("configMapRef")) {
        assertTrue(configMaps.contains(String.valueOf(at(e, "configMapRef", "name"))), "" + e);
      } else {
        assertTrue(secrets.contains(String.valueOf(at(e, "secretRef", "name"))), "" + e);
      }
    }
  }

  @Test
  void serviceBudgetPolicyAndMonitorSelectTheConsolePods() {
    Map<String, Object> podLabels =
        map(one(base, "Deployment"), "spec", "template", "metadata", "labels");
    Map<String, Object> svc = one(base, "Service");
    assertTrue(selects(map(svc, "spec", "selector"), podLabels));
    Map<String, Object> pdb = one(base, "PodDisruptionBudget");
    assertTrue(selects(map(pdb, "spec", "selector", "matchLabels"), podLabels));
    assertEquals(1, at(pdb, "spec", "minAvailable"), "one of the two replicas may be evicted");
    Map<String, Object> np = one(base, "NetworkPolicy");
    assertTrue(selects(map(np, "spec", "podSelector", "matchLabels"), podLabels));
    assertEquals(List.of("Ingress", "Egress"), strings(at(np, "spec", "policyTypes")));
    Set<Object> ingressPorts = new TreeSet<>();
    for (Map<String, Object> rule : Artefacts.list(at(np, "spec", "ingress"))) {
      Artefacts.list(rule.get("ports"))
          .forEach(p -> ingressPorts.add(String.valueOf(p.get("port"))));
    }
    assertEquals(Set.of("8080", "8081"), ingressPorts);

    Map<String, Object> sm = one(base, "ServiceMonitor");
    assertTrue(selects(map(sm, "spec", "selector", "matchLabels"), map(svc, "metadata", "labels")));
    Map<String, Object> endpoint = Artefacts.list(at(sm, "spec", "endpoints")).get(0);
    Set<String> svcPorts =
        Artefacts.list(at(svc, "spec", "ports")).stream()
            .map(p -> String.valueOf(p.get("name")))
            .collect(Collectors.toSet());
    assertTrue(svcPorts.contains(String.valueOf(endpoint.get("port"))));
    assertEquals("management", endpoint.get("port"));
    assertEquals("/metrics", endpoint.get("path"));
    // the alerts query up{job="sandbox-slo-console"} and rely on honor_labels
    assertEquals(true, endpoint.get("honorLabels"));
    assertEquals("sandbox-slo-console", name(svc), "the job name the alerts expect");
  }

  static Map<String, String> consoleEnv(List<Map<String, Object>> render) {
    Map<String, String> env = new TreeMap<>();
    for (Map<String, Object> cm : ofKind(render, "ConfigMap")) {
      if (!map(cm, "metadata", "labels").containsKey("grafana_dashboard")) {
        map(cm, "data").forEach((k, v) -> env.put(k, String.valueOf(v)));
      }
    }
    for (Map<String, Object> s : ofKind(render, "Secret")) {
      map(s, "data")
          .forEach(
              (k, v) ->
                  env.put(
                      k,
                      new String(
                          java.util.Base64.getMimeDecoder().decode(String.valueOf(v)),
                          java.nio.charset.StandardCharsets.UTF_8)));
    }
    return env;
  }

  @Test
  void settingsAreKeysTheServerAccepts() {
    Map<String, String> env = consoleEnv(base);
    assertTrue(env.containsKey("SLOCONSOLE_DB_URL"), "the database URL comes from the Secret");
    assertTrue(env.containsKey("SLOCONSOLE_DB_PASSWORD"));
    assertTrue(env.containsKey("SLOCONSOLE_AUTH_TOKENS"));
    // the server's own merge and the console config reject unknown keys and bad values
    Map<String, String> keys = Settings.merge(null, env, Map.of());
    ConsoleConfig console = ConsoleConfig.fromMap(keys);
    assertEquals("0.0.0.0", console.httpHost());
    assertEquals(8081, console.managementPort());
    assertFalse(console.embeddedDatabase());
    assertEquals(Duration.ofDays(30), console.retention());
  }

  static List<Path> dashboardFiles() {
    return Artefacts.filesEndingWith(Artefacts.dashboardsDir(), ".json");
  }

  @Test
  void everyDashboardIsAConfigMapForTheGrafanaSidecar() throws IOException {
    Map<String, String> fromConfigMaps = new TreeMap<>();
    for (Map<String, Object> cm : ofKind(base, "ConfigMap")) {
      if ("1".equals(map(cm, "metadata", "labels").get("grafana_dashboard"))) {
        map(cm, "data").forEach((k, v) -> fromConfigMaps.put(k, String.valueOf(v)));
      }
    }
    Map<String, String> files = new TreeMap<>();
    for (Path f : dashboardFiles()) {
      files.put(f.getFileName().toString(), Files.readString(f));
    }
    assertEquals(4, files.size(), "dashboards: " + files.keySet());
    assertEquals(files, fromConfigMaps, "dashboards/*.json and the rendered ConfigMaps differ");
  }

  /** The groups of the rules files users install, by group name. */
  static Map<String, Object> alertGroups() {
    Map<String, Object> groups = new TreeMap<>();
    for (Path f : Artefacts.rulesFiles()) {
      for (Map<String, Object> g : Artefacts.list(Artefacts.loadYaml(f).get("groups"))) {
        assertEquals(
            null, groups.put(String.valueOf(g.get("name")), g), "group twice: " + g.get("name"));
      }
    }
    return groups;
  }

  @Test
  void prometheusRuleCarriesTheGroupsOfAlerts() {
    Map<String, Object> rule = one(base, "PrometheusRule");
    Map<String, Object> rendered = new TreeMap<>();
    for (Map<String, Object> g : Artefacts.list(at(rule, "spec", "groups"))) {
      rendered.put(String.valueOf(g.get("name")), g);
    }
    assertEquals(
        alertGroups(),
        rendered,
        "deploy/prometheusrule.yaml is out of date with alerts/: regenerate it"
            + " (generate-rules --format prometheusrule)");
  }

  @Test
  void prometheusRuleSpecPassesPromtool(@TempDir Path dir) throws IOException {
    ExternalTool promtool =
        ExternalTool.find("promtool").map(p -> new ExternalTool("promtool", p)).orElse(null);
    Assumptions.assumeTrue(promtool != null, "promtool not on PATH (apt-get install prometheus)");
    Map<String, Object> spec = map(one(base, "PrometheusRule"), "spec");
    DumperOptions o = new DumperOptions();
    o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    Path all = dir.resolve("spec.rules.yml");
    Files.writeString(all, new Yaml(o).dump(spec));
    ExternalTool.Result r = promtool.run(dir, "check", "rules", all.toString());
    assertEquals(0, r.exitCode(), r.output());
    // group by group with lint errors fatal (the SLO groups share series names across groups)
    int rules = 0;
    for (Map<String, Object> g : Artefacts.list(spec.get("groups"))) {
      Path f = dir.resolve(g.get("name") + ".rules.yml");
      Files.writeString(f, new Yaml(o).dump(Map.of("groups", List.of(g))));
      ExternalTool.Result one = promtool.run(dir, "check", "rules", "--lint-fatal", f.toString());
      assertEquals(0, one.exitCode(), one.output());
      rules += Artefacts.list(g.get("rules")).size();
    }
    assertEquals(
        alertGroups().values().stream()
            .mapToInt(g -> Artefacts.list(map(g).get("rules")).size())
            .sum(),
        rules);
  }
}
