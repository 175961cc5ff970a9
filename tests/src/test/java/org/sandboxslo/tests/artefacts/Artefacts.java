package org.sandboxslo.tests.artefacts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Locates and reads the user-installable artefacts ({@code alerts/}, {@code runbooks/}, {@code
 * dashboards/}) of the repository for the artefact tests.
 *
 * <p>The repository root is found by walking up from {@code user.dir} (surefire runs in the {@code
 * tests/} module directory) to the first directory holding both {@code alerts/} and {@code
 * runbooks/}; the system property {@code sandboxslo.repo.dir} overrides it.
 */
final class Artefacts {

  /** Prefix of every {@code runbook_url}; the rest is a path relative to the repository root. */
  static final String RUNBOOK_URL_PREFIX =
      "https://github.com/sandbox-slo-console/sandbox-slo-console/blob/main/";

  /** Base of every {@code console_url}; alerts/README.md explains how to replace it. */
  static final String CONSOLE_URL_BASE = "http://127.0.0.1:8080/";

  /** Severities an alert may carry; Alertmanager routes on them. */
  static final Set<String> SEVERITIES = Set.of("page", "ticket", "info");

  /**
   * Tokens that name series of this project: upstream {@code agent_sandbox*}, console {@code
   * sandbox_slo_*}, and recording rules {@code sandbox:*} / {@code slo:*}.
   */
  private static final Pattern METRIC_TOKEN =
      Pattern.compile(
          "(?<![A-Za-z0-9_:\"])(agent_sandbox[a-z0-9_]*|sandbox_slo_[a-z0-9_]*|sandbox:[a-z0-9_:]*"
              + "|slo:[a-z0-9_:]*)(?![A-Za-z0-9_:\"])");

  /**
   * One alerting rule as written in a rules file.
   *
   * @param file the rules file
   * @param group the rule group name
   * @param name the {@code alert} name
   * @param expr the PromQL expression
   * @param labels static labels (may be empty)
   * @param annotations annotations (may be empty)
   */
  record AlertRule(
      Path file,
      String group,
      String name,
      String expr,
      Map<String, String> labels,
      Map<String, String> annotations) {}

  /**
   * One recording or alerting rule's expression.
   *
   * @param file the rules file
   * @param rule the {@code record} or {@code alert} name
   * @param expr the PromQL expression
   */
  record RuleExpr(Path file, String rule, String expr) {}

  private Artefacts() {}

  static Path repoRoot() {
    String override = System.getProperty("sandboxslo.repo.dir");
    if (override != null && !override.isBlank()) {
      return Path.of(override).toAbsolutePath().normalize();
    }
    Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("alerts")) && Files.isDirectory(dir.resolve("runbooks"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no directory containing alerts/ and runbooks/ above "
            + start
            + "; set -Dsandboxslo.repo.dir=<repository root>");
  }

  static Path alertsDir() {
    return repoRoot().resolve("alerts");
  }

  static Path runbooksDir() {
    return repoRoot().resolve("runbooks");
  }

  static Path dashboardsDir() {
    return repoRoot().resolve("dashboards");
  }

  /** Every {@code *.rules.yml} under {@code alerts/}, recursively, sorted. */
  static List<Path> rulesFiles() {
    return walk(alertsDir(), p -> p.getFileName().toString().endsWith(".rules.yml"));
  }

  /** Every {@code *_test.yml} in a directory that holds at least one rules file, sorted. */
  static List<Path> ruleTestFiles() {
    Set<Path> dirs = rulesFiles().stream().map(Path::getParent).collect(Collectors.toSet());
    return walk(
        alertsDir(),
        p -> dirs.contains(p.getParent()) && p.getFileName().toString().endsWith("_test.yml"));
  }

  /** Files of {@code dir} (recursively) whose name ends with {@code suffix}, sorted. */
  static List<Path> filesEndingWith(Path dir, String suffix) {
    return walk(dir, p -> p.getFileName().toString().endsWith(suffix));
  }

  private static List<Path> walk(Path dir, java.util.function.Predicate<Path> filter) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).filter(filter).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  /** Parses a YAML document into plain maps/lists (safe constructor, no custom tags). */
  static Map<String, Object> loadYaml(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
      if (!(doc instanceof Map<?, ?>)) {
        throw new IllegalArgumentException(file + ": top level must be a mapping");
      }
      return cast(doc);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** All alerting rules of all rules files, in file order. */
  static List<AlertRule> alertRules() {
    List<AlertRule> alerts = new ArrayList<>();
    for (Path file : rulesFiles()) {
      for (Map<String, Object> group : list(loadYaml(file).get("groups"))) {
        for (Map<String, Object> rule : list(group.get("rules"))) {
          if (rule.containsKey("alert")) {
            alerts.add(
                new AlertRule(
                    file,
                    String.valueOf(group.get("name")),
                    String.valueOf(rule.get("alert")),
                    String.valueOf(rule.get("expr")),
                    stringMap(rule.get("labels")),
                    stringMap(rule.get("annotations"))));
          }
        }
      }
    }
    return alerts;
  }

  /** Every rule's expression (recording and alerting), in file order. */
  static List<RuleExpr> ruleExprs() {
    List<RuleExpr> exprs = new ArrayList<>();
    for (Path file : rulesFiles()) {
      for (Map<String, Object> group : list(loadYaml(file).get("groups"))) {
        for (Map<String, Object> rule : list(group.get("rules"))) {
          Object name = rule.containsKey("record") ? rule.get("record") : rule.get("alert");
          exprs.add(new RuleExpr(file, String.valueOf(name), String.valueOf(rule.get("expr"))));
        }
      }
    }
    return exprs;
  }

  /** Names of all recording rules in all rules files. */
  static Set<String> recordedNames() {
    Set<String> names = new TreeSet<>();
    for (Path file : rulesFiles()) {
      for (Map<String, Object> group : list(loadYaml(file).get("groups"))) {
        for (Map<String, Object> rule : list(group.get("rules"))) {
          if (rule.containsKey("record")) {
            names.add(String.valueOf(rule.get("record")));
          }
        }
      }
    }
    return names;
  }

  /**
   * Series names that rules and dashboards may use: the metric contract (test resource {@code
   * artefacts/metric-contract.txt}) plus every recorded name.
   */
  static Set<String> knownSeriesNames() {
    Set<String> names = new TreeSet<>(recordedNames());
    try (InputStream in =
        Objects.requireNonNull(
            Artefacts.class.getResourceAsStream("/artefacts/metric-contract.txt"),
            "test resource artefacts/metric-contract.txt is missing")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      text.lines()
          .map(String::strip)
          .filter(l -> !l.isEmpty() && !l.startsWith("#"))
          .forEach(names::add);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read artefacts/metric-contract.txt", e);
    }
    return names;
  }

  /** Project series names referenced by a PromQL expression (see {@link #METRIC_TOKEN}). */
  static Set<String> seriesNamesIn(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC_TOKEN.matcher(expr);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  @SuppressWarnings("unchecked")
  static <T> T cast(Object o) {
    return (T) o;
  }

  /** A YAML sequence of mappings; {@code null} is an empty list. */
  static List<Map<String, Object>> list(Object o) {
    if (o == null) {
      return List.of();
    }
    if (!(o instanceof List<?>)) {
      throw new IllegalArgumentException("expected a list, got " + o);
    }
    return cast(o);
  }

  /** A YAML mapping with scalar values rendered as strings; {@code null} is an empty map. */
  static Map<String, String> stringMap(Object o) {
    if (o == null) {
      return Map.of();
    }
    Map<String, Object> raw = cast(o);
    return raw.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> String.valueOf(e.getValue())));
  }
}
