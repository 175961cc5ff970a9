package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Faults a test can script on the embedded API server. Watches are answered the way a real API
 * server answers a watch from a compacted resourceVersion: one {@code ERROR} event carrying a 410
 * {@code Expired} Status, then the end of the stream (WebSocket or chunked HTTP alike), which makes
 * informers re-list.
 *
 * <p>A stall ({@link #stallRequests()}) makes the server accept connections and read requests but
 * answer none of them until {@link #resumeRequests()}: an overloaded or partitioned API server as a
 * client sees it (the TCP connection is up, no response arrives).
 */
public final class Faults {
  private final AtomicInteger expiredWatches = new AtomicInteger();
  private final AtomicInteger stalledRequests = new AtomicInteger();
  private final List<Runnable> held = new ArrayList<>(); // guarded by this
  private boolean stalled; // guarded by this

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

  /** From now on every request (reads, writes, watches, discovery) is held without an answer. */
  public synchronized void stallRequests() {
    stalled = true;
  }

  /** Ends a stall: the held requests are served, in the order they arrived. */
  public void resumeRequests() {
    List<Runnable> serve;
    synchronized (this) {
      stalled = false;
      serve = List.copyOf(held);
      held.clear();
    }
    serve.forEach(Runnable::run);
  }

  /** Requests that arrived while stalled, since the server started (held or since served). */
  public int stalledRequests() {
    return stalledRequests.get();
  }

  /** True, with {@code serve} kept for {@link #resumeRequests()}, while stalled. */
  synchronized boolean holdIfStalled(Runnable serve) {
    if (!stalled) {
      return false;
    }
    stalledRequests.incrementAndGet();
    held.add(serve);
    return true;
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
