package org.sandboxslo.console.chatops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Signed requests seen within the signature window: SHA-256 of {@code timestamp:body} → when the
 * entry can go (timestamp + {@link SlackSignature#MAX_SKEW}; after that the timestamp check refuses
 * the request anyway). Bounded: at most {@code capacity} entries; when full, expired ones go first,
 * then the oldest (the count of such evictions is kept). Thread-safe.
 */
final class ReplayCache {
  private final int capacity;
  private final Map<String, Instant> seen = new LinkedHashMap<>();
  private long evictedEarly;

  ReplayCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
    }
    this.capacity = capacity;
  }

  /**
   * Records a request.
   *
   * @return true the first time this timestamp and body are seen within the window, false for a
   *     replay
   */
  synchronized boolean firstTime(Instant timestamp, byte[] body, Instant now) {
    purge(now);
    String key = key(timestamp, body);
    if (seen.containsKey(key)) {
      return false;
    }
    if (seen.size() >= capacity) {
      Iterator<String> it = seen.keySet().iterator();
      it.next();
      it.remove();
      evictedEarly++;
    }
    seen.put(key, timestamp.plus(SlackSignature.MAX_SKEW));
    return true;
  }

  /** Entries currently kept. */
  synchronized int size() {
    return seen.size();
  }

  /** Entries dropped before their window ended because the cache was full. */
  synchronized long evictedEarly() {
    return evictedEarly;
  }

  private void purge(Instant now) {
    seen.values().removeIf(until -> until.isBefore(now));
  }

  private static String key(Instant timestamp, byte[] body) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update((timestamp.getEpochSecond() + ":").getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(d.digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
