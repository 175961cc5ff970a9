package org.sandboxslo.console.api;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sandboxslo.store.IdempotencyStore;

/**
 * Where {@code Idempotency-Key}s and their responses are kept: PostgreSQL ({@link #of
 * IdempotencyStore}) in a running console, or a bounded in-memory map without a database.
 */
public interface IdempotencyKeys {
  /**
   * Claims a key for a new request.
   *
   * @return null when claimed (go ahead); else the entry held (answered: replay; else in progress)
   */
  Future<IdempotencyStore.Entry> claim(
      String caller, String key, String requestHash, Instant now, Instant expires);

  /** Stores the response of a claimed key. */
  Future<Void> complete(String caller, String key, int status, String body);

  /** Frees a claimed key without a response (the request failed with 5xx). */
  Future<Void> release(String caller, String key);

  /** Deletes expired keys. */
  Future<Integer> prune(Instant now);

  /** Keys in PostgreSQL. */
  static IdempotencyKeys of(IdempotencyStore store) {
    return new IdempotencyKeys() {
      @Override
      public Future<IdempotencyStore.Entry> claim(
          String caller, String key, String hash, Instant now, Instant expires) {
        return store.claim(caller, key, hash, now, expires);
      }

      @Override
      public Future<Void> complete(String caller, String key, int status, String body) {
        return store.complete(caller, key, status, body == null ? null : "application/json", body);
      }

      @Override
      public Future<Void> release(String caller, String key) {
        return store.release(caller, key);
      }

      @Override
      public Future<Integer> prune(Instant now) {
        return store.prune(now);
      }
    };
  }

  /**
   * Keys in memory, at most {@code max} (oldest dropped first, counted as {@code
   * idempotency-key/cap}). Touched only on one event loop.
   */
  static IdempotencyKeys inMemory(int max, DropCounter drops) {
    record Held(IdempotencyStore.Entry entry, Instant expires) {}
    Map<String, Held> held = new LinkedHashMap<>();
    return new IdempotencyKeys() {
      @Override
      public Future<IdempotencyStore.Entry> claim(
          String caller, String key, String hash, Instant now, Instant expires) {
        String k = caller + "\n" + key;
        Held h = held.get(k);
        if (h != null && h.expires().isAfter(now)) {
          return Future.succeededFuture(h.entry());
        }
        held.put(k, new Held(new IdempotencyStore.Entry(hash, null, null, null), expires));
        while (held.size() > max) {
          Iterator<String> it = held.keySet().iterator();
          it.next();
          it.remove();
          drops.dropped("idempotency-key", "cap");
        }
        return Future.succeededFuture(null);
      }

      @Override
      public Future<Void> complete(String caller, String key, int status, String body) {
        String k = caller + "\n" + key;
        Held h = held.get(k);
        if (h != null) {
          held.put(
              k,
              new Held(
                  new IdempotencyStore.Entry(
                      h.entry().requestHash(), status, "application/json", body),
                  h.expires()));
        }
        return Future.succeededFuture();
      }

      @Override
      public Future<Void> release(String caller, String key) {
        held.remove(caller + "\n" + key);
        return Future.succeededFuture();
      }

      @Override
      public Future<Integer> prune(Instant now) {
        int before = held.size();
        held.values().removeIf(h -> !h.expires().isAfter(now));
        return Future.succeededFuture(before - held.size());
      }
    };
  }
}
