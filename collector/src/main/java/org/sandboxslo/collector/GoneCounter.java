package org.sandboxslo.collector;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.HttpURLConnection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts an informer's 410 Gone failures in a row. fabric8 re-lists by itself when a watch expires;
 * only list/watch failures reach the exception handler, and when they keep being 410 Gone (the
 * apiserver compacted past every resourceVersion the informer tries) the informer must be
 * re-created. Reset by a successful list or delivery. Thread-safe.
 */
final class GoneCounter {
  private final int limit;
  private final AtomicInteger inARow = new AtomicInteger();

  /**
   * @param limit failures in a row that call for a re-creation, ≥ 1
   */
  GoneCounter(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, got " + limit);
    }
    this.limit = limit;
  }

  int limit() {
    return limit;
  }

  /** Whether {@code t} (or a cause) is an HTTP 410 Gone from the apiserver. */
  static boolean isGone(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof WatcherException w && w.isHttpGone()) {
        return true;
      }
      if (c instanceof KubernetesClientException k && k.getCode() == HttpURLConnection.HTTP_GONE) {
        return true;
      }
    }
    return false;
  }

  /**
   * Records one 410 Gone failure.
   *
   * @return true when this failure reaches the limit (the counter restarts from 0)
   */
  boolean failed() {
    if (inARow.incrementAndGet() >= limit) {
      inARow.set(0);
      return true;
    }
    return false;
  }

  /** A list succeeded or the watch delivered. */
  void succeeded() {
    inARow.set(0);
  }

  int inARow() {
    return inARow.get();
  }
}
