package org.sandboxslo.controller.pool;

import java.time.Duration;
import java.time.Instant;

/**
 * Per-pool refill pacing (upstream {@code --sandbox-warm-pool-max-refill-rate}): a token bucket of
 * {@code rate} tokens/s with capacity {@code max(1, rate)}. Rate 0 means unpaced. Thread-safe; the
 * rate can be changed live (tokens are kept, capped at the new capacity).
 */
public final class TokenBucket {
  private double rate;
  private double tokens;
  private Instant last;

  /** A full bucket. */
  public TokenBucket(double rate, Instant now) {
    setRate(rate);
    this.tokens = capacity();
    this.last = now;
  }

  /** Changes the rate (sandboxes/s, &gt;= 0). */
  public synchronized void setRate(double rate) {
    if (!(rate >= 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("max refill rate must be >= 0, got " + rate);
    }
    this.rate = rate;
    this.tokens = Math.min(tokens, capacity());
  }

  public synchronized double rate() {
    return rate;
  }

  private double capacity() {
    return Math.max(1, rate);
  }

  /** Tokens available at {@code now} (refills first); +infinity when unpaced. */
  public synchronized double available(Instant now) {
    if (rate == 0) {
      return Double.POSITIVE_INFINITY;
    }
    refill(now);
    return tokens;
  }

  /** Takes {@code n} tokens (no-op when unpaced). */
  public synchronized void take(int n, Instant now) {
    if (rate == 0) {
      return;
    }
    refill(now);
    tokens = Math.max(0, tokens - n);
  }

  /** Gives back {@code n} tokens the gate refused or a failed create did not use. */
  public synchronized void refund(int n) {
    if (rate == 0) {
      return;
    }
    tokens = Math.min(capacity(), tokens + n);
  }

  private void refill(Instant now) {
    if (now.isAfter(last)) {
      double dt = Duration.between(last, now).toNanos() / 1e9;
      tokens = Math.min(capacity(), tokens + dt * rate);
      last = now;
    }
  }
}
