package org.sandboxslo.demo;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sandboxslo.server.cli.Main;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sandbox-slo demo}: everything on embedded defaults (see {@link DemoApp}). */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Run everything on embedded defaults: embedded Kubernetes API server with the agent-sandbox CRDs "
            + "and demo manifests, controller-lite, a load profile, the console and an embedded PostgreSQL.")
public final class DemoCommand extends Main.Common implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--apply",
      paramLabel = "FILE|DIR",
      description = "Also apply these manifests (repeatable; multi-document YAML).")
  List<Path> apply = new ArrayList<>();

  @Option(
      names = "--var",
      paramLabel = "NAME=VALUE",
      description =
          "Value for $${NAME} placeholders in --apply manifests (repeatable; the environment is used too).")
  List<String> vars = new ArrayList<>();

  @Option(
      names = "--api-port",
      paramLabel = "PORT",
      description = "Port of the embedded API server (default: a free port).")
  Integer apiPort;

  @Option(names = "--no-load", description = "Do not create claims.")
  boolean noLoad;

  @Option(
      names = "--scenario",
      paramLabel = "NAME",
      defaultValue = "none",
      description =
          "none (default: the load profile only, so the API equals the ground-truth file) or incidents (template change"
              + " under OnReplenish, suspend/resume, Retain claims piling up, a malformed claim, watch lag that stalls refill;"
              + " their own claims are not in the ground truth).")
  String scenario;

  @Option(
      names = "--ground-truth",
      paramLabel = "FILE",
      description = "Where the load profile writes its ground truth (JSON lines).")
  Path groundTruth;

  @Override
  public Integer call() {
    Map<String, String> extra = new LinkedHashMap<>();
    if (apiPort != null) {
      extra.put("sloconsole.app.api-port", String.valueOf(apiPort));
    }
    if (noLoad) {
      extra.put("sloconsole.load.enabled", "false");
    }
    extra.put("sloconsole.app.scenario", scenario);
    if (groundTruth != null) {
      extra.put("sloconsole.load.ground-truth", groundTruth.toString());
    }
    Map<String, String> settings = settings(extra);
    for (Path p : apply) {
      if (!Files.exists(p)) {
        throw new IllegalArgumentException("--apply " + p + ": no such file or directory");
      }
    }
    Map<String, String> v = new LinkedHashMap<>(System.getenv());
    for (String pair : vars) {
      int i = pair.indexOf('=');
      if (i <= 0) {
        throw new IllegalArgumentException("--var " + pair + ": expected NAME=VALUE");
      }
      v.put(pair.substring(0, i), pair.substring(i + 1));
    }
    PrintWriter err = spec.commandLine().getErr();
    DemoApp app =
        DemoApp.start(
            settings,
            apply,
            v,
            line -> {
              err.println("sandbox-slo: apply: " + line);
              err.flush();
            });
    Main.runUntilStopped(
        app,
        "demo",
        app.httpPort(),
        app.managementPort(),
        app.bannerLines(),
        spec.commandLine().getOut());
    return 0;
  }
}
