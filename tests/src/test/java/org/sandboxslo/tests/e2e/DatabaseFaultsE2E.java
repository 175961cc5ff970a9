package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.demo.DemoApp;
import org.sandboxslo.engine.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL fails under a running PacedRecreate plan of the whole demo (embedded API server,
 * controller-lite, console): the embedded server frozen with SIGSTOP then resumed with SIGCONT,
 * killed with SIGKILL (postmaster and children; the console's supervisor restarts it), and an
 * external Debian server ({@code postgresql} package, a dedicated cluster) stopped with {@code
 * pg_ctlcluster ... stop -m immediate} and started again. Each asserts: database routes answer 503
 * (no host names) within the configured bound while it is down, {@code /readyz} says so, SLIs keep
 * flowing from the engine, no member is deleted while the database is frozen, the plan finishes
 * without a console restart, every audit row read before the fault is still there, and every step
 * has both its {@code step.before} and {@code step.after}.
 */
class DatabaseFaultsE2E {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseFaultsE2E.class);
  static final String NS = "demo";
  static final String ALICE = "token-alice";
  static final String BOB = "token-bob";
  static final String CAROL = "token-carol";
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** connect 2 s + statement 2 s + 1 s: the longest a database route may take before its 503. */
  static final Duration BOUND = Duration.ofSeconds(5);

  @TempDir Path dir;

  DemoApp start(Map<String, String> extra) {
    Map<String, String> s = Demo.settings(dir);
    s.put("sloconsole.load.enabled", "false");
    s.put("sloconsole.controller.cold-start-p50", "300ms");
    s.put("sloconsole.controller.cold-start-p95", "800ms");
    s.put("sloconsole.remediation.poll-interval", "200ms");
    s.put("sloconsole.store.snapshot-interval", "1s");
    s.put("sloconsole.db.statement-timeout", "2s");
    s.put("sloconsole.db.connect-timeout", "2s");
    s.put("sloconsole.db.probe-interval", "300ms");
    s.put(
        "sloconsole.auth.tokens",
        "alice:"
            + ALICE
            + ":operator+approver,bob:"
            + BOB
            + ":approver+viewer,carol:"
            + CAROL
            + ":viewer");
    s.putAll(extra);
    List<String> errors = new ArrayList<>();
    DemoApp app = DemoApp.start(s, List.of(), Map.of(), errors::add);
    assertEquals(List.of(), errors);
    Demo.awaitReady(app);
    return app;
  }

  @Test
  void embeddedServerFrozenWithSigstopThenResumed() {
    try (DemoApp app = start(Map.of())) {
      Outage o =
          new Outage(
              () -> PostgresFaults.signal(app.storage().embedded(), "STOP"),
              () -> PostgresFaults.signal(app.storage().embedded(), "CONT"),
              true);
      run(app, "python-runtime-pool", "python-runtime", 8, o);
      assertEquals(0, app.storage().status().restarts());
    }
  }

  @Test
  void embeddedServerKilledWithSigkillAndRestartedBySupervision() {
    try (DemoApp app = start(Map.of())) {
      int port = app.storage().embedded().port();
      Outage o =
          new Outage(
              () -> PostgresFaults.signal(app.storage().embedded(), "KILL"), () -> {}, false);
      run(app, "python-runtime-pool", "python-runtime", 8, o);
      assertEquals(1, app.storage().status().restarts());
      assertEquals(port, app.storage().embedded().port());
      JsonNode ready = Http.get(Demo.mgmt(app, "/readyz")).json();
      assertEquals(1, ready.get("databaseRestarts").asInt());
    }
  }

  @Test
  void debianServerStoppedWithPgCtlclusterThenStarted() {
    assumeTrue(
        PostgresFaults.debianServerAvailable(),
        "the Debian postgresql package (pg_ctlcluster) is not installed or not running as root");
    int port = PostgresFaults.startCluster();
    try (DemoApp app =
        start(
            Map.of(
                "sloconsole.db.url",
                "jdbc:postgresql://127.0.0.1:" + port + "/" + PostgresFaults.DATABASE,
                "sloconsole.db.user",
                PostgresFaults.USER,
                "sloconsole.db.password",
                PostgresFaults.PASSWORD))) {
      Outage o = new Outage(PostgresFaults::stopCluster, PostgresFaults::startStoppedCluster, true);
      run(app, "python-runtime-pool", "python-runtime", 8, o);
    } finally {
      PostgresFaults.dropCluster();
    }
  }

  /**
   * @param down makes the database unavailable
   * @param up makes it available again (nothing to do after a kill: supervision restarts it)
   * @param held whether the database stays down until {@code up} (false after a kill)
   */
  record Outage(Runnable down, Runnable up, boolean held) {}

  void run(DemoApp app, String pool, String template, int replicas, Outage outage) {
    await().atMost(Duration.ofSeconds(90)).until(() -> readyMembers(app, pool).size() == replicas);
    setImage(app, template, "registry.example.com/sandbox/" + template + ":faults");
    String id = plan(app, pool);
    assertEquals(200, post(app, "/api/v1/plans/" + id + "/approve", BOB).status());
    assertEquals(200, post(app, "/api/v1/plans/" + id + "/execute", ALICE).status());
    await().atMost(Duration.ofSeconds(60)).until(() -> count(audit(app, id), "step.after") >= 1);
    // every row read now was acknowledged by the database before the fault
    Set<Long> seen = seqs(audit(app, id));

    Instant downAt = Instant.now();
    outage.down().run();
    long t0 = System.nanoTime();
    Http.Response r = get(app, "/api/v1/plans/" + id, CAROL);
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    LOG.info(
        "database route while down: {} after {} ms: {}", r.status(), took.toMillis(), r.body());
    assertEquals(503, r.status(), r.body());
    assertEquals("database unavailable", r.json().get("error").asText(), r.body());
    assertFalse(r.body().contains("127.0.0.1") || r.body().contains("localhost"), r.body());
    assertTrue(took.compareTo(BOUND.plusSeconds(2)) < 0, "503 after " + took);
    // SLIs keep flowing from the engine
    assertEquals(200, Http.get(Demo.api(app, "/api/v1/templates")).status());
    if (outage.held()) {
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> Http.get(Demo.mgmt(app, "/readyz")).status() == 503);
      JsonNode ready = Http.get(Demo.mgmt(app, "/readyz")).json();
      assertTrue(
          ready.get("checks").get("database").asText().startsWith("down: "), ready.toString());
      // no step starts while the database is down: once a change in flight has had its deadline,
      // no member is deleted for 5 s
      await().pollDelay(BOUND.plusSeconds(1)).atMost(BOUND.plusSeconds(2)).until(() -> true);
      Set<String> members = memberUids(app, pool);
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(6))
          .until(() -> memberUids(app, pool).containsAll(members));
      Http.Response again = get(app, "/api/v1/audit?plan=" + id, CAROL);
      assertEquals(503, again.status(), again.body());
      outage.up().run();
    }
    Instant upAt = Instant.now();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> Http.get(Demo.mgmt(app, "/readyz")).status() == 200);
    await()
        .atMost(Duration.ofSeconds(120))
        .until(() -> state(app, id).equals("succeeded") || state(app, id).equals("failed"));
    assertEquals("succeeded", state(app, id), get(app, "/api/v1/plans/" + id, CAROL).body());

    List<JsonNode> rows = audit(app, id);
    Set<Long> after = seqs(rows);
    Set<Long> lost = new TreeSet<>(seen);
    lost.removeAll(after);
    assertEquals(Set.of(), lost, "acknowledged audit rows lost");
    Map<String, int[]> steps = new TreeMap<>();
    for (JsonNode row : rows) {
      String what = row.get("what").asText();
      if (what.equals("step.before") || what.equals("step.after")) {
        int[] c =
            steps.computeIfAbsent(
                row.get("step").asText() + " " + row.get("object").asText(), k -> new int[2]);
        c[what.equals("step.before") ? 0 : 1]++;
      }
    }
    steps.forEach(
        (step, c) ->
            assertTrue(
                c[0] >= 1 && c[1] >= 1, "step " + step + ": before " + c[0] + ", after " + c[1]));
    LOG.info(
        "plan {}: {} audit rows before the fault, {} after recovery, 0 lost; {} steps, each with"
            + " step.before and step.after",
        id,
        seen.size(),
        after.size(),
        steps.size());
    if (outage.held()) {
      assertBackfilled(app, pool, downAt, upAt);
    }
  }

  /** The SLI history has points inside the outage: the snapshots kept while down were written. */
  void assertBackfilled(DemoApp app, String pool, Instant downAt, Instant upAt) {
    String url =
        Demo.api(
            app,
            "/api/v1/pools/"
                + NS
                + "/"
                + pool
                + "/history?sli=pool_ready_fraction&window=now&from="
                + downAt.plusSeconds(1)
                + "&to="
                + upAt.minusSeconds(1));
    long expected = Duration.between(downAt, upAt).toSeconds() - 4;
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                Http.get(url).status() == 200
                    && Http.get(url).json().get("points").size() >= expected);
    LOG.info(
        "SLI history inside the {} s outage: {} points (one per second expected)",
        Duration.between(downAt, upAt).toSeconds(),
        Http.get(url).json().get("points").size());
  }

  String plan(DemoApp app, String pool) {
    String body =
        "{\"action\":\"PacedRecreate\",\"subject\":\""
            + NS
            + "/"
            + pool
            + "\",\"params\":{},\"reason\":\"template changed (fault test)\"}";
    // the engine must have seen the template change first: retry until the dry run has batches
    String[] id = new String[1];
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              Http.Response r = post(app, "/api/v1/plans", ALICE, body);
              if (r.status() != 201 || r.json().get("plan").get("batches").size() == 0) {
                return false;
              }
              id[0] = r.json().get("id").asText();
              return true;
            });
    return id[0];
  }

  String state(DemoApp app, String id) {
    Http.Response r = get(app, "/api/v1/plans/" + id, CAROL);
    return r.status() == 200 ? r.json().get("state").asText() : "unknown";
  }

  List<JsonNode> audit(DemoApp app, String id) {
    Http.Response r = get(app, "/api/v1/audit?plan=" + id, CAROL);
    assertEquals(200, r.status(), r.body());
    List<JsonNode> out = new ArrayList<>();
    r.json().get("items").forEach(out::add);
    return out;
  }

  static Set<Long> seqs(List<JsonNode> rows) {
    Set<Long> out = new TreeSet<>();
    rows.forEach(r -> out.add(r.get("seq").asLong()));
    return out;
  }

  static long count(List<JsonNode> rows, String what) {
    return rows.stream().filter(r -> r.get("what").asText().equals(what)).count();
  }

  static Http.Response post(DemoApp app, String path, String token) {
    return post(app, path, token, "");
  }

  static Http.Response post(DemoApp app, String path, String token, String body) {
    return send(
        HttpRequest.newBuilder(URI.create(Demo.api(app, path)))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  static Http.Response get(DemoApp app, String path, String token) {
    return send(
        HttpRequest.newBuilder(URI.create(Demo.api(app, path)))
            .timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + token)
            .build());
  }

  static Http.Response send(HttpRequest r) {
    try {
      HttpResponse<String> resp = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
      return new Http.Response(resp.statusCode(), resp.body());
    } catch (java.io.IOException e) {
      throw new AssertionError(r.method() + " " + r.uri() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted");
    }
  }

  static List<GenericKubernetesResource> members(DemoApp app, String pool) {
    return Resources.ops(app.client(), Kind.SANDBOX).inNamespace(NS).list().getItems().stream()
        .filter(
            s -> {
              OwnerReference o = Resources.controllerOwner(s);
              return o != null && "SandboxWarmPool".equals(o.getKind()) && pool.equals(o.getName());
            })
        .toList();
  }

  static List<GenericKubernetesResource> readyMembers(DemoApp app, String pool) {
    return members(app, pool).stream()
        .filter(s -> s.getMetadata().getDeletionTimestamp() == null && Resources.isTrue(s, "Ready"))
        .toList();
  }

  static Set<String> memberUids(DemoApp app, String pool) {
    Set<String> out = new TreeSet<>();
    members(app, pool).forEach(s -> out.add(s.getMetadata().getUid()));
    return out;
  }

  static void setImage(DemoApp app, String template, String image) {
    Demo.setImage(app, NS, template, image);
  }
}
