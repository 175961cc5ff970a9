package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.sandboxslo.engine.model.Kind;

/**
 * Per-kind watch health: watch lag measured only from watch deliveries, and when each stream last
 * delivered. Mutable; owned by the engine's thread.
 *
 * <p><b>What is lag.</b> lag = receive time − the object's newest server time (creation, deletion,
 * condition transitions, managedFields times, the claim's RFC3339Nano annotations), taken only when
 * that server time is newer than any this UID carried before (a label-only change carries no new
 * time and says nothing). Not lag: objects delivered by a (re-)list ({@code listed}) — their age is
 * how long they have existed; and, for sources without a list marker, objects first seen before the
 * kind's {@code Synced} within {@link #INITIAL_LIST_GRACE} of the first event (the initial list
 * burst). Samples taken before the kind's {@code Synced} but after that burst are provisional and
 * dropped when {@code Synced} arrives (they were list deliveries after all).
 *
 * <p>The reported lag recovers with the stream: {@code last} is the newest sample, {@code max5m}
 * the largest over the last 5 minutes, so both fall once timely events arrive again.
 */
public final class StreamHealth {
  /** Initial-list burst for sources that do not flag listed objects. */
  public static final Duration INITIAL_LIST_GRACE = Duration.ofSeconds(2);

  /** Lag statistics look back this far. */
  public static final Duration HORIZON = Duration.ofMinutes(5);

  private static final int DELIVERIES_KEPT = 512;

  /** How an upsert was classified. */
  public enum Delivery {
    /** From a (re-)list or the initial list burst: not lag. */
    LIST,
    /** From the watch: counted as lag when it carries a newer server time. */
    WATCH
  }

  private final long bucketNanos;
  private Instant firstEventAt;
  private final EnumMap<Kind, Boolean> synced = new EnumMap<>(Kind.class);
  private final EnumMap<Kind, LagWindow> confirmed = new EnumMap<>(Kind.class);
  private final EnumMap<Kind, LagWindow> provisional = new EnumMap<>(Kind.class);
  private final EnumMap<Kind, Deque<Instant>> deliveries = new EnumMap<>(Kind.class);
  private final Map<String, Instant> newestServerTime = new HashMap<>();

  /**
   * @param bucketWidth resolution of the 5-minute maximum, &gt; 0
   */
  public StreamHealth(Duration bucketWidth) {
    this.bucketNanos = bucketWidth.toNanos();
    if (bucketNanos <= 0) {
      throw new IllegalArgumentException("bucket width must be > 0, got " + bucketWidth);
    }
    for (Kind k : Kind.values()) {
      synced.put(k, false);
      deliveries.put(k, new ArrayDeque<>());
    }
  }

  /**
   * Observes one applied upsert.
   *
   * @param kind its kind
   * @param uid metadata.uid (null: not tracked)
   * @param newObject the engine did not hold this UID before
   * @param serverTime newest server time on the object, may be null
   * @param receivedAt console clock
   * @param listed flagged by the collector as delivered by a (re-)list
   * @return how the delivery was classified
   */
  public Delivery upserted(
      Kind kind,
      String uid,
      boolean newObject,
      Instant serverTime,
      Instant receivedAt,
      boolean listed) {
    if (firstEventAt == null) {
      firstEventAt = receivedAt;
    }
    boolean burst =
        !synced.get(kind)
            && newObject
            && !receivedAt.isAfter(firstEventAt.plus(INITIAL_LIST_GRACE));
    Delivery d = listed || burst ? Delivery.LIST : Delivery.WATCH;
    if (d == Delivery.WATCH) {
      Deque<Instant> q = deliveries.get(kind);
      q.addLast(receivedAt);
      while (q.size() > DELIVERIES_KEPT) {
        q.removeFirst();
      }
    }
    if (serverTime == null || uid == null) {
      return d;
    }
    Instant newest = newestServerTime.get(uid);
    if (newest != null && !serverTime.isAfter(newest)) {
      return d;
    }
    newestServerTime.put(uid, serverTime);
    if (d == Delivery.LIST) {
      return d;
    }
    Duration lag = Duration.between(serverTime, receivedAt);
    (synced.get(kind) ? confirmed : provisional)
        .computeIfAbsent(kind, k -> new LagWindow(bucketNanos))
        .record(receivedAt, lag.isNegative() ? Duration.ZERO : lag);
    return d;
  }

  /** A delete was applied (the UID's server-time memory is released). */
  public void deleted(Kind kind, String uid, Instant receivedAt, boolean finalStateUnknown) {
    if (uid != null) {
      newestServerTime.remove(uid);
    }
    if (!finalStateUnknown) {
      Deque<Instant> q = deliveries.get(kind);
      q.addLast(receivedAt);
      while (q.size() > DELIVERIES_KEPT) {
        q.removeFirst();
      }
    }
  }

  /** The kind's informer has synced: samples taken before were list deliveries. */
  public void synced(Kind kind) {
    synced.put(kind, true);
    provisional.remove(kind);
  }

  /** Watch deliveries of a kind received after {@code after} (exclusive), up to the kept 512. */
  public int deliveriesAfter(Kind kind, Instant after) {
    int n = 0;
    for (var it = deliveries.get(kind).descendingIterator(); it.hasNext(); ) {
      if (!it.next().isAfter(after)) {
        break;
      }
      n++;
    }
    return n;
  }

  /** Receive time of the kind's last watch delivery, or null. */
  public Instant lastDelivery(Kind kind) {
    Deque<Instant> q = deliveries.get(kind);
    return q.isEmpty() ? null : q.peekLast();
  }

  /**
   * The lag of a kind at {@code now}.
   *
   * @return null when the kind has no lag sample in the last 5 minutes nor a last sample at all
   */
  public KindLag lag(Kind kind, Instant now) {
    LagWindow c = confirmed.get(kind);
    LagWindow p = provisional.get(kind);
    if (c == null && p == null) {
      return null;
    }
    LagWindow.View a = c == null ? null : c.view(now);
    LagWindow.View b = p == null ? null : p.view(now);
    LagWindow.View v = a == null ? b : b == null ? a : a.merge(b);
    return new KindLag(kind, v.last(), v.lastAt(), v.max(), v.samples(), lastDelivery(kind));
  }

  /**
   * Start of the earliest lag bucket in the last 5 minutes whose largest sample reached {@code
   * threshold}, or null.
   */
  public Instant firstLagAtLeast(Kind kind, Duration threshold, Instant now) {
    Instant first = null;
    for (LagWindow w : new LagWindow[] {confirmed.get(kind), provisional.get(kind)}) {
      Instant t = w == null ? null : w.firstAtLeast(threshold, now);
      if (t != null && (first == null || t.isBefore(first))) {
        first = t;
      }
    }
    return first;
  }

  /** Lag of every kind with samples. */
  public Map<Kind, KindLag> lags(Instant now) {
    Map<Kind, KindLag> out = new EnumMap<>(Kind.class);
    for (Kind k : Kind.values()) {
      KindLag l = lag(k, now);
      if (l != null) {
        out.put(k, l);
      }
    }
    return out;
  }

  /** Per-bucket maxima over the horizon plus the newest sample. */
  private static final class LagWindow {
    private final long bucketNanos;
    private final TreeMap<Long, long[]> buckets = new TreeMap<>(); // idx → {maxNanos, count}
    private Duration last;
    private Instant lastAt;

    LagWindow(long bucketNanos) {
      this.bucketNanos = bucketNanos;
    }

    void record(Instant at, Duration lag) {
      if (lastAt == null || !at.isBefore(lastAt)) {
        last = lag;
        lastAt = at;
      }
      long[] b = buckets.computeIfAbsent(idx(at), x -> new long[2]);
      b[0] = Math.max(b[0], lag.toNanos());
      b[1]++;
    }

    private long idx(Instant at) {
      return Math.floorDiv(at.getEpochSecond() * 1_000_000_000L + at.getNano(), bucketNanos);
    }

    Instant firstAtLeast(Duration threshold, Instant now) {
      buckets.headMap(idx(now.minus(HORIZON)), false).clear();
      for (Map.Entry<Long, long[]> e : buckets.entrySet()) {
        if (e.getValue()[0] >= threshold.toNanos()) {
          long start = e.getKey() * bucketNanos;
          return Instant.ofEpochSecond(
              Math.floorDiv(start, 1_000_000_000L), Math.floorMod(start, 1_000_000_000L));
        }
      }
      return null;
    }

    View view(Instant now) {
      buckets.headMap(idx(now.minus(HORIZON)), false).clear();
      long max = 0;
      long n = 0;
      for (long[] b : buckets.values()) {
        max = Math.max(max, b[0]);
        n += b[1];
      }
      return new View(last, lastAt, Duration.ofNanos(max), n);
    }

    record View(Duration last, Instant lastAt, Duration max, long samples) {
      View merge(View o) {
        boolean mine = o.lastAt == null || (lastAt != null && !lastAt.isBefore(o.lastAt));
        return new View(
            mine ? last : o.last,
            mine ? lastAt : o.lastAt,
            max.compareTo(o.max) >= 0 ? max : o.max,
            samples + o.samples);
      }
    }
  }
}
