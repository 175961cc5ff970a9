package org.sandboxslo.engine;

import java.util.List;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.ReservedKey;
import org.sandboxslo.engine.model.SandboxView;

/**
 * Shares equal values between the views the engine keeps, so a tracked Sandbox costs its own fields
 * only: a JSON parser hands every object fresh copies of {@code "warm"}, {@code "SandboxWarmPool"},
 * the pool's name and UID, the template's digest, condition reasons and the controller's own
 * reserved labels, which are the same for every member of a pool.
 *
 * <p>A direct-mapped cache of {@value #SLOTS} slots per value type (512 KB: room for the repeated
 * values of ~5,000 pools): a value is looked up by its hash; when the slot holds an equal value
 * that one is returned, otherwise the value takes the slot (so the cache never grows, and a value
 * seen once costs one slot until something else needs it). Sharing never changes meaning: the
 * replaced view is equal to the original ({@link SandboxView#equals}). Engine thread only.
 */
final class Canonicalizer {
  static final int SLOTS = 1 << 16;

  private final Object[] strings = new Object[SLOTS];
  private final Object[] values = new Object[SLOTS];

  /** The shared copy of {@code s} (null stays null). */
  String string(String s) {
    return s == null ? null : slot(strings, s);
  }

  @SuppressWarnings("unchecked")
  private static <T> T slot(Object[] table, T v) {
    int h = v.hashCode();
    int i = (h ^ (h >>> 16)) & (SLOTS - 1);
    Object c = table[i];
    if (c != null && c.equals(v)) {
      return (T) c;
    }
    table[i] = v;
    return v;
  }

  private <T> T value(T v) {
    return v == null ? null : slot(values, v);
  }

  private OwnerView owner(OwnerView o) {
    if (o == null) {
      return null;
    }
    OwnerView c = value(o);
    return c != o ? c : value(new OwnerView(string(o.kind()), string(o.name()), string(o.uid())));
  }

  private ConditionView condition(ConditionView c) {
    if (c == null) {
      return null;
    }
    ConditionView v = value(c);
    if (v != c) {
      return v;
    }
    return value(
        new ConditionView(
            string(c.status()), string(c.reason()), c.lastTransitionTime(), string(c.message())));
  }

  private List<String> images(List<String> images) {
    if (images.isEmpty()) {
      return List.of();
    }
    List<String> v = value(images);
    if (v != images) {
      return v;
    }
    String[] a = new String[images.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = string(images.get(i));
    }
    return value(List.of(a));
  }

  private List<ReservedKey> reserved(List<ReservedKey> keys) {
    if (keys.isEmpty()) {
      return List.of();
    }
    List<ReservedKey> v = value(keys);
    if (v != keys) {
      return v;
    }
    ReservedKey[] a = new ReservedKey[keys.size()];
    for (int i = 0; i < a.length; i++) {
      ReservedKey k = keys.get(i);
      a[i] = new ReservedKey(string(k.location()), string(k.key()), string(k.value()));
    }
    return value(List.of(a));
  }

  /**
   * An equal view whose repeated parts are shared; its own name, UID, resourceVersion and times
   * stay as they are.
   */
  SandboxView sandbox(SandboxView s) {
    return new SandboxView(
        new ObjectRef(string(s.ref().namespace()), s.ref().name()),
        s.uid(),
        s.resourceVersion(),
        s.createdAt(),
        owner(s.owner()),
        string(s.launchType()),
        string(s.createdBy()),
        string(s.templateName()),
        string(s.warmPoolHash()),
        s.claimUid(),
        string(s.blueprintDigest()),
        string(s.operatingMode()),
        condition(s.ready()),
        condition(s.suspended()),
        condition(s.podScheduled()),
        s.shutdownTime(),
        s.deleting(),
        string(s.templateHashLabel()),
        images(s.images()),
        s.blueprint(),
        reserved(s.reservedKeys()));
  }
}
