package org.sandboxslo.tests.artefacts;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code prometheus-alertmanager} process on a free loopback port, for one test.
 *
 * <p>Started without clustering ({@code --cluster.listen-address=}) and with its data and log in
 * the given directory. {@link #close()} stops the process it started (by handle, never by name).
 */
final class RunningAlertmanager implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final URI base;
  private final Path log;
  private final HttpClient http = HttpClient.newHttpClient();

  private RunningAlertmanager(Process process, URI base, Path log) {
    this.process = process;
    this.base = base;
    this.log = log;
  }

  /**
   * Starts Alertmanager and waits (up to 20 s) until {@code /-/ready} answers 200.
   *
   * @param binary the {@code prometheus-alertmanager} tool
   * @param config configuration file to load
   * @param dir scratch directory for storage and the process log
   */
  static RunningAlertmanager start(ExternalTool binary, Path config, Path dir) throws IOException {
    int port = freePort();
    Path log = dir.resolve("alertmanager.log");
    Process process =
        new ProcessBuilder(
                binary.executable().toString(),
                "--config.file=" + config,
                "--storage.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--web.external-url=http://127.0.0.1:" + port,
                "--cluster.listen-address=")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    RunningAlertmanager am =
        new RunningAlertmanager(process, URI.create("http://127.0.0.1:" + port), log);
    try {
      await("Alertmanager /-/ready on port " + port)
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> process.isAlive() && am.get("/-/ready").statusCode() == 200);
    } catch (RuntimeException e) {
      String output = am.log();
      am.close();
      throw new IllegalStateException("Alertmanager did not become ready:\n" + output, e);
    }
    return am;
  }

  /** Alertmanager's base URL, e.g. {@code http://127.0.0.1:41234}. */
  URI base() {
    return base;
  }

  /** POSTs alerts (label maps, no annotations, startsAt = now) to {@code /api/v2/alerts}. */
  void post(List<Map<String, String>> labelSets) throws IOException, InterruptedException {
    List<Map<String, Object>> body =
        labelSets.stream().map(l -> Map.<String, Object>of("labels", l)).toList();
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(base.resolve("/api/v2/alerts"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "POST /api/v2/alerts -> " + response.statusCode() + ": " + response.body());
    }
  }

  /** The alert whose labels equal {@code labels} exactly, from {@code GET /api/v2/alerts}. */
  JsonNode alert(Map<String, String> labels) throws IOException, InterruptedException {
    JsonNode alerts = JSON.readTree(get("/api/v2/alerts").body());
    for (JsonNode a : alerts) {
      Map<String, String> actual =
          JSON.convertValue(
              a.get("labels"),
              JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class));
      if (actual.equals(labels)) {
        return a;
      }
    }
    throw new IllegalStateException("alert " + labels + " not found in " + alerts);
  }

  /** True when {@code status.inhibitedBy} of the alert with these labels is non-empty. */
  boolean inhibited(Map<String, String> labels) throws IOException, InterruptedException {
    return !alert(labels).path("status").path("inhibitedBy").isEmpty();
  }

  String log() {
    try {
      return Files.exists(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(base.resolve(path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
