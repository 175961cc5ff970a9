package org.sandboxslo.collector;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.ReservedKey;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.time.Rfc3339;
import org.sandboxslo.engine.upstream.Blueprints;
import org.sandboxslo.engine.upstream.Labels;

/**
 * Pure mapping from the upstream v1beta1 object shapes (reference §b, §c) to the engine's compact
 * views. No I/O; safe to call from any thread.
 *
 * <p>Input is either a fabric8 {@link GenericKubernetesResource} or the plain JSON tree of the
 * object ({@code Map}/{@code List}/{@code String}/{@code Number}/{@code Boolean}, as SnakeYAML or
 * Jackson produce it from recorded YAML/JSON), so replays need no fabric8 objects.
 *
 * <p>Required: {@code kind} (one of the four), {@code metadata.name}, {@code metadata.namespace},
 * {@code metadata.uid}; SandboxWarmPool {@code spec.sandboxTemplateRef.name}; SandboxClaim {@code
 * spec.warmPoolRef.name}; SandboxTemplate {@code spec.podTemplate}. {@code apiVersion}, when
 * present, must be the kind's v1beta1 apiVersion. Optional fields with the wrong shape (a string
 * where a number belongs, an unparsable timestamp) are errors too. Every error is a {@link
 * MalformedObjectException} whose message is one line, e.g. {@code SandboxClaim demo/c1:
 * spec.warmPoolRef.name: missing}.
 *
 * <p>Timestamps are RFC3339 with optional fraction (RFC3339Nano) and any offset; the annotation
 * value {@code unknown} (written by upstream when the ready time was lost) reads as null.
 */
public final class ObjectViews {
  private ObjectViews() {}

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final String UNKNOWN = "unknown";

  /** Converts a fabric8 object; see {@link #toView(Map)}. */
  public static ObjectView toView(GenericKubernetesResource r) {
    return toView(asMap(r));
  }

  /**
   * Converts the JSON tree of one object.
   *
   * @param object the object as a JSON tree (not modified)
   * @return a {@link TemplateView}, {@link PoolView}, {@link SandboxView} or {@link ClaimView}
   * @throws MalformedObjectException when a required field is missing or a field has the wrong
   *     shape
   */
  public static ObjectView toView(Map<String, ?> object) {
    Reader r = new Reader(object);
    Kind kind = r.kind();
    ObjectRef ref = r.ref();
    String uid = r.requiredString("metadata", "uid");
    String rv = r.string("metadata", "resourceVersion");
    return switch (kind) {
      case SANDBOX_TEMPLATE -> template(r, ref, uid, rv);
      case SANDBOX_WARM_POOL -> pool(r, ref, uid, rv);
      case SANDBOX -> sandbox(r, ref, uid, rv);
      case SANDBOX_CLAIM -> claim(r, ref, uid, rv);
    };
  }

  /**
   * Checks a manifest document (no server fields) with the same rules as {@link #toView(Map)},
   * except that {@code metadata.uid} is not required. Used by the manifest applier.
   *
   * @return the object's kind
   * @throws MalformedObjectException as {@link #toView(Map)}
   */
  public static Kind validate(Map<String, ?> object) {
    Reader r = new Reader(object);
    Kind kind = r.kind();
    ObjectRef ref = r.ref();
    switch (kind) {
      case SANDBOX_TEMPLATE -> template(r, ref, "-", null);
      case SANDBOX_WARM_POOL -> pool(r, ref, "-", null);
      case SANDBOX -> sandbox(r, ref, "-", null);
      case SANDBOX_CLAIM -> claim(r, ref, "-", null);
    }
    return kind;
  }

  /** The newest server timestamp on a fabric8 object; see {@link #serverTime(Map)}. */
  public static Instant serverTime(GenericKubernetesResource r) {
    return serverTime(asMap(r));
  }

  /**
   * The newest server timestamp the object carries, for watch lag (receive time − this): {@code
   * metadata.creationTimestamp}, {@code metadata.deletionTimestamp}, every {@code
   * metadata.managedFields[].time} (the apiserver stamps each write there, so status-only updates
   * such as a pool's readyReplicas carry their change time too), every {@code
   * status.conditions[].lastTransitionTime}, and the annotations {@code
   * agents.x-k8s.io/controller-first-observed-at} and {@code agents.x-k8s.io/claim-first-ready-at}.
   * Lenient: values that do not parse are ignored (validation is {@link #toView(Map)}'s job).
   *
   * @return the newest of them, or null when the object carries none
   */
  public static Instant serverTime(Map<String, ?> object) {
    List<Object> candidates = new ArrayList<>();
    if (object.get("metadata") instanceof Map<?, ?> md) {
      candidates.add(md.get("creationTimestamp"));
      candidates.add(md.get("deletionTimestamp"));
      if (md.get("annotations") instanceof Map<?, ?> ann) {
        candidates.add(ann.get(Labels.CONTROLLER_FIRST_OBSERVED_AT));
        candidates.add(ann.get(Labels.CLAIM_FIRST_READY_AT));
      }
      if (md.get("managedFields") instanceof List<?> mfs) {
        for (Object mf : mfs) {
          if (mf instanceof Map<?, ?> m) {
            candidates.add(m.get("time"));
          }
        }
      }
    }
    if (object.get("status") instanceof Map<?, ?> st
        && st.get("conditions") instanceof List<?> cs) {
      for (Object c : cs) {
        if (c instanceof Map<?, ?> cm) {
          candidates.add(cm.get("lastTransitionTime"));
        }
      }
    }
    Instant newest = null;
    for (Object c : candidates) {
      Instant t;
      try {
        t = c == null ? null : toInstant(c);
      } catch (DateTimeParseException e) {
        t = null;
      }
      if (t != null && (newest == null || t.isAfter(newest))) {
        newest = t;
      }
    }
    return newest;
  }

  /**
   * Parses an RFC3339 / RFC3339Nano timestamp ({@code 2026-09-01T10:05:00Z}, {@code
   * 2026-09-01T10:05:00.420Z}, {@code 2026-09-01T12:05:00+02:00}).
   *
   * @return the instant, or null for null and for the literal {@code unknown}
   * @throws DateTimeParseException for anything else
   */
  public static Instant parseTime(String value) {
    if (value == null || UNKNOWN.equals(value)) {
      return null;
    }
    return Rfc3339.parse("timestamp", value);
  }

  /** The JSON tree of a fabric8 object (a fresh mutable map). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(GenericKubernetesResource r) {
    return SERIALIZATION.convertValue(r, Map.class);
  }

  private static Instant toInstant(Object v) {
    if (v instanceof String s) {
      return parseTime(s);
    }
    if (v instanceof Date d) {
      return d.toInstant();
    }
    if (v instanceof Instant i) {
      return i;
    }
    if (v instanceof OffsetDateTime o) {
      return o.toInstant();
    }
    throw new DateTimeParseException("not a timestamp", String.valueOf(v), 0);
  }

  private static TemplateView template(Reader r, ObjectRef ref, String uid, String rv) {
    Map<String, ?> spec = r.map("spec");
    if (r.map("spec", "podTemplate") == null) {
      throw r.error("spec.podTemplate", "missing", "missing");
    }
    return new TemplateView(
        ref,
        uid,
        rv,
        r.longOr(0L, "metadata", "generation"),
        Blueprints.digest(spec),
        r.string("spec", "envVarsInjectionPolicy"),
        r.string("spec", "volumeClaimTemplatesPolicy"),
        Blueprints.images(spec),
        interned(spec));
  }

  /**
   * Canonical blueprints are shared between objects with the same digest (pool members of one
   * template generation), so keeping them costs one map per distinct blueprint, not per member.
   * Bounded: beyond {@value #BLUEPRINT_CACHE} distinct blueprints the oldest is forgotten (a later
   * member then gets its own copy; correctness does not depend on sharing).
   */
  private static final int BLUEPRINT_CACHE = 1024;

  private static final Map<String, Map<String, Object>> BLUEPRINTS =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Map<String, Object>> e) {
              return size() > BLUEPRINT_CACHE;
            }
          });

  private static Map<String, Object> interned(Map<String, ?> spec) {
    String digest = Blueprints.digest(spec);
    return BLUEPRINTS.computeIfAbsent(
        digest, d -> java.util.Collections.unmodifiableMap(Blueprints.canonical(spec)));
  }

  /** Reserved agents.x-k8s.io keys on metadata and pod template metadata (evidence, C10). */
  private static List<ReservedKey> reservedKeys(Reader r) {
    List<ReservedKey> out = new java.util.ArrayList<>();
    addReserved(out, "label", r.map("metadata", "labels"));
    addReserved(out, "annotation", r.map("metadata", "annotations"));
    addReserved(out, "podTemplate.label", r.map("spec", "podTemplate", "metadata", "labels"));
    addReserved(
        out, "podTemplate.annotation", r.map("spec", "podTemplate", "metadata", "annotations"));
    return out;
  }

  private static void addReserved(List<ReservedKey> out, String location, Map<String, ?> m) {
    if (m == null) {
      return;
    }
    new java.util.TreeMap<String, Object>(m)
        .forEach(
            (k, v) -> {
              if (k.startsWith(Labels.RESERVED_PREFIX)
                  || k.startsWith(Labels.RESERVED_EXTENSIONS_PREFIX)) {
                out.add(new ReservedKey(location, k, String.valueOf(v)));
              }
            });
  }

  private static PoolView pool(Reader r, ObjectRef ref, String uid, String rv) {
    String template = r.requiredString("spec", "sandboxTemplateRef", "name");
    long replicas = r.longOr(1L, "spec", "replicas");
    if (replicas < 0 || replicas > Integer.MAX_VALUE) {
      throw r.error(
          "spec.replicas", "must be between 0 and 2147483647, got " + replicas, "out of range");
    }
    return new PoolView(
        ref,
        uid,
        rv,
        r.longOr(0L, "metadata", "generation"),
        template,
        (int) replicas,
        r.string("spec", "updateStrategy", "type"),
        r.intOrNull("status", "replicas"),
        r.intOrNull("status", "readyReplicas"));
  }

  private static SandboxView sandbox(Reader r, ObjectRef ref, String uid, String rv) {
    return new SandboxView(
        ref,
        uid,
        rv,
        r.time(false, "metadata", "creationTimestamp"),
        r.controllerOwner(),
        r.label(Labels.LAUNCH_TYPE),
        r.label(Labels.CREATED_BY),
        r.annotation(Labels.SANDBOX_TEMPLATE_REF),
        r.label(Labels.WARM_POOL_SANDBOX),
        r.label(Labels.CLAIM_UID),
        Blueprints.digest(r.map("spec")),
        r.string("spec", "operatingMode"),
        r.condition("Ready"),
        r.condition("Suspended"),
        r.condition("PodScheduled"),
        r.time(false, "spec", "shutdownTime"),
        r.present("metadata", "deletionTimestamp"),
        r.label(Labels.SANDBOX_TEMPLATE_HASH),
        Blueprints.images(r.map("spec")),
        interned(r.map("spec")),
        reservedKeys(r));
  }

  private static ClaimView claim(Reader r, ObjectRef ref, String uid, String rv) {
    String pool = r.requiredString("spec", "warmPoolRef", "name");
    String sandboxName = r.annotation(Labels.SANDBOX_NAME);
    if (sandboxName == null) {
      sandboxName = r.label(Labels.SANDBOX_NAME); // legacy label form
    }
    if (sandboxName == null) {
      sandboxName = r.string("status", "sandbox", "name");
    }
    Map<String, ?> lifecycle = r.map("spec", "lifecycle");
    String policy = r.string("spec", "lifecycle", "shutdownPolicy");
    if (lifecycle != null && policy == null) {
      policy = "Retain"; // CRD default
    }
    return new ClaimView(
        ref,
        uid,
        rv,
        r.time(false, "metadata", "creationTimestamp"),
        r.annotationTime(Labels.CONTROLLER_FIRST_OBSERVED_AT),
        r.annotationTime(Labels.CLAIM_FIRST_READY_AT),
        pool,
        sandboxName,
        r.nonEmptyList("spec", "env"),
        r.nonEmptyList("spec", "volumeClaimTemplates"),
        r.label(Labels.CREATED_BY),
        r.condition("Ready"),
        r.condition("Finished"),
        policy,
        r.time(false, "spec", "lifecycle", "shutdownTime"),
        r.longOrNull("spec", "lifecycle", "ttlSecondsAfterFinished"));
  }

  /** Typed access to a JSON tree with errors that name the object and the field. */
  private static final class Reader {
    private final Map<String, ?> root;
    private String kindName = "object";
    private String refText;

    Reader(Map<String, ?> root) {
      if (root == null) {
        throw new MalformedObjectException("object", "<unnamed>", "object", "missing", "missing");
      }
      this.root = root;
      Object md = root.get("metadata");
      Object ns = md instanceof Map<?, ?> m ? m.get("namespace") : null;
      Object name = md instanceof Map<?, ?> m ? m.get("name") : null;
      String nameText = name instanceof String s && !s.isEmpty() ? s : "<unnamed>";
      this.refText = ns instanceof String s && !s.isEmpty() ? s + "/" + nameText : nameText;
      if (root.get("kind") instanceof String k && !k.isEmpty()) {
        kindName = k;
      }
    }

    Kind kind() {
      String k = string("kind");
      if (k == null || k.isEmpty()) {
        throw error("kind", "missing", "missing");
      }
      Kind kind = Kind.ofKindName(k);
      if (kind == null) {
        throw error("kind", "unknown kind '" + k + "'", "unknown kind");
      }
      String apiVersion = string("apiVersion");
      if (apiVersion != null && !apiVersion.equals(kind.apiVersion())) {
        throw error(
            "apiVersion",
            "expected '" + kind.apiVersion() + "', got '" + apiVersion + "'",
            "unsupported apiVersion");
      }
      return kind;
    }

    ObjectRef ref() {
      String name = requiredString("metadata", "name");
      String ns = requiredString("metadata", "namespace");
      return new ObjectRef(ns, name);
    }

    MalformedObjectException error(String field, String reason, String code) {
      return new MalformedObjectException(kindName, refText, field, reason, code);
    }

    /** The node at the path, null when absent; intermediate nodes must be maps. */
    Object at(String... path) {
      Object cur = root;
      for (int i = 0; i < path.length; i++) {
        if (!(cur instanceof Map<?, ?> m)) {
          throw error(
              String.join(".", List.of(path).subList(0, i)), "not an object", "not an object");
        }
        cur = m.get(path[i]);
        if (cur == null) {
          return null;
        }
      }
      return cur;
    }

    boolean present(String... path) {
      return at(path) != null;
    }

    @SuppressWarnings("unchecked")
    Map<String, ?> map(String... path) {
      Object v = at(path);
      if (v == null) {
        return null;
      }
      if (v instanceof Map<?, ?> m) {
        return (Map<String, ?>) m;
      }
      throw error(String.join(".", path), "not an object", "not an object");
    }

    String string(String... path) {
      Object v = at(path);
      if (v == null || v instanceof String) {
        return (String) v;
      }
      throw error(String.join(".", path), "not a string", "not a string");
    }

    String requiredString(String... path) {
      String v = string(path);
      if (v == null || v.isEmpty()) {
        throw error(String.join(".", path), "missing", "missing");
      }
      return v;
    }

    Long longOrNull(String... path) {
      Object v = at(path);
      if (v == null) {
        return null;
      }
      String field = String.join(".", path);
      if (!(v instanceof Number n)) {
        throw error(field, "not a number", "not a number");
      }
      double d = n.doubleValue();
      if (d != Math.rint(d) || Double.isInfinite(d)) {
        throw error(field, "not an integer", "not an integer");
      }
      return n.longValue();
    }

    long longOr(long dflt, String... path) {
      Long v = longOrNull(path);
      return v == null ? dflt : v;
    }

    Integer intOrNull(String... path) {
      Long v = longOrNull(path);
      if (v == null) {
        return null;
      }
      if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        throw error(String.join(".", path), "out of range, got " + v, "out of range");
      }
      return v.intValue();
    }

    boolean nonEmptyList(String... path) {
      Object v = at(path);
      if (v == null) {
        return false;
      }
      if (v instanceof List<?> l) {
        return !l.isEmpty();
      }
      throw error(String.join(".", path), "not a list", "not a list");
    }

    Instant time(boolean unknownAllowed, String... path) {
      return parse(String.join(".", path), at(path), unknownAllowed);
    }

    private Instant parse(String field, Object v, boolean unknownAllowed) {
      if (v == null) {
        return null;
      }
      if (UNKNOWN.equals(v) && !unknownAllowed) {
        throw error(field, "bad timestamp '" + v + "'", "bad timestamp");
      }
      try {
        return toInstant(v);
      } catch (DateTimeParseException e) {
        throw error(field, "bad timestamp '" + v + "'", "bad timestamp");
      }
    }

    String label(String key) {
      return stringEntry("labels", key);
    }

    String annotation(String key) {
      return stringEntry("annotations", key);
    }

    Instant annotationTime(String key) {
      Map<String, ?> ann = map("metadata", "annotations");
      return ann == null ? null : parse("metadata.annotations[" + key + "]", ann.get(key), true);
    }

    private String stringEntry(String mapName, String key) {
      Map<String, ?> m = map("metadata", mapName);
      Object v = m == null ? null : m.get(key);
      if (v == null || v instanceof String) {
        return (String) v;
      }
      throw error("metadata." + mapName + "[" + key + "]", "not a string", "not a string");
    }

    OwnerView controllerOwner() {
      Object refs = at("metadata", "ownerReferences");
      if (refs == null) {
        return null;
      }
      if (!(refs instanceof List<?> list)) {
        throw error("metadata.ownerReferences", "not a list", "not a list");
      }
      for (Object o : list) {
        if (o instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("controller"))) {
          return new OwnerView(str(m.get("kind")), str(m.get("name")), str(m.get("uid")));
        }
      }
      return null;
    }

    /** Condition messages are kept for evidence, trimmed to one line of at most 240 chars. */
    private static String trimMessage(Object m) {
      if (!(m instanceof String s) || s.isBlank()) {
        return null;
      }
      String one = s.strip().replaceAll("\\s+", " ");
      return one.length() <= 240 ? one : one.substring(0, 239) + "…";
    }

    private static String str(Object o) {
      return o == null ? null : String.valueOf(o);
    }

    /** The first condition of the given type in {@code status.conditions}, or null. */
    ConditionView condition(String type) {
      Object cs = at("status", "conditions");
      if (cs == null) {
        return null;
      }
      if (!(cs instanceof List<?> list)) {
        throw error("status.conditions", "not a list", "not a list");
      }
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i) instanceof Map<?, ?> c && type.equals(c.get("type"))) {
          String prefix = "status.conditions[" + i + "].";
          Object status = c.get("status");
          Object reason = c.get("reason");
          Object message = c.get("message");
          if (status != null && !(status instanceof String)) {
            throw error(prefix + "status", "not a string", "not a string");
          }
          if (reason != null && !(reason instanceof String)) {
            throw error(prefix + "reason", "not a string", "not a string");
          }
          Instant ltt = parse(prefix + "lastTransitionTime", c.get("lastTransitionTime"), false);
          return new ConditionView((String) status, (String) reason, ltt, trimMessage(message));
        }
      }
      return null;
    }
  }
}
