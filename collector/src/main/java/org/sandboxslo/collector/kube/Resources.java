package org.sandboxslo.collector.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.time.Rfc3339;

/**
 * Generic access to the four agent-sandbox kinds through fabric8 {@link
 * GenericKubernetesResource}s, and the JSON-map helpers the controller uses on them. Pure helpers
 * never throw on a malformed object: a field of the wrong type reads as absent.
 */
public final class Resources {
  private Resources() {}

  private static final Map<Kind, ResourceDefinitionContext> CONTEXTS = new EnumMap<>(Kind.class);

  static {
    for (Kind k : Kind.values()) {
      CONTEXTS.put(
          k,
          new ResourceDefinitionContext.Builder()
              .withGroup(k.group())
              .withVersion(Kind.VERSION)
              .withKind(k.kindName())
              .withPlural(k.plural())
              .withNamespaced(true)
              .build());
    }
  }

  /** The resource definition context of {@code kind} (v1beta1, namespaced). */
  public static ResourceDefinitionContext context(Kind kind) {
    return CONTEXTS.get(kind);
  }

  /** Operations on {@code kind} across namespaces. */
  public static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      ops(KubernetesClient client, Kind kind) {
    return client.genericKubernetesResources(context(kind));
  }

  /** A new, empty object of {@code kind} in {@code namespace}. */
  public static GenericKubernetesResource newObject(Kind kind, String namespace) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion(kind.apiVersion());
    r.setKind(kind.kindName());
    r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    r.getMetadata().setNamespace(namespace);
    return r;
  }

  // ---- JSON map helpers -----------------------------------------------------------------

  /** {@code obj[key]} as a map, or an empty (unmodifiable) map when absent or not a map. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Object obj, String key) {
    if (obj instanceof Map<?, ?> m && m.get(key) instanceof Map<?, ?> v) {
      return (Map<String, Object>) v;
    }
    return Map.of();
  }

  /** {@code obj[key]} as a list, or an empty list. */
  @SuppressWarnings("unchecked")
  public static List<Object> list(Object obj, String key) {
    if (obj instanceof Map<?, ?> m && m.get(key) instanceof List<?> v) {
      return (List<Object>) v;
    }
    return List.of();
  }

  /** {@code obj[key]} as a string, or null. */
  public static String string(Object obj, String key) {
    if (obj instanceof Map<?, ?> m && m.get(key) instanceof String s) {
      return s;
    }
    return null;
  }

  /** The object's {@code spec} (empty map when absent). */
  public static Map<String, Object> spec(GenericKubernetesResource r) {
    return map(r.getAdditionalProperties(), "spec");
  }

  /** The object's {@code status} (empty map when absent). */
  public static Map<String, Object> status(GenericKubernetesResource r) {
    return map(r.getAdditionalProperties(), "status");
  }

  /** Deep mutable copy of a JSON value (maps keep insertion order). */
  @SuppressWarnings("unchecked")
  public static <T> T deepCopy(T v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), deepCopy(x)));
      return (T) out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(deepCopy(x)));
      return (T) out;
    }
    return v;
  }

  /** A label value, or null. */
  public static String label(GenericKubernetesResource r, String key) {
    Map<String, String> l = r.getMetadata() == null ? null : r.getMetadata().getLabels();
    return l == null ? null : l.get(key);
  }

  /** An annotation value, or null. */
  public static String annotation(GenericKubernetesResource r, String key) {
    Map<String, String> a = r.getMetadata() == null ? null : r.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }

  /** The controller owner reference, or null. */
  public static OwnerReference controllerOwner(GenericKubernetesResource r) {
    if (r.getMetadata() == null || r.getMetadata().getOwnerReferences() == null) {
      return null;
    }
    for (OwnerReference o : r.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(o.getController())) {
        return o;
      }
    }
    return null;
  }

  /** A controller owner reference pointing at {@code owner}. */
  public static OwnerReference ownerRefTo(GenericKubernetesResource owner) {
    OwnerReference o = new OwnerReference();
    o.setApiVersion(owner.getApiVersion());
    o.setKind(owner.getKind());
    o.setName(owner.getMetadata().getName());
    o.setUid(owner.getMetadata().getUid());
    o.setController(true);
    o.setBlockOwnerDeletion(true);
    return o;
  }

  /** {@code metadata.creationTimestamp} parsed, or null when absent/unparseable. */
  public static Instant creationTime(GenericKubernetesResource r) {
    String ts = r.getMetadata() == null ? null : r.getMetadata().getCreationTimestamp();
    return parseTime(ts);
  }

  /** Parses an RFC3339 / RFC3339Nano timestamp; null when absent or malformed. */
  public static Instant parseTime(String ts) {
    if (ts == null || ts.isEmpty()) {
      return null;
    }
    try {
      return Rfc3339.parse("timestamp", ts);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** RFC3339 with whole seconds, UTC ({@code 2026-11-29T08:10:51Z}), as Kubernetes writes times. */
  public static String rfc3339(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * Go's RFC3339Nano in UTC: fractional seconds with trailing zeros removed ({@code
   * 2026-11-29T08:10:51.12Z}, {@code 2026-11-29T08:10:51Z} when whole).
   */
  public static String rfc3339Nano(Instant t) {
    OffsetDateTime o = t.atOffset(ZoneOffset.UTC);
    String base = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").format(o);
    int nanos = o.getNano();
    if (nanos == 0) {
      return base + "Z";
    }
    String frac = String.format("%09d", nanos).replaceFirst("0+$", "");
    return base + "." + frac + "Z";
  }

  // ---- conditions -----------------------------------------------------------------------

  /** The condition of {@code type} in {@code status.conditions}, or null. */
  public static Map<String, Object> condition(GenericKubernetesResource r, String type) {
    for (Object c : list(status(r), "conditions")) {
      if (c instanceof Map<?, ?> m && type.equals(m.get("type"))) {
        @SuppressWarnings("unchecked")
        Map<String, Object> cm = (Map<String, Object>) m;
        return cm;
      }
    }
    return null;
  }

  /** True when the condition {@code type} has status {@code "True"}. */
  public static boolean isTrue(GenericKubernetesResource r, String type) {
    Map<String, Object> c = condition(r, type);
    return c != null && "True".equals(c.get("status"));
  }

  /**
   * Returns a new conditions list where {@code type} is set to status/reason/message; the
   * lastTransitionTime is kept when the status does not change (Kubernetes {@code
   * meta.SetStatusCondition}).
   */
  public static List<Object> withCondition(
      List<Object> conditions,
      String type,
      String status,
      String reason,
      String message,
      Instant now,
      Long observedGeneration) {
    List<Object> out = new ArrayList<>();
    boolean found = false;
    for (Object c : conditions) {
      if (c instanceof Map<?, ?> m && type.equals(m.get("type"))) {
        found = true;
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("type", type);
        n.put("status", status);
        n.put("reason", reason);
        n.put("message", message == null ? "" : message);
        Object ltt = m.get("lastTransitionTime");
        n.put(
            "lastTransitionTime",
            status.equals(m.get("status")) && ltt != null ? ltt : rfc3339(now));
        if (observedGeneration != null) {
          n.put("observedGeneration", observedGeneration);
        }
        out.add(n);
      } else {
        out.add(deepCopy(c));
      }
    }
    if (!found) {
      Map<String, Object> n = new LinkedHashMap<>();
      n.put("type", type);
      n.put("status", status);
      n.put("reason", reason);
      n.put("message", message == null ? "" : message);
      n.put("lastTransitionTime", rfc3339(now));
      if (observedGeneration != null) {
        n.put("observedGeneration", observedGeneration);
      }
      out.add(n);
    }
    return out;
  }

  /** A new list without the condition {@code type}. */
  public static List<Object> withoutCondition(List<Object> conditions, String type) {
    List<Object> out = new ArrayList<>();
    for (Object c : conditions) {
      if (!(c instanceof Map<?, ?> m && type.equals(m.get("type")))) {
        out.add(deepCopy(c));
      }
    }
    return out;
  }

  /** {@code ns/name} of an object, for logs. */
  public static String ref(GenericKubernetesResource r) {
    return r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
  }
}
