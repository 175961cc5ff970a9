package org.sandboxslo.apiserver;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@link Faults#stallRequests()}: connections accepted, no answer until resumed. */
class StallFaultTest {
  EmbeddedApiServer api;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  @BeforeEach
  void start() {
    api = EmbeddedApiServer.start(0);
  }

  @AfterEach
  void stop() {
    api.faults().resumeRequests();
    api.close();
  }

  CompletableFuture<HttpResponse<String>> get(String path) {
    return http.sendAsync(
        HttpRequest.newBuilder(URI.create(api.url() + path))
            .timeout(Duration.ofSeconds(60))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void stalledRequestsAreHeldUnansweredAndServedInOrderOnResume() throws Exception {
    api.faults().stallRequests();
    CompletableFuture<HttpResponse<String>> demo = get("/api/v1/namespaces/demo");
    CompletableFuture<HttpResponse<String>> missing = get("/api/v1/namespaces/no-such-namespace");
    await().atMost(Duration.ofSeconds(20)).until(() -> api.faults().stalledRequests() == 2);
    // held: no answer arrives while the stall lasts
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !demo.isDone());
    assertFalse(missing.isDone());

    api.faults().resumeRequests();
    HttpResponse<String> ok = demo.get();
    assertEquals(200, ok.statusCode(), ok.body());
    JsonNode ns = Json.parse(ok.body());
    assertEquals("demo", ns.path("metadata").path("name").asString());
    assertEquals(404, missing.get().statusCode());
    // after the stall, requests are answered at once and not counted
    assertEquals(200, get("/api/v1/namespaces/default").get().statusCode());
    assertEquals(2, api.faults().stalledRequests());
  }
}
