package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults a test can script on the embedded API server, for relist chaos and stalls:
 *
 * <ul>
 *   <li>{@link #expireNextWatches}: the next watch requests end at once with 410 Gone, the way a
 *       real API server answers a watch from a compacted resourceVersion: one {@code ERROR} event
 *       carrying a 410 {@code Expired} Status, then the end of the stream (WebSocket or chunked
 *       HTTP alike), which makes informers re-list.
 *   <li>{@link #expireNextLists}: the next list requests answer 410 Expired (a list whose
 *       resourceVersion is too old); an informer that keeps failing so must be re-created.
 *   <li>{@link #closeWatches}: closes every open watch stream now, as an API server restart or a
 *       load balancer does. This server keeps no watch cache to resume a watch from, so each closed
 *       stream also arms one 410 for the reconnecting watch (the client re-lists instead of
 *       silently missing the events in between).
 *   <li>{@link #duplicateEvents}: every watch event is sent twice (at-least-once delivery).
 *   <li>{@link #stallRequests()}: the server accepts connections and reads requests but answers
 *       none of them until {@link #resumeRequests()}: an overloaded or partitioned API server as a
 *       client sees it (the TCP connection is up, no response arrives).
 * </ul>
 *
 * Every watch stream passes through here, so closes are also handed to the store off the event loop
 * (see {@link #closer}). Thread-safe; counters report what was done.
 */
public final class Faults {
  private final AtomicInteger expiredWatches = new AtomicInteger();
  private final AtomicInteger expiredLists = new AtomicInteger();
  private final AtomicLong watchesExpired = new AtomicLong();
  private final AtomicLong listsExpired = new AtomicLong();
  private final AtomicLong watchesClosed = new AtomicLong();
  private final AtomicLong duplicatesSent = new AtomicLong();
  private final AtomicInteger stalledRequests = new AtomicInteger();
  private final List<Runnable> held = new ArrayList<>(); // guarded by this
  private boolean stalled; // guarded by this
  private volatile boolean duplicate;

  /** Open watch streams (WebSocket or chunked), each by the socket its listener was given. */
  private final Map<WebSocket, Tracked> open = new ConcurrentHashMap<>();

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

  /** Scripted watch expiries not yet used. */
  public int pendingExpiredWatches() {
    return expiredWatches.get();
  }

  /**
   * The next {@code count} list requests (collection GETs without {@code watch}) answer 410 Gone.
   *
   * @throws IllegalArgumentException when {@code count < 0}
   */
  public void expireNextLists(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got " + count);
    }
    expiredLists.set(count);
  }

  /**
   * Closes every open watch stream and arms one 410 Gone per closed stream for the reconnects.
   *
   * @return the number of streams closed
   */
  public int closeWatches() {
    int n = 0;
    for (Tracked t : open.values()) {
      if (t.close(1000, "closed by the API server")) {
        n++;
      }
    }
    watchesClosed.addAndGet(n);
    expiredWatches.addAndGet(n);
    return n;
  }

  /** Sends every watch event twice from now on ({@code true}) or once ({@code false}). */
  public void duplicateEvents(boolean on) {
    duplicate = on;
  }

  /** Watch requests answered with 410 Gone so far. */
  public long watchesExpired() {
    return watchesExpired.get();
  }

  /** List requests answered with 410 Gone so far. */
  public long listsExpired() {
    return listsExpired.get();
  }

  /** Watch streams closed by {@link #closeWatches} so far. */
  public long watchesClosed() {
    return watchesClosed.get();
  }

  /** Watch events sent a second time so far. */
  public long duplicatesSent() {
    return duplicatesSent.get();
  }

  /** Watch streams open now. */
  public int openWatches() {
    return open.size();
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
    boolean take = expiredWatches.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    if (take) {
      watchesExpired.incrementAndGet();
    }
    return take;
  }

  boolean takeExpiredList() {
    boolean take = expiredLists.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    if (take) {
      listsExpired.incrementAndGet();
    }
    return take;
  }

  /**
   * The store's watch response, with its listener wrapped so the stream can be closed or fed
   * duplicates, and so a watch from resourceVersion {@code since} (&gt; 0) does not receive the
   * ADDED events of objects it already listed: the store sends every existing object when a watch
   * opens, which a real API server does not do for a watch from a resourceVersion.
   */
  MockResponse tracked(MockResponse watch, long since) {
    return new MockResponse()
        .withWebSocketUpgrade(new TrackingListener(watch.getWebSocketListener(), since));
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

  /** A socket as the store's listener sees it: sends may be doubled, and it can be closed. */
  private final class Tracked implements WebSocket {
    private final WebSocket socket;
    private final long since;

    Tracked(WebSocket socket, long since) {
      this.socket = socket;
      this.since = since;
    }

    @Override
    public RecordedRequest request() {
      return socket.request();
    }

    @Override
    public boolean send(String text) {
      if (since > 0 && text.contains("\"ADDED\"") && listedAlready(text)) {
        return true;
      }
      boolean sent = socket.send(text);
      if (sent && duplicate && !text.contains("\"type\":\"ERROR\"")) {
        duplicatesSent.incrementAndGet();
        return socket.send(text);
      }
      return sent;
    }

    private boolean listedAlready(String event) {
      tools.jackson.databind.JsonNode e = Json.parse(event);
      long rv = e.path("object").path("metadata").path("resourceVersion").asLong(0);
      return e.path("type").asString("").equals("ADDED") && rv > 0 && rv <= since;
    }

    @Override
    public boolean send(byte[] bytes) {
      return send(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public boolean send(ByteString bytes) {
      return send(bytes.utf8());
    }

    @Override
    public boolean close(int code, String reason) {
      return socket.close(code, reason);
    }
  }

  /** Hands the store's listener a {@link Tracked} socket and keeps it in {@link #open}. */
  private final class TrackingListener extends WebSocketListener {
    private final WebSocketListener delegate;

    private final long since;

    TrackingListener(WebSocketListener delegate, long since) {
      this.delegate = delegate;
      this.since = since;
    }

    private Tracked of(WebSocket ws) {
      return open.computeIfAbsent(ws, w -> new Tracked(w, since));
    }

    @Override
    public void onBeforeAccept(WebSocket ws, Response r) {
      delegate.onBeforeAccept(of(ws), r);
    }

    @Override
    public void onOpen(WebSocket ws, Response r) {
      delegate.onOpen(of(ws), r);
    }

    @Override
    public void onMessage(WebSocket ws, String text) {
      delegate.onMessage(of(ws), text);
    }

    @Override
    public void onMessage(WebSocket ws, ByteString bytes) {
      delegate.onMessage(of(ws), bytes);
    }

    @Override
    public void onMessage(WebSocket ws, byte[] bytes) {
      delegate.onMessage(of(ws), bytes);
    }

    @Override
    public void onPing(WebSocket ws, byte[] bytes) {
      delegate.onPing(of(ws), bytes);
    }

    @Override
    public void onClosing(WebSocket ws, int code, String reason) {
      delegate.onClosing(of(ws), code, reason);
    }

    @Override
    public void onClosed(WebSocket ws, int code, String reason) {
      Tracked t = open.remove(ws);
      delegate.onClosed(t == null ? new Tracked(ws, since) : t, code, reason);
    }

    @Override
    public void onFailure(WebSocket ws, Throwable t, Response r) {
      Tracked tr = open.remove(ws);
      delegate.onFailure(tr == null ? new Tracked(ws, since) : tr, t, r);
    }
  }
}
