package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP side: a Vert.x server that hands each request to the {@link ApiDispatcher}. Plain
 * replies are sent whole; watches run over a WebSocket when the client asks for an upgrade (fabric8
 * clients) and otherwise stream as chunked HTTP (kubectl, client-go). The mock web server of
 * fabric8 can only send whole responses, hence this transport.
 */
final class HttpTransport implements AutoCloseable {
  private final Vertx vertx;
  private final ApiDispatcher dispatcher;
  private final Faults faults;
  private final Clock clock;
  private HttpServer server;

  HttpTransport(Vertx vertx, ApiDispatcher dispatcher, Faults faults, Clock clock) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.faults = faults;
    this.clock = clock;
  }

  /**
   * Binds and starts serving.
   *
   * @return the bound port
   * @throws IllegalStateException when the port cannot be bound within 30 s
   */
  int listen(String host, int port) {
    server =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setHost(host)
                    .setPort(port)
                    .setHandle100ContinueAutomatically(true)
                    .setCompressionSupported(false))
            .requestHandler(this::handle);
    try {
      return server
          .listen()
          .toCompletionStage()
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS)
          .actualPort();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("could not bind within 30 s", e);
    }
  }

  private void handle(HttpServerRequest req) {
    Context context = vertx.getOrCreateContext();
    if (faults.holdIfStalled(
        () ->
            context.runOnContext(
                v -> {
                  req.resume();
                  serve(req);
                }))) {
      req.pause(); // runs before the held request is resumed: that is queued on this context
      return;
    }
    serve(req);
  }

  private void serve(HttpServerRequest req) {
    String upgrade = req.getHeader("Upgrade");
    if (upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket")) {
      // the upgrade must happen before the request is read
      RecordedRequest recorded = recorded(req, null);
      Reply reply = dispatcher.handle(recorded);
      if (reply instanceof Reply.Watch w) {
        req.toWebSocket()
            .onSuccess(ws -> WatchSocket.serve(ws, recorded, w.response()))
            .onFailure(err -> fail(req.response(), err));
        return;
      }
      req.body().onComplete(ignored -> send(req.response(), ((Reply.Plain) reply).response()));
      return;
    }
    req.body()
        .onFailure(err -> fail(req.response(), err))
        .onSuccess(
            body -> {
              RecordedRequest recorded = recorded(req, body);
              Reply reply = dispatcher.handle(recorded);
              if (reply instanceof Reply.Watch w) {
                stream(req.response(), recorded, w);
              } else {
                send(req.response(), ((Reply.Plain) reply).response());
              }
            });
  }

  private void stream(HttpServerResponse res, RecordedRequest recorded, Reply.Watch w) {
    WebSocketListener listener = w.response().getWebSocketListener();
    res.setStatusCode(200);
    res.setChunked(true);
    res.putHeader("Content-Type", "application/json");
    res.putHeader("Cache-Control", "no-cache, private");
    ChunkedWatch socket = new ChunkedWatch(recorded, res, w.stream(), clock);
    res.closeHandler(v -> listener.onClosed(socket, 1000, "client closed the watch"));
    // send the headers now: clients wait for them before reading events
    res.write(Buffer.buffer());
    listener.onBeforeAccept(socket, w.response());
    listener.onOpen(socket, w.response());
    if (w.stream().timeout() != null) {
      vertx.setTimer(
          w.stream().timeout().toMillis(),
          id -> {
            socket.close(1000, "timeout");
            listener.onClosed(socket, 1000, "timeout");
          });
    }
  }

  private static RecordedRequest recorded(HttpServerRequest req, Buffer body) {
    Headers.Builder headers = Headers.builder();
    req.headers().forEach(e -> headers.add(e.getKey(), e.getValue()));
    return new RecordedRequest(
        req.version().alpnName().toUpperCase(Locale.ROOT),
        HttpMethod.fromVertx(req.method()),
        req.uri(),
        headers.build(),
        new io.fabric8.mockwebserver.http.Buffer(body == null ? null : body.getBytes()));
  }

  private static void send(HttpServerResponse res, MockResponse r) {
    res.setStatusCode(r.code() == 0 ? 200 : r.code());
    r.getHeaders().toMultimap().forEach((k, v) -> res.headers().add(k, v));
    if (r.getBody() != null && r.getBody().size() > 0) {
      res.end(Buffer.buffer(r.getBody().getBytes()));
    } else {
      res.end();
    }
  }

  private static void fail(HttpServerResponse res, Throwable err) {
    if (!res.headWritten()) {
      send(
          res,
          StatusBodies.failure(500, "InternalError", "embedded API server: " + err, null, null));
    }
  }

  @Override
  public void close() {
    if (server != null) {
      try {
        server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // closing anyway: the Vert.x instance goes next
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
