package org.sandboxslo.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.sandboxslo.console.slo.RuleGenerator;
import org.sandboxslo.console.slo.SloDefaults;
import org.sandboxslo.console.slo.SloFiles;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.time.Durations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sandbox-slo generate-rules [--slo-dir DIR] [--out alerts/generated] [--period 28d]}:
 * writes Prometheus burn-rate rules and their promtool tests ({@link RuleGenerator}) for the SLOs
 * in {@code --slo-dir} (our shape or OpenSLO v1), or for the four default SLOs (per template, by
 * {@code namespace, sandbox_template}) when no directory is given. A bad SLO file is one error line
 * and exit 2; nothing is written then.
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
    for (Path p : RuleGenerator.writeAll(slos, out)) {
      o.println("wrote " + p);
    }
    o.flush();
    return 0;
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
