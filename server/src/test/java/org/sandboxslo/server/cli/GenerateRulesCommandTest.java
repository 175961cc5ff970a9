package org.sandboxslo.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
