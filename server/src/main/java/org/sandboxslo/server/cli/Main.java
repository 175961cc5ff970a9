package org.sandboxslo.server.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.sandboxslo.server.replay.ReplayResult;
import org.sandboxslo.server.replay.Replayer;
import org.sandboxslo.server.wiring.ConsoleProcess;
import org.sandboxslo.server.wiring.KubeClients;
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
    subcommands = {Main.Watch.class, Main.Replay.class, GenerateRulesCommand.class})
public final class Main implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Held so java.util.logging keeps the level (it only holds loggers weakly). */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code. */
  public static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /** Runs the command line with the given streams and returns the exit code (for tests). */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    return run(out, err, List.of(), args);
  }

  /**
   * Runs the CLI with further subcommands (the laptop distribution adds {@code demo}).
   *
   * @param extraSubcommands picocli command objects
   * @return the exit code: 0 ok, 2 bad input, 1 something could not start
   */
  public static int run(
      PrintWriter out, PrintWriter err, List<Object> extraSubcommands, String... args) {
    CommandLine cl = new CommandLine(new Main()).addSubcommand(new WhatIfCommand());
    extraSubcommands.forEach(cl::addSubcommand);
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

  public static String message(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m.replace('\n', ' ');
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 2;
  }

  /** Options every mode shares. */
  /** Options every long-running mode shares. */
  public static class Common {
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

    public Map<String, String> settings(Map<String, String> extra) {
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

  /**
   * Prints the start banner, then blocks until the JVM is asked to stop (Ctrl-C), closing {@code
   * app} from the shutdown hook.
   *
   * @param extraLines further banner lines (the demo's API server, kubeconfig and tokens)
   */
  public static void runUntilStopped(
      AutoCloseable app,
      String mode,
      int httpPort,
      int managementPort,
      List<String> extraLines,
      PrintWriter out) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    app.close();
                  } catch (Exception e) {
                    System.err.println("sandbox-slo: while stopping: " + message(e));
                  }
                  stopped.countDown();
                },
                "shutdown"));
    out.println("Sandbox SLO Console (" + mode + ") is up");
    out.println("  console     http://127.0.0.1:" + httpPort + "/");
    out.println("  API         http://127.0.0.1:" + httpPort + "/api/v1/templates");
    out.println("  management  http://127.0.0.1:" + managementPort + "/metrics  /healthz  /readyz");
    extraLines.forEach(out::println);
    out.println("Press Ctrl-C to stop.");
    out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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

    @Option(
        names = "--embedded-db",
        description =
            "Without sloconsole.db.url, start an embedded PostgreSQL under sloconsole.db.data-dir"
                + " (laptops; the laptop distribution only). Otherwise watch needs sloconsole.db.url.")
    boolean embeddedDb;

    @Override
    public Integer call() throws Exception {
      Map<String, String> extra = new LinkedHashMap<>();
      if (!namespaces.isEmpty()) {
        extra.put("sloconsole.collector.namespaces", String.join(",", namespaces));
      }
      Map<String, String> settings = settings(extra);
      requireDatabase(settings, embeddedDb);
      KubernetesClient client = KubeClients.forKubeconfig(kubeconfig, context);
      ConsoleProcess app = ConsoleProcess.watch(settings, client);
      runUntilStopped(
          app,
          "watch " + client.getMasterUrl(),
          app.httpPort(),
          app.managementPort(),
          List.of(),
          spec.commandLine().getOut());
      return 0;
    }
  }

  /**
   * Outside the demo a real PostgreSQL is required: several replicas and restarts share it.
   *
   * @throws IllegalArgumentException (one line) when {@code sloconsole.db.url} is empty and {@code
   *     --embedded-db} was not given
   */
  static void requireDatabase(Map<String, String> settings, boolean embeddedDb) {
    if (!embeddedDb && settings.getOrDefault("sloconsole.db.url", "").isBlank()) {
      throw new IllegalArgumentException(
          "watch needs a PostgreSQL: set sloconsole.db.url (SLOCONSOLE_DB_URL or --db-url,"
              + " jdbc:postgresql://host:port/database), or pass --embedded-db on a laptop");
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description =
          "Replay recorded files (timeline YAML, kubectl --watch --output-watch-events -o json,"
              + " Prometheus text with '# SCRAPE <RFC3339> target=<name>' blocks, in any mix) and"
              + " print the state at the clock: SLIs, watch lag, the controller's view, findings"
              + " with when they appeared and when their alert fires, and plans.")
  static final class Replay implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Replay files.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Option(
        names = "--at",
        paramLabel = "TIME",
        description =
            "Print the state at this RFC 3339 time (later entries are not applied); default the"
                + " end of the recording.")
    String at;

    @Override
    public Integer call() {
      ReplayResult r = Replayer.replay(files, at == null ? null : time(at));
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? r.toJson().encodePrettily() : r.toText());
      out.flush();
      return 0;
    }

    static java.time.Instant time(String s) {
      try {
        return java.time.OffsetDateTime.parse(s).toInstant();
      } catch (java.time.format.DateTimeParseException e) {
        throw new IllegalArgumentException(
            "--at: expected an RFC 3339 time like 2026-09-01T10:15:00Z, got '" + s + "'");
      }
    }
  }
}
