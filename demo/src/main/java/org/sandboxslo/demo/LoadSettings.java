package org.sandboxslo.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sandboxslo.controller.load.LoadProfileConfig;
import org.sandboxslo.engine.time.Durations;

/**
 * Demo load settings, keys under {@code sloconsole.load.}: {@code enabled} (default true), {@code
 * profile} ({@code default}: warm-up 60 s at 0.5/s, peak 120 s at 3/s, cool-down 60 s at 0.5/s; or
 * {@code constant}), {@code rate} (claims/s for constant, default 2), {@code duration} (constant,
 * default 5m), {@code env-fraction} (default 0.1), {@code hold} (default 30s), {@code repeat} (run
 * the profile again when it ends, default true), {@code ground-truth} (file, default {@code
 * ./.sandbox-slo/ground-truth.jsonl}; repeats write {@code -2}, {@code -3}, ...), {@code seed}
 * (default 42).
 *
 * @param enabled whether the demo creates claims at all
 * @param profile the load profile
 * @param repeat run again when done
 * @param groundTruth where the first run writes its ground truth
 */
public record LoadSettings(
    boolean enabled, LoadProfileConfig profile, boolean repeat, Path groundTruth) {
  public static final String PREFIX = "sloconsole.load.";
  private static final Set<String> KEYS =
      Set.of(
          "enabled",
          "profile",
          "rate",
          "duration",
          "env-fraction",
          "hold",
          "repeat",
          "ground-truth",
          "seed");

  /**
   * @throws IllegalArgumentException naming the key for an unknown key or a bad value
   */
  public static LoadSettings fromMap(Map<String, String> map) {
    for (String k : map.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k.substring(PREFIX.length()))) {
        throw new IllegalArgumentException(
            "unknown configuration key "
                + k
                + "; known: "
                + PREFIX
                + String.join(", " + PREFIX, KEYS.stream().sorted().toList()));
      }
    }
    boolean enabled = bool(map, "enabled", true);
    boolean repeat = bool(map, "repeat", true);
    Path gt =
        Path.of(map.getOrDefault(PREFIX + "ground-truth", "./.sandbox-slo/ground-truth.jsonl"));
    double envFraction = number(map, "env-fraction", 0.1);
    Duration hold = Durations.parse(PREFIX + "hold", map.getOrDefault(PREFIX + "hold", "30s"));
    long seed = (long) number(map, "seed", 42);
    double rate = number(map, "rate", 2);
    if (!(rate >= 0)) {
      throw new IllegalArgumentException(PREFIX + "rate: must be >= 0, got " + rate);
    }
    Duration duration =
        Durations.parse(PREFIX + "duration", map.getOrDefault(PREFIX + "duration", "5m"));
    String profile = map.getOrDefault(PREFIX + "profile", "default");
    LoadProfileConfig cfg;
    try {
      cfg =
          switch (profile) {
            case "default" -> {
              LoadProfileConfig d = LoadProfileConfig.defaults();
              List<LoadProfileConfig.Phase> phases =
                  d.phases().stream()
                      .map(
                          p ->
                              new LoadProfileConfig.Phase(
                                  p.name(), p.duration(), p.claimsPerSecond(), envFraction))
                      .toList();
              yield new LoadProfileConfig(
                  phases, d.targets(), d.envPool(), hold, d.createdBy(), seed);
            }
            case "constant" -> LoadProfileConfig.constant(duration, rate, envFraction, hold, seed);
            default ->
                throw new IllegalArgumentException(
                    PREFIX + "profile: expected default or constant, got '" + profile + "'");
          };
    } catch (IllegalArgumentException e) {
      throw e.getMessage().startsWith(PREFIX)
          ? e
          : new IllegalArgumentException(PREFIX + "*: " + e.getMessage());
    }
    return new LoadSettings(enabled, cfg, repeat, gt);
  }

  /** The ground-truth file of run {@code n} (1-based). */
  public Path groundTruth(int n) {
    if (n == 1) {
      return groundTruth;
    }
    String f = groundTruth.getFileName().toString();
    int dot = f.lastIndexOf('.');
    String name = dot > 0 ? f.substring(0, dot) + "-" + n + f.substring(dot) : f + "-" + n;
    return groundTruth.resolveSibling(name);
  }

  private static boolean bool(Map<String, String> m, String k, boolean d) {
    String v = m.get(PREFIX + k);
    if (v == null) {
      return d;
    }
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(PREFIX + k + ": expected true or false, got '" + v + "'");
    }
    return Boolean.parseBoolean(v);
  }

  private static double number(Map<String, String> m, String k, double d) {
    String v = m.get(PREFIX + k);
    if (v == null) {
      return d;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PREFIX + k + ": expected a number, got '" + v + "'");
    }
  }
}
