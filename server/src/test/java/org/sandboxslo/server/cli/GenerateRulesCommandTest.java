package org.sandboxslo.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** {@code generate-rules} through the CLI. */
class GenerateRulesCommandTest {
  @Test
  void shippedGeneratedRulesDoNotDriftFromTheGenerator(@TempDir Path out) throws Exception {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    assertEquals(
        0,
        Main.run(new PrintWriter(o), new PrintWriter(e), "generate-rules", "--out", out.toString()),
        e.toString());
    Path shipped = Path.of("").toAbsolutePath().getParent().resolve("alerts").resolve("generated");
    Map<String, String> want = read(out);
    Map<String, String> have = read(shipped);
    assertEquals(8, want.size());
    assertEquals(want.keySet(), have.keySet(), "files in " + shipped);
    for (String f : want.keySet()) {
      assertEquals(
          want.get(f),
          have.get(f),
          shipped.resolve(f)
              + " differs from the generator's output; regenerate with: ./sandbox-slo generate-rules --out alerts/generated");
    }
  }

  /** The spec of the PrometheusRule, written back as a rules file, passes promtool. */
  @Test
  @SuppressWarnings("unchecked")
  void prometheusRuleSpecIsARulesFilePromtoolAccepts(@TempDir Path out) throws Exception {
    Result r =
        run(
            "generate-rules",
            "--format",
            "prometheusrule",
            "--out",
            out.toString(),
            "--name",
            "slo-rules",
            "--namespace",
            "monitoring",
            "--label",
            "release=prom",
            "--label",
            "app.kubernetes.io/part-of=sandbox-slo");
    assertEquals(0, r.code(), r.err());
    Path file = out.resolve("slo-rules.prometheusrule.yaml");
    assertEquals("wrote " + file + "\n", r.out());
    Map<String, Object> pr = load(Files.readString(file));
    assertEquals("monitoring.coreos.com/v1", pr.get("apiVersion"));
    assertEquals("PrometheusRule", pr.get("kind"));
    assertEquals(
        Map.of(
            "name",
            "slo-rules",
            "namespace",
            "monitoring",
            "labels",
            Map.of("release", "prom", "app.kubernetes.io/part-of", "sandbox-slo")),
        pr.get("metadata"));
    Map<String, Object> spec = (Map<String, Object>) pr.get("spec");
    List<Map<String, Object>> groups = (List<Map<String, Object>>) spec.get("groups");
    assertEquals(
        List.of("slo-warm-hit", "slo-claim-ready", "slo-pool-ready", "slo-resume-success"),
        groups.stream().map(g -> g.get("name")).toList());

    Path promtool = promtool();
    Path rules = out.resolve("extracted.rules.yml");
    Files.writeString(rules, new Dump(DumpSettings.builder().build()).dumpToString(spec));
    Process p =
        new ProcessBuilder(promtool.toString(), "check", "rules", rules.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
    assertEquals(0, p.exitValue(), output);
    // 4 default SLOs x 23 rules (9 error ratios, 9 burn rates, 1 budget remaining, 4 tiers) = 92
    assertTrue(output.contains("SUCCESS: 92 rules found"), output);
  }

  @Test
  void theDefaultLabelNamesTheConsole(@TempDir Path out) throws Exception {
    Result r = run("generate-rules", "--format", "PrometheusRule", "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    Map<String, Object> pr =
        load(Files.readString(out.resolve("sandbox-slo-console-slos.prometheusrule.yaml")));
    assertEquals(
        Map.of(
            "name",
            "sandbox-slo-console-slos",
            "labels",
            Map.of("app.kubernetes.io/name", "sandbox-slo-console")),
        pr.get("metadata"));
  }

  /** --external-url, else sloconsole.http.external-url of --config, sets every console_url. */
  @Test
  void theExternalUrlIsTheBaseOfEveryConsoleUrl(@TempDir Path dir) throws Exception {
    Path byOption = dir.resolve("option");
    Result r =
        run(
            "generate-rules",
            "--external-url",
            "https://slo.example.com/console/",
            "--out",
            byOption.toString());
    assertEquals(0, r.code(), r.err());
    List<String> urls = consoleUrls(byOption);
    // 4 SLOs x 4 tiers in the rules + 4 x 4 expected alerts in the tests
    assertEquals(32, urls.size());
    for (String u : urls) {
      assertTrue(u.startsWith("https://slo.example.com/console/slos/"), u);
    }
    assertTrue(
        urls.contains("https://slo.example.com/console/slos/pool-ready-team-a-tpl-py"),
        urls.toString());

    Path config = dir.resolve("console.properties");
    Files.writeString(config, "sloconsole.http.external-url=https://cfg.example.com\n");
    Path byConfig = dir.resolve("config");
    r = run("generate-rules", "--config", config.toString(), "--out", byConfig.toString());
    assertEquals(0, r.code(), r.err());
    for (String u : consoleUrls(byConfig)) {
      assertTrue(u.startsWith("https://cfg.example.com/slos/"), u);
    }

    r = run("generate-rules", "--external-url", "ftp://x", "--out", dir.resolve("bad").toString());
    assertEquals(2, r.code());
    assertEquals(
        "sandbox-slo: --external-url: expected an absolute http(s) URL like"
            + " https://sandbox-slo.example.com (scheme must be http or https), got 'ftp://x'\n",
        r.err());
    assertTrue(Files.notExists(dir.resolve("bad")), "nothing is written on bad input");
  }

  @Test
  void badPrometheusRuleMetadataIsOneLineAndExitTwo(@TempDir Path out) {
    Result r =
        run(
            "generate-rules",
            "--format",
            "prometheusrule",
            "--name",
            "Bad_Name",
            "--out",
            out.toString());
    assertEquals(2, r.code());
    assertEquals(
        "sandbox-slo: name: expected a DNS-1123 subdomain (lower-case letters, digits, '-', '.'),"
            + " got 'Bad_Name'\n",
        r.err());
    r = run("generate-rules", "--format", "yaml", "--out", out.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("expected rules or prometheusrule, got 'yaml'"), r.err());
  }

  private record Result(int code, String out, String err) {}

  private static Result run(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code = Main.run(new PrintWriter(o), new PrintWriter(e), args);
    return new Result(code, o.toString(), e.toString());
  }

  private static final Pattern CONSOLE_URL = Pattern.compile("console_url: (\\S+)");

  private static List<String> consoleUrls(Path dir) throws Exception {
    List<String> urls = new ArrayList<>();
    for (String text : read(dir).values()) {
      Matcher m = CONSOLE_URL.matcher(text);
      while (m.find()) {
        urls.add(m.group(1));
      }
    }
    return urls;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> load(String yaml) {
    return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(yaml);
  }

  /** promtool on the PATH, or the test is skipped (CI installs Debian's prometheus). */
  private static Path promtool() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path p = Path.of(d, "promtool");
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    Assumptions.abort("promtool not found on PATH (apt-get install prometheus)");
    return null;
  }

  private static Map<String, String> read(Path dir) throws Exception {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        m.put(p.getFileName().toString(), Files.readString(p));
      }
    }
    return m;
  }
}
