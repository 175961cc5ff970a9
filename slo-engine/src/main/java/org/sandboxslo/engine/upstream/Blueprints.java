package org.sandboxslo.engine.upstream;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Semantic comparison of sandbox blueprints, as upstream's {@code isSandboxStale} does it: two
 * blueprints are equal when the pod spec is equal after the template secure defaults, the volume
 * claim templates are equal by index on name + spec only, and {@code service} is equal. Pod
 * template labels and annotations do not count, so a metadata-only template edit makes nothing
 * stale (a blueprint-hash mismatch alone is not staleness).
 *
 * <p>Input maps are the JSON shape of the Kubernetes object ({@code Map}, {@code List}, strings,
 * numbers, booleans). The digest is a stable hex string (SHA-256, first 16 hex chars) of a
 * canonical form: keys sorted; null, empty maps and empty lists dropped (Go {@code omitempty});
 * values equal to the secure defaults ({@code automountServiceAccountToken: false}; {@code
 * dnsPolicy: None} with nameservers 8.8.8.8, 1.1.1.1) treated as unset, so a member that carries
 * the defaults and a template that leaves them unset compare equal.
 */
public final class Blueprints {
  private Blueprints() {}

  /** Nameservers upstream forces with {@code dnsPolicy: None} under a managed default policy. */
  public static final List<String> SECURE_DEFAULT_NAMESERVERS = List.of("8.8.8.8", "1.1.1.1");

  /**
   * The semantic digest of a blueprint ({@code spec} of a Sandbox or SandboxTemplate).
   *
   * @param spec the object's {@code spec} map; null is treated as empty
   * @return 16 lowercase hex chars
   */
  public static String digest(Map<String, ?> spec) {
    return sha256Hex(canonicalJson(canonical(spec)));
  }

  /**
   * The canonical form of a blueprint: {@code {podSpec, volumeClaimTemplates, service}} with the
   * rules of the class comment. Exposed for evidence ("which fields differ").
   */
  public static Map<String, Object> canonical(Map<String, ?> spec) {
    Map<String, Object> out = new TreeMap<>();
    if (spec == null) {
      return out;
    }
    Object podTemplate = spec.get("podTemplate");
    Object podSpec = podTemplate instanceof Map<?, ?> pt ? pt.get("spec") : null;
    Object normalizedPodSpec = normalize(stripSecureDefaults(podSpec));
    if (normalizedPodSpec != null) {
      out.put("podSpec", normalizedPodSpec);
    }
    Object vcts = spec.get("volumeClaimTemplates");
    if (vcts instanceof List<?> list && !list.isEmpty()) {
      List<Object> trimmed = new ArrayList<>();
      for (Object v : list) {
        Map<String, Object> e = new TreeMap<>();
        if (v instanceof Map<?, ?> m) {
          Object md = m.get("metadata");
          if (md instanceof Map<?, ?> mdm && mdm.get("name") != null) {
            e.put("name", mdm.get("name"));
          }
          Object s = normalize(m.get("spec"));
          if (s != null) {
            e.put("spec", s);
          }
        }
        trimmed.add(e);
      }
      out.put("volumeClaimTemplates", trimmed);
    }
    Object service = spec.get("service");
    if (service instanceof Boolean) {
      out.put("service", service);
    }
    return out;
  }

  /** Top-level fields of the canonical forms that differ, in sorted order (evidence). */
  public static List<String> differingFields(Map<String, ?> a, Map<String, ?> b) {
    Map<String, Object> ca = canonical(a);
    Map<String, Object> cb = canonical(b);
    List<String> out = new ArrayList<>();
    TreeMap<String, Object> keys = new TreeMap<>(ca);
    keys.putAll(cb);
    for (String k : keys.keySet()) {
      Object va = ca.get(k);
      Object vb = cb.get(k);
      if (va instanceof Map<?, ?> ma && vb instanceof Map<?, ?> mb) {
        TreeMap<Object, Object> sub = new TreeMap<>();
        ma.forEach((x, y) -> sub.put(x, y));
        mb.forEach((x, y) -> sub.put(x, y));
        for (Object sk : sub.keySet()) {
          if (!java.util.Objects.equals(ma.get(sk), mb.get(sk))) {
            out.add(k + "." + sk);
          }
        }
      } else if (!java.util.Objects.equals(va, vb)) {
        out.add(k);
      }
    }
    return out;
  }

  /**
   * Whether a member's canonical blueprint contradicts the template's: some value present on both
   * sides differs, or the member carries a field the template does not have. Fields only the
   * template has do not contradict (a member read back thinner than its template, e.g. with server
   * defaults elided). Lists must have the same length and are compared by index.
   *
   * @param member canonical form of the member's blueprint ({@link #canonical})
   * @param template canonical form of the template's blueprint
   */
  public static boolean contradicts(Object member, Object template) {
    if (member instanceof Map<?, ?> mm) {
      if (!(template instanceof Map<?, ?> tm)) {
        return true;
      }
      for (Map.Entry<?, ?> e : mm.entrySet()) {
        if (!tm.containsKey(e.getKey()) || contradicts(e.getValue(), tm.get(e.getKey()))) {
          return true;
        }
      }
      return false;
    }
    if (member instanceof List<?> ml) {
      if (!(template instanceof List<?> tl) || ml.size() != tl.size()) {
        return true;
      }
      for (int i = 0; i < ml.size(); i++) {
        if (contradicts(ml.get(i), tl.get(i))) {
          return true;
        }
      }
      return false;
    }
    return !java.util.Objects.equals(member, template);
  }

  /** Container images of a blueprint's pod spec, init containers first; empty when none. */
  public static List<String> images(Map<String, ?> spec) {
    List<String> out = new ArrayList<>();
    if (spec == null) {
      return out;
    }
    Object pt = spec.get("podTemplate");
    Object ps = pt instanceof Map<?, ?> m ? m.get("spec") : null;
    if (ps instanceof Map<?, ?> podSpec) {
      for (String key : List.of("initContainers", "containers")) {
        if (podSpec.get(key) instanceof List<?> cs) {
          for (Object c : cs) {
            if (c instanceof Map<?, ?> cm && cm.get("image") instanceof String img) {
              out.add(img);
            }
          }
        }
      }
    }
    return out;
  }

  private static Object stripSecureDefaults(Object podSpec) {
    if (!(podSpec instanceof Map<?, ?> m)) {
      return podSpec;
    }
    Map<String, Object> copy = new LinkedHashMap<>();
    m.forEach((k, v) -> copy.put(String.valueOf(k), v));
    if (Boolean.FALSE.equals(copy.get("automountServiceAccountToken"))) {
      copy.remove("automountServiceAccountToken");
    }
    if ("None".equals(copy.get("dnsPolicy")) && copy.get("dnsConfig") instanceof Map<?, ?> dc) {
      Object ns = dc.get("nameservers");
      if (SECURE_DEFAULT_NAMESERVERS.equals(ns) && dc.size() == 1) {
        copy.remove("dnsPolicy");
        copy.remove("dnsConfig");
      }
    }
    return copy;
  }

  /** Sorted keys, stringified numbers, nulls and empty containers dropped; null when empty. */
  static Object normalize(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof Map<?, ?> m) {
      TreeMap<String, Object> out = new TreeMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        Object nv = normalize(e.getValue());
        if (nv != null) {
          out.put(String.valueOf(e.getKey()), nv);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      for (Object o : l) {
        Object nv = normalize(o);
        out.add(nv == null ? new TreeMap<String, Object>() : nv);
      }
      return out.isEmpty() ? null : out;
    }
    if (v instanceof Number n) {
      // 1 and 1.0 are the same JSON number
      double d = n.doubleValue();
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
    return v instanceof Boolean ? v : String.valueOf(v);
  }

  static String canonicalJson(Object v) {
    StringBuilder sb = new StringBuilder();
    write(sb, v);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v) {
    if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        quote(sb, String.valueOf(e.getKey()));
        sb.append(':');
        write(sb, e.getValue());
      }
      sb.append('}');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        write(sb, l.get(i));
      }
      sb.append(']');
    } else if (v instanceof Boolean b) {
      sb.append(b);
    } else if (v == null) {
      sb.append("null");
    } else {
      quote(sb, String.valueOf(v));
    }
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    sb.append('"');
  }

  private static String sha256Hex(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
