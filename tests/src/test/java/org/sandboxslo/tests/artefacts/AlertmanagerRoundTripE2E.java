package org.sandboxslo.tests.artefacts;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.demo.DemoApp;
import org.sandboxslo.engine.model.Kind;

/**
 * The Alertmanager round trip with real parts: the demo (controller-lite, embedded API server,
 * embedded PostgreSQL) changes a template under its pools; a real Prometheus scrapes the console
 * and evaluates the repository's own rules ({@code alerts/sandbox-sli.rules.yml}; only the {@code
 * for:} durations are shortened to 2 s so the test takes seconds, not 15 minutes); a real
 * Alertmanager routes the alerts to the console's webhook with a bearer token. Then: the incident
 * is shown and linked to its finding; a silence made through the console is visible to {@code
 * amtool silence query} and expires when expired from the console; a plan's own silence lives
 * exactly while the plan executes; a group truncated by {@code max_alerts} is marked incomplete and
 * re-read from Alertmanager's API v2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AlertmanagerRoundTripE2E {
  static final String INSTALL = "apt-get install prometheus prometheus-alertmanager";
  static final String NS = "demo";
  static final String POOL = "python-runtime-pool";
  static final String ALICE = "token-alice";
  static final String BOB = "token-bob";
  static final String WEBHOOK_TOKEN = "webhook-token-e2e";
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir static Path dir;
  ExternalTool amtool;
  RunningAlertmanager am;
  Process prometheus;
  DemoApp app;
  int httpPort;
  int mgmtPort;

  /** A local HTTP receiver standing in for the chat channel's incoming webhook. */
  com.sun.net.httpserver.HttpServer channel;

  final java.util.Queue<String> channelTexts = new java.util.concurrent.ConcurrentLinkedQueue<>();

  @BeforeAll
  void start() throws Exception {
    ExternalTool alertmanager = ExternalTool.require("prometheus-alertmanager", INSTALL);
    ExternalTool prom = ExternalTool.require("prometheus", INSTALL);
    amtool = ExternalTool.require("amtool", INSTALL);
    httpPort = freePort();
    mgmtPort = freePort();
    Path amConfig = dir.resolve("alertmanager.yml");
    String webhook = "http://127.0.0.1:" + httpPort + "/hooks/alertmanager";
    Files.writeString(
        amConfig,
        String.join(
            "\n",
            "route:",
            "  receiver: sandbox-slo-console",
            "  group_by: [alertname, namespace, warmpool_name]",
            "  group_wait: 1s",
            "  group_interval: 2s",
            "  repeat_interval: 1h",
            "  routes:",
            "    - matchers: [alertname=\"TruncationProbe\"]",
            "      receiver: console-max-one",
            "      group_by: [alertname]",
            "receivers:",
            "  - name: sandbox-slo-console",
            "    webhook_configs:",
            "      - url: " + webhook,
            "        send_resolved: true",
            "        http_config: {authorization: {type: Bearer, credentials: "
                + WEBHOOK_TOKEN
                + "}}",
            "  - name: console-max-one",
            "    webhook_configs:",
            "      - url: " + webhook,
            "        max_alerts: 1",
            "        http_config: {authorization: {type: Bearer, credentials: "
                + WEBHOOK_TOKEN
                + "}}",
            ""));
    Files.createDirectories(dir.resolve("am"));
    am = RunningAlertmanager.start(alertmanager, amConfig, dir.resolve("am"));

    channel =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    channel.createContext(
        "/services/",
        ex -> {
          try (ex) {
            channelTexts.add(JSON.readTree(ex.getRequestBody()).path("text").asText());
            ex.sendResponseHeaders(200, -1);
          }
        });
    channel.start();
    Map<String, String> s = new HashMap<>();
    s.put("sloconsole.http.port", String.valueOf(httpPort));
    s.put("sloconsole.management.port", String.valueOf(mgmtPort));
    s.put("sloconsole.db.data-dir", dir.resolve("pg").toString());
    s.put("sloconsole.db.work-dir", dir.resolve("pg-bin").toString());
    s.put("sloconsole.app.kubeconfig", dir.resolve("kubeconfig").toString());
    s.put("sloconsole.load.enabled", "false");
    s.put("sloconsole.controller.cold-start-p50", "300ms");
    s.put("sloconsole.controller.cold-start-p95", "800ms");
    s.put("sloconsole.remediation.poll-interval", "200ms");
    s.put(
        "sloconsole.auth.tokens",
        "alice:" + ALICE + ":operator+approver,bob:" + BOB + ":approver:demo+viewer");
    s.put("sloconsole.alertmanager.url", am.base().toString());
    s.put("sloconsole.alertmanager.webhook-token", WEBHOOK_TOKEN);
    s.put("sloconsole.alertmanager.plan-step-duration", "2m");
    s.put("sloconsole.chatops.slack.response-url-hosts", "127.0.0.1");
    s.put(
        "sloconsole.chatops.slack.notify-url",
        "http://127.0.0.1:" + channel.getAddress().getPort() + "/services/T0/B0/e2e");
    List<String> errors = new ArrayList<>();
    app = DemoApp.start(s, List.of(), Map.of(), errors::add);
    assertEquals(List.of(), errors);
    await().atMost(Duration.ofSeconds(60)).until(() -> get(mgmt("/readyz")).statusCode() == 200);
    await().atMost(Duration.ofSeconds(90)).until(() -> readyMembers() == 8);

    // the repository's rules, `for:` shortened; the console scraped as alerts/README.md says
    String rules =
        Files.readString(Artefacts.alertsDir().resolve("sandbox-sli.rules.yml"))
            .replaceAll("(?m)^(\\s+)for: \\d+[smh]$", "$1for: 2s");
    Path rulesFile = dir.resolve("sandbox-sli.rules.yml");
    Files.writeString(rulesFile, rules);
    int promPort = freePort();
    Path promConfig = dir.resolve("prometheus.yml");
    Files.writeString(
        promConfig,
        String.join(
            "\n",
            "global: {scrape_interval: 1s, evaluation_interval: 1s}",
            "rule_files: ['" + rulesFile + "']",
            "alerting:",
            "  alertmanagers: [{static_configs: [{targets: ['"
                + am.base().getAuthority()
                + "']}]}]",
            "scrape_configs:",
            "  - job_name: sandbox-slo-console",
            "    honor_labels: true",
            "    static_configs: [{targets: ['127.0.0.1:" + mgmtPort + "']}]",
            ""));
    prometheus =
        new ProcessBuilder(
                prom.executable().toString(),
                "--config.file=" + promConfig,
                "--storage.tsdb.path=" + dir.resolve("prom"),
                "--web.listen-address=127.0.0.1:" + promPort,
                "--rules.alert.resend-delay=1s")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
  }

  @AfterAll
  void stop() throws Exception {
    if (prometheus != null) {
      prometheus.destroy();
      if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    if (app != null) {
      app.close();
    }
    if (am != null) {
      am.close();
    }
    if (channel != null) {
      channel.stop(0);
    }
  }

  String api(String path) {
    return "http://127.0.0.1:" + httpPort + path;
  }

  String mgmt(String path) {
    return "http://127.0.0.1:" + mgmtPort + path;
  }

  static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> send(String method, String url, String token, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonNode json(HttpResponse<String> r) throws IOException {
    return JSON.readTree(r.body());
  }

  long readyMembers() {
    return Resources.ops(app.client(), Kind.SANDBOX).inNamespace(NS).list().getItems().stream()
        .filter(
            x -> {
              var o = Resources.controllerOwner(x);
              return o != null
                  && "SandboxWarmPool".equals(o.getKind())
                  && POOL.equals(o.getName())
                  && x.getMetadata().getDeletionTimestamp() == null
                  && Resources.isTrue(x, "Ready");
            })
        .count();
  }

  @SuppressWarnings("unchecked")
  void setImage(String template, String image) {
    GenericKubernetesResource t =
        Resources.ops(app.client(), Kind.SANDBOX_TEMPLATE).inNamespace(NS).withName(template).get();
    Map<String, Object> c =
        (Map<String, Object>)
            Resources.list(
                    Resources.map(Resources.map(Resources.spec(t), "podTemplate"), "spec"),
                    "containers")
                .get(0);
    c.put("image", image);
    Resources.ops(app.client(), Kind.SANDBOX_TEMPLATE).inNamespace(NS).resource(t).update();
  }

  /** {@code amtool silence query -q} (ids of active silences), or with {@code --expired}. */
  String amtoolIds(boolean expired) {
    List<String> args =
        new ArrayList<>(List.of("silence", "query", "-q", "--alertmanager.url=" + am.base()));
    if (expired) {
      args.add("--expired");
    }
    ExternalTool.Result r = amtool.run(dir, Duration.ofSeconds(30), args);
    assertEquals(0, r.exitCode(), r.output());
    return r.output();
  }

  JsonNode incident(String alertname) throws Exception {
    for (JsonNode i :
        json(get(api("/api/v1/incidents?namespace=" + NS + "&limit=50"))).get("items")) {
      if (i.path("alertname").asText().equals(alertname) && i.path("pool").asText().equals(POOL)) {
        return i;
      }
    }
    return null;
  }

  @Test
  @Order(1)
  void theRulesAlertReachesTheConsoleAsAnIncidentLinkedToItsFinding() throws Exception {
    // the webhook takes only Alertmanager's credential: without it or with another token, 401
    String empty = "{\"version\":\"4\",\"alerts\":[]}";
    HttpResponse<String> anonymous =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(api("/hooks/alertmanager")))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(empty))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(401, anonymous.statusCode(), anonymous.body());
    assertEquals(401, send("POST", api("/hooks/alertmanager"), ALICE, empty).statusCode());
    assertEquals(200, send("POST", api("/hooks/alertmanager"), WEBHOOK_TOKEN, empty).statusCode());
    setImage("python-runtime", "registry.example.com/sandbox/python-runtime:3.13");
    JsonNode incident =
        await("WarmPoolStaleMembers as an incident joined to StalePoolMembers")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(
                () -> incident("WarmPoolStaleMembers"),
                i -> i != null && i.path("findings").toString().contains("StalePoolMembers"));
    assertEquals("firing", incident.get("status").asText());
    assertEquals("python-runtime", incident.get("template").asText());
    assertEquals("ticket", incident.get("severity").asText());
    assertEquals("/pools/demo/python-runtime-pool", incident.get("links").get("pool").asText());
    assertEquals("/templates/demo/python-runtime", incident.get("links").get("template").asText());
    JsonNode finding = null;
    for (JsonNode f : incident.get("findings")) {
      if (f.get("kind").asText().equals("StalePoolMembers")) {
        finding = f;
      }
    }
    assertTrue(finding != null, incident.get("findings").toString());
    assertEquals("SandboxWarmPool demo/python-runtime-pool", finding.get("subject").asText());
    assertEquals("open", finding.get("state").asText());
    // the finding the incident links to is served under its id
    assertEquals(200, get(api("/api/v1/findings/" + finding.get("id").asText())).statusCode());
    // the channel heard of it once, however often Alertmanager notified
    String firing = "Firing: WarmPoolStaleMembers on demo/python-runtime-pool (ticket)";
    await("the channel post").atMost(Duration.ofSeconds(20)).until(() -> channelPosts(firing) >= 1);
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(10))
        .until(() -> channelPosts(firing) == 1);
  }

  @Test
  @Order(2)
  void aSilenceFromTheConsoleIsVisibleToAmtoolAndExpiresFromTheConsole() throws Exception {
    String loose =
        "{\"matchers\":\"alertname=WarmPoolStaleMembers\",\"duration\":\"1h\",\"reason\":\"x\"}";
    HttpResponse<String> refused = send("POST", api("/api/v1/silences"), ALICE, loose);
    assertEquals(400, refused.statusCode(), refused.body());
    assertEquals("matchers", json(refused).get("field").asText());
    HttpResponse<String> tooLong =
        send(
            "POST",
            api("/api/v1/silences"),
            ALICE,
            "{\"matchers\":\"alertname=WarmPoolStaleMembers,namespace=demo\",\"duration\":\"25h\",\"reason\":\"x\"}");
    assertEquals(400, tooLong.statusCode(), tooLong.body());
    assertEquals("duration", json(tooLong).get("field").asText());

    HttpResponse<String> created =
        send(
            "POST",
            api("/api/v1/silences"),
            ALICE,
            "{\"matchers\":\"alertname=WarmPoolStaleMembers,namespace=demo,warmpool_name=python-runtime-pool\","
                + "\"duration\":\"1h\",\"reason\":\"template rollout planned\"}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode s = json(created);
    String id = s.get("id").asText();
    assertEquals("active", s.get("state").asText());
    assertEquals("alice", s.get("createdBy").asText());
    assertTrue(amtoolIds(false).contains(id), amtoolIds(false));
    JsonNode listed = json(send("GET", api("/api/v1/silences"), BOB, null)).get("items");
    assertTrue(listed.toString().contains(id), listed.toString());
    // bob may view but not expire in demo (approver, viewer: no operator)
    assertEquals(403, send("DELETE", api("/api/v1/silences/" + id), BOB, null).statusCode());
    HttpResponse<String> expired = send("DELETE", api("/api/v1/silences/" + id), ALICE, null);
    assertEquals(200, expired.statusCode(), expired.body());
    assertEquals("expired", json(expired).get("state").asText());
    assertFalse(amtoolIds(false).contains(id));
    assertTrue(amtoolIds(true).contains(id));
    JsonNode audit = json(send("GET", api("/api/v1/audit?actor=alice"), ALICE, null)).get("items");
    String a = audit.toString();
    assertTrue(a.contains("silence.create") && a.contains("silence.expire"), a);
  }

  @Test
  @Order(3)
  void aPlansSilenceLivesExactlyWhileThePlanExecutes() throws Exception {
    HttpResponse<String> planned =
        send(
            "POST",
            api("/api/v1/plans"),
            ALICE,
            "{\"action\":\"PacedRecreate\",\"subject\":\"demo/python-runtime-pool\",\"params\":{},"
                + "\"reason\":\"stale members after the image change\"}");
    assertEquals(201, planned.statusCode(), planned.body());
    String id = json(planned).get("id").asText();
    assertEquals(
        200, send("POST", api("/api/v1/plans/" + id + "/approve"), BOB, null).statusCode());
    HttpResponse<String> exec = send("POST", api("/api/v1/plans/" + id + "/execute"), ALICE, null);
    assertEquals(200, exec.statusCode(), exec.body());
    // while executing: the plan's silences are active in Alertmanager
    List<String> planSilences =
        await("the plan's silences")
            .atMost(Duration.ofSeconds(30))
            .until(() -> planSilences(id, "active"), l -> l.size() == 2);
    String ids = amtoolIds(false);
    planSilences.forEach(sid -> assertTrue(ids.contains(sid), ids));
    await("plan " + id + " succeeded")
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> json(send("GET", api("/api/v1/plans/" + id), ALICE, null)).get("state").asText(),
            st -> st.equals("succeeded"));
    await("the plan's silences expired")
        .atMost(Duration.ofSeconds(30))
        .until(() -> planSilences(id, "expired").size() == 2);
    String after = amtoolIds(false);
    planSilences.forEach(sid -> assertFalse(after.contains(sid), after));
    // the channel was told once when it started and once when it ended
    await("plan posts in the channel")
        .atMost(Duration.ofSeconds(20))
        .until(() -> channelPosts("Plan " + id + " succeeded:") == 1);
    assertEquals(1, channelPosts("Plan " + id + " executing:"), channelTexts.toString());
  }

  /** Channel posts whose text starts with {@code prefix}. */
  long channelPosts(String prefix) {
    return channelTexts.stream().filter(t -> t.startsWith(prefix)).count();
  }

  /** Ids of the console's silences for plan {@code id} in {@code state} (Alertmanager's API). */
  List<String> planSilences(String id, String state) throws Exception {
    List<String> out = new ArrayList<>();
    for (JsonNode s : json(get(am.base() + "/api/v2/silences"))) {
      if (s.path("comment").asText().startsWith("plan " + id + ":")
          && s.path("status").path("state").asText().equals(state)) {
        out.add(s.path("id").asText());
      }
    }
    return out;
  }

  @Test
  @Order(4)
  void aTruncatedGroupIsMarkedIncompleteAndReRead() throws Exception {
    List<Map<String, String>> probes = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      probes.add(Map.of("alertname", "TruncationProbe", "namespace", "probe", "instance", "i" + i));
    }
    am.post(probes);
    JsonNode group =
        await("the TruncationProbe group, re-read")
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .until(
                () -> {
                  for (JsonNode g :
                      json(get(api("/api/v1/alert-groups?incomplete=true"))).get("items")) {
                    if (g.path("groupLabels").path("alertname").asText().equals("TruncationProbe")
                        && g.path("reread").path("alerts").asInt() == 3) {
                      return g;
                    }
                  }
                  return null;
                },
                g -> g != null);
    // max_alerts 1 of 3: one alert carried, two left out
    assertEquals(1, group.get("alerts").asInt());
    assertEquals(2, group.get("truncatedAlerts").asInt());
    assertTrue(group.get("incomplete").asBoolean());
    JsonNode incidents = json(get(api("/api/v1/incidents?namespace=probe"))).get("items");
    assertEquals(3, incidents.size(), incidents.toString());
    for (JsonNode i : incidents) {
      assertEquals("firing", i.get("status").asText());
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
