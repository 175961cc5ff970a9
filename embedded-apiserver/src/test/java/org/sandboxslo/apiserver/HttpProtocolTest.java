package org.sandboxslo.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.sandboxslo.engine.model.Kind;
import tools.jackson.databind.JsonNode;

/** The wire protocol as any HTTP client sees it (no kubectl needed). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpProtocolTest {
  EmbeddedApiServer api;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  @BeforeAll
  void start() {
    api = EmbeddedApiServer.start(0);
  }

  @AfterAll
  void stop() {
    api.close();
  }

  HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return http.send(
        b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpRequest.Builder at(String path) {
    return HttpRequest.newBuilder(URI.create(api.url() + path));
  }

  @Test
  void discoveryAnswersWithVersionGroupsAndResources() throws Exception {
    JsonNode version = Json.parse(send(at("/version")).body());
    assertEquals("1", version.path("major").asString());
    assertEquals("32", version.path("minor").asString());
    JsonNode core = Json.parse(send(at("/api")).body());
    assertEquals("APIVersions", core.path("kind").asString());
    assertEquals(Json.parse("[\"v1\"]"), core.path("versions"));
    JsonNode v1 = Json.parse(send(at("/api/v1")).body());
    assertTrue(
        v1.path("resources")
            .valueStream()
            .anyMatch(r -> r.path("name").asString().equals("namespaces")));
    assertEquals(404, send(at("/apis/nope.example.com/v1")).statusCode());
  }

  @Test
  void protobufBodiesAreRefusedAtOnce() throws Exception {
    HttpResponse<String> r =
        send(
            at("/api/v1/namespaces/default/configmaps")
                .header("Content-Type", "application/vnd.kubernetes.protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {0x6b, 0x38, 0x73, 0x00})));
    assertEquals(415, r.statusCode());
    assertEquals("UnsupportedMediaType", Json.parse(r.body()).path("reason").asString());
  }

  @Test
  void strategicMergePatchIsRefusedForCustomResources() throws Exception {
    api.createNamespace("smp");
    GenericKubernetesResource s = KubectlCompatibilityTest.sandbox("smp", "s");
    EmbeddedApiServerTest.ops(api.client(), Kind.SANDBOX).inNamespace("smp").resource(s).create();
    HttpResponse<String> r =
        send(
            at("/apis/agents.x-k8s.io/v1beta1/namespaces/smp/sandboxes/s")
                .header("Content-Type", "application/strategic-merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"spec\":{}}")));
    assertEquals(415, r.statusCode());
    // on a built-in kind it reads as a merge patch
    HttpResponse<String> ns =
        send(
            at("/api/v1/namespaces/smp")
                .header("Content-Type", "application/strategic-merge-patch+json")
                .method(
                    "PATCH",
                    HttpRequest.BodyPublishers.ofString(
                        "{\"metadata\":{\"labels\":{\"team\":\"a\"}}}")));
    assertEquals(200, ns.statusCode(), ns.body());
    assertEquals(
        Map.of("team", "a"),
        api.client().namespaces().withName("smp").get().getMetadata().getLabels());
  }

  @Test
  void watchStreamsNewlineDelimitedEventsOverChunkedHttp() throws Exception {
    api.createNamespace("stream");
    var ops = EmbeddedApiServerTest.ops(api.client(), Kind.SANDBOX).inNamespace("stream");
    ops.resource(KubectlCompatibilityTest.sandbox("stream", "old")).create();
    String rv =
        Json.parse(send(at("/apis/agents.x-k8s.io/v1beta1/namespaces/stream/sandboxes")).body())
            .path("metadata")
            .path("resourceVersion")
            .asString();
    HttpResponse<InputStream> r =
        http.send(
            at("/apis/agents.x-k8s.io/v1beta1/namespaces/stream/sandboxes?watch=1&resourceVersion="
                    + rv)
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(200, r.statusCode());
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      ops.resource(KubectlCompatibilityTest.sandbox("stream", "new")).create();
      // "old" was in the list at rv: its ADDED is not repeated; the first event is "new"
      JsonNode first = Json.parse(lines.readLine());
      assertEquals("ADDED", first.path("type").asString());
      assertEquals("new", first.path("object").path("metadata").path("name").asString());
      ops.withName("old").delete();
      JsonNode second = Json.parse(lines.readLine());
      assertEquals(
          List.of("DELETED", "old"),
          List.of(
              second.path("type").asString(),
              second.path("object").path("metadata").path("name").asString()));
    }
  }

  @Test
  void scriptedExpiryEndsAWatchWith410() throws Exception {
    api.faults().expireNextWatches(1);
    HttpResponse<String> r = send(at("/api/v1/namespaces?watch=true"));
    JsonNode event = Json.parse(r.body().strip());
    assertEquals("ERROR", event.path("type").asString());
    assertEquals(410, event.path("object").path("code").asInt());
    assertEquals("Expired", event.path("object").path("reason").asString());
    assertEquals(0, api.faults().pendingExpiredWatches());
  }
}
