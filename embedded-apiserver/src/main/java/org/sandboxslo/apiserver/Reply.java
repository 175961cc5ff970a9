package org.sandboxslo.apiserver;

import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Duration;

/** What the dispatcher answers: a plain response, or a watch to stream. */
sealed interface Reply {
  /** A complete response. */
  record Plain(MockResponse response) implements Reply {}

  /**
   * A watch: {@code response} carries the listener that produces the events; the transport runs it
   * over a WebSocket when the client asked for an upgrade, else streams it as chunked HTTP.
   *
   * @param response mock response holding the {@code WebSocketListener}
   * @param stream how events are written on the chunked HTTP stream
   */
  record Watch(MockResponse response, WatchStream stream) implements Reply {}

  /**
   * Chunked HTTP watch settings.
   *
   * @param sinceResourceVersion ADDED events of objects at or below this resourceVersion are
   *     dropped (they were in the client's list); 0 sends everything
   * @param table write each object as a one-row Table (Accept {@code as=Table})
   * @param resource the watched resource (its printer columns), or null
   * @param include what a Table row carries
   * @param timeout end the stream after this long ({@code timeoutSeconds}), or null
   */
  record WatchStream(
      long sinceResourceVersion,
      boolean table,
      ServedResource resource,
      Tables.IncludeObject include,
      Duration timeout) {}
}
