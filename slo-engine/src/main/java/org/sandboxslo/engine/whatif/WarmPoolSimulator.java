package org.sandboxslo.engine.whatif;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Replays claim arrivals against a warm-pool configuration: a discrete-event simulation of
 * upstream's pool and claim controllers (reference §c, §e), pure and deterministic for a seed.
 *
 * <p><b>Model</b> (per pool; claims go to the pools round-robin, claim i to pool i mod pools):
 *
 * <ul>
 *   <li>Each pool starts full: {@code replicas} Ready members.
 *   <li>A claim adopts a Ready member the claim controller has seen (Ready at least the watch lag
 *       ago): warm, claim-to-ready = the adoption latency. If none is Ready but members it has seen
 *       are not Ready yet, it looks again every {@value #RETRY_MILLIS} ms (upstream's retry) for up
 *       to {@code pendingCandidateWait} (claim-to-ready = waited + adoption); when no member is
 *       pending any more, or the wait runs out, it starts cold: claim-to-ready = waited + cold
 *       start + watch lag (the claim controller sees its Sandbox Ready that late).
 *   <li>The pool controller reconciles whenever it sees a member created, adopted or deleted (a
 *       watch lag after the fact) and when the refill token bucket next has a token: active members
 *       as it sees them (created − adopted − deleted, not-Ready ones count) below {@code replicas}
 *       are created, at most {@code maxBatch} per pass and as many as the bucket allows (capacity
 *       max(1, rate)). A member is Ready a cold-start draw after it was created.
 *   <li>With the expectations gate, a pass creates nothing while creates it issued are not yet
 *       seen, unless the oldest is older than the timeout. Without it, a lagging watch makes the
 *       pool create again what it already created (over-creation); excess it sees is deleted,
 *       not-Ready and newest first.
 *   <li>At equal times, member events come before claims (a member Ready at t serves a claim at t).
 * </ul>
 *
 * <p><b>Cost</b>: O(claims × log(members in flight)); an hour at 300 claims/s (1.08 M claims) takes
 * well under a second on one core ({@code WhatIfBenchmark}).
 */
public final class WarmPoolSimulator {
  private WarmPoolSimulator() {}

  /** Simulates {@code demand} against {@code config}. */
  public static WhatIfResult run(DemandProfile demand, PoolConfig config, long seed) {
    return run(demand.arrivals(), demand.duration(), config, seed);
  }

  /**
   * Simulates sorted arrival offsets (ns) over {@code duration} against {@code config}.
   *
   * @throws IllegalArgumentException when arrivals are not sorted or outside [0, duration)
   */
  public static WhatIfResult run(long[] arrivals, Duration duration, PoolConfig config, long seed) {
    Objects.requireNonNull(arrivals, "arrivals");
    Objects.requireNonNull(config, "config");
    long end = duration.toNanos();
    for (int i = 0; i < arrivals.length; i++) {
      if (arrivals[i] < 0 || arrivals[i] >= end || (i > 0 && arrivals[i] < arrivals[i - 1])) {
        throw new IllegalArgumentException(
            "arrivals must be sorted and in [0, " + duration + "), got " + arrivals[i]);
      }
    }
    int pools = config.pools();
    long[] warm = new long[arrivals.length];
    long[] cold = new long[arrivals.length];
    int warmN = 0;
    int coldN = 0;
    double minReady = Double.POSITIVE_INFINITY;
    double readyArea = 0;
    long created = 0;
    SplittableRandom root = new SplittableRandom(seed);
    for (int p = 0; p < pools; p++) {
      int n = (arrivals.length - p + pools - 1) / pools;
      long[] mine = new long[Math.max(0, n)];
      for (int k = 0; k < mine.length; k++) {
        mine[k] = arrivals[p + k * pools];
      }
      Pool pool = new Pool(config, end, root.split());
      pool.run(mine);
      System.arraycopy(pool.warm, 0, warm, warmN, pool.warmN);
      warmN += pool.warmN;
      System.arraycopy(pool.cold, 0, cold, coldN, pool.coldN);
      coldN += pool.coldN;
      minReady = Math.min(minReady, pool.minReady);
      readyArea += pool.readyArea;
      created += pool.created - config.replicas();
    }
    long[] all = new long[warmN + coldN];
    System.arraycopy(warm, 0, all, 0, warmN);
    System.arraycopy(cold, 0, all, warmN, coldN);
    Arrays.sort(warm, 0, warmN);
    Arrays.sort(cold, 0, coldN);
    Arrays.sort(all);
    long claims = arrivals.length;
    double hours = end / 3.6e12;
    return new WhatIfResult(
        config,
        claims,
        warmN,
        coldN,
        claims == 0 ? null : (double) warmN / claims,
        WhatIfResult.Quantiles.of(all, all.length),
        WhatIfResult.Quantiles.of(warm, warmN),
        WhatIfResult.Quantiles.of(cold, coldN),
        config.replicas() == 0 ? null : minReady,
        readyArea / end,
        created,
        config.totalReplicas() * config.cpuMillisPerMember() / 1000.0 * hours,
        config.totalReplicas() * (config.memoryBytesPerMember() / 1073741824.0) * hours);
  }

  /** A waiting claim looks for a Ready member this often (upstream: every 500 ms). */
  static final long RETRY_MILLIS = 500;

  /** Event kinds, in the order they are handled at equal times. */
  private static final int READY_SEEN = 0;

  private static final int CREATE_SEEN = 1;
  private static final int REMOVAL_SEEN = 2;
  private static final int PASS = 3;
  private static final int RETRY = 4;

  private static final byte PENDING = 0;
  private static final byte IDLE = 1;
  private static final byte GONE = 2;

  /** One pool's simulation (mutable, used once). */
  private static final class Pool {
    final PoolConfig c;
    final long end;
    final SplittableRandom rnd;
    final long lag;
    final long wait;
    final long timeout;
    final long capacity;

    // members by id, ids in creation order
    long[] createdAt = new long[64];
    byte[] state = new byte[64];
    boolean[] seen = new boolean[64];
    int created;

    // what the controllers see
    int createSeen;
    int removalSeen;
    int pendingSeen;
    int[] idle = new int[64];
    int idleHead;
    int idleSize;

    // token bucket
    double tokens;
    long refilledAt;
    long tokenPassAt = -1;
    long gatePassAt = -1;

    // claims waiting for a pending member (each has one RETRY event queued; arg = its arrival)
    int waiting;
    final long retry = RETRY_MILLIS * 1_000_000;

    final Events events = new Events();

    long[] warm = new long[16];
    int warmN;
    long[] cold = new long[16];
    int coldN;

    double minReady = 1;
    double readyArea;
    long readyChangedAt;

    Pool(PoolConfig c, long end, SplittableRandom rnd) {
      this.c = c;
      this.end = end;
      this.rnd = rnd;
      this.lag = c.watchLag().toNanos();
      this.wait = c.pendingCandidateWait().toNanos();
      this.timeout = c.expectationsTimeout().toNanos();
      this.capacity = (long) Math.max(1, c.refillRatePerPool());
      this.tokens = capacity;
      for (int i = 0; i < c.replicas(); i++) {
        int id = newMember(0);
        state[id] = IDLE;
        seen[id] = true;
        pushIdle(id);
      }
      createSeen = c.replicas();
      if (c.replicas() == 0) {
        minReady = Double.POSITIVE_INFINITY;
      }
    }

    void run(long[] arrivals) {
      int next = 0;
      // until every claim is served and the period is over (replacements made before its end
      // still count as created)
      while (next < arrivals.length
          || waiting > 0
          || (!events.isEmpty() && events.peekTime() < end)) {
        long claimAt = next < arrivals.length ? arrivals[next] : Long.MAX_VALUE;
        if (!events.isEmpty() && events.peekTime() <= claimAt) {
          long t = events.peekTime();
          int kind = events.peekKind();
          long arg = events.peekArg();
          events.pop();
          handle(t, kind, arg);
        } else if (claimAt != Long.MAX_VALUE) {
          next++;
          claim(claimAt);
        } else {
          break; // waiting claims but no event left: cannot happen (each has a RETRY)
        }
      }
      readyChanged(end);
    }

    private void handle(long t, int kind, long arg) {
      switch (kind) {
        case READY_SEEN -> {
          int id = (int) arg;
          if (state[id] != PENDING) {
            return;
          }
          state[id] = IDLE;
          pendingSeen--;
          readyChanged(t);
          pushIdle(id);
          noteReady(t);
        }
        case CREATE_SEEN -> {
          int id = (int) arg;
          createSeen++;
          seen[id] = true;
          if (state[id] == PENDING) {
            pendingSeen++;
          }
          pass(t);
        }
        case REMOVAL_SEEN -> {
          removalSeen++;
          pass(t);
        }
        case PASS -> {
          if (tokenPassAt == t) {
            tokenPassAt = -1;
          }
          pass(t);
        }
        case RETRY -> {
          long arrivedAt = arg;
          readyChanged(t);
          int id = popIdle();
          if (id >= 0) {
            waiting--;
            noteReady(t);
            adopt(t, id);
            served(t - arrivedAt + c.warmAdoption().sampleNanos(rnd), true);
          } else if (t - arrivedAt >= wait || pendingSeen == 0) {
            waiting--;
            served(t - arrivedAt + c.coldStart().sampleNanos(rnd) + lag, false);
          } else {
            events.push(Math.min(t + retry, arrivedAt + wait), RETRY, arrivedAt);
          }
        }
        default -> throw new IllegalStateException("unknown event " + kind);
      }
    }

    private void claim(long t) {
      readyChanged(t);
      int id = popIdle();
      if (id >= 0) {
        noteReady(t);
        adopt(t, id);
        served(c.warmAdoption().sampleNanos(rnd), true);
      } else if (pendingSeen > 0 && wait > 0) {
        waiting++;
        events.push(t + Math.min(retry, wait), RETRY, t);
      } else {
        served(c.coldStart().sampleNanos(rnd) + lag, false);
      }
    }

    private void adopt(long t, int id) {
      state[id] = GONE;
      events.push(t + lag, REMOVAL_SEEN, id);
    }

    private void served(long latency, boolean isWarm) {
      if (isWarm) {
        if (warmN == warm.length) {
          warm = Arrays.copyOf(warm, warm.length * 2);
        }
        warm[warmN++] = latency;
      } else {
        if (coldN == cold.length) {
          cold = Arrays.copyOf(cold, cold.length * 2);
        }
        cold[coldN++] = latency;
      }
    }

    /** One reconcile pass of the pool controller at {@code t}. */
    private void pass(long t) {
      if (c.expectationsGate() && createSeen < created) {
        long oldest = createdAt[createSeen]; // creates are seen in creation order
        if (t < oldest + timeout) {
          if (gatePassAt != oldest + timeout) {
            gatePassAt = oldest + timeout; // requeue at expiry, as upstream does
            events.push(gatePassAt, PASS, 0);
          }
          return; // waiting for in-flight creates to be observed
        }
      }
      int active = createSeen - removalSeen;
      int need = c.replicas() - active;
      if (need > 0) {
        int n = Math.min(need, c.maxBatch());
        if (c.refillRatePerPool() > 0) {
          tokens = Math.min(capacity, tokens + (t - refilledAt) / 1e9 * c.refillRatePerPool());
          refilledAt = t;
          int allowed = (int) Math.floor(tokens + 1e-9);
          if (allowed < n) {
            long nextToken =
                t + (long) Math.ceil((1 - (tokens - allowed)) / c.refillRatePerPool() * 1e9);
            if (tokenPassAt < t || nextToken < tokenPassAt) {
              tokenPassAt = nextToken;
              events.push(nextToken, PASS, 0);
            }
            n = allowed;
          }
          tokens -= n;
        }
        for (int i = 0; i < n; i++) {
          int id = newMember(t);
          events.push(t + lag, CREATE_SEEN, id);
          events.push(t + c.coldStart().sampleNanos(rnd) + lag, READY_SEEN, id);
        }
      } else if (need < 0) {
        deleteExcess(t, -need);
      }
    }

    /** Deletes members the controller sees, not-Ready newest first, then Ready newest first. */
    private void deleteExcess(long t, int n) {
      for (int pass = 0; pass < 2 && n > 0; pass++) {
        byte wanted = pass == 0 ? PENDING : IDLE;
        for (int id = createSeen - 1; id >= 0 && n > 0; id--) {
          if (state[id] == wanted && seen[id]) {
            if (wanted == PENDING) {
              pendingSeen--;
            } else {
              readyChanged(t);
              removeIdle(id);
              noteReady(t);
            }
            state[id] = GONE;
            events.push(t + lag, REMOVAL_SEEN, id);
            n--;
          }
        }
      }
    }

    private int newMember(long t) {
      if (created == createdAt.length) {
        createdAt = Arrays.copyOf(createdAt, created * 2);
        state = Arrays.copyOf(state, created * 2);
        seen = Arrays.copyOf(seen, created * 2);
      }
      createdAt[created] = t;
      state[created] = PENDING;
      return created++;
    }

    // ---- idle Ready members (FIFO ring; deleted ones are skipped)

    private void pushIdle(int id) {
      if (idleSize == idle.length) {
        int[] n = new int[idle.length * 2];
        for (int i = 0; i < idleSize; i++) {
          n[i] = idle[(idleHead + i) % idle.length];
        }
        idle = n;
        idleHead = 0;
      }
      idle[(idleHead + idleSize) % idle.length] = id;
      idleSize++;
      idleCount++;
    }

    private int popIdle() {
      while (idleSize > 0) {
        int id = idle[idleHead];
        idleHead = (idleHead + 1) % idle.length;
        idleSize--;
        if (state[id] == IDLE) {
          idleCount--;
          return id;
        }
      }
      return -1;
    }

    /** Idle members still IDLE (the ring may hold deleted ones until they reach its head). */
    int idleCount;

    private void removeIdle(int id) {
      state[id] = GONE;
      idleCount--;
    }

    /** After a change of the idle Ready count at {@code t}: the lowest ready fraction so far. */
    private void noteReady(long t) {
      if (t < end && c.replicas() > 0) {
        minReady = Math.min(minReady, (double) idleCount / c.replicas());
      }
    }

    /** Before a change of the idle Ready count at {@code t}: integrates the count up to t. */
    private void readyChanged(long t) {
      long at = Math.min(t, end);
      if (at > readyChangedAt) {
        readyArea += (double) idleCount * (at - readyChangedAt);
        readyChangedAt = at;
      }
    }
  }

  /** A binary min-heap of (time, kind, insertion order) with a long argument; no boxing. */
  private static final class Events {
    long[] time = new long[256];
    long[] order = new long[256];
    long[] arg = new long[256];
    int size;
    long seq;

    boolean isEmpty() {
      return size == 0;
    }

    long peekTime() {
      return time[0];
    }

    int peekKind() {
      return (int) (order[0] >>> 56);
    }

    long peekArg() {
      return arg[0];
    }

    void push(long t, int kind, long a) {
      if (size == time.length) {
        time = Arrays.copyOf(time, size * 2);
        order = Arrays.copyOf(order, size * 2);
        arg = Arrays.copyOf(arg, size * 2);
      }
      int i = size++;
      long o = ((long) kind << 56) | (seq++ & 0x00FF_FFFF_FFFF_FFFFL);
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (!less(t, o, time[parent], order[parent])) {
          break;
        }
        time[i] = time[parent];
        order[i] = order[parent];
        arg[i] = arg[parent];
        i = parent;
      }
      time[i] = t;
      order[i] = o;
      arg[i] = a;
    }

    void pop() {
      size--;
      if (size == 0) {
        return;
      }
      long t = time[size];
      long o = order[size];
      long a = arg[size];
      int i = 0;
      while (true) {
        int l = 2 * i + 1;
        if (l >= size) {
          break;
        }
        int r = l + 1;
        int m = r < size && less(time[r], order[r], time[l], order[l]) ? r : l;
        if (!less(time[m], order[m], t, o)) {
          break;
        }
        time[i] = time[m];
        order[i] = order[m];
        arg[i] = arg[m];
        i = m;
      }
      time[i] = t;
      order[i] = o;
      arg[i] = a;
    }

    private static boolean less(long t1, long o1, long t2, long o2) {
      return t1 < t2 || (t1 == t2 && o1 < o2);
    }
  }
}
