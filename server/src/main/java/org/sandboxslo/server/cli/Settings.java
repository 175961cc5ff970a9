package org.sandboxslo.server.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The merged configuration map, lowest precedence first: built-in defaults, a properties file
 * ({@code --config}), environment variables ({@code SLOCONSOLE_HTTP_PORT} → {@code
 * sloconsole.http.port}: strip nothing, lower-case, {@code _} → {@code .} after the first two
 * segments keep their dashes, see {@link #fromEnv}), then command-line {@code --set key=value}.
 * Every key under {@code sloconsole.} must belong to a known section; each module's config record
 * then validates its own keys.
 */
public final class Settings {
  private Settings() {}

  /** Sections owned by module configs (the part after {@code sloconsole.}). */
  public static final List<String> SECTIONS =
      List.of(
          "engine",
          "http",
          "management",
          "store",
          "db",
          "controller",
          "collector",
          "load",
          "app",
          "auth",
          "remediation",
          "slo",
          "controller-view",
          "leader",
          "otlp",
          "chatops",
          "alertmanager");

  /**
   * Merges the layers.
   *
   * @throws IllegalArgumentException for an unreadable file or a key in no known section, naming
   *     the key and where it came from
   */
  public static Map<String, String> merge(
      Path configFile, Map<String, String> env, Map<String, String> overrides) {
    Map<String, String> out = new TreeMap<>();
    if (configFile != null) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(configFile)) {
        p.load(r);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "config file " + configFile + ": cannot read: " + e.getMessage());
      }
      for (String k : p.stringPropertyNames()) {
        out.put(k.trim(), p.getProperty(k).trim());
      }
      check(out, "config file " + configFile);
    }
    Map<String, String> fromEnv = fromEnv(env);
    check(fromEnv, "environment");
    out.putAll(fromEnv);
    check(overrides, "--set");
    out.putAll(overrides);
    return out;
  }

  /**
   * Keys from {@code SLOCONSOLE_<SECTION>_<KEY>} variables: section lower-cased, the rest
   * lower-cased with {@code _} → {@code -}. Example: {@code SLOCONSOLE_STORE_SNAPSHOT_INTERVAL=5s}
   * → {@code sloconsole.store.snapshot-interval=5s}.
   */
  public static Map<String, String> fromEnv(Map<String, String> env) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> e : env.entrySet()) {
      String k = e.getKey();
      if (!k.startsWith("SLOCONSOLE_")) {
        continue;
      }
      String rest = k.substring("SLOCONSOLE_".length()).toLowerCase(Locale.ROOT);
      int i = rest.indexOf('_');
      if (i <= 0 || i == rest.length() - 1) {
        throw new IllegalArgumentException(
            "environment: " + k + " is not SLOCONSOLE_<SECTION>_<KEY>");
      }
      out.put(
          "sloconsole." + rest.substring(0, i) + "." + rest.substring(i + 1).replace('_', '-'),
          e.getValue());
    }
    return out;
  }

  private static void check(Map<String, String> m, String source) {
    for (String k : m.keySet()) {
      if (!k.startsWith("sloconsole.")) {
        throw new IllegalArgumentException(source + ": key " + k + " must start with sloconsole.");
      }
      String rest = k.substring("sloconsole.".length());
      int dot = rest.indexOf('.');
      String section = dot < 0 ? rest : rest.substring(0, dot);
      if (!SECTIONS.contains(section) || dot < 0) {
        throw new IllegalArgumentException(
            source
                + ": unknown configuration key "
                + k
                + "; sections: sloconsole."
                + String.join(", sloconsole.", SECTIONS));
      }
    }
  }

  /** Parses {@code key=value} pairs (for {@code --set}), sorted; throws naming the bad pair. */
  public static Map<String, String> pairs(List<String> pairs) {
    return new TreeMap<>(pairs(pairs, "--set"));
  }

  /**
   * Parses {@code key=value} pairs in order (keys and values trimmed; a later key wins).
   *
   * @param option the option the pairs came from, named in the error
   * @throws IllegalArgumentException "{@code option} x: expected key=value"
   */
  public static Map<String, String> pairs(List<String> pairs, String option) {
    Map<String, String> out = new LinkedHashMap<>();
    if (pairs == null) {
      return out;
    }
    for (String p : pairs) {
      int i = p.indexOf('=');
      if (i <= 0) {
        throw new IllegalArgumentException(option + " " + p + ": expected key=value");
      }
      out.put(p.substring(0, i).trim(), p.substring(i + 1).trim());
    }
    return out;
  }
}
