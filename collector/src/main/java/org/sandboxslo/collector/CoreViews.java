package org.sandboxslo.collector;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.ContainerStatusView;
import org.sandboxslo.engine.model.ControllerDeploymentView;
import org.sandboxslo.engine.model.CrdView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.IdentityProbe;
import org.sandboxslo.engine.model.KubeEventView;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PodView;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.engine.upstream.SnapshotPins;

/**
 * Pure mapping of the objects outside the four agent-sandbox kinds to the engine's records: core/v1
 * {@code Pod} and {@code Event} (also events.k8s.io/v1), the controller's apps/v1 {@code
 * Deployment}, apiextensions.k8s.io/v1 {@code CustomResourceDefinition}, and the JSON body of an
 * identity probe. Input is the JSON tree ({@code Map}/{@code List}/scalars, as SnakeYAML or Jackson
 * produce it), so replays need no fabric8 objects. Safe from any thread.
 *
 * <p>Errors are {@link MalformedObjectException}s with one-line messages, e.g. {@code Pod
 * team-a/p1: metadata.uid: missing}.
 */
public final class CoreViews {
  private CoreViews() {}

  /** Whether {@link #toEvent} handles this object's {@code kind}. */
  public static boolean handles(Map<String, ?> object) {
    Object k = object == null ? null : object.get("kind");
    return k instanceof String s
        && switch (s) {
          case "Pod", "Event", "Deployment", "CustomResourceDefinition" -> true;
          default -> false;
        };
  }

  /**
   * The engine event for a watch event of one of the kinds {@link #handles} accepts.
   *
   * @param deleted the watch type was {@code DELETED}
   * @param receivedAt the console's receive time
   * @return the event, or null when there is nothing to tell the engine (a deleted Event, the
   *     Deployment of another application)
   * @throws MalformedObjectException for a missing required field or a wrong shape
   */
  public static FleetEvent toEvent(Map<String, ?> object, boolean deleted, Instant receivedAt) {
    String kind = String.valueOf(object.get("kind"));
    return switch (kind) {
      case "Pod" -> {
        PodView p = pod(object);
        yield deleted
            ? new FleetEvent.PodDeleted(p.ref(), p.uid(), receivedAt)
            : new FleetEvent.PodUpserted(p, receivedAt);
      }
      case "Event" -> deleted ? null : new FleetEvent.KubeEventSeen(event(object), receivedAt);
      case "Deployment" -> {
        ControllerDeploymentView d = deployment(object);
        yield deleted || d == null ? null : new FleetEvent.ControllerObserved(d, receivedAt);
      }
      case "CustomResourceDefinition" ->
          deleted ? null : new FleetEvent.CrdObserved(crd(object), receivedAt);
      default ->
          throw new MalformedObjectException(
              kind, "<unnamed>", "kind", "unknown kind '" + kind + "'", "unknown kind");
    };
  }

  /**
   * A core/v1 Pod. Required: {@code metadata.name}, {@code metadata.namespace}, {@code
   * metadata.uid}.
   */
  public static PodView pod(Map<String, ?> object) {
    Tree t = new Tree(object, "Pod");
    ObjectRef ref = t.ref();
    String uid = t.required("metadata", "uid");
    String sandbox = null;
    if (t.at("metadata", "ownerReferences") instanceof List<?> owners) {
      for (Object o : owners) {
        if (o instanceof Map<?, ?> m
            && Boolean.TRUE.equals(m.get("controller"))
            && "Sandbox".equals(m.get("kind"))
            && m.get("name") instanceof String n) {
          sandbox = n;
        }
      }
    }
    List<ContainerStatusView> containers = new ArrayList<>();
    containers(t, "initContainerStatuses", true, containers);
    containers(t, "containerStatuses", false, containers);
    return new PodView(
        ref,
        uid,
        t.string("metadata", "resourceVersion"),
        t.time("metadata", "creationTimestamp"),
        sandbox,
        t.stringEntry("labels", Labels.SANDBOX_NAME_HASH),
        t.string("status", "phase"),
        containers,
        t.condition("Ready"),
        t.condition("PodScheduled"),
        t.string("spec", "nodeName"),
        SnapshotPins.of(t.map("metadata", "annotations")),
        t.at("metadata", "deletionTimestamp") != null);
  }

  private static void containers(
      Tree t, String field, boolean init, List<ContainerStatusView> out) {
    Object v = t.at("status", field);
    if (v == null) {
      return;
    }
    if (!(v instanceof List<?> list)) {
      throw t.error("status." + field, "not a list", "not a list");
    }
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof Map<?, ?> c)) {
        continue;
      }
      String p = "status." + field + "[" + i + "]";
      Map<?, ?> state = c.get("state") instanceof Map<?, ?> m ? m : Map.of();
      Map<?, ?> last = c.get("lastState") instanceof Map<?, ?> m ? m : Map.of();
      Map<?, ?> waiting = state.get("waiting") instanceof Map<?, ?> m ? m : null;
      Map<?, ?> term =
          state.get("terminated") instanceof Map<?, ?> m
              ? m
              : last.get("terminated") instanceof Map<?, ?> m2 ? m2 : null;
      Object restarts = c.get("restartCount");
      if (restarts != null && !(restarts instanceof Number)) {
        throw t.error(p + ".restartCount", "not a number", "not a number");
      }
      Object exit = term == null ? null : term.get("exitCode");
      out.add(
          new ContainerStatusView(
              c.get("name") instanceof String n ? n : "container-" + i,
              init,
              Boolean.TRUE.equals(c.get("ready")),
              restarts == null ? 0 : Math.max(0, ((Number) restarts).intValue()),
              str(waiting == null ? null : waiting.get("reason")),
              trim(str(waiting == null ? null : waiting.get("message"))),
              str(term == null ? null : term.get("reason")),
              exit instanceof Number n ? n.intValue() : null,
              str(c.get("image"))));
    }
  }

  /** A core/v1 Event or an events.k8s.io/v1 Event. */
  public static KubeEventView event(Map<String, ?> object) {
    Tree t = new Tree(object, "Event");
    ObjectRef ref = t.ref();
    String kind = t.string("involvedObject", "kind");
    String name = t.string("involvedObject", "name");
    if (kind == null) {
      kind = t.string("regarding", "kind");
      name = t.string("regarding", "name");
    }
    if (kind == null || name == null) {
      throw t.error("involvedObject", "missing", "missing");
    }
    String message = t.string("message");
    if (message == null) {
      message = t.string("note");
    }
    Long count = t.longOrNull("count");
    if (count == null) {
      count = t.longOrNull("series", "count");
    }
    Instant last = t.time("lastTimestamp");
    if (last == null) {
      last = t.time("series", "lastObservedTime");
    }
    if (last == null) {
      last = t.time("eventTime");
    }
    if (last == null) {
      last = t.time("metadata", "creationTimestamp");
    }
    return new KubeEventView(
        ref,
        t.string("metadata", "uid"),
        kind,
        name,
        t.string("type"),
        t.string("reason"),
        trim(message),
        count == null ? 1 : (int) Math.min(Integer.MAX_VALUE, count),
        last);
  }

  /**
   * The controller container's command line of an apps/v1 Deployment: the container named {@code
   * manager}, {@code controller} or {@code agent-sandbox-controller}, else the first whose image
   * names agent-sandbox.
   *
   * @return the view, or null when no container looks like the agent-sandbox controller
   */
  public static ControllerDeploymentView deployment(Map<String, ?> object) {
    Tree t = new Tree(object, "Deployment");
    ObjectRef ref = t.ref();
    Object cs = t.at("spec", "template", "spec", "containers");
    if (!(cs instanceof List<?> list)) {
      return null;
    }
    Map<?, ?> chosen = null;
    for (Object o : list) {
      if (o instanceof Map<?, ?> c) {
        String n = str(c.get("name"));
        String img = str(c.get("image"));
        boolean named =
            "manager".equals(n) || "controller".equals(n) || "agent-sandbox-controller".equals(n);
        if (named || (chosen == null && img != null && img.contains("agent-sandbox"))) {
          chosen = c;
          if (named) {
            break;
          }
        }
      }
    }
    if (chosen == null) {
      return null;
    }
    List<String> args = new ArrayList<>();
    for (String f : List.of("command", "args")) {
      if (chosen.get(f) instanceof List<?> l) {
        l.forEach(x -> args.add(String.valueOf(x)));
      }
    }
    return new ControllerDeploymentView(ref, str(chosen.get("image")), args);
  }

  /** An apiextensions.k8s.io/v1 CustomResourceDefinition (cluster-scoped). */
  public static CrdView crd(Map<String, ?> object) {
    Tree t = new Tree(object, "CustomResourceDefinition");
    String name = t.required("metadata", "name");
    List<String> stored = new ArrayList<>();
    if (t.at("status", "storedVersions") instanceof List<?> l) {
      l.forEach(x -> stored.add(String.valueOf(x)));
    }
    String storage = null;
    if (t.at("spec", "versions") instanceof List<?> vs) {
      for (Object v : vs) {
        if (v instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("storage"))) {
          storage = str(m.get("name"));
        }
      }
    }
    return new CrdView(name, stored, storage);
  }

  /**
   * The JSON body of an identity probe ({@code POST /api/v1/probes}, or a replay entry): {@code
   * sandbox} ({@code "ns/name"}, or {@code namespace} + {@code name}), {@code randomSampleHash}
   * (required), optional {@code snapshot}, {@code arch}, {@code kernel}, {@code vmgenidPresent}
   * (boolean), {@code bootId}, {@code probeDelay} (seconds as a number, or {@code 800ms}, {@code
   * 2s}), {@code observedAt} (RFC3339).
   *
   * @param defaultObservedAt used when the body has no {@code observedAt} (the receive time)
   * @throws MalformedObjectException naming the field, e.g. {@code IdentityProbe team-a/s1:
   *     randomSampleHash: missing}
   */
  public static IdentityProbe probe(Map<String, ?> body, Instant defaultObservedAt) {
    if (body == null) {
      throw new MalformedObjectException(
          "IdentityProbe", "<unnamed>", "body", "missing", "missing");
    }
    Tree t = new Tree(body, "IdentityProbe");
    String sandbox = t.string("sandbox");
    ObjectRef ref;
    try {
      ref =
          sandbox != null
              ? ObjectRef.parse(sandbox)
              : new ObjectRef(t.string("namespace"), t.string("name"));
    } catch (IllegalArgumentException e) {
      throw t.error("sandbox", "expected namespace/name, got '" + sandbox + "'", "bad sandbox");
    }
    t.refText = ref.toString();
    String hash = t.required("randomSampleHash");
    Object vm = t.at("vmgenidPresent");
    if (vm != null && !(vm instanceof Boolean)) {
      throw t.error("vmgenidPresent", "not a boolean", "not a boolean");
    }
    Duration delay = null;
    Object d = t.at("probeDelay");
    if (d instanceof Number n) {
      delay = Duration.ofNanos((long) (n.doubleValue() * 1e9));
    } else if (d instanceof String s) {
      try {
        delay = Durations.parse("probeDelay", s);
      } catch (IllegalArgumentException e) {
        throw t.error("probeDelay", "bad duration '" + s + "'", "bad duration");
      }
    } else if (d != null) {
      throw t.error("probeDelay", "not a duration", "not a duration");
    }
    if (delay != null && delay.isNegative()) {
      throw t.error("probeDelay", "must be >= 0", "negative");
    }
    Instant observed = t.time("observedAt");
    return new IdentityProbe(
        ref,
        t.string("snapshot"),
        t.string("arch"),
        t.string("kernel"),
        (Boolean) vm,
        t.string("bootId"),
        hash,
        delay,
        observed != null ? observed : defaultObservedAt);
  }

  private static String str(Object o) {
    return o == null ? null : String.valueOf(o);
  }

  private static String trim(String s) {
    if (s == null || s.length() <= ContainerStatusView.MESSAGE_MAX) {
      return s;
    }
    return s.substring(0, ContainerStatusView.MESSAGE_MAX - 1) + "…";
  }

  /** Typed reads with errors that name the object and the field. */
  private static final class Tree {
    final Map<String, ?> root;
    final String kind;
    String refText;

    Tree(Map<String, ?> root, String kind) {
      this.root = root;
      this.kind = kind;
      Object md = root.get("metadata");
      Object ns = md instanceof Map<?, ?> m ? m.get("namespace") : null;
      Object name = md instanceof Map<?, ?> m ? m.get("name") : null;
      String n = name instanceof String s && !s.isEmpty() ? s : "<unnamed>";
      refText = ns instanceof String s && !s.isEmpty() ? s + "/" + n : n;
    }

    MalformedObjectException error(String field, String reason, String code) {
      return new MalformedObjectException(kind, refText, field, reason, code);
    }

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

    @SuppressWarnings("unchecked")
    Map<String, ?> map(String... path) {
      Object v = at(path);
      if (v == null || v instanceof Map<?, ?>) {
        return (Map<String, ?>) v;
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

    String required(String... path) {
      String v = string(path);
      if (v == null || v.isEmpty()) {
        throw error(String.join(".", path), "missing", "missing");
      }
      return v;
    }

    String stringEntry(String mapName, String key) {
      Map<String, ?> m = map("metadata", mapName);
      Object v = m == null ? null : m.get(key);
      return v == null ? null : String.valueOf(v);
    }

    ObjectRef ref() {
      return new ObjectRef(required("metadata", "namespace"), required("metadata", "name"));
    }

    Long longOrNull(String... path) {
      Object v = at(path);
      if (v == null) {
        return null;
      }
      if (!(v instanceof Number n)) {
        throw error(String.join(".", path), "not a number", "not a number");
      }
      return n.longValue();
    }

    Instant time(String... path) {
      Object v = at(path);
      if (v == null) {
        return null;
      }
      try {
        if (v instanceof java.util.Date d) {
          return d.toInstant();
        }
        return ObjectViews.parseTime(String.valueOf(v));
      } catch (DateTimeParseException e) {
        throw error(String.join(".", path), "bad timestamp '" + v + "'", "bad timestamp");
      }
    }

    ConditionView condition(String type) {
      Object cs = at("status", "conditions");
      if (!(cs instanceof List<?> list)) {
        return null;
      }
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i) instanceof Map<?, ?> c && type.equals(c.get("type"))) {
          Object ltt = c.get("lastTransitionTime");
          Instant at;
          try {
            at = ltt == null ? null : ObjectViews.parseTime(String.valueOf(ltt));
          } catch (DateTimeParseException e) {
            throw error(
                "status.conditions[" + i + "].lastTransitionTime",
                "bad timestamp '" + ltt + "'",
                "bad timestamp");
          }
          return new ConditionView(str(c.get("status")), str(c.get("reason")), at);
        }
      }
      return null;
    }
  }
}
