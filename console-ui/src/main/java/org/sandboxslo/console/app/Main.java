package org.sandboxslo.console.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sandbox-slo}: the console's command line. Errors are one line on stderr (exit 2 for bad
 * input, 1 when something cannot start); never a stack trace.
 */
@Command(
    name = "sandbox-slo",
    mixinStandardHelpOptions = true,
    version = "sandbox-slo 0.1.0",
    description = "SLO operations console for Kubernetes agent-sandbox warm pools.",
    subcommands = {
      Main.Demo.class,
      Main.Watch.class,
      Main.Replay.class,
      org.sandboxslo.console.slo.GenerateRulesCommand.class
    })
public final class Main implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Held so java.util.logging keeps the level (it only holds loggers weakly). */
  private static final java.util.logging.Logger MOCK_SERVER_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  public static void main(String[] args) {
    // the embedded API server logs every request at INFO through java.util.logging
    MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code. */
  public static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /** Runs the command line with the given streams and returns the exit code (for tests). */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          PrintWriter e = cmd.getErr();
          e.println("sandbox-slo: " + message(ex));
          e.flush();
          return ex instanceof IllegalArgumentException ? 2 : 1;
        });
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          PrintWriter e = ex.getCommandLine().getErr();
          e.println("sandbox-slo: " + ex.getMessage() + " (see --help)");
          e.flush();
          return 2;
        });
    try {
      return cl.execute(args);
    } catch (Throwable t) { // e.g. a LinkageError from a broken installation: still one line
      err.println("sandbox-slo: " + message(t));
      err.flush();
      return 1;
    }
  }

  static String message(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m.replace('\n', ' ');
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 2;
  }

  /** Options every mode shares. */
  static class Common {
    @Option(
        names = "--config",
        paramLabel = "FILE",
        description = "Properties file with sloconsole.* keys.")
    Path config;

    @Option(
        names = "--set",
        paramLabel = "KEY=VALUE",
        description = "Set a configuration key (repeatable).")
    List<String> set = new ArrayList<>();

    @Option(
        names = "--http-port",
        paramLabel = "PORT",
        description = "Console port (UI and API), default 8080.")
    Integer httpPort;

    @Option(
        names = "--management-port",
        paramLabel = "PORT",
        description = "Management port (/healthz, /readyz, /metrics), default 8081.")
    Integer managementPort;

    @Option(
        names = "--db-url",
        paramLabel = "JDBC_URL",
        description = "PostgreSQL to use instead of the embedded one.")
    String dbUrl;

    @Option(
        names = "--record",
        paramLabel = "FILE",
        description =
            "Record every observed watch event in the replay timeline format (replay FILE later).")
    Path record;

    Map<String, String> settings(Map<String, String> extra) {
      Map<String, String> overrides = new LinkedHashMap<>(extra);
      if (httpPort != null) {
        overrides.put("sloconsole.http.port", String.valueOf(httpPort));
      }
      if (managementPort != null) {
        overrides.put("sloconsole.management.port", String.valueOf(managementPort));
      }
      if (dbUrl != null) {
        overrides.put("sloconsole.db.url", dbUrl);
      }
      if (record != null) {
        overrides.put("sloconsole.app.record", record.toString());
      }
      overrides.putAll(Settings.pairs(set));
      return Settings.merge(config, System.getenv(), overrides);
    }
  }

  static void runUntilStopped(App app, String mode, PrintWriter out) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  app.close();
                  stopped.countDown();
                },
                "shutdown"));
    out.println("Sandbox SLO Console (" + mode + ") is up");
    out.println("  console     http://127.0.0.1:" + app.httpPort() + "/");
    out.println("  API         http://127.0.0.1:" + app.httpPort() + "/api/v1/templates");
    out.println(
        "  management  http://127.0.0.1:" + app.managementPort() + "/metrics  /healthz  /readyz");
    if (app.apiServerUrl() != null) {
      out.println(
          "  kubernetes  "
              + app.apiServerUrl()
              + "  (embedded API server with the agent-sandbox CRDs)");
      out.println("  kubectl     export KUBECONFIG=" + app.kubeconfig());
    }
    if (app.load() != null) {
      out.println(
          "  load        ground truth in " + LoadSettings.fromMap(app.settings()).groundTruth(1));
    }
    out.println("Press Ctrl-C to stop.");
    out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Command(
      name = "demo",
      mixinStandardHelpOptions = true,
      description =
          "Run everything on embedded defaults: embedded Kubernetes API server with the agent-sandbox CRDs "
              + "and demo manifests, controller-lite, a load profile, the console and an embedded PostgreSQL.")
  static final class Demo extends Common implements Callable<Integer> {
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
      App app =
          App.demo(
              settings,
              apply,
              v,
              line -> {
                err.println("sandbox-slo: apply: " + line);
                err.flush();
              });
      runUntilStopped(app, "demo", spec.commandLine().getOut());
      return 0;
    }
  }

  @Command(
      name = "watch",
      mixinStandardHelpOptions = true,
      description =
          "Watch a real cluster (kubeconfig or in-cluster config): no embedded API server, no controller, no load.")
  static final class Watch extends Common implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--kubeconfig",
        paramLabel = "FILE",
        description = "Kubeconfig file (default: $KUBECONFIG, ~/.kube/config, or in-cluster).")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "Kubeconfig context.")
    String context;

    @Option(
        names = {"-n", "--namespace"},
        paramLabel = "NS",
        description = "Watch only these namespaces (repeatable; default all).")
    List<String> namespaces = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      Map<String, String> extra = new LinkedHashMap<>();
      if (!namespaces.isEmpty()) {
        extra.put("sloconsole.collector.namespaces", String.join(",", namespaces));
      }
      Map<String, String> settings = settings(extra);
      KubernetesClient client = KubeClients.forKubeconfig(kubeconfig, context);
      App app = App.watch(settings, client);
      runUntilStopped(app, "watch " + client.getMasterUrl(), spec.commandLine().getOut());
      return 0;
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description =
          "Replay a recorded timeline (case YAML or kubectl --watch --output-watch-events JSON) and print SLIs and findings.")
  static final class Replay implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "Timeline file.")
    Path file;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
      ReplayResult r = Replayer.replayFile(file);
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? r.toJson().encodePrettily() : r.toText());
      out.flush();
      return 0;
    }
  }
}
