package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;

/**
 * A watch over a WebSocket, in place of fabric8's {@code ServerWebSocketHandler}: the same listener
 * callbacks, but {@link #send} queues the frame on the connection and returns (Vert.x keeps frames
 * in order, the close frame included). fabric8's socket waits up to 30 s for each write from the
 * watch's send thread while {@code onClosed}, on the event loop, waits for that thread: a watch
 * closed while an event was being sent stalled the whole server for 30 s.
 */
final class WatchSocket implements WebSocket {
  /** The close code when the client went away without one (RFC 6455 "abnormal closure"). */
  private static final short ABNORMAL = 1006;

  private final RecordedRequest request;
  private final ServerWebSocket socket;
  private volatile boolean closing;

  private WatchSocket(RecordedRequest request, ServerWebSocket socket) {
    this.request = request;
    this.socket = socket;
  }

  /** Wires {@code listener} to an accepted WebSocket and opens the watch. */
  static void serve(ServerWebSocket ws, RecordedRequest request, Response response) {
    WebSocketListener listener = response.getWebSocketListener();
    WatchSocket socket = new WatchSocket(request, ws);
    listener.onBeforeAccept(socket, response);
    ws.textMessageHandler(text -> listener.onMessage(socket, text));
    ws.binaryMessageHandler(b -> listener.onMessage(socket, b.getBytes()));
    ws.frameHandler(
        frame -> {
          if (frame.isClose()) {
            listener.onClosing(socket, frame.closeStatusCode(), frame.closeReason());
          }
        });
    ws.endHandler(
        v ->
            listener.onClosed(
                socket,
                ws.closeStatusCode() == null ? ABNORMAL : ws.closeStatusCode(),
                ws.closeReason()));
    ws.exceptionHandler(err -> listener.onFailure(socket, err, response));
    listener.onOpen(socket, response);
  }

  @Override
  public RecordedRequest request() {
    return request;
  }

  @Override
  public boolean send(String text) {
    if (closing || socket.isClosed()) {
      return false;
    }
    socket.writeTextMessage(text);
    return true;
  }

  @Override
  public boolean send(byte[] bytes) {
    if (closing || socket.isClosed()) {
      return false;
    }
    socket.writeBinaryMessage(Buffer.buffer(bytes));
    return true;
  }

  @Override
  public synchronized boolean close(int code, String reason) {
    if (closing) {
      return false;
    }
    closing = true;
    socket.close((short) code, reason);
    return true;
  }
}
