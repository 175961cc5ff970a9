package org.sandboxslo.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.engine.time.Durations;

/**
 * Engine policy, immutable. Built from a {@code Map<String,String>} (keys under {@code
 * sloconsole.engine.}); unknown keys under that prefix are rejected.
 *
 * @param windows sliding windows, each &gt; 0 and a multiple of {@code bucketWidth}; default 5m, 1h
 * @param bucketWidth resolution of the windows, &gt; 0; default 10 s
 * @param resumeTimeout a resume not Ready within this is an error; default 2m
 */
public record EngineConfig(List<Duration> windows, Duration bucketWidth, Duration resumeTimeout) {
  public static final String PREFIX = "sloconsole.engine.";
  public static final String WINDOWS = PREFIX + "windows";
  public static final String BUCKET_WIDTH = PREFIX + "bucket-width";
  public static final String RESUME_TIMEOUT = PREFIX + "resume-timeout";

  /**
   * The failed-rollout progress deadline; read by {@link
   * org.sandboxslo.engine.diagnosis.DiagnosisSettings#fromMap}, accepted here so the prefix check
   * knows it.
   */
  public static final String ROLLOUT_PROGRESS_DEADLINE = PREFIX + "rollout-progress-deadline";

  private static final Set<String> KEYS =
      Set.of(WINDOWS, BUCKET_WIDTH, RESUME_TIMEOUT, ROLLOUT_PROGRESS_DEADLINE);

  public EngineConfig {
    Objects.requireNonNull(bucketWidth, "bucketWidth");
    Objects.requireNonNull(resumeTimeout, "resumeTimeout");
    if (bucketWidth.isZero() || bucketWidth.isNegative()) {
      throw new IllegalArgumentException("bucket width must be > 0, got " + bucketWidth);
    }
    if (resumeTimeout.isZero() || resumeTimeout.isNegative()) {
      throw new IllegalArgumentException("resume timeout must be > 0, got " + resumeTimeout);
    }
    if (windows == null || windows.isEmpty()) {
      throw new IllegalArgumentException("at least one window is required");
    }
    windows = List.copyOf(windows);
    for (Duration w : windows) {
      if (w.isZero() || w.isNegative()) {
        throw new IllegalArgumentException("window must be > 0, got " + w);
      }
      if (w.toNanos() % bucketWidth.toNanos() != 0) {
        throw new IllegalArgumentException(
            "window " + w + " must be a multiple of the bucket width " + bucketWidth);
      }
    }
  }

  public static EngineConfig defaults() {
    return new EngineConfig(
        List.of(Duration.ofMinutes(5), Duration.ofHours(1)),
        Duration.ofSeconds(10),
        Duration.ofMinutes(2));
  }

  /** The longest window. */
  public Duration longestWindow() {
    return windows.stream().max(Duration::compareTo).orElseThrow();
  }

  /**
   * Builds the config from {@code sloconsole.engine.*} keys; other prefixes are ignored.
   *
   * @throws IllegalArgumentException naming the key and the reason, for an unknown key under the
   *     prefix or a value that does not parse
   */
  public static EngineConfig fromMap(Map<String, String> map) {
    EngineConfig d = defaults();
    for (String k : map.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k)) {
        throw new IllegalArgumentException("unknown configuration key " + k + "; known: " + KEYS);
      }
    }
    List<Duration> windows = d.windows();
    if (map.containsKey(WINDOWS)) {
      windows = new ArrayList<>();
      for (String part : map.get(WINDOWS).split(",")) {
        windows.add(Durations.parse(WINDOWS, part.trim()));
      }
    }
    Duration bucket =
        map.containsKey(BUCKET_WIDTH)
            ? Durations.parse(BUCKET_WIDTH, map.get(BUCKET_WIDTH))
            : d.bucketWidth();
    Duration resume =
        map.containsKey(RESUME_TIMEOUT)
            ? Durations.parse(RESUME_TIMEOUT, map.get(RESUME_TIMEOUT))
            : d.resumeTimeout();
    return new EngineConfig(windows, bucket, resume);
  }
}
