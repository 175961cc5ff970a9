package org.sandboxslo.server.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.LatencyHistogram;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.server.cli.Main;

/**
 * Replay as the incident's microscope: several files merged into one timeline, {@code --at},
 * findings followed along the timeline (when each appeared, when its alert fires), and scrape files
 * alone. The timelines are written here: namespace {@code ops}, template {@code web} (image {@code
 * web:1}, then {@code web:2} at 08:30), pool {@code web-pool} of 2 replicas.
 */
class ReplayTimelineTest {
  @TempDir Path dir;

  static Instant t(String hhmmss) {
    return Instant.parse("2026-10-05T" + hhmmss + "Z");
  }

  static JsonObject template(String image, String rv) {
    return new JsonObject()
        .put("apiVersion", "extensions.agents.x-k8s.io/v1beta1")
        .put("kind", "SandboxTemplate")
        .put(
            "metadata",
            new JsonObject()
                .put("name", "web")
                .put("namespace", "ops")
                .put("uid", "u-web")
                .put("resourceVersion", rv)
                .put("creationTimestamp", "2026-10-01T00:00:00Z"))
        .put(
            "spec",
            new JsonObject()
                .put(
                    "podTemplate",
                    new JsonObject()
                        .put(
                            "spec",
                            new JsonObject()
                                .put(
                                    "containers",
                                    new JsonArray()
                                        .add(
                                            new JsonObject()
                                                .put("name", "main")
                                                .put("image", image))))));
  }

  static JsonObject pool() {
    return new JsonObject()
        .put("apiVersion", "extensions.agents.x-k8s.io/v1beta1")
        .put("kind", "SandboxWarmPool")
        .put(
            "metadata",
            new JsonObject()
                .put("name", "web-pool")
                .put("namespace", "ops")
                .put("uid", "u-web-pool")
                .put("resourceVersion", "2")
                .put("creationTimestamp", "2026-10-01T00:00:00Z"))
        .put(
            "spec",
            new JsonObject()
                .put("replicas", 2)
                .put("sandboxTemplateRef", new JsonObject().put("name", "web")))
        .put("status", new JsonObject().put("replicas", 2).put("readyReplicas", 2));
  }

  /** A pool member built from {@code image}, Ready 10 s after its creation. */
  static JsonObject member(String name, String image, String created, String rv) {
    return new JsonObject()
        .put("apiVersion", "agents.x-k8s.io/v1beta1")
        .put("kind", "Sandbox")
        .put(
            "metadata",
            new JsonObject()
                .put("name", name)
                .put("namespace", "ops")
                .put("uid", "u-" + name)
                .put("resourceVersion", rv)
                .put("creationTimestamp", "2026-10-05T" + created + "Z")
                .put(
                    "labels",
                    new JsonObject()
                        .put("agents.x-k8s.io/launch-type", "warm")
                        .put("agents.x-k8s.io/created-by", "controller"))
                .put(
                    "annotations",
                    new JsonObject().put("agents.x-k8s.io/sandbox-template-ref", "web"))
                .put(
                    "ownerReferences",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("apiVersion", "extensions.agents.x-k8s.io/v1beta1")
                                .put("kind", "SandboxWarmPool")
                                .put("name", "web-pool")
                                .put("uid", "u-web-pool")
                                .put("controller", true))))
        .put(
            "spec",
            new JsonObject()
                .put("operatingMode", "Running")
                .put(
                    "podTemplate",
                    new JsonObject()
                        .put(
                            "spec",
                            new JsonObject()
                                .put(
                                    "containers",
                                    new JsonArray()
                                        .add(
                                            new JsonObject()
                                                .put("name", "main")
                                                .put("image", image))))))
        .put(
            "status",
            new JsonObject()
                .put(
                    "conditions",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("type", "Ready")
                                .put("status", "True")
                                .put("reason", "DependenciesReady")
                                .put(
                                    "lastTransitionTime",
                                    Instant.parse("2026-10-05T" + created + "Z")
                                        .plusSeconds(10)
                                        .toString()))));
  }

  /** A timeline entry as a YAML flow mapping (JSON is YAML). */
  static String entry(String at, String type, JsonObject object) {
    JsonObject e = new JsonObject().put("at", "2026-10-05T" + at + "Z").put("type", type);
    if (object != null) {
      e.put("object", object);
    }
    return "- " + e.encode() + "\n";
  }

  /** The fleet listed at 08:00 (built from web:1), synced. */
  static String listed() {
    return entry("08:00:00", "ADDED", template("web:1", "1"))
        + entry("08:00:00", "ADDED", pool())
        + entry("08:00:00", "ADDED", member("web-pool-m1", "web:1", "07:00:00", "3"))
        + entry("08:00:00", "ADDED", member("web-pool-m2", "web:1", "07:00:00", "4"))
        + entry("08:00:00", "SYNCED", null);
  }

  /** 08:30 the template moves to web:2; 09:00 both stale members are replaced at once. */
  static String rollout() {
    return entry("08:30:00", "MODIFIED", template("web:2", "10"))
        + entry("09:00:00", "DELETED", member("web-pool-m1", "web:1", "07:00:00", "11"))
        + entry("09:00:00", "DELETED", member("web-pool-m2", "web:1", "07:00:00", "12"))
        + entry("09:00:00", "ADDED", member("web-pool-n1", "web:2", "08:59:40", "13"))
        + entry("09:00:00", "ADDED", member("web-pool-n2", "web:2", "08:59:40", "14"));
  }

  Path file(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  Path timeline(String name, String clock, String entries) throws Exception {
    return file(
        name,
        "case: "
            + name.replace(".yaml", "")
            + "\n"
            + (clock == null ? "" : "clock: '2026-10-05T" + clock + "Z'\n")
            + "timeline:\n"
            + entries);
  }

  static Finding finding(ReplayResult r, FindingKind kind) {
    return r.findings().stream().filter(f -> f.kind() == kind).findFirst().orElse(null);
  }

  @Test
  void staleMembersAppearAtTheChangeAndTheirAlertFiresFifteenMinutesLater() throws Exception {
    Path f = timeline("rollout.yaml", "09:10:00", listed() + rollout());

    // 08:40: stale since the 08:30 change, alert pending until 08:30 + 15m
    ReplayResult at0840 = Replayer.replay(List.of(f), t("08:40:00"));
    assertEquals(t("08:40:00"), at0840.clock());
    Finding stale = finding(at0840, FindingKind.STALE_POOL_MEMBERS);
    FindingTimeline.Tracked tr = at0840.tracked(stale);
    assertEquals(t("08:30:00"), tr.appearedAt());
    assertEquals("WarmPoolStaleMembers", tr.alert().name());
    assertEquals(t("08:45:00"), tr.firesAt());
    assertFalse(tr.firing(at0840.clock()));
    assertTrue(
        at0840
            .toText()
            .contains(
                "appeared 2026-10-05T08:30:00Z; alert WarmPoolStaleMembers would fire at"
                    + " 2026-10-05T08:45:00Z if it persists"),
        at0840.toText());
    // the 09:00 replacement is after --at: not applied, still 2 stale of 2
    assertEquals(2, template(at0840).pool().staleMembers());

    // 08:50: firing since 08:45
    ReplayResult at0850 = Replayer.replay(List.of(f), t("08:50:00"));
    FindingTimeline.Tracked firing =
        at0850.tracked(finding(at0850, FindingKind.STALE_POOL_MEMBERS));
    assertTrue(firing.firing(at0850.clock()));
    assertEquals(t("08:45:00"), firing.firesAt());

    // the clock (09:10): resolved at the 09:00 replacement, after its alert had fired
    ReplayResult end = Replayer.replay(List.of(f), null);
    assertEquals(t("09:10:00"), end.clock());
    assertNull(finding(end, FindingKind.STALE_POOL_MEMBERS));
    FindingTimeline.Resolved res =
        end.resolved().stream()
            .filter(x -> x.kind().equals("StalePoolMembers"))
            .findFirst()
            .orElseThrow();
    assertEquals(t("08:30:00"), res.appearedAt());
    assertEquals(t("09:00:00"), res.resolvedAt());
    assertEquals(t("08:45:00"), res.alertFiredAt());
    assertEquals(0, template(end).pool().staleMembers());
    // evaluated at least every 10 s: 08:00 → 09:10 is 70 min = 420 steps, plus the final one
    assertTrue(end.evaluations() >= 421, "evaluations " + end.evaluations());
  }

  @Test
  void aChangeUndoneWithinFifteenMinutesNeverFiresTheAlert() throws Exception {
    // negative control: back to web:1 at 08:40, the members were never replaced
    Path f =
        timeline(
            "undo.yaml",
            "09:10:00",
            listed()
                + entry("08:30:00", "MODIFIED", template("web:2", "10"))
                + entry("08:40:00", "MODIFIED", template("web:1", "11")));
    ReplayResult r = Replayer.replay(List.of(f), null);
    assertNull(finding(r, FindingKind.STALE_POOL_MEMBERS));
    FindingTimeline.Resolved res =
        r.resolved().stream()
            .filter(x -> x.kind().equals("StalePoolMembers"))
            .findFirst()
            .orElseThrow();
    assertEquals(t("08:30:00"), res.appearedAt());
    assertEquals(t("08:40:00"), res.resolvedAt());
    assertNull(res.alertFiredAt());
  }

  static SliSnapshot template(ReplayResult r) {
    return r.snapshot().templates().stream()
        .filter(x -> x.key().name().equals("web"))
        .findFirst()
        .orElseThrow();
  }

  static final String CREATION =
      "agent_sandbox_claim_creation_total{created_by=\"go-client\",launch_type=\"%s\","
          + "namespace=\"ops\",pod_condition=\"not_ready\",sandbox_template=\"%s\","
          + "warmpool_name=\"web-pool\"} %d\n";

  static final String H = ControllerView.CONTROLLER_STARTUP_LATENCY_MS;
  static final String[] LE = {"1000", "5000", "240000", "+Inf"};

  /** Cumulative bucket counts of one histogram series. */
  static String histogram(String template, String launch, long... cumulative) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < LE.length; i++) {
      sb.append(
          String.format(
              "%s_bucket{launch_type=\"%s\",sandbox_template=\"%s\",le=\"%s\"} %d%n",
              H, launch, template, LE[i], cumulative[i]));
    }
    return sb.append(
            String.format(
                "%s_count{launch_type=\"%s\",sandbox_template=\"%s\"} %d%n",
                H, launch, template, cumulative[LE.length - 1]))
        .toString();
  }

  /** Two scrapes 5 minutes apart: tpl-a warm with a rank in +Inf and an overcount, cold idle. */
  static String scrapes() {
    String build =
        "agent_sandbox_build_info{build_date=\"2026-05-01\",git_commit=\"c0ffee\","
            + "git_version=\"v0.4.9\",go_version=\"go1.24.1\"} 1\n";
    return "# SCRAPE 2026-10-05T10:00:00Z target=ctrl-0\n"
        + build
        + String.format(CREATION, "warm", "tpl-a", 40)
        + String.format(CREATION, "cold", "tpl-a", 3)
        + histogram("tpl-a", "warm", 0, 0, 0, 0)
        + histogram("tpl-a", "cold", 3, 3, 3, 3)
        + "\n# SCRAPE 2026-10-05T10:05:00Z target=ctrl-0\n"
        + build
        + String.format(CREATION, "warm", "tpl-a", 61)
        + String.format(CREATION, "cold", "tpl-a", 3)
        + histogram("tpl-a", "warm", 10, 18, 20, 25)
        + histogram("tpl-a", "cold", 3, 3, 3, 3);
  }

  @Test
  void scrapeFilesAloneGiveTheControllersViewWithLowerBoundNoDataAndOvercount() throws Exception {
    Path f = file("controller.prom", scrapes());
    ReplayResult r = Replayer.replay(List.of(f), null);
    assertTrue(r.scrapeOnly());
    assertEquals(t("10:05:00"), r.clock());
    assertEquals(2, r.events());
    var report = r.controllerReport();
    assertEquals("v0.4.9", report.build().gitVersion());
    // warm-hit: Δwarm 61 − 40 = 21, Δcold 0 → 21/21
    assertEquals(1.0, report.warmHit().get(0).warmHit().ratio());

    // warm: per bucket Δ 10, 8, 2, 5 → 25 observations
    LatencyHistogram warm = report.histogram(H, "tpl-a", "warm");
    assertEquals(25.0, warm.count());
    // p50 rank 12.5 in (1000, 5000]: 1000 + 4000 × (12.5 − 10) / 8 = 2250
    assertEquals("2250 ms", warm.quantile(0.5).display());
    // p95 rank 23.75 > 20 counted up to 240000 → +Inf: a lower bound, never a value
    assertEquals("> 240000 ms", warm.quantile(0.95).display());
    // 25 observations for 21 claims created: excess 4, taken from the top (+Inf 5 → 1); corrected
    // cumulative 10, 18, 20, 21: p50 rank 10.5 → 1000 + 4000 × 0.5 / 8 = 1250; p95 rank 19.95 →
    // 5000 + 235000 × (19.95 − 18) / 2 = 234125; p99 rank 20.79 > 20 → still a lower bound
    LatencyHistogram.Overcount oc = warm.overcount();
    assertEquals(21, oc.claims());
    assertEquals(4.0, oc.excess());
    assertEquals(
        List.of("1250 ms", "234125 ms", "> 240000 ms"),
        oc.corrected().stream().map(LatencyHistogram.QuantileValue::display).toList());

    // cold: the series is there but did not move → no data, never 0 ms
    LatencyHistogram cold = report.histogram(H, "tpl-a", "cold");
    assertEquals(LatencyHistogram.Status.NO_DATA, cold.status());

    String text = r.toText();
    assertTrue(
        text.contains(
            "  "
                + H
                + " {sandbox_template=tpl-a, launch_type=warm}: p50 2250 ms, p95 > 240000 ms,"
                + " p99 > 240000 ms [25 observations]; overcount 4 (21 claims created), corrected:"
                + " p50 1250 ms, p95 234125 ms, p99 > 240000 ms"),
        text);
    assertTrue(
        text.contains("  " + H + " {sandbox_template=tpl-a, launch_type=cold}: no data\n"), text);
    assertTrue(text.contains("  build: v0.4.9 (c0ffee)"), text);
    assertFalse(text.contains("templates\n"), "no object SLIs without objects: " + text);

    JsonObject json = r.toJson();
    JsonArray hs = json.getJsonObject("controllerReport").getJsonArray("histograms");
    JsonObject warmJson = hs.getJsonObject(1); // sorted by key: cold before warm
    assertEquals("warm", warmJson.getString("launchType"));
    assertTrue(warmJson.getJsonArray("quantiles").getJsonObject(1).getBoolean("lowerBound"));
    assertEquals(4.0, warmJson.getJsonObject("overcount").getDouble("excess"));
    assertEquals("claims created", warmJson.getJsonObject("overcount").getString("basis"));
    assertEquals("no_data", hs.getJsonObject(0).getString("status"));
  }

  @Test
  void scrapeOnlyAtBeforeTheSecondScrapeIsNoData() throws Exception {
    Path f = file("controller.prom", scrapes());
    ReplayResult r = Replayer.replay(List.of(f), t("10:02:00"));
    // one scrape up to 10:02: increases need two, so every figure is no data
    assertEquals(1, r.controllerReport().scrapes());
    assertEquals(
        LatencyHistogram.Status.NO_DATA,
        r.controllerReport().histogram(H, "tpl-a", "warm").status());
    assertTrue(r.controllerReport().notes().get(0).startsWith("fewer than two scrapes"));
    // before the first scrape: an empty window, still an answer
    ReplayResult before = Replayer.replay(List.of(f), t("09:00:00"));
    assertEquals(0, before.controllerReport().scrapes());
  }

  /** A cold claim served by web-pool, as kubectl prints it (receive time = its newest time). */
  static final String WATCH_JSON =
      """
      {"type":"ADDED","object":{"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxClaim",
        "metadata":{"name":"job-7","namespace":"ops","uid":"u-job-7","resourceVersion":"20",
          "creationTimestamp":"2026-10-05T08:10:00Z",
          "annotations":{"agents.x-k8s.io/controller-first-observed-at":"2026-10-05T08:10:00.200Z",
            "agents.x-k8s.io/sandbox-name":"job-7",
            "agents.x-k8s.io/claim-first-ready-at":"2026-10-05T08:10:04.200Z"}},
        "spec":{"warmPoolRef":{"name":"web-pool"}},
        "status":{"conditions":[{"type":"Ready","status":"True","reason":"DependenciesReady",
          "lastTransitionTime":"2026-10-05T08:10:04Z"}]}}}
      """;

  @Test
  void filesOfAllThreeFormatsReplayAsOneTimelineInAnyOrder() throws Exception {
    Path objects = timeline("objects.yaml", null, listed());
    Path change =
        timeline("change.yaml", "08:40:00", entry("08:30:00", "MODIFIED", template("web:2", "10")));
    Path claim = file("claim.json", WATCH_JSON);
    Path controller =
        file(
            "ctrl.prom",
            "# SCRAPE 2026-10-05T08:05:00Z target=ctrl-0\n"
                + String.format(CREATION, "cold", "web", 0)
                + "# SCRAPE 2026-10-05T08:15:00Z target=ctrl-0\n"
                + String.format(CREATION, "cold", "web", 1));
    ReplayResult r = Replayer.replay(List.of(objects, change, claim, controller), null);
    ReplayResult reversed = Replayer.replay(List.of(controller, claim, change, objects), null);

    assertFalse(r.scrapeOnly());
    assertEquals(
        List.of(
            "objects (timeline)",
            "change (timeline)",
            "claim.json (watch JSON)",
            "ctrl.prom (scrapes)"),
        r.files());
    // clock: the latest of change.yaml's clock (08:40) and the last entry (08:30)
    assertEquals(t("08:40:00"), r.clock());
    // 5 listed entries + 1 change + 1 claim + 2 scrapes
    assertEquals(9, r.events());
    // the claim from the watch JSON counts on the template from the YAML: one cold launch of
    // 4.0 s (first observed 08:10:00.2 → Ready 08:10:04.2)
    var hour = template(r).windows().get(1);
    assertEquals(1, hour.coldLaunches());
    assertEquals(4.0, hour.claimToReady().p50().toNanos() / 1e9, 4.0 * 0.004);
    // the change from the second YAML makes both members stale at 08:30
    assertEquals(2, template(r).pool().staleMembers());
    assertEquals(t("08:30:00"), r.tracked(finding(r, FindingKind.STALE_POOL_MEMBERS)).appearedAt());
    // the controller's counter agrees: 1 cold claim created
    assertEquals(1.0, r.controllerReport().warmHit().get(0).warmHit().cold());
    // file order does not matter
    assertEquals(r.clock(), reversed.clock());
    assertEquals(r.events(), reversed.events());
    assertEquals(
        r.findings().stream().map(x -> x.kind() + " " + x.subject() + " " + x.severity()).toList(),
        reversed.findings().stream()
            .map(x -> x.kind() + " " + x.subject() + " " + x.severity())
            .toList());
  }

  @Test
  void cliTakesSeveralFilesAndAtAndRejectsBadFilesWithOneLine() throws Exception {
    Path objects = timeline("objects.yaml", null, listed() + rollout());
    Path ctrl = file("ctrl.prom", scrapes());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new PrintWriter(out),
            new PrintWriter(err),
            "replay",
            "--json",
            "--at",
            "2026-10-05T08:50:00Z",
            objects.toString(),
            ctrl.toString());
    assertEquals(0, code, err.toString());
    JsonObject json = new JsonObject(out.toString());
    assertEquals("2026-10-05T08:50:00Z", json.getString("clock"));
    JsonObject stale =
        json.getJsonArray("findings").stream()
            .map(JsonObject.class::cast)
            .filter(x -> x.getString("kind").equals("StalePoolMembers"))
            .findFirst()
            .orElseThrow();
    assertEquals("2026-10-05T08:30:00Z", stale.getString("appearedAt"));
    assertEquals("2026-10-05T08:45:00Z", stale.getString("alertFiresAt"));
    assertTrue(stale.getBoolean("alertFiring"));
    assertTrue(json.getJsonObject("watchLag").containsKey("SandboxClaim"));

    for (String[] bad :
        new String[][] {
          {"garbage.txt", "just some words\n"},
          {"empty.yaml", ""},
          {"list.json", "[1, 2]"},
          {"badscrape.prom", "# SCRAPE yesterday target=x\nup 1\n"},
        }) {
      Path p = file(bad[0], bad[1]);
      StringWriter e = new StringWriter();
      assertEquals(
          2,
          Main.run(new PrintWriter(new StringWriter()), new PrintWriter(e), "replay", p.toString()),
          bad[0] + ": " + e);
      assertTrue(e.toString().startsWith("sandbox-slo: " + p + ": "), e.toString());
      assertEquals(1, e.toString().strip().split("\n").length, e.toString());
    }
    StringWriter e = new StringWriter();
    assertEquals(
        2,
        Main.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(e),
            "replay",
            "--at",
            "noon",
            objects.toString()));
    assertEquals(
        "sandbox-slo: --at: expected an RFC 3339 time like 2026-09-01T10:15:00Z, got 'noon'",
        e.toString().strip());
  }
}
