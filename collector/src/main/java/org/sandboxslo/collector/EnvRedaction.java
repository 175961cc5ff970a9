package org.sandboxslo.collector;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Removes secrets from Kubernetes object trees before they leave the process (recordings, logs):
 * the {@code value} of every entry of an {@code env} list ({@code SandboxClaim spec.env}, container
 * {@code env} of Sandboxes and templates) becomes {@value #REDACTED}; names, {@code valueFrom}
 * references and the list's length are kept, so a replay still sees that a claim sets env.
 */
public final class EnvRedaction {
  /** What a redacted value reads. */
  public static final String REDACTED = "<redacted>";

  private EnvRedaction() {}

  /**
   * A deep copy of {@code tree} with env values redacted.
   *
   * @param tree an object's JSON tree (maps, lists, scalars); null gives null
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> redact(Map<String, Object> tree) {
    return tree == null ? null : (Map<String, Object>) copy(tree, false);
  }

  private static Object copy(Object v, boolean envEntry) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String k = String.valueOf(e.getKey());
        Object x = e.getValue();
        if (envEntry && k.equals("value") && x != null) {
          out.put(k, REDACTED);
        } else if (k.equals("env") && x instanceof List<?> entries) {
          List<Object> list = new ArrayList<>(entries.size());
          for (Object entry : entries) {
            list.add(copy(entry, true));
          }
          out.put(k, list);
        } else {
          out.put(k, copy(x, false));
        }
      }
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      for (Object x : l) {
        out.add(copy(x, false));
      }
      return out;
    }
    return v;
  }
}
