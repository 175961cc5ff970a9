package org.sandboxslo.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.ReservedKey;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;
import org.sandboxslo.engine.upstream.Labels;
import org.sandboxslo.engine.upstream.NameHash;

/**
 * A synthetic fleet as the collector would hand it to the engine: {@code templates} templates in
 * one namespace, one pool each with {@code membersPerPool} Ready members, and a claim stream.
 * Deterministic: the same arguments give the same events.
 *
 * <p>Every view is built the way the collector builds it from JSON: each string is a fresh object
 * (a JSON parser does not share {@code "warm"} between two Sandboxes), UIDs are UUIDs, and a member
 * carries the controller's own reserved labels (warm-pool-sandbox, template-ref-hash,
 * template-hash, launch-type, created-by; annotation sandbox-template-ref) as {@link ReservedKey}
 * evidence. Every tenth template is edited after its members were created (generation 2, a new
 * image), so its members are stale and the stale-member paths run.
 *
 * <p>Claims: claim {@code c} targets template {@code c % templates}; 9 in 10 are warm (named after
 * a pool member, so launch type comes from the member's label), 1 in 10 cold (named like the
 * claim). Latency warm {@code 150 + c % 300} ms, cold {@code 3000 + c % 5000} ms. Each claim is
 * upserted Ready and deleted at once, so the engine's object maps stay at fleet size.
 */
public final class Fleet {
  public static final Instant T0 = Instant.parse("2026-09-01T10:00:00Z");
  public static final String NAMESPACE = "bench";

  private final int templates;
  private final int membersPerPool;
  private final Map<String, Object> spec;
  private final Map<String, Object> canonical;
  private final String digest;
  private final Map<String, Object> specV2;
  private final Map<String, Object> canonicalV2;
  private final String digestV2;

  /**
   * @param templates templates (and pools), ≥ 1
   * @param membersPerPool Ready members per pool, ≥ 1
   */
  public Fleet(int templates, int membersPerPool) {
    if (templates < 1 || membersPerPool < 1) {
      throw new IllegalArgumentException(
          "templates and members per pool must be >= 1, got " + templates + ", " + membersPerPool);
    }
    this.templates = templates;
    this.membersPerPool = membersPerPool;
    this.spec = spec("registry.example/python-runtime:1.4");
    this.canonical = Blueprints.canonical(spec);
    this.digest = Blueprints.digest(spec);
    this.specV2 = spec("registry.example/python-runtime:1.5");
    this.canonicalV2 = Blueprints.canonical(specV2);
    this.digestV2 = Blueprints.digest(specV2);
  }

  private static Map<String, Object> spec(String image) {
    return Map.of(
        "podTemplate",
        Map.of(
            "spec",
            Map.of(
                "containers",
                List.of(
                    Map.of(
                        "name",
                        "main",
                        "image",
                        image,
                        "resources",
                        Map.of("requests", Map.of("cpu", "250m", "memory", "512Mi")))))));
  }

  public int templates() {
    return templates;
  }

  public int membersPerPool() {
    return membersPerPool;
  }

  /** Sandboxes the fleet tracks (pool members). */
  public long sandboxes() {
    return (long) templates * membersPerPool;
  }

  /** A fresh engine with the default configuration, the fleet applied and every kind synced. */
  public FleetEngine engine() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    applyFleet(e);
    return e;
  }

  /** Applies templates, pools, members and the template edits; returns the events applied. */
  public long applyFleet(FleetEngine e) {
    long n = 0;
    for (Kind k : Kind.values()) {
      e.apply(new FleetEvent.Synced(k, T0));
      n++;
    }
    for (int t = 0; t < templates; t++) {
      e.apply(new FleetEvent.Upserted(template(t, 1), T0, T0));
      e.apply(new FleetEvent.Upserted(pool(t), T0, T0));
      n += 2;
      for (int m = 0; m < membersPerPool; m++) {
        e.apply(new FleetEvent.Upserted(member(t, m), T0, T0.plusSeconds(3)));
        n++;
      }
    }
    for (int t = 0; t < templates; t += 10) {
      Instant at = T0.plusSeconds(60);
      e.apply(new FleetEvent.Upserted(template(t, 2), at, at));
      n++;
    }
    return n;
  }

  private static String fresh(String s) {
    return new String(s.toCharArray());
  }

  private static String uid(String kind, long i) {
    return new UUID(kind.hashCode() * 31L + 7, i).toString();
  }

  private static ObjectRef ref(String name) {
    return new ObjectRef(fresh(NAMESPACE), fresh(name));
  }

  TemplateView template(int t, long generation) {
    boolean v2 = generation > 1;
    return new TemplateView(
        ref("tpl-" + t),
        uid("t", t),
        Long.toString(10 + generation),
        generation,
        fresh(v2 ? digestV2 : digest),
        null,
        null,
        List.of(
            fresh(
                v2
                    ? "registry.example/python-runtime:1.5"
                    : "registry.example/python-runtime:1.4")),
        v2 ? canonicalV2 : canonical);
  }

  PoolView pool(int t) {
    return new PoolView(
        ref("pool-" + t),
        uid("p", t),
        "20",
        1,
        fresh("tpl-" + t),
        membersPerPool,
        fresh("OnReplenish"),
        membersPerPool,
        membersPerPool);
  }

  /** Member {@code m} of pool {@code t}, Ready 3 s after creation. */
  public SandboxView member(int t, int m) {
    String pool = "pool-" + t;
    String template = "tpl-" + t;
    Instant created = T0.plusMillis(m * 7L % 1000);
    Instant ready = created.plusSeconds(3);
    List<ReservedKey> reserved =
        List.of(
            new ReservedKey(fresh("label"), fresh(Labels.CREATED_BY), fresh("controller")),
            new ReservedKey(fresh("label"), fresh(Labels.LAUNCH_TYPE), fresh(Labels.LAUNCH_WARM)),
            new ReservedKey(fresh("label"), fresh(Labels.SANDBOX_TEMPLATE_HASH), fresh(digest)),
            new ReservedKey(
                fresh("label"), fresh(Labels.SANDBOX_TEMPLATE_REF_HASH), NameHash.of(template)),
            new ReservedKey(fresh("label"), fresh(Labels.WARM_POOL_SANDBOX), NameHash.of(pool)),
            new ReservedKey(
                fresh("annotation"), fresh(Labels.SANDBOX_TEMPLATE_REF), fresh(template)));
    return new SandboxView(
        ref(memberName(t, m)),
        uid("s", (long) t * 1_000_000 + m),
        Long.toString(100_000L + (long) t * membersPerPool + m),
        created,
        new OwnerView(fresh("SandboxWarmPool"), fresh(pool), uid("p", t)),
        fresh(Labels.LAUNCH_WARM),
        fresh("controller"),
        fresh(template),
        NameHash.of(pool),
        null,
        fresh(digest),
        fresh("Running"),
        new ConditionView(fresh("True"), fresh("DependenciesReady"), ready),
        new ConditionView(fresh("False"), fresh("NotSuspended"), ready),
        new ConditionView(fresh("True"), fresh("PodScheduled"), created.plusSeconds(1)),
        null,
        false,
        fresh(digest),
        List.of(fresh("registry.example/python-runtime:1.4")),
        canonical,
        reserved);
  }

  static String memberName(int t, int m) {
    return "pool-" + t + "-" + Integer.toString(m * 7919 + 100_000, 36);
  }

  /**
   * Claim {@code c} of a stream at {@code perSecond} claims/s from {@link #T0}: its upsert (Ready)
   * and its delete.
   */
  public FleetEvent[] claim(long c, double perSecond) {
    int t = (int) (c % templates);
    Instant seen = T0.plusNanos((long) (c * 1e9 / perSecond));
    boolean warm = c % 10 != 0;
    String name = "claim-" + c;
    String sandbox = warm ? memberName(t, (int) (c / templates % membersPerPool)) : name;
    Instant ready = seen.plusMillis(warm ? 150 + c % 300 : 3000 + c % 5000);
    ClaimView v =
        new ClaimView(
            ref(name),
            uid("c", c),
            Long.toString(1_000_000 + c),
            seen.truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
            seen,
            ready,
            fresh("pool-" + t),
            fresh(sandbox),
            false,
            false,
            fresh("python-client"),
            new ConditionView(
                fresh("True"),
                fresh("DependenciesReady"),
                ready.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)),
            null,
            fresh("Delete"),
            seen.plusSeconds(30),
            null);
    return new FleetEvent[] {
      new FleetEvent.Upserted(v, ready, ready.plusMillis(5)),
      new FleetEvent.Deleted(Kind.SANDBOX_CLAIM, v.ref(), v.uid(), seen.plusSeconds(30))
    };
  }

  /** Claims {@code [from, to)} of the stream, as one array of events (upsert, delete, ...). */
  public FleetEvent[] claims(long from, long to, double perSecond) {
    List<FleetEvent> out = new ArrayList<>((int) (2 * (to - from)));
    for (long c = from; c < to; c++) {
      FleetEvent[] e = claim(c, perSecond);
      out.add(e[0]);
      out.add(e[1]);
    }
    return out.toArray(FleetEvent[]::new);
  }

  /** The time claim {@code c} of the stream was first seen. */
  public static Instant seenAt(long c, double perSecond) {
    return T0.plusNanos((long) (c * 1e9 / perSecond));
  }

  /** Duration helper: the stream's claims in {@code d} at {@code perSecond}. */
  public static long claimsIn(Duration d, double perSecond) {
    return (long) Math.floor(d.toNanos() / 1e9 * perSecond);
  }
}
