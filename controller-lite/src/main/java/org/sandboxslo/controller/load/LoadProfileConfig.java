package org.sandboxslo.controller.load;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.model.ObjectRef;

/**
 * A claim load profile, immutable.
 *
 * <p>Claims without env go to {@code targets}, chosen by weight. A fraction {@code envFraction} of
 * each phase's claims set {@code spec.env: [{name: TASK_ID, value: <claim name>}]}; those always go
 * to {@code envPool}, whose template must allow env injection (default {@code
 * demo/data-notebook-pool}, template {@code data-notebook} with {@code envVarsInjectionPolicy:
 * Allowed}), because env claims on a Disallowed template are rejected rather than started. They
 * always cold-start (the warm queue is bypassed), which is the point of the mix.
 *
 * @param phases phases run one after the other; at least one
 * @param targets pools for claims without env, with weights &gt; 0; at least one
 * @param envPool pool for claims with env
 * @param hold each claim sets {@code spec.lifecycle {shutdownPolicy: Delete, shutdownTime: created
 *     + hold}} so claims end and pools churn; &gt; 0
 * @param createdBy value of the claims' {@code agents.x-k8s.io/created-by} label; non-empty
 * @param seed seed for pool choice and env choice
 */
public record LoadProfileConfig(
    List<Phase> phases,
    List<Target> targets,
    ObjectRef envPool,
    Duration hold,
    String createdBy,
    long seed) {

  public LoadProfileConfig {
    if (phases == null || phases.isEmpty()) {
      throw new IllegalArgumentException("a load profile needs at least one phase");
    }
    if (targets == null || targets.isEmpty()) {
      throw new IllegalArgumentException("a load profile needs at least one target pool");
    }
    phases = List.copyOf(phases);
    targets = List.copyOf(targets);
    Objects.requireNonNull(envPool, "envPool");
    Objects.requireNonNull(hold, "hold");
    if (hold.isZero() || hold.isNegative()) {
      throw new IllegalArgumentException("hold must be > 0, got " + hold);
    }
    if (createdBy == null || createdBy.isEmpty()) {
      throw new IllegalArgumentException("createdBy must be non-empty");
    }
  }

  /**
   * One phase of constant arrival rate.
   *
   * @param name phase name, for logs; non-empty
   * @param duration length of the phase, &gt; 0
   * @param claimsPerSecond arrival rate, &gt;= 0 (evenly spaced arrivals)
   * @param envFraction fraction of claims that set {@code spec.env}, 0..1
   */
  public record Phase(String name, Duration duration, double claimsPerSecond, double envFraction) {
    public Phase {
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("phase name must be non-empty");
      }
      Objects.requireNonNull(duration, "duration");
      if (duration.isZero() || duration.isNegative()) {
        throw new IllegalArgumentException(
            "phase " + name + ": duration must be > 0, got " + duration);
      }
      if (!(claimsPerSecond >= 0) || Double.isInfinite(claimsPerSecond)) {
        throw new IllegalArgumentException(
            "phase " + name + ": claims per second must be >= 0, got " + claimsPerSecond);
      }
      if (!(envFraction >= 0 && envFraction <= 1)) {
        throw new IllegalArgumentException(
            "phase " + name + ": env fraction must be in 0..1, got " + envFraction);
      }
    }
  }

  /**
   * A target pool.
   *
   * @param pool namespace/name of a SandboxWarmPool
   * @param weight relative weight, &gt; 0
   */
  public record Target(ObjectRef pool, double weight) {
    public Target {
      Objects.requireNonNull(pool, "pool");
      if (!(weight > 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException(
            "target " + pool + ": weight must be > 0, got " + weight);
      }
    }
  }

  /** The pool that takes claims with env in the demo fleet. */
  public static final ObjectRef DEMO_ENV_POOL = new ObjectRef("demo", "data-notebook-pool");

  /** Demo targets: python 0.5, node 0.3, data-notebook 0.1, gpu-trainer 0.1. */
  public static List<Target> demoTargets() {
    return List.of(
        new Target(new ObjectRef("demo", "python-runtime-pool"), 0.5),
        new Target(new ObjectRef("demo", "node-runtime-pool"), 0.3),
        new Target(new ObjectRef("demo", "data-notebook-pool"), 0.1),
        new Target(new ObjectRef("demo", "gpu-trainer-pool"), 0.1));
  }

  /**
   * The default demo profile: warm-up 60 s at 0.5/s, peak 120 s at 3/s, cool-down 60 s at 0.5/s,
   * 10% env claims, hold 30 s, created-by {@code python-client}, seed 42.
   */
  public static LoadProfileConfig defaults() {
    return new LoadProfileConfig(
        List.of(
            new Phase("warm-up", Duration.ofSeconds(60), 0.5, 0.1),
            new Phase("peak", Duration.ofSeconds(120), 3, 0.1),
            new Phase("cool-down", Duration.ofSeconds(60), 0.5, 0.1)),
        demoTargets(),
        DEMO_ENV_POOL,
        Duration.ofSeconds(30),
        "python-client",
        42);
  }

  /** A single-phase profile over the demo pools. */
  public static LoadProfileConfig constant(
      Duration duration, double claimsPerSecond, double envFraction, Duration hold, long seed) {
    return new LoadProfileConfig(
        List.of(new Phase("constant", duration, claimsPerSecond, envFraction)),
        demoTargets(),
        DEMO_ENV_POOL,
        hold,
        "python-client",
        seed);
  }

  /** Total duration of all phases. */
  public Duration totalDuration() {
    return phases.stream().map(Phase::duration).reduce(Duration.ZERO, Duration::plus);
  }
}
