package org.sandboxslo.engine.inspect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.sandboxslo.engine.upstream.Blueprints;

/**
 * The leaves that differ between two canonical blueprints ({@link Blueprints#canonical}): the
 * evidence behind "stale member". Maps are compared key by key, lists index by index, so the path
 * names the exact field ({@code podTemplate.spec.containers[0].image}). Values longer than {@value
 * #MAX_VALUE} characters are cut with an ellipsis.
 */
public final class BlueprintDiff {
  /** Longest value text kept. */
  public static final int MAX_VALUE = 80;

  private BlueprintDiff() {}

  /**
   * @param member canonical blueprint of the member, may be null (then empty)
   * @param template canonical blueprint of the template, may be null (then empty)
   * @param limit at most this many differences, ≥ 1
   * @return the differing leaves in path order, at most {@code limit}; empty when either side is
   *     null or nothing differs
   */
  public static List<FieldDiff> between(Object member, Object template, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, got " + limit);
    }
    List<FieldDiff> out = new ArrayList<>();
    if (member == null || template == null) {
      return out;
    }
    walk("", member, template, out, limit);
    return out;
  }

  private static void walk(String path, Object a, Object b, List<FieldDiff> out, int limit) {
    if (out.size() >= limit || Objects.equals(a, b)) {
      return;
    }
    if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
      TreeSet<String> keys = new TreeSet<>();
      ma.keySet().forEach(k -> keys.add(String.valueOf(k)));
      mb.keySet().forEach(k -> keys.add(String.valueOf(k)));
      for (String k : keys) {
        walk(path.isEmpty() ? k : path + "." + k, ma.get(k), mb.get(k), out, limit);
      }
    } else if (a instanceof List<?> la && b instanceof List<?> lb) {
      int n = Math.max(la.size(), lb.size());
      for (int i = 0; i < n; i++) {
        walk(
            path + "[" + i + "]",
            i < la.size() ? la.get(i) : null,
            i < lb.size() ? lb.get(i) : null,
            out,
            limit);
      }
    } else {
      out.add(new FieldDiff(path, text(a), text(b)));
    }
  }

  private static String text(Object v) {
    if (v == null) {
      return null;
    }
    String s = String.valueOf(v);
    return s.length() > MAX_VALUE ? s.substring(0, MAX_VALUE - 1) + "…" : s;
  }
}
