package org.sandboxslo.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code watch} needs a real PostgreSQL unless {@code --embedded-db} is given: one line, exit 2,
 * before anything connects anywhere.
 */
class WatchDatabaseTest {
  record Run(int exit, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void watchWithoutADatabaseUrlFailsWithOneLine() {
    Run r = run("watch", "--kubeconfig", "does-not-exist.yaml");
    assertEquals(2, r.exit());
    List<String> lines = r.err().lines().toList();
    assertEquals(1, lines.size(), r.err());
    assertTrue(lines.get(0).startsWith("sandbox-slo: watch needs a PostgreSQL"), r.err());
    assertTrue(lines.get(0).contains("sloconsole.db.url"), r.err());
    assertTrue(lines.get(0).contains("--embedded-db"), r.err());
  }

  @Test
  void embeddedDbOrAUrlPassTheCheck() {
    // the next check to fail is the kubeconfig's: the database requirement was met
    for (String[] args :
        List.of(
            new String[] {"watch", "--embedded-db", "--kubeconfig", "does-not-exist.yaml"},
            new String[] {
              "watch",
              "--db-url",
              "jdbc:postgresql://db:5432/sloconsole",
              "--kubeconfig",
              "does-not-exist.yaml"
            },
            new String[] {
              "watch",
              "--set",
              "sloconsole.db.url=jdbc:postgresql://db:5432/sloconsole",
              "--kubeconfig",
              "does-not-exist.yaml"
            })) {
      Run r = run(args);
      assertEquals(2, r.exit(), r.err());
      assertEquals(
          "sandbox-slo: --kubeconfig does-not-exist.yaml: not readable", r.err().strip(), r.err());
    }
  }

  @Test
  void aBlankUrlIsNoUrl() {
    Run r = run("watch", "--set", "sloconsole.db.url= ", "--kubeconfig", "does-not-exist.yaml");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("watch needs a PostgreSQL"), r.err());
  }
}
