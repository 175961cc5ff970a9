package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.server.wiring.ConsoleProcess;
import org.sandboxslo.server.wiring.KubeClients;
import org.sandboxslo.store.EmbeddedDatabase;

/**
 * Two console replicas ({@code a} and {@code b}, two {@link ConsoleProcess}es in this JVM) watch
 * one API server and share one PostgreSQL, with leader election on a Lease. Both serve reads; only
 * the leader executes. A DeleteExpiredClaims plan (one step per claim) is planned, approved and
 * executed through the replica that does not lead; the leader runs its first steps; then the leader
 * is stopped, the other takes the Lease within the lease duration and finishes the plan. The audit
 * shows every step applied exactly once, by {@code executor@a} before the stop and {@code
 * executor@b} after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeaderElectionE2E {
  static final String NS = "team-a";
  static final String TOKEN = "token-ops";

  /** More than the default ExpiredClaimsAccumulating threshold of 5. */
  static final int CLAIMS = 8;

  static final Duration LEASE = Duration.ofSeconds(4);

  @TempDir static Path dir;
  EmbeddedApiServer cluster;
  EmbeddedDatabase db;
  ConsoleProcess a;
  ConsoleProcess b;

  @BeforeAll
  void start() throws Exception {
    cluster = EmbeddedApiServer.start(0);
    // the Lease's namespace (the kubeconfig context's) and the claims' namespace
    for (String ns : List.of("sandbox-slo", NS)) {
      cluster
          .client()
          .namespaces()
          .resource(
              new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                  .withNewMetadata()
                  .withName(ns)
                  .endMetadata()
                  .build())
          .create();
    }
    db = EmbeddedDatabase.start(dir.resolve("pg"), dir.resolve("pg-bin"));
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: test
          cluster: {server: "%s"}
        users:
        - name: test
          user: {token: test-token}
        contexts:
        - name: test
          context: {cluster: test, user: test, namespace: sandbox-slo}
        current-context: test
        """
            .formatted(cluster.url()));
    a = replica("a", kubeconfig);
    // a campaigns alone first, so it is the leader when b joins
    await().atMost(Duration.ofSeconds(30)).until(() -> a.leadership().isLeader());
    b = replica("b", kubeconfig);
    Demo.awaitReady(a);
    Demo.awaitReady(b);
  }

  ConsoleProcess replica(String identity, Path kubeconfig) {
    Map<String, String> s = new HashMap<>();
    s.put("sloconsole.http.port", "0");
    s.put("sloconsole.management.port", "0");
    s.put("sloconsole.db.url", db.jdbcUrl());
    s.put("sloconsole.db.user", EmbeddedDatabase.USER);
    s.put("sloconsole.collector.namespaces", NS);
    s.put("sloconsole.collector.resync-period", "0s");
    s.put("sloconsole.remediation.poll-interval", "400ms");
    s.put("sloconsole.auth.tokens", "ops:" + TOKEN + ":operator+approver+viewer");
    s.put("sloconsole.auth.two-person", "false");
    // watch mode is production: the status and finding reads below are anonymous, so allow them
    s.put("sloconsole.auth.anonymous-read", "true");
    s.put("sloconsole.leader.enabled", "true");
    s.put("sloconsole.leader.identity", identity);
    s.put("sloconsole.leader.lease-duration", "4s");
    s.put("sloconsole.leader.renew-deadline", "3s");
    s.put("sloconsole.leader.retry-period", "250ms");
    return ConsoleProcess.start(
        s, Set.of(), KubeClients.forKubeconfig(kubeconfig, "test"), null, new PrometheusRegistry());
  }

  @AfterAll
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {b, a, cluster, db}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // already closed by the test
      }
    }
  }

  static Http.Response send(String method, String url, String body) {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + TOKEN)
            .header("Content-Type", "application/json");
    r =
        method.equals("GET")
            ? r.GET()
            : r.POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body));
    return RemediationE2E.send(r.build());
  }

  void createExpiredClaim(String name, Instant expiredAt) {
    GenericKubernetesResource c = Resources.newObject(Kind.SANDBOX_CLAIM, NS);
    c.getMetadata().setName(name);
    c.setAdditionalProperty(
        "spec",
        Map.of(
            "warmPoolRef", Map.of("name", "python-pool"),
            "lifecycle", Map.of("shutdownPolicy", "Retain")));
    GenericKubernetesResource created =
        Resources.ops(cluster.client(), Kind.SANDBOX_CLAIM).inNamespace(NS).resource(c).create();
    created.setAdditionalProperty(
        "status",
        Map.of(
            "conditions",
            List.of(
                Map.of(
                    "type", "Ready",
                    "status", "False",
                    "reason", "ClaimExpired",
                    "message", "shutdownTime reached",
                    "lastTransitionTime", expiredAt.toString()))));
    Resources.ops(cluster.client(), Kind.SANDBOX_CLAIM)
        .inNamespace(NS)
        .resource(created)
        .updateStatus();
  }

  List<JsonNode> stepsDone(String plan) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode e :
        send("GET", Demo.api(b, "/api/v1/audit?plan=" + plan), null).json().get("items")) {
      if (e.get("what").asText().equals("step.after")) {
        out.add(e);
      }
    }
    return out;
  }

  static JsonNode status(ConsoleProcess p) {
    return Http.get(Demo.api(p, "/api/v1/status")).json().get("leader");
  }

  static boolean leaderGauge(ConsoleProcess p, String identity, int value) {
    return Http.get(Demo.mgmt(p, "/metrics"))
        .body()
        .lines()
        .anyMatch(
            l -> l.equals("sandbox_slo_leader{identity=\"" + identity + "\"} " + value + ".0"));
  }

  @Test
  void oneReplicaExecutesAndTheOtherFinishesAfterFailover() throws Exception {
    // both serve reads and say who leads
    assertEquals("a", status(a).get("holder").asText());
    assertTrue(status(a).get("isLeader").asBoolean());
    assertFalse(status(b).get("isLeader").asBoolean());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> "a".equals(status(b).get("holder").asText(null)));
    assertTrue(leaderGauge(a, "a", 1));
    assertTrue(leaderGauge(b, "b", 0));

    Instant expired = Instant.now().minus(Duration.ofHours(2));
    for (int i = 1; i <= CLAIMS; i++) {
      createExpiredClaim("expired-" + i, expired);
    }
    // the finding fires at 6 expired claims; wait until b's finding lists all 8
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                Http.get(Demo.api(b, "/api/v1/findings?kind=ExpiredClaimsAccumulating"))
                        .json()
                        .path("items")
                        .path(0)
                        .path("objects")
                        .size()
                    == CLAIMS);

    // everything goes through b, which does not lead
    Http.Response planned =
        send(
            "POST",
            Demo.api(b, "/api/v1/plans"),
            "{\"action\":\"DeleteExpiredClaims\",\"subject\":\""
                + NS
                + "\",\"params\":{},"
                + "\"reason\":\"retained expired claims\"}");
    assertEquals(201, planned.status(), planned.body());
    String id = planned.json().get("id").asText();
    assertEquals(CLAIMS, planned.json().get("plan").get("steps").size());
    assertEquals(200, send("POST", Demo.api(b, "/api/v1/plans/" + id + "/approve"), null).status());
    Http.Response executed = send("POST", Demo.api(b, "/api/v1/plans/" + id + "/execute"), null);
    assertEquals(200, executed.status(), executed.body());

    // the leader a runs the first steps
    await().atMost(Duration.ofSeconds(60)).until(() -> stepsDone(id).size() >= 2);
    a.close();
    // b takes the released Lease well within the lease duration and finishes the plan
    await().atMost(LEASE).until(() -> b.leadership().isLeader());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                send("GET", Demo.api(b, "/api/v1/plans/" + id), null)
                    .json()
                    .get("state")
                    .asText()
                    .equals("succeeded"));

    List<JsonNode> steps = stepsDone(id);
    Map<Integer, List<String>> actorsByStep = new TreeMap<>();
    for (JsonNode s : steps) {
      actorsByStep
          .computeIfAbsent(s.get("step").asInt(), k -> new ArrayList<>())
          .add(s.get("actor").asText() + " " + s.get("result").asText());
    }
    // steps 1..8, each applied once, all ok
    assertEquals(CLAIMS, actorsByStep.size(), "" + actorsByStep);
    actorsByStep.forEach(
        (n, v) -> {
          assertEquals(1, v.size(), "step " + n + " applied " + v.size() + " times: " + v);
          assertTrue(v.get(0).endsWith(" ok"), "step " + n + ": " + v);
        });
    // a ran a prefix of the steps, b the rest: the actors switch exactly once
    List<String> actors = actorsByStep.values().stream().map(v -> v.get(0).split(" ")[0]).toList();
    int firstB = actors.indexOf("executor@b");
    assertTrue(firstB >= 2, "a ran at least the first two steps: " + actors);
    assertEquals(
        actors,
        new ArrayList<>(
            java.util.stream.Stream.concat(
                    java.util.Collections.nCopies(firstB, "executor@a").stream(),
                    java.util.Collections.nCopies(CLAIMS - firstB, "executor@b").stream())
                .toList()));
    assertTrue(
        Resources.ops(cluster.client(), Kind.SANDBOX_CLAIM)
            .inNamespace(NS)
            .list()
            .getItems()
            .isEmpty());
    assertTrue(status(b).get("isLeader").asBoolean());
    assertEquals("b", status(b).get("holder").asText());
    assertTrue(leaderGauge(b, "b", 1));
  }
}
