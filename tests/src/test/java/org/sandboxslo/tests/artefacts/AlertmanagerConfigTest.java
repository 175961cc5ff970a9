package org.sandboxslo.tests.artefacts;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Checks {@code alerts/alertmanager.yml}: {@code amtool check-config}, every routing case of {@code
 * alerts/alertmanager_routes_cases.yml} via {@code amtool config routes test}, the console webhook
 * route, and the inhibition rules against a real Alertmanager (cases in the test resource {@code
 * artefacts/inhibition-cases.yml}).
 */
class AlertmanagerConfigTest {

  private static final String INSTALL = "apt-get install prometheus-alertmanager";

  private static Path config() {
    return Artefacts.alertsDir().resolve("alertmanager.yml");
  }

  @Test
  void amtoolCheckConfig() {
    ExternalTool amtool = ExternalTool.require("amtool", INSTALL);
    ExternalTool.Result r = amtool.run(Artefacts.alertsDir(), "check-config", config().toString());
    assertEquals(0, r.exitCode(), "amtool check-config failed:\n" + r.output());
    assertTrue(r.output().contains("SUCCESS"), r.output());
  }

  @TestFactory
  Stream<DynamicTest> routingCases() {
    ExternalTool amtool = ExternalTool.require("amtool", INSTALL);
    Set<String> receivers = receiverNames(Artefacts.loadYaml(config()));
    List<Map<String, Object>> cases = routingCaseList();
    assertFalse(cases.isEmpty(), "no routing cases");
    return cases.stream()
        .map(
            c ->
                dynamicTest(
                    String.valueOf(c.get("name")),
                    () -> {
                      Map<String, String> labels = Artefacts.stringMap(c.get("labels"));
                      List<String> expected = Artefacts.cast(c.get("receivers"));
                      assertTrue(
                          receivers.containsAll(expected),
                          "case names receivers not in alertmanager.yml: " + expected);
                      List<String> args = new ArrayList<>();
                      args.addAll(List.of("config", "routes", "test", "--config.file=" + config()));
                      labels.forEach((k, v) -> args.add(k + "=" + v));
                      ExternalTool.Result r =
                          amtool.run(Artefacts.alertsDir(), Duration.ofSeconds(30), args);
                      assertEquals(0, r.exitCode(), "amtool failed:\n" + r.output());
                      assertEquals(
                          new TreeSet<>(expected),
                          resolvedReceivers(r.output()),
                          "receivers for " + labels + "; amtool said:\n" + r.output());
                    }));
  }

  /** The console's webhook route is first, matches everything, continues, and sends resolved. */
  @Test
  void consoleWebhookReceivesEverythingFirst() {
    Map<String, Object> am = Artefacts.loadYaml(config());
    Map<String, Object> root = Artefacts.cast(am.get("route"));
    assertEquals(
        List.of("alertname", "slo", "namespace", "sandbox_template"), root.get("group_by"));
    Map<String, Object> first = Artefacts.list(root.get("routes")).get(0);
    assertEquals("sandbox-slo-console", first.get("receiver"));
    assertEquals(Boolean.TRUE, first.get("continue"));
    assertFalse(first.containsKey("matchers") || first.containsKey("match"), "must match all");
    Map<String, Object> receiver =
        Artefacts.list(am.get("receivers")).stream()
            .filter(r -> "sandbox-slo-console".equals(r.get("name")))
            .findFirst()
            .orElseThrow();
    Map<String, Object> webhook = Artefacts.list(receiver.get("webhook_configs")).get(0);
    assertEquals("http://127.0.0.1:8080/hooks/alertmanager", webhook.get("url"));
    assertEquals(Boolean.TRUE, webhook.get("send_resolved"));
    // the console refuses the webhook without its secret (sloconsole.alertmanager.webhook-token)
    @SuppressWarnings("unchecked")
    Map<String, Object> http = (Map<String, Object>) webhook.get("http_config");
    @SuppressWarnings("unchecked")
    Map<String, Object> authorization = (Map<String, Object>) http.get("authorization");
    assertEquals("REPLACE-WITH-CONSOLE-WEBHOOK-TOKEN", authorization.get("credentials"));
  }

  @TestFactory
  Stream<DynamicTest> inhibitionCases(@TempDir Path tmp) throws IOException {
    ExternalTool alertmanager = ExternalTool.require("prometheus-alertmanager", INSTALL);
    // Same routes and inhibit rules, but receivers without integrations: nothing leaves the host.
    Map<String, Object> am = Artefacts.loadYaml(config());
    am.put(
        "receivers",
        receiverNames(am).stream().map(n -> Map.of("name", n)).collect(Collectors.toList()));
    Path offline = tmp.resolve("alertmanager-offline.yml");
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    Files.writeString(offline, new Yaml(options).dump(am));

    List<Map<String, Object>> cases = inhibitionCaseList();
    assertFalse(cases.isEmpty(), "no inhibition cases");
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      Map<String, Object> c = cases.get(i);
      Path dir = tmp.resolve("case-" + i);
      tests.add(
          dynamicTest(
              String.valueOf(c.get("name")),
              () -> runInhibitionCase(alertmanager, offline, dir, c)));
    }
    return tests.stream();
  }

  private static void runInhibitionCase(
      ExternalTool alertmanager, Path config, Path dir, Map<String, Object> c) throws Exception {
    Files.createDirectories(dir);
    Map<String, String> source = Artefacts.stringMap(c.get("source"));
    Map<String, String> target = Artefacts.stringMap(c.get("target"));
    boolean inhibited = Boolean.TRUE.equals(c.get("inhibited"));
    Map<String, String> probe = Artefacts.stringMap(c.get("probe"));
    assertTrue(inhibited || !probe.isEmpty(), c.get("name") + ": a negative case needs a probe");
    try (RunningAlertmanager am = RunningAlertmanager.start(alertmanager, config, dir)) {
      List<Map<String, String>> alerts = new ArrayList<>(List.of(source, target));
      if (!probe.isEmpty()) {
        alerts.add(probe);
      }
      am.post(alerts);
      Map<String, String> witness = inhibited ? target : probe;
      try {
        await(witness + " inhibited by " + source)
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(100))
            .ignoreExceptions()
            .until(() -> am.inhibited(witness));
      } catch (ConditionTimeoutException e) {
        fail(
            (inhibited ? "target " : "probe ")
                + witness
                + " was not inhibited by "
                + source
                + " within 10 s; check inhibit_rules in alertmanager.yml");
      }
      if (!inhibited) {
        assertFalse(am.inhibited(target), target + " must not be inhibited by " + source);
      }
    }
  }

  private static Set<String> resolvedReceivers(String amtoolOutput) {
    // amtool prints the receivers as one comma-separated line (plus flag warnings on stderr).
    String line =
        amtoolOutput
            .lines()
            .filter(l -> !l.startsWith("Warning:") && !l.startsWith("WARNING:") && !l.isBlank())
            .findFirst()
            .orElse("");
    return Arrays.stream(line.split(","))
        .map(String::strip)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> receiverNames(Map<String, Object> am) {
    return Artefacts.list(am.get("receivers")).stream()
        .map(r -> String.valueOf(r.get("name")))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static List<Map<String, Object>> routingCaseList() {
    Path file = Artefacts.alertsDir().resolve("alertmanager_routes_cases.yml");
    return Artefacts.list(Artefacts.loadYaml(file).get("cases"));
  }

  private static List<Map<String, Object>> inhibitionCaseList() {
    try (InputStream in =
        Objects.requireNonNull(
            AlertmanagerConfigTest.class.getResourceAsStream("/artefacts/inhibition-cases.yml"),
            "test resource artefacts/inhibition-cases.yml is missing")) {
      Map<String, Object> doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
      return Artefacts.list(doc.get("cases"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
