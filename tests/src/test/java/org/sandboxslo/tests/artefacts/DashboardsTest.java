package org.sandboxslo.tests.artefacts;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Checks every {@code dashboards/*.json}: valid JSON, schemaVersion at least 36, the {@code
 * datasource} variable (type prometheus) used by every panel and target, the {@code namespace} and
 * {@code template} variables, and that every target {@code expr} (and every {@code label_values}
 * selector) parses as PromQL, by writing them as recording rules and running {@code promtool check
 * rules}. Series names must be contract or recorded names.
 */
class DashboardsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATASOURCE_UID = "${datasource}";
  private static final Set<String> REQUIRED_DASHBOARDS =
      Set.of("fleet-overview.json", "template-detail.json", "pool-detail.json", "slo-budgets.json");

  /** Grafana macros replaced by a representative value before parsing. */
  private static final Map<Pattern, String> MACROS = new LinkedHashMap<>();

  static {
    MACROS.put(Pattern.compile("\\$\\{?__rate_interval\\}?"), "5m");
    MACROS.put(Pattern.compile("\\$\\{?__interval\\}?"), "1m");
    MACROS.put(Pattern.compile("\\$\\{?__range\\}?"), "1h");
  }

  private static final Pattern LABEL_VALUES =
      Pattern.compile("^\\s*label_values\\((.+),\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\)\\s*$");

  /** One PromQL expression of a dashboard and where it sits. */
  private record Expr(String where, String promql) {}

  @Test
  void requiredDashboardsAndReadmeExist() {
    Set<String> present = new TreeSet<>();
    dashboards().forEach(p -> present.add(p.getFileName().toString()));
    assertTrue(present.containsAll(REQUIRED_DASHBOARDS), "missing dashboards; found " + present);
    Path readme = Artefacts.dashboardsDir().resolve("README.md");
    assertTrue(Files.isRegularFile(readme), "missing " + readme);
    String text = Artefacts.read(readme);
    for (String name : present) {
      assertTrue(text.contains(name), "dashboards/README.md does not mention " + name);
    }
  }

  @Test
  void uidsAreUnique() throws IOException {
    Set<String> uids = new HashSet<>();
    for (Path file : dashboards()) {
      String uid = JSON.readTree(file.toFile()).path("uid").asText("");
      assertFalse(uid.isBlank(), file + ": uid is missing");
      assertTrue(uids.add(uid), file + ": duplicate uid " + uid);
    }
  }

  @TestFactory
  Stream<DynamicTest> structure() {
    return dashboards().stream()
        .map(file -> dynamicTest(file.getFileName().toString(), () -> checkStructure(file)));
  }

  @TestFactory
  Stream<DynamicTest> expressionsParseWithPromtool(@TempDir Path tmp) {
    ExternalTool promtool = ExternalTool.require("promtool", "apt-get install prometheus");
    return dashboards().stream()
        .map(
            file ->
                dynamicTest(
                    file.getFileName().toString(), () -> checkExpressions(promtool, file, tmp)));
  }

  private static void checkStructure(Path file) throws IOException {
    JsonNode d = JSON.readTree(file.toFile());
    List<Executable> checks = new ArrayList<>();
    checks.add(
        () ->
            assertTrue(
                d.path("schemaVersion").asInt(0) >= 36,
                file + ": schemaVersion must be >= 36, got " + d.path("schemaVersion")));
    checks.add(() -> assertFalse(d.path("title").asText("").isBlank(), file + ": title"));

    Map<String, JsonNode> vars = new LinkedHashMap<>();
    d.path("templating").path("list").forEach(v -> vars.put(v.path("name").asText(), v));
    checks.add(
        () -> {
          JsonNode ds = vars.get("datasource");
          assertTrue(ds != null, file + ": variable 'datasource' missing");
          assertEquals("datasource", ds.path("type").asText(), file + ": datasource variable type");
          assertEquals("prometheus", ds.path("query").asText(), file + ": datasource plugin");
        });
    for (String name : List.of("namespace", "template")) {
      checks.add(
          () -> {
            JsonNode v = vars.get(name);
            assertTrue(v != null, file + ": variable '" + name + "' missing");
            assertEquals(
                DATASOURCE_UID,
                v.path("datasource").path("uid").asText(),
                file + ": variable " + name + " must query ${datasource}");
          });
    }
    List<JsonNode> panels = panels(d);
    checks.add(() -> assertFalse(panels.isEmpty(), file + ": no panels with targets"));
    for (JsonNode p : panels) {
      String where =
          file.getFileName() + " panel " + p.path("id") + " '" + p.path("title").asText() + "'";
      checks.add(
          () ->
              assertEquals(
                  DATASOURCE_UID,
                  p.path("datasource").path("uid").asText(),
                  where + ": panel datasource must be ${datasource}"));
      for (JsonNode t : p.path("targets")) {
        checks.add(
            () -> {
              if (t.has("datasource")) {
                assertEquals(
                    DATASOURCE_UID,
                    t.path("datasource").path("uid").asText(),
                    where + " target " + t.path("refId").asText() + ": datasource");
              }
              assertFalse(
                  t.path("expr").asText("").isBlank(),
                  where + " target " + t.path("refId").asText() + ": empty expr");
            });
      }
    }
    assertAll(checks);
  }

  private static void checkExpressions(ExternalTool promtool, Path file, Path tmp)
      throws IOException {
    JsonNode d = JSON.readTree(file.toFile());
    List<Expr> exprs = new ArrayList<>();
    for (JsonNode p : panels(d)) {
      for (JsonNode t : p.path("targets")) {
        exprs.add(
            new Expr(
                "panel "
                    + p.path("id")
                    + " '"
                    + p.path("title").asText()
                    + "' target "
                    + t.path("refId").asText(),
                t.path("expr").asText()));
      }
    }
    for (JsonNode v : d.path("templating").path("list")) {
      if (!"query".equals(v.path("type").asText())) {
        continue;
      }
      JsonNode q = v.path("query");
      String query = q.isObject() ? q.path("query").asText() : q.asText();
      Matcher m = LABEL_VALUES.matcher(query);
      assertTrue(m.matches(), file + ": variable " + v.path("name") + " is not label_values(...)");
      exprs.add(new Expr("variable " + v.path("name").asText(), m.group(1)));
    }

    // One recording rule per expression; the record name points back at the panel.
    List<Map<String, Object>> rules = new ArrayList<>();
    Map<String, String> byRecord = new LinkedHashMap<>();
    Set<String> known = Artefacts.knownSeriesNames();
    Map<String, Set<String>> unknown = new LinkedHashMap<>();
    for (int i = 0; i < exprs.size(); i++) {
      Expr e = exprs.get(i);
      String promql = e.promql();
      for (Map.Entry<Pattern, String> macro : MACROS.entrySet()) {
        promql = macro.getKey().matcher(promql).replaceAll(macro.getValue());
      }
      String record = "dashboard:expr_" + i;
      byRecord.put(record, e.where());
      rules.add(Map.of("record", record, "expr", promql));
      for (String name : Artefacts.seriesNamesIn(promql)) {
        if (!known.contains(name)) {
          unknown.computeIfAbsent(e.where(), k -> new TreeSet<>()).add(name);
        }
      }
    }
    assertTrue(unknown.isEmpty(), file + ": unknown series names: " + unknown);

    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    Path rulesFile = tmp.resolve(file.getFileName().toString().replace(".json", ".rules.yml"));
    Files.writeString(
        rulesFile,
        new Yaml(options)
            .dump(Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules)))));
    ExternalTool.Result r = promtool.run(tmp, "check", "rules", rulesFile.toString());
    assertEquals(
        0,
        r.exitCode(),
        () ->
            file
                + ": PromQL does not parse (record names map to "
                + byRecord
                + "):\n"
                + r.output());
  }

  /** Panels that carry targets, including panels nested in collapsed rows. */
  private static List<JsonNode> panels(JsonNode dashboard) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode p : dashboard.path("panels")) {
      if (p.has("targets")) {
        out.add(p);
      }
      for (JsonNode nested : p.path("panels")) {
        if (nested.has("targets")) {
          out.add(nested);
        }
      }
    }
    return out;
  }

  private static List<Path> dashboards() {
    List<Path> files = Artefacts.filesEndingWith(Artefacts.dashboardsDir(), ".json");
    assertFalse(files.isEmpty(), "no dashboards in " + Artefacts.dashboardsDir());
    return files;
  }
}
