package org.sandboxslo.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.api.ConsoleLinks;
import org.sandboxslo.console.slo.PrometheusRuleMetadata;
import org.sandboxslo.console.slo.RuleGenerator;
import org.sandboxslo.console.slo.SloDefaults;
import org.sandboxslo.console.slo.SloFiles;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.time.Durations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sandbox-slo generate-rules [--slo-dir DIR] [--out alerts/generated] [--period 28d]
 * [--external-url URL] [--format rules|prometheusrule]}: writes Prometheus burn-rate rules for the
 * SLOs in {@code --slo-dir} (our shape or OpenSLO v1), or for the four default SLOs (per template,
 * by {@code namespace, sandbox_template}) when no directory is given ({@link RuleGenerator}).
 *
 * <ul>
 *   <li>{@code --format rules} (default): {@code <slo>.rules.yml} and its promtool tests {@code
 *       <slo>.rules_test.yml} per SLO;
 *   <li>{@code --format prometheusrule}: one {@code monitoring.coreos.com/v1} {@code
 *       PrometheusRule} holding the same groups, {@code <name>.prometheusrule.yaml} ({@code
 *       --name}, {@code --namespace}, {@code --label key=value}; default label {@code
 *       app.kubernetes.io/name: sandbox-slo-console}).
 * </ul>
 *
 * {@code console_url} annotations point under {@code --external-url}, else {@code
 * sloconsole.http.external-url} from {@code --config} or {@code SLOCONSOLE_HTTP_EXTERNAL_URL}, else
 * {@code http://127.0.0.1:8080}. Bad input is one error line and exit 2; nothing is written then.
 */
@Command(
    name = "generate-rules",
    mixinStandardHelpOptions = true,
    description =
        "Write Prometheus SLO recording and burn-rate alerting rules, with promtool tests, from SLO definitions "
            + "(default: the four default SLOs).")
public final class GenerateRulesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--slo-dir",
      paramLabel = "DIR",
      description = "SLO YAML files (console shape or OpenSLO v1 SLO); default: the default SLOs.")
  Path sloDir;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "alerts/generated",
      description = "Output directory (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--period",
      paramLabel = "DURATION",
      defaultValue = "28d",
      description = "Period of the default SLOs (default: ${DEFAULT-VALUE}).")
  String period;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "rules",
      converter = Format.Converter.class,
      description =
          "rules: <slo>.rules.yml + <slo>.rules_test.yml per SLO; prometheusrule: one"
              + " monitoring.coreos.com/v1 PrometheusRule (default: ${DEFAULT-VALUE}).")
  Format format;

  @Option(
      names = "--external-url",
      paramLabel = "URL",
      description =
          "Base of the console_url annotations (default: sloconsole.http.external-url, else"
              + " http://127.0.0.1:8080).")
  String externalUrl;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Properties file with sloconsole.* keys (read for sloconsole.http.external-url).")
  Path config;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      defaultValue = PrometheusRuleMetadata.DEFAULT_NAME,
      description = "PrometheusRule metadata.name (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description = "PrometheusRule metadata.namespace (default: none, set by kubectl/kustomize).")
  String namespace;

  @Option(
      names = "--label",
      paramLabel = "KEY=VALUE",
      description =
          "PrometheusRule metadata.labels entry, repeatable; replaces the default"
              + " app.kubernetes.io/name=sandbox-slo-console.")
  List<String> labels = new ArrayList<>();

  /** Output formats. */
  enum Format {
    RULES,
    PROMETHEUSRULE;

    /** Case-insensitive, so {@code --format prometheusrule} reads as in the docs. */
    static final class Converter implements CommandLine.ITypeConverter<Format> {
      @Override
      public Format convert(String value) {
        for (Format f : values()) {
          if (f.name().equalsIgnoreCase(value)) {
            return f;
          }
        }
        throw new CommandLine.TypeConversionException(
            "expected rules or prometheusrule, got '" + value + "'");
      }
    }
  }

  @Option(
      names = "--latency-threshold",
      paramLabel = "DURATION",
      defaultValue = "1s",
      description = "Threshold of the default latency SLO (default: ${DEFAULT-VALUE}).")
  String threshold;

  @Override
  public Integer call() throws Exception {
    PrintWriter o = spec.commandLine().getOut();
    List<SloDefinition> slos =
        definitions(
            sloDir,
            Durations.parse("--period", period),
            Durations.parse("--latency-threshold", threshold),
            o);
    ConsoleLinks links = links(externalUrl, config, System.getenv());
    if (format == Format.PROMETHEUSRULE) {
      o.println("wrote " + RuleGenerator.writePrometheusRule(slos, out, links, metadata()));
    } else {
      for (Path p : RuleGenerator.writeAll(slos, out, links)) {
        o.println("wrote " + p);
      }
    }
    o.flush();
    return 0;
  }

  /**
   * The console links: {@code --external-url}, else {@code sloconsole.http.external-url} from the
   * file or the environment, else the default; validated like the console's own setting.
   */
  static ConsoleLinks links(String option, Path configFile, Map<String, String> env) {
    if (option != null) {
      return ConsoleLinks.parse("--external-url", option);
    }
    Map<String, String> settings = Settings.merge(configFile, env, Map.of());
    String url = settings.get(ConsoleConfig.HTTP_EXTERNAL_URL);
    return url == null
        ? ConsoleLinks.defaults()
        : ConsoleLinks.parse(ConsoleConfig.HTTP_EXTERNAL_URL, url);
  }

  private PrometheusRuleMetadata metadata() {
    Map<String, String> l =
        labels.isEmpty()
            ? PrometheusRuleMetadata.DEFAULT_LABELS
            : Settings.pairs(labels, "--label");
    return new PrometheusRuleMetadata(name, namespace, l);
  }

  /** The SLOs to generate for: from {@code dir}, or the defaults. */
  static List<SloDefinition> definitions(
      Path dir, Duration period, Duration threshold, PrintWriter notices) {
    if (dir == null) {
      List<SloDefinition> out = new ArrayList<>();
      for (var b : SloDefaults.bodies(null, null, period, threshold)) {
        out.add(org.sandboxslo.engine.slo.SloDefinitions.parse(b).definition());
      }
      return out;
    }
    SloFiles.Loaded l = SloFiles.load(dir);
    if (!l.errors().isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", l.errors()));
    }
    l.notices().forEach(notices::println);
    if (l.definitions().isEmpty()) {
      throw new IllegalArgumentException("--slo-dir " + dir + ": no SLO definitions found");
    }
    return l.definitions();
  }
}
