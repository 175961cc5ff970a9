package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Faults a test can script on the embedded API server. Watches are answered the way a real API
 * server answers a watch from a compacted resourceVersion: one {@code ERROR} event carrying a 410
 * {@code Expired} Status, then the end of the stream (WebSocket or chunked HTTP alike), which makes
 * informers re-list.
 */
public final class Faults {
  private final AtomicInteger expiredWatches = new AtomicInteger();

  Faults() {}

  /**
   * The next {@code count} watch requests end at once with 410 Gone.
   *
   * @throws IllegalArgumentException when {@code count < 0}
   */
  public void expireNextWatches(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got " + count);
    }
    expiredWatches.set(count);
  }

  /** Scripted expiries not yet used. */
  public int pendingExpiredWatches() {
    return expiredWatches.get();
  }

  boolean takeExpiredWatch() {
    return expiredWatches.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
  }

  /** The one event a watch from an expired resourceVersion receives. */
  static String expiredEvent() {
    return "{\"type\":\"ERROR\",\"object\":"
        + Json.write(
            StatusBodies.status(410, "Expired", "too old resource version: 1 (2)", null, null))
        + "}";
  }

  /** Sends {@link #expiredEvent()} and closes. */
  static final class ExpiredWatch extends WebSocketListener {
    @Override
    public void onOpen(WebSocket webSocket, Response response) {
      webSocket.send(expiredEvent());
      webSocket.close(1000, "expired");
    }
  }
}
