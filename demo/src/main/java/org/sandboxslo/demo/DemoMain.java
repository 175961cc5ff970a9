package org.sandboxslo.demo;

import java.io.PrintWriter;
import java.util.List;
import org.sandboxslo.server.cli.Main;

/**
 * The laptop distribution's entry point ({@code ./sandbox-slo}): the production CLI ({@code watch},
 * {@code replay}, {@code generate-rules}) plus {@code demo}, with the embedded API server,
 * controller-lite, the load profile and the embedded PostgreSQL on the class path.
 */
public final class DemoMain {
  private static final java.util.logging.Logger MOCK_SERVER_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  private DemoMain() {}

  public static void main(String[] args) {
    // the embedded API server logs every request at INFO through java.util.logging
    MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
    System.exit(run(args));
  }

  /**
   * Runs the CLI with {@code demo}; see {@link Main#run(PrintWriter, PrintWriter, List,
   * String...)}.
   */
  public static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  public static int run(PrintWriter out, PrintWriter err, String... args) {
    return Main.run(out, err, List.<Object>of(new DemoCommand()), args);
  }
}
