package org.sandboxslo.console;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.sandboxslo.console.auth.AuthConfig;
import org.sandboxslo.console.auth.ConsoleAuth;

/**
 * A Vert.x router with the routes under test mounted, the console's JSON error handling, an HTTP
 * server on a free port of 127.0.0.1 and a web client to it. Close it to close the Vert.x instance.
 */
public final class RouterFixture implements AutoCloseable {
  public final Vertx vertx;
  public final HttpServer server;
  public final WebClient client;

  private RouterFixture(Vertx vertx, HttpServer server, WebClient client) {
    this.vertx = vertx;
    this.server = server;
    this.client = client;
  }

  /**
   * Mounts routes with {@code mount} (given the Vert.x instance and the router), then the console's
   * JSON errors, and listens; waits at most 10 s for the server.
   */
  public static RouterFixture start(BiConsumer<Vertx, Router> mount) throws Exception {
    Vertx vertx = Vertx.vertx();
    Router r = Router.router(vertx);
    mount.accept(vertx, r);
    ConsoleVerticleAccess.jsonErrors(r);
    HttpServer server =
        await(vertx.createHttpServer().requestHandler(r).listen(0, "127.0.0.1"), 10);
    return new RouterFixture(vertx, server, WebClient.create(vertx));
  }

  /**
   * As {@link #start(BiConsumer)}, with {@link ConsoleAuth} of {@code auth} on every route first.
   */
  public static RouterFixture start(AuthConfig auth, BiConsumer<Vertx, Router> mount)
      throws Exception {
    return start(
        (vertx, r) -> {
          r.route().handler(ConsoleAuth.of(auth));
          mount.accept(vertx, r);
        });
  }

  /** A POST to {@code path} on the fixture's server. */
  public HttpRequest<Buffer> post(String path) {
    return client.post(server.actualPort(), "127.0.0.1", path);
  }

  /** Sends {@code request} with {@code body} and waits at most {@code seconds} for the answer. */
  public static HttpResponse<Buffer> send(HttpRequest<Buffer> request, Buffer body, int seconds)
      throws Exception {
    return await(request.sendBuffer(body), seconds);
  }

  /** A refusal's JSON body has a {@code reason} and no Java class or exception name. */
  public static void assertRefusalNamesAReason(HttpResponse<Buffer> res) {
    JsonObject err = res.bodyAsJsonObject();
    assertTrue(err.containsKey("reason"), err.encode());
    assertTrue(
        !err.encode().contains("Exception") && !err.encode().contains("java."), err.encode());
  }

  private static <T> T await(Future<T> future, int seconds) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    vertx.close();
  }
}
