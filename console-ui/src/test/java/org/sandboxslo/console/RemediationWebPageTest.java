package org.sandboxslo.console;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.console.remediation.RemediationConfig;
import org.sandboxslo.console.remediation.RemediationFleet;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolMember;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.store.Database;
import org.sandboxslo.store.RemediationStore;

/**
 * The Findings and Plans sections in headless Chromium (skipped without chromium/chromedriver): a
 * finding's PacedRecreate proposal becomes a plan, which is approved and executed from the page,
 * and its audit rows are shown. Real embedded PostgreSQL and API server; the stale member exists
 * only in the engine's view, so the executor finds it gone and skips it.
 */
class RemediationWebPageTest {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final String TOKEN = "token-web";

  @TempDir static Path dir;
  static Vertx vertx;
  static Database storage;
  static Pool pool;
  static EmbeddedApiServer api;
  static KubernetesClient client;
  static Remediation service;
  static ConsoleServer server;
  static WebDriver driver;

  static final Finding STALE =
      new Finding(
          FindingKind.STALE_POOL_MEMBERS,
          "SandboxWarmPool demo/python-runtime-pool",
          Severity.TICKET,
          Instant.parse("2026-11-29T08:00:00Z"),
          Instant.parse("2026-11-29T08:20:00Z"),
          "1 of 1 members of demo/python-runtime-pool were built from an older blueprint.",
          List.of(),
          List.of(),
          List.of(
              new Proposal(
                  "PacedRecreate",
                  "Replace the stale unclaimed members one at a time",
                  List.of(),
                  true),
              Proposal.none("Do not simply set updateStrategy: Recreate")));

  @BeforeAll
  static void start() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "needs /usr/bin/chromium and /usr/bin/chromedriver");
    vertx = Vertx.vertx();
    storage =
        get(
            Database.open(
                vertx,
                ConsoleConfig.fromMap(
                        Map.of(
                            "sloconsole.db.data-dir", dir.resolve("pg").toString(),
                            "sloconsole.db.work-dir", Path.of("target", "embedded-pg").toString()))
                    .database()));
    pool = PgBuilder.pool().connectingTo(storage.embedded().connectOptions()).using(vertx).build();
    api = EmbeddedApiServer.start(0);
    client = api.client();
    DemoManifests.apply(client);
    RemediationFleet fleet =
        new RemediationFleet() {
          @Override
          public io.vertx.core.Future<PoolState> pool(ObjectRef ref) {
            return io.vertx.core.Future.succeededFuture(
                ref.toString().equals("demo/python-runtime-pool")
                    ? new PoolState(
                        ref,
                        "python-runtime",
                        1,
                        "OnReplenish",
                        List.of(new PoolMember("python-runtime-pool-old1", "u1", true, true, null)))
                    : null);
          }

          @Override
          public List<FindingState> findings() {
            return List.of();
          }

          @Override
          public boolean controllerLite() {
            return false;
          }

          @Override
          public void setMaxRefillRate(double perSecond) {
            throw new IllegalStateException("no controller-lite");
          }
        };
    service =
        get(
            Remediation.start(
                vertx,
                RemediationConfig.fromMap(
                    Map.of(
                        RemediationConfig.TOKENS,
                        "web:" + TOKEN + ":admin",
                        RemediationConfig.TWO_PERSON,
                        "false",
                        RemediationConfig.POLL,
                        "100ms")),
                new RemediationStore(pool),
                client,
                fleet,
                Clock.systemUTC()));
    Fixtures.TestSources base = new Fixtures.TestSources();
    base.snapshot = Fixtures.snapshot();
    base.ready = true;
    ConsoleSources sources =
        new ConsoleSources() {
          @Override
          public org.sandboxslo.engine.sli.FleetSnapshot snapshot() {
            return base.snapshot();
          }

          @Override
          public Map<String, Long> ingestErrors() {
            return base.ingestErrors();
          }

          @Override
          public boolean ready() {
            return true;
          }

          @Override
          public List<FindingState> findings() {
            return List.of(new FindingState(STALE, STALE.firstSeen(), null));
          }
        };
    server =
        get(
            ConsoleServer.start(
                vertx,
                ConsoleConfig.fromMap(
                    Map.of("sloconsole.http.port", "0", "sloconsole.management.port", "0")),
                sources,
                null,
                new PrometheusRegistry(),
                ConsoleServices.of(null, service)));
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--window-size=1600,1000",
        "--user-data-dir=" + dir.resolve("chrome").toAbsolutePath());
    driver =
        new ChromeDriver(
            new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build(),
            options);
  }

  @AfterAll
  static void stop() throws Exception {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.close();
    }
    if (service != null) {
      get(service.stop());
    }
    if (client != null) {
      client.close();
      api.close();
    }
    if (pool != null) {
      get(pool.close());
    }
    if (storage != null) {
      get(storage.close());
    }
    if (vertx != null) {
      get(vertx.close());
    }
  }

  static java.net.http.HttpResponse<String> postPlan(String token, String contentType, String body)
      throws Exception {
    var req =
        java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + server.httpPort() + "/api/v1/plans"))
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", contentType);
    if (token != null) {
      req.header("Authorization", "Bearer " + token);
    }
    return java.net.http.HttpClient.newHttpClient()
        .send(req.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aPlanRequestIsAuthenticatedFirstAndMustBeAJsonObject() throws Exception {
    String plan =
        "{\"action\":\"ScalePool\",\"subject\":\"demo/python-runtime-pool\","
            + "\"params\":{\"replicas\":2},\"reason\":\"r\"}";
    assertEquals(401, postPlan(null, "text/plain", plan).statusCode());
    var text = postPlan(TOKEN, "text/plain", plan);
    assertEquals(415, text.statusCode());
    assertEquals(
        new io.vertx.core.json.JsonObject()
            .put("error", "unsupported media type")
            .put("field", "Content-Type")
            .put("reason", "expected application/json, got 'text/plain'"),
        new io.vertx.core.json.JsonObject(text.body()));
    var array = postPlan(TOKEN, "application/json", "[" + plan + "]");
    assertEquals(400, array.statusCode());
    assertEquals(
        "expected a JSON object (a plan {\"action\",\"subject\",\"params\",\"reason\"}), got an"
            + " array",
        new io.vertx.core.json.JsonObject(array.body()).getString("reason"));
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  static WebElement find(String css) {
    return driver.findElement(By.cssSelector(css));
  }

  static boolean present(String css) {
    return !driver.findElements(By.cssSelector(css)).isEmpty();
  }

  static String planState() {
    return find(".plan .state").getText();
  }

  /** Clicks the plan's button; the page re-renders every 3 s, so a stale element is retried. */
  static void click(String buttonText) {
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(
            () -> {
              for (WebElement b : driver.findElements(By.cssSelector(".plan-head button"))) {
                if (b.getText().equals(buttonText)) {
                  b.click();
                  return true;
                }
              }
              return false;
            });
  }

  @Test
  void aFindingIsPlannedApprovedExecutedAndAuditedFromThePage() {
    driver.get("http://127.0.0.1:" + server.httpPort() + "/");
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .until(() -> present(".finding[data-kind='StalePoolMembers']"));
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () -> {
              assertTrue(
                  find(".finding[data-kind='StalePoolMembers']")
                      .getText()
                      .contains("SandboxWarmPool demo/python-runtime-pool"));
              // "None" proposals get no button
              assertEquals(1, driver.findElements(By.cssSelector(".finding button")).size());
              assertEquals(
                  "Enter a bearer token to see and act on plans.", find("#plans-list").getText());
            });
    find("#token").sendKeys(TOKEN, Keys.TAB);
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .until(() -> find("#plans-list").getText().equals("No plans yet."));
    find("button[data-plan='PacedRecreate']").click();
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .until(() -> present(".plan .state") && planState().equals("planned"));
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                present(".plan ol")
                    // no member on the current template is Ready: a one-member surge comes first
                    && find(".plan ol").getText().startsWith("scale spec.replicas 1 → 2 first")
                    && find(".plan ol")
                        .getText()
                        .contains("delete python-runtime-pool-old1 (re-checked just before"));
    click("Approve");
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .until(() -> planState().equals("approved"));
    click("Execute");
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .until(() -> planState().equals("succeeded"));
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .until(() -> present("table.audit") && find("table.audit").getText().contains("plan.done"));
    await()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              String audit = find("table.audit").getText();
              assertTrue(audit.contains("plan.create"), audit);
              assertTrue(audit.contains("plan.approve"), audit);
              assertTrue(audit.contains("plan.execute"), audit);
              assertTrue(
                  find(".plan")
                      .getText()
                      .contains(
                          "result: deleted 0 stale members; skipped python-runtime-pool-old1"),
                  find(".plan").getText());
            });
  }
}
