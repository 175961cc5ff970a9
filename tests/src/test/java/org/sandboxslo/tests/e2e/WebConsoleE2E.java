package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.sandboxslo.console.auth.Caller;
import org.sandboxslo.demo.DemoApp;

/**
 * The web console in headless Chromium against the demo (embedded API server, controller-lite,
 * embedded PostgreSQL, incident scenario): every page shows the API's values, every {@code
 * console_url} shape of {@code alerts/} opens its subject, and on-call clicks from an alert to the
 * template, the finding and a plan for each of the six actions, approved by a second user, executed
 * and audited. Screenshots at 1366×900 go to {@code target/web-console/}; axe-core runs on each
 * page and no serious or critical violation is allowed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebConsoleE2E {
  @TempDir static Path dir;
  DemoApp app;

  /** Alertmanager's credential for the webhook (the console refuses the webhook without it). */
  static final String WEBHOOK_TOKEN = "web-console-e2e-webhook-token";

  Browser b;
  String admin;
  String reviewer;
  final Map<String, List<String>> axe = new TreeMap<>();

  @BeforeAll
  void start() {
    Assumptions.assumeTrue(
        Browser.available(), "needs /usr/bin/chromium and /usr/bin/chromedriver");
    Map<String, String> s = Demo.settings(dir);
    s.put("sloconsole.load.profile", "constant");
    s.put("sloconsole.load.rate", "1");
    s.put("sloconsole.load.duration", "10m");
    s.put("sloconsole.load.hold", "30s");
    s.put("sloconsole.load.ground-truth", dir.resolve("gt.jsonl").toString());
    s.put("sloconsole.controller.cold-start-p50", "300ms");
    s.put("sloconsole.controller.cold-start-p95", "800ms");
    s.put("sloconsole.controller.resume-p50", "300ms");
    s.put("sloconsole.controller.resume-p95", "600ms");
    s.put("sloconsole.app.scenario", "incidents");
    s.put("sloconsole.app.scenario-start", "5s");
    s.put("sloconsole.store.snapshot-interval", "2s");
    s.put("sloconsole.remediation.poll-interval", "200ms");
    s.put("sloconsole.alertmanager.webhook-token", WEBHOOK_TOKEN);
    app = DemoApp.start(s, List.of(), Map.of(), e -> {});
    Demo.awaitReady(app);
    for (Map.Entry<String, Caller> e : app.remediation().config().tokens().entrySet()) {
      if (e.getValue().user().equals("admin")) {
        admin = e.getKey();
      } else if (e.getValue().user().equals("reviewer")) {
        reviewer = e.getKey();
      }
    }
    b = new Browser("http://127.0.0.1:" + app.httpPort(), dir.resolve("chrome"));
  }

  @AfterAll
  void stop() {
    if (b != null) {
      b.close();
    }
    if (app != null) {
      app.close();
    }
    axe.forEach((page, v) -> System.out.printf("axe %s: %d serious/critical%n", page, v.size()));
  }

  String api(String path) {
    return Demo.api(app, path);
  }

  JsonNode json(String path) {
    return Http.get(api(path)).json();
  }

  static String pct(JsonNode v) {
    return v == null || v.isNull()
        ? "no data"
        : String.format(Locale.ROOT, "%.1f %%", v.asDouble() * 100);
  }

  static String secs(JsonNode v) {
    if (v == null || v.isNull()) {
      return "no data";
    }
    double s = v.asDouble();
    return s < 1
        ? Math.round(s * 1000) + " ms"
        : s < 60
            ? String.format(Locale.ROOT, "%.2f s", s)
            : String.format(Locale.ROOT, "%.1f min", s / 60);
  }

  /** Screenshot and axe of the current page, recorded under {@code name}. */
  void check(String name) {
    b.screenshot(name);
    List<String> v = b.axe();
    axe.put(name, v);
    assertEquals(List.of(), v, "axe on " + name);
  }

  void untilEquals(String css, java.util.function.Supplier<String> expected, int seconds) {
    await()
        .atMost(Duration.ofSeconds(seconds))
        .ignoreExceptions()
        .untilAsserted(() -> assertEquals(expected.get(), b.text(css), css));
  }

  void postAlert(String status, String startsAt, Map<String, String> labels, String consoleUrl)
      throws IOException, InterruptedException {
    StringBuilder l = new StringBuilder();
    labels.forEach(
        (k, v) ->
            l.append(l.length() == 0 ? "" : ",")
                .append('"')
                .append(k)
                .append("\":\"")
                .append(v)
                .append('"'));
    String body =
        "{\"version\":\"4\",\"status\":\""
            + status
            + "\",\"receiver\":\"console\",\"alerts\":[{\"status\":\""
            + status
            + "\",\"fingerprint\":\"fp-"
            + labels.get("alertname")
            + "\",\"labels\":{"
            + l
            + "},\"annotations\":{\"summary\":\"warm-hit below objective\",\"console_url\":\""
            + consoleUrl
            + "\"},\"startsAt\":\""
            + startsAt
            + "\",\"endsAt\":\"0001-01-01T00:00:00Z\",\"generatorURL\":\"http://prometheus/graph\"}]}";
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(api("/hooks/alertmanager")))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + WEBHOOK_TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
  }

  /**
   * Clicks {@code selector} once it is present; the plan page re-renders every second, so a button
   * found just before a re-render is looked up again instead of failing as stale.
   */
  void clickWhenStable(String selector) {
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreException(org.openqa.selenium.StaleElementReferenceException.class)
        .until(
            () -> {
              b.await(selector, 30).click();
              return true;
            });
  }

  void signIn(String token) {
    if (b.present("#who button.link")) {
      b.find("#who button.link").click();
    }
    // 30 s: on a loaded machine the sign-in's whoami round trip took over 10 s
    b.await("#signin-open", 30).click();
    b.await("#signin-token", 30).sendKeys(token, Keys.ENTER);
    b.await("#who-user", 30);
  }

  @Test
  @Order(1)
  void everyPageShowsTheApiValues() throws Exception {
    // fleet: one row per template, values equal to /api/v1/templates, fits 1366 px
    b.open("/");
    b.await("tr[data-template='demo/python-runtime']", 60);
    JsonNode items = json("/api/v1/templates").get("items");
    assertEquals(items.size(), b.all("#fleet-rows tr[data-template]").size());
    assertFalse(b.scrollsHorizontally(), "the fleet page scrolls horizontally at 1366 px");
    for (String t : List.of("python-runtime", "gpu-trainer", "legacy-tools")) {
      String row = "tr[data-template='demo/" + t + "'] ";
      untilEquals(row + "td[data-col='warm5m']", () -> pct(firstWindow(t).get("warmHitRatio")), 30);
      untilEquals(
          row + "td[data-col='c2rCold']",
          () -> {
            JsonNode cold = firstWindow(t).get("claimToReadySeconds").get("cold");
            return secs(cold == null || cold.isNull() ? null : cold.get("p95"));
          },
          30);
      untilEquals(
          row + "td[data-col='stale']",
          () -> String.valueOf(template(t).get("pool").get("staleMembers").asInt()),
          30);
    }
    check("01-fleet");
    // filtering is instant and in place
    b.find("#f-text").sendKeys("legacy");
    assertEquals(1, b.all("#fleet-rows tr[data-template]:not([hidden])").size());
    b.find("#f-text").clear();
    b.find("#f-text").sendKeys(Keys.BACK_SPACE);

    // template page
    b.open("/templates/demo/python-runtime");
    b.await("#template-tiles [data-kpi='stale']", 30);
    untilEquals(
        "[data-kpi='stale']",
        () -> {
          JsonNode p = template("python-runtime").get("pool");
          return p.get("staleMembers").asInt() + " of " + p.get("members").asInt();
        },
        30);
    b.await("figure[data-chart='warm-hit'] canvas", 30);
    b.await("#template-slos .slo-block", 30);
    check("02-template");

    // pool page: member counts by state equal to the members API
    b.open("/pools/demo/python-runtime-pool");
    b.await("#pool-members table", 30);
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              JsonNode m = json("/api/v1/pools/demo/python-runtime-pool/members");
              assertEquals(m.get("items").size(), b.all("#pool-members tr[data-member]").size());
              assertEquals(
                  m.get("counts").get("ready").asInt() + " of " + m.get("replicas").asInt(),
                  b.text("#kpi-ready .tile-value"));
            });
    assertTrue(
        b.text("#pool-sizing").contains("replicas")
            || b.text("#pool-sizing").startsWith("No sizing advice"));
    check("03-pool");

    // claims: a served claim shows the API's launch type, latency and outcome
    b.open("/claims?namespace=demo");
    b.await("#claims-table tr[data-claim]", 30);
    // a served claim seen at least 5 s ago (the load serves claims continuously; under a loaded
    // CI machine the first ones may still be younger than that)
    JsonNode claim =
        await()
            .atMost(Duration.ofSeconds(60))
            .ignoreExceptions()
            .until(this::servedClaim, c -> c != null);
    String row = "tr[data-claim='demo/" + claim.get("name").asText() + "'] ";
    b.await(row, 30);
    assertEquals(claim.get("launchType").asText(), b.text(row + "td[data-col='launch']"));
    assertEquals(secs(claim.get("claimToReadySeconds")), b.text(row + "td[data-col='c2r']"));
    assertEquals("ready", b.text(row + "td[data-col='outcome']"));
    check("04-claims");

    // SLOs
    b.open("/slos");
    b.await("#slos tr[data-slo]", 30);
    JsonNode slos = json("/api/v1/slos").get("items");
    assertEquals(slos.size(), b.all("#slos tr[data-slo]").size());
    String sloId = slos.get(0).get("id").asText();
    check("05-slos");
    b.open("/slos/" + sloId);
    b.await("#subject", 30);
    assertEquals(sloId, b.text("#subject"));
    b.await("#slo-burndown figure", 30);
    check("06-slo");

    // health
    b.open("/health");
    b.await("tr[data-kind='Sandbox']", 30);
    assertEquals("synced", b.text("tr[data-kind='Sandbox'] td[data-col='synced']"));
    check("07-health");
  }

  JsonNode template(String name) {
    return json("/api/v1/templates/demo/" + name);
  }

  JsonNode firstWindow(String name) {
    JsonNode w = template(name).get("windows");
    return w.get(w.fieldNames().next());
  }

  @Test
  @Order(2)
  void everyConsoleUrlShapeInAlertsOpensItsSubject() throws IOException {
    Path alerts = Path.of("..", "alerts");
    Pattern url = Pattern.compile("console_url:\\s*[\"']?(?:https?://[^/\"'\\s]+)?(/[^\"'\\n]*)");
    Set<String> shapes = new LinkedHashSet<>();
    try (Stream<Path> files = Files.walk(alerts)) {
      for (Path f :
          files
              .filter(p -> p.toString().endsWith(".yml") && !p.toString().endsWith("_test.yml"))
              .toList()) {
        Matcher m = url.matcher(Files.readString(f));
        while (m.find()) {
          shapes.add(m.group(1).trim());
        }
      }
    }
    assertFalse(shapes.isEmpty(), "no console_url in alerts/");
    String slo = json("/api/v1/slos").get("items").get(0).get("id").asText();
    Map<String, String> labels =
        Map.of(
            "namespace", "demo",
            "exported_namespace", "demo",
            "sandbox_template", "legacy-tools",
            "warmpool_name", "legacy-tools-pool",
            "slo", slo,
            "kind", "StalePoolMembers",
            "finding_kind", "StalePoolMembers");
    Pattern label = Pattern.compile("\\{\\{\\s*\\$labels\\.([a-z_]+)\\s*}}");
    for (String shape : shapes) {
      Matcher m = label.matcher(shape);
      StringBuilder path = new StringBuilder();
      List<String> values = new ArrayList<>();
      while (m.find()) {
        String v = labels.get(m.group(1));
        assertTrue(
            v != null,
            "console_url " + shape + " uses label " + m.group(1) + " the test does not know");
        values.add(v);
        m.appendReplacement(path, Matcher.quoteReplacement(v));
      }
      m.appendTail(path);
      b.open(path.toString());
      // the subject: what the placeholders name, joined as the page shows it (ns/name)
      List<String> expected = new ArrayList<>();
      Matcher kind = Pattern.compile("^/findings\\?kind=([A-Za-z|]+)").matcher(path);
      if (kind.find()) {
        // a findings link names its kind(s); the list shows the kind filter it applies
        expected.add("Showing kind " + kind.group(1).split("\\|")[0]);
      } else if (values.size() >= 2 && values.get(0).equals("demo")) {
        expected.add(values.get(0) + "/" + values.get(1));
      } else {
        expected.addAll(values);
      }
      String shot =
          "url-" + path.toString().replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                StringBuilder seen = new StringBuilder(b.text("#view"));
                for (WebElement in : b.all("#view input, #view select")) {
                  seen.append(' ').append(in.getAttribute("value"));
                }
                for (String e : expected) {
                  assertTrue(
                      seen.toString().contains(e), path + " does not show " + e + ": " + seen);
                }
                assertFalse(b.text("#view").startsWith("Page not found"), path.toString());
              });
      b.screenshot(shot);
    }
  }

  @Test
  @Order(3)
  void fromAnAlertToAFindingToPlansForEveryActionApprovedExecutedAndAudited() throws Exception {
    // the alert arrives from Alertmanager and is kept as an incident
    String consoleUrl = "/templates/demo/legacy-tools";
    postAlert(
        "firing",
        Instant.now().minusSeconds(120).toString(),
        Map.of(
            "alertname", "SandboxWarmHitRatioLow",
            "severity", "page",
            "namespace", "demo",
            "sandbox_template", "legacy-tools"),
        consoleUrl);
    b.open("/incidents");
    b.await("#incidents tr[data-incident]", 30);
    assertTrue(b.text("#incidents").contains("SandboxWarmHitRatioLow"), b.text("#incidents"));
    check("08-incidents");

    // the stale members of legacy-tools are diagnosed; the scenario's claim every 45 s hands them
    // out, so the template changes again here: every idle member is stale when the plan is made
    Demo.setImage(app, "demo", "legacy-tools", "registry.example.com/sandbox/legacy-tools:3.12");
    await()
        .atMost(Duration.ofSeconds(150))
        .until(() -> json("/api/v1/findings?kind=StalePoolMembers").get("items").size() == 1);
    signIn(admin);
    assertEquals("admin", b.text("#who-user"));
    assertTrue(b.text("#who-roles").contains("admin"));

    // deep link → template page → finding
    b.open(consoleUrl);
    b.await("#template-findings li[data-kind='StalePoolMembers'] a", 60).click();
    b.await("#subject", 30);
    assertTrue(b.text("#subject").startsWith("StalePoolMembers"), b.text("#subject"));
    // the evidence on the page equals the API's (the scenario's claims change the stale members
    // every 45 s, so the two are compared at the same moment, reloading the page when it moved)
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofSeconds(2))
        .untilAsserted(
            () -> {
              JsonNode now = json("/api/v1/findings?kind=StalePoolMembers").get("items").get(0);
              String page = b.text("table.evidence");
              List<String> missing = new ArrayList<>();
              for (JsonNode e : now.get("evidence")) {
                if (!page.contains(e.get("value").asText())) {
                  missing.add(e.toString());
                }
              }
              if (!missing.isEmpty()) {
                b.driver.navigate().refresh();
                b.await("table.evidence", 30);
              }
              assertEquals(List.of(), missing);
            });
    b.await("#runbook .markdown", 30);
    check("09-finding");
    b.find("a[data-plan='PacedRecreate']").click();
    b.await("#plan-form", 30);
    assertEquals(
        "PacedRecreate", new Select(b.find("#plan-action")).getFirstSelectedOption().getText());
    assertEquals("demo/legacy-tools-pool", b.find("#plan-subject").getAttribute("value"));
    check("10-plan-form");
    b.find("#plan-submit").click();
    String paced = awaitPlanPage();
    check("11-plan");

    // the five other actions, planned from the form
    Map<String, String[]> others = new LinkedHashMap<>();
    others.put("SetUpdateStrategy", new String[] {"demo/node-runtime-pool", "type", "Recreate"});
    others.put("ScalePool", new String[] {"demo/node-runtime-pool", "replicas", "5"});
    others.put("ShardPool", new String[] {"demo/data-notebook-pool", "shards", "2"});
    others.put("SetRefillPacing", new String[] {"controller-lite", "maxRefillRate", "50"});
    await()
        .atMost(Duration.ofSeconds(150))
        .until(
            () -> json("/api/v1/findings?kind=ExpiredClaimsAccumulating").get("items").size() == 1);
    others.put("DeleteExpiredClaims", new String[] {"demo", null, null});
    Map<String, String> plans = new LinkedHashMap<>();
    plans.put("PacedRecreate", paced);
    for (Map.Entry<String, String[]> e : others.entrySet()) {
      b.open("/plans?action=" + e.getKey() + "&subject=" + e.getValue()[0]);
      b.await("#plan-form", 30);
      if (e.getValue()[1] != null) {
        WebElement p = b.find("#plan-param-" + e.getValue()[1]);
        if (p.getTagName().equals("select")) {
          new Select(p).selectByValue(e.getValue()[2]);
        } else {
          p.sendKeys(e.getValue()[2]);
        }
      }
      b.find("#plan-reason").sendKeys("web console E2E: " + e.getKey());
      b.find("#plan-submit").click();
      plans.put(e.getKey(), awaitPlanPage());
    }

    // approve as the second user (two-person rule), then execute as admin after confirming
    signIn(reviewer);
    for (String id : plans.values()) {
      b.open("/plans/" + id);
      clickWhenStable("#plan-approve:enabled");
      untilEquals("#plan-state", () -> "approved", 30);
    }
    check("12-plan-approved");
    signIn(admin);
    for (Map.Entry<String, String> e : plans.entrySet()) {
      b.open("/plans/" + e.getValue());
      clickWhenStable("#plan-execute:enabled");
      b.await("#confirm", 10);
      if (e.getKey().equals("PacedRecreate")) {
        assertTrue(
            b.text("#confirm-objects").contains("Sandbox demo/legacy-tools-pool-"),
            b.text("#confirm"));
        check("13-confirm");
      }
      b.find("#confirm-check").click();
      b.find("#confirm-execute").click();
      await()
          .atMost(Duration.ofSeconds(120))
          .ignoreExceptions()
          .until(() -> List.of("executing", "succeeded").contains(b.text("#plan-state")));
    }
    for (Map.Entry<String, String> e : plans.entrySet()) {
      b.open("/plans/" + e.getValue());
      await()
          .atMost(Duration.ofSeconds(120))
          .ignoreExceptions()
          .untilAsserted(() -> assertEquals("succeeded", b.text("#plan-state"), e.getKey()));
      assertTrue(b.text("table.audit").contains("plan.execute"), e.getKey());
    }
    check("14-plan-succeeded");

    // the audit log holds every step
    b.open("/audit");
    b.await("#audit tr[data-what]", 30);
    for (String what : List.of("plan.create", "plan.approve", "plan.execute", "plan.done")) {
      assertTrue(b.present("#audit tr[data-what='" + what + "']"), what);
    }
    check("15-audit");
    b.open("/plans");
    b.await("#plans-list tr[data-plan]", 30);
    check("16-plans");
    b.open("/findings?state=all");
    b.await("#findings-table table", 30);
    check("17-findings");
  }

  String awaitPlanPage() {
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> b.driver.getCurrentUrl().matches(".*/plans/p-[0-9a-f]+$"));
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "no plan page; the form says: "
              + b.text("#plan-status")
              + " at "
              + b.driver.getCurrentUrl(),
          e);
    }
    b.await("#plan-state", 30);
    assertEquals("planned", b.text("#plan-state"));
    String url = b.driver.getCurrentUrl();
    return url.substring(url.lastIndexOf('/') + 1);
  }

  /** A claim the API lists as served (outcome ready) first seen more than 5 s ago, or null. */
  JsonNode servedClaim() {
    for (JsonNode c : json("/api/v1/claims?namespace=demo&outcome=ready").get("items")) {
      if (Instant.parse(c.get("firstSeen").asText()).isBefore(Instant.now().minusSeconds(5))) {
        return c;
      }
    }
    return null;
  }
}
