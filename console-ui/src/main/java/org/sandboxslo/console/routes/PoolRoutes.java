package org.sandboxslo.console.routes;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.Json;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.engine.finding.PoolSizing;
import org.sandboxslo.engine.inspect.FieldDiff;
import org.sandboxslo.engine.inspect.MemberDetail;
import org.sandboxslo.engine.inspect.MemberState;
import org.sandboxslo.engine.inspect.PoolDetail;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;

/**
 * {@code GET /api/v1/pools/{ns}/{name}/members}: the members of one SandboxWarmPool as the engine
 * holds them ({@code FleetEngine.poolDetail}) plus the sizing arithmetic of the pool page.
 *
 * <pre>{@code
 * {"namespace","name","template","templateKnown","templateGeneration","templateImages":[..],
 *  "replicas","updateStrategy","at",
 *  "counts":{"ready","pending","stale","unschedulable","claimed"},
 *  "items":[{"name","uid","state":"ready|pending|stale|unschedulable|claimed","ready","stale",
 *            "claim","createdAt","ageSeconds","readyAt","reason","templateGeneration",
 *            "olderThanGeneration","images":[..],"differences":[{"path","member","template"}]}],
 *  "sizing":{"window","claims","claimsPerSecond","refillP95Seconds","replicasNeeded","pools",
 *            "replicasPerPool","refillRatePerPool","arithmetic","replicas","undersized"}|null,
 *  "sizingReason": null | why sizing is absent}
 * }</pre>
 *
 * 404 naming {@code SandboxWarmPool} for an unknown pool; 503 before the first snapshot.
 */
public final class PoolRoutes {
  private PoolRoutes() {}

  public static void mount(Router router, Vertx vertx, ConsoleSources sources, Clock clock) {
    router
        .get("/api/v1/pools/:ns/:name/members")
        .handler(ctx -> members(ctx, vertx, sources, clock));
  }

  private static void members(
      RoutingContext ctx, Vertx vertx, ConsoleSources sources, Clock clock) {
    FleetSnapshot snap = sources.snapshot();
    if (snap == null) {
      throw ApiException.notReady("no fleet snapshot has been computed yet");
    }
    ObjectRef ref = new ObjectRef(ctx.pathParam("ns"), ctx.pathParam("name"));
    Future<PoolDetail> detail = sources.call(e -> e.poolDetail(ref));
    Json.reply(
        ctx,
        detail.map(
            d -> {
              if (d == null) {
                throw ApiException.notFound("name", "no SandboxWarmPool " + ref + " is known");
              }
              return json(d, poolSnapshot(snap, ref), clock.instant());
            }));
  }

  private static SliSnapshot poolSnapshot(FleetSnapshot s, ObjectRef ref) {
    for (SliSnapshot p : s.pools()) {
      if (p.key().namespace().equals(ref.namespace()) && p.key().name().equals(ref.name())) {
        return p;
      }
    }
    return null;
  }

  static JsonObject json(PoolDetail d, SliSnapshot pool, Instant now) {
    JsonObject counts = new JsonObject();
    for (MemberState st : MemberState.values()) {
      counts.put(st.wireName(), d.count(st));
    }
    JsonArray items = new JsonArray();
    for (MemberDetail m : d.members()) {
      JsonArray diffs = new JsonArray();
      for (FieldDiff f : m.differences()) {
        diffs.add(
            new JsonObject()
                .put("path", f.path())
                .put("member", f.member())
                .put("template", f.template()));
      }
      items.add(
          new JsonObject()
              .put("name", m.name())
              .put("uid", m.uid())
              .put("state", m.state().wireName())
              .put("ready", m.ready())
              .put("stale", m.stale())
              .put("claim", m.claim())
              .put("createdAt", Json.time(m.createdAt()))
              .put(
                  "ageSeconds",
                  m.createdAt() == null
                      ? null
                      : Math.max(0, Duration.between(m.createdAt(), now).toSeconds()))
              .put("readyAt", Json.time(m.readyAt()))
              .put("reason", m.reason())
              .put("templateGeneration", m.templateGeneration())
              .put("olderThanGeneration", m.olderThanGeneration())
              .put("images", new JsonArray(m.images()))
              .put("differences", diffs));
    }
    JsonObject out =
        new JsonObject()
            .put("namespace", d.pool().namespace())
            .put("name", d.pool().name())
            .put("template", d.templateName())
            .put("templateKnown", d.templateKnown())
            .put("templateGeneration", d.templateGeneration())
            .put("templateImages", new JsonArray(d.templateImages()))
            .put("replicas", d.replicas())
            .put("updateStrategy", d.updateStrategy())
            .put("at", now.toString())
            .put("counts", counts)
            .put("items", items);
    sizing(out, pool, d.replicas());
    return out;
  }

  /**
   * The diagnosis' sizing rule on the pool's first window: claims/s = launches / window, refill p95
   * = member created → Ready p95 (at least 1 s: object times have 1 s resolution), {@link
   * PoolSizing#advise} without headroom.
   */
  static void sizing(JsonObject out, SliSnapshot pool, int replicas) {
    WindowSlis w = pool == null || pool.windows().isEmpty() ? null : pool.windows().get(0);
    String why = null;
    if (w == null) {
      why = "the pool has no SLI windows yet";
    } else if (w.warmLaunches() + w.coldLaunches() == 0) {
      why = "no claims were served from this pool in the last " + Durations.format(w.window());
    } else if (w.coldStart() == null) {
      why = "no member refilled in the last " + Durations.format(w.window());
    }
    if (why != null) {
      out.put("sizing", null).put("sizingReason", why);
      return;
    }
    long claims = w.warmLaunches() + w.coldLaunches();
    double rate = (double) claims / w.window().toSeconds();
    double p95 = Math.max(1.0, w.coldStart().p95().toNanos() / 1e9);
    PoolSizing.Advice a = PoolSizing.advise(rate, p95, 0, 0, 0);
    out.put(
            "sizing",
            new JsonObject()
                .put("window", Durations.format(w.window()))
                .put("claims", claims)
                .put("claimsPerSecond", rate)
                .put("refillP95Seconds", p95)
                .put("replicasNeeded", a.replicas())
                .put("pools", a.pools())
                .put("replicasPerPool", a.replicasPerPool())
                .put("refillRatePerPool", a.refillRatePerPool())
                .put(
                    "arithmetic",
                    "claims/s = "
                        + claims
                        + " / "
                        + w.window().toSeconds()
                        + " s; "
                        + a.arithmetic())
                .put("replicas", replicas)
                .put("undersized", replicas < a.replicas()))
        .put("sizingReason", null);
  }
}
