package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.vertx.core.http.HttpServerResponse;
import java.time.Clock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A watch over plain HTTP: the store's watch listener writes to this "socket", which streams each
 * event as one line of JSON ({@code {"type":..,"object":..}}) in a chunked response, as the
 * Kubernetes API server does for {@code ?watch=1}. ADDED events of objects the client already
 * listed (resourceVersion at or below the requested one) are dropped; with {@code as=Table} each
 * object becomes a one-row Table. Thread-safe: the listener writes from its own thread.
 */
final class ChunkedWatch implements WebSocket {
  private final RecordedRequest request;
  private final HttpServerResponse response;
  private final Reply.WatchStream stream;
  private final Clock clock;
  private boolean closed;

  ChunkedWatch(
      RecordedRequest request, HttpServerResponse response, Reply.WatchStream stream, Clock clock) {
    this.request = request;
    this.response = response;
    this.stream = stream;
    this.clock = clock;
  }

  @Override
  public RecordedRequest request() {
    return request;
  }

  @Override
  public synchronized boolean send(String text) {
    if (closed) {
      return false;
    }
    String line = line(text, stream, clock);
    if (line == null) {
      return true;
    }
    try {
      response.write(line + "\n");
      return true;
    } catch (IllegalStateException e) {
      // the client went away between two events; the close handler ends the listener
      closed = true;
      return false;
    }
  }

  @Override
  public boolean send(byte[] bytes) {
    return send(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
  }

  @Override
  public synchronized boolean close(int code, String reason) {
    if (closed) {
      return false;
    }
    closed = true;
    if (!response.ended() && !response.closed()) {
      response.end();
    }
    return true;
  }

  /**
   * The line written for one event, or null when the event is dropped.
   *
   * @param event a WatchEvent as JSON
   */
  static String line(String event, Reply.WatchStream stream, Clock clock) {
    JsonNode e = Json.parse(event);
    JsonNode object = e.path("object");
    String type = e.path("type").asString("");
    if (type.equals("ADDED") && stream.sinceResourceVersion() > 0) {
      long rv = object.path("metadata").path("resourceVersion").asLong(0);
      if (rv <= stream.sinceResourceVersion()) {
        return null;
      }
    }
    if (!stream.table() || type.equals("ERROR") || !object.isObject()) {
      return event;
    }
    ObjectNode table = Tables.of(stream.resource(), object, stream.include(), clock.instant());
    table.remove("metadata");
    table
        .putObject("metadata")
        .put("resourceVersion", object.path("metadata").path("resourceVersion").asString(""));
    ObjectNode out = Json.object();
    out.put("type", type);
    out.set("object", table);
    return Json.write(out);
  }
}
