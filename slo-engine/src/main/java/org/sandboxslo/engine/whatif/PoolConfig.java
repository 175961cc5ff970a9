package org.sandboxslo.engine.whatif;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A warm-pool configuration to simulate: what the pools are (spec.replicas, how many pools share
 * the demand) and how the controller refills them (upstream flags, reference §e), with the
 * latencies that decide whether a claim finds a Ready member.
 *
 * @param pools pools sharing the demand (claims go round-robin), ≥ 1
 * @param replicas spec.replicas of each pool, ≥ 0
 * @param maxBatch {@code --sandbox-warm-pool-max-batch-size}: creates per reconcile pass, ≥ 1
 *     (upstream default 300)
 * @param refillRatePerPool {@code --sandbox-warm-pool-max-refill-rate}: a token bucket per pool in
 *     sandboxes/s with capacity max(1, rate); 0 = unpaced (upstream default)
 * @param coldStart member (or cold Sandbox) created → Ready, from the observed p50/p95
 * @param warmAdoption claim → Ready when a Ready member is adopted (the claim controller's writes)
 * @param watchLag how late both controllers see a change (creates, Ready, adoptions), ≥ 0
 * @param expectationsGate the pool creates nothing while its earlier creates are unobserved (the
 *     upstream default); without it the pool over-creates while the watch lags
 * @param expectationsTimeout expectations expire after this (upstream 5 min), &gt; 0
 * @param pendingCandidateWait a claim that finds no Ready member but members not yet Ready waits
 *     this long for one before it starts cold (upstream 2 s), ≥ 0
 * @param cpuMillisPerMember cpu request of a member, millicores, ≥ 0 (0 = unknown)
 * @param memoryBytesPerMember memory request of a member, bytes, ≥ 0 (0 = unknown)
 */
public record PoolConfig(
    int pools,
    int replicas,
    int maxBatch,
    double refillRatePerPool,
    LogNormal coldStart,
    LogNormal warmAdoption,
    Duration watchLag,
    boolean expectationsGate,
    Duration expectationsTimeout,
    Duration pendingCandidateWait,
    long cpuMillisPerMember,
    long memoryBytesPerMember) {

  /** Upstream defaults for the controller side: max batch 300, unpaced, gate on (5 min), 2 s. */
  public static final int DEFAULT_MAX_BATCH = 300;

  public static final Duration DEFAULT_EXPECTATIONS_TIMEOUT = Duration.ofMinutes(5);
  public static final Duration DEFAULT_PENDING_WAIT = Duration.ofSeconds(2);

  public PoolConfig {
    if (pools < 1) {
      throw new IllegalArgumentException("pools must be >= 1, got " + pools);
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
    }
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be >= 1, got " + maxBatch);
    }
    if (!(refillRatePerPool >= 0) || Double.isInfinite(refillRatePerPool)) {
      throw new IllegalArgumentException(
          "refillRatePerPool must be >= 0 (0 = unpaced), got " + refillRatePerPool);
    }
    Objects.requireNonNull(coldStart, "coldStart");
    Objects.requireNonNull(warmAdoption, "warmAdoption");
    nonNegative("watchLag", watchLag);
    Objects.requireNonNull(expectationsTimeout, "expectationsTimeout");
    if (expectationsTimeout.isZero() || expectationsTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "expectationsTimeout must be > 0, got " + expectationsTimeout);
    }
    nonNegative("pendingCandidateWait", pendingCandidateWait);
    if (cpuMillisPerMember < 0 || memoryBytesPerMember < 0) {
      throw new IllegalArgumentException("member requests must be >= 0");
    }
  }

  private static void nonNegative(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " must be >= 0, got " + d);
    }
  }

  /**
   * A configuration with upstream's controller defaults (max batch 300, unpaced, expectations gate
   * with 5 min timeout, 2 s wait for a pending member, no watch lag, requests unknown).
   */
  public static PoolConfig of(
      int pools, int replicas, LogNormal coldStart, LogNormal warmAdoption) {
    return new PoolConfig(
        pools,
        replicas,
        DEFAULT_MAX_BATCH,
        0,
        coldStart,
        warmAdoption,
        Duration.ZERO,
        true,
        DEFAULT_EXPECTATIONS_TIMEOUT,
        DEFAULT_PENDING_WAIT,
        0,
        0);
  }

  public PoolConfig withPools(int pools, int replicas) {
    return with(
        c -> {
          c.pools = pools;
          c.replicas = replicas;
        });
  }

  public PoolConfig withRefillRate(double perPool) {
    return with(c -> c.refillRatePerPool = perPool);
  }

  public PoolConfig withWatchLag(Duration lag, boolean gate) {
    return with(
        c -> {
          c.watchLag = lag;
          c.expectationsGate = gate;
        });
  }

  public PoolConfig withPendingCandidateWait(Duration wait) {
    return with(c -> c.pendingCandidateWait = wait);
  }

  public PoolConfig withRequests(long cpuMillis, long memoryBytes) {
    return with(
        c -> {
          c.cpuMillisPerMember = cpuMillis;
          c.memoryBytesPerMember = memoryBytes;
        });
  }

  /** This configuration with {@code change} applied to a copy, validated as a new one. */
  private PoolConfig with(Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return c.build();
  }

  /** A mutable copy of every component, for the withers; {@link #build} validates again. */
  private static final class Copy {
    int pools;
    int replicas;
    int maxBatch;
    double refillRatePerPool;
    LogNormal coldStart;
    LogNormal warmAdoption;
    Duration watchLag;
    boolean expectationsGate;
    Duration expectationsTimeout;
    Duration pendingCandidateWait;
    long cpuMillisPerMember;
    long memoryBytesPerMember;

    Copy(PoolConfig c) {
      pools = c.pools;
      replicas = c.replicas;
      maxBatch = c.maxBatch;
      refillRatePerPool = c.refillRatePerPool;
      coldStart = c.coldStart;
      warmAdoption = c.warmAdoption;
      watchLag = c.watchLag;
      expectationsGate = c.expectationsGate;
      expectationsTimeout = c.expectationsTimeout;
      pendingCandidateWait = c.pendingCandidateWait;
      cpuMillisPerMember = c.cpuMillisPerMember;
      memoryBytesPerMember = c.memoryBytesPerMember;
    }

    PoolConfig build() {
      return new PoolConfig(
          pools,
          replicas,
          maxBatch,
          refillRatePerPool,
          coldStart,
          warmAdoption,
          watchLag,
          expectationsGate,
          expectationsTimeout,
          pendingCandidateWait,
          cpuMillisPerMember,
          memoryBytesPerMember);
    }
  }

  /** replicas × pools. */
  public long totalReplicas() {
    return (long) replicas * pools;
  }
}
