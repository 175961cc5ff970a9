package org.sandboxslo.console.api;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.LatencySummary;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.Scope;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.Totals;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.SliName;

/**
 * Maps engine snapshots to the API's JSON (Vert.x {@link JsonObject}). Conventions: durations are
 * seconds as a double with microsecond precision; "no data" is JSON {@code null} (never NaN, 0 or
 * absent); windows are keyed by {@link Durations#format} ({@code 5m}, {@code 1h}) in configured
 * order; times are RFC 3339 UTC strings.
 *
 * <p>Template item:
 *
 * <pre>{@code
 * {"namespace":"demo","name":"python-runtime","exists":true,"pools":["python-runtime-pool"],
 *  "pool":{"replicas":8,"statusReplicas":8,"statusReadyReplicas":7,"readyFraction":0.875,
 *          "members":8,"readyMembers":7,"readyCurrentMembers":7,
 *          "readyFractionCurrentTemplate":0.875,"staleMembers":0,"notReadyMembers":1},
 *  "windows":{"5m":{"warmLaunches":10,"coldLaunches":2,"warmHitRatio":0.8333,
 *                   "claimToReadySeconds":{"all":{"count":12,"p50":0.15,"p95":3.1,"p99":3.4,"max":3.5},
 *                                          "warm":{...}|null,"cold":{...}|null},
 *                   "coldStartSeconds":{...}|null,
 *                   "resume":{"attempts":0,"errors":0,"errorRatio":null,"latencySeconds":null}}},
 *  "totals":{"warmLaunches":..,"coldLaunches":..,"resumeSuccess":..,"resumeError":..,"resumeTimeout":..}}
 * }</pre>
 *
 * Pool item: {@code namespace, name, template (null when the pool names none), exists, pool,
 * windows, totals}. Namespace item: {@code namespace, templates [names], pool, windows, totals}.
 */
public final class SnapshotJson {
  private SnapshotJson() {}

  /** {@code {"at":..., "synced":bool, "items":[template items]}}. */
  public static JsonObject templates(FleetSnapshot s) {
    return list(s, s.templates());
  }

  /** {@code {"at":..., "synced":bool, "items":[pool items]}}. */
  public static JsonObject pools(FleetSnapshot s) {
    return list(s, s.pools());
  }

  /** {@code {"at":..., "synced":bool, "items":[namespace items]}}. */
  public static JsonObject namespaces(FleetSnapshot s) {
    return list(s, s.namespaces());
  }

  private static JsonObject list(FleetSnapshot s, List<SliSnapshot> items) {
    JsonArray array = new JsonArray();
    items.forEach(i -> array.add(item(i)));
    return new JsonObject()
        .put("at", s.at().toString())
        .put("synced", s.allSynced())
        .put("items", array);
  }

  /** One item, shaped by its scope (see the class comment). */
  public static JsonObject item(SliSnapshot s) {
    JsonObject o = new JsonObject().put("namespace", s.key().namespace());
    switch (s.key().scope()) {
      case TEMPLATE ->
          o.put("name", s.key().name())
              .put("exists", s.exists())
              .put("pools", new JsonArray(List.copyOf(s.related())));
      case POOL ->
          o.put("name", s.key().name())
              .put("template", s.related().isEmpty() ? null : s.related().get(0))
              .put("exists", s.exists());
      case NAMESPACE -> o.put("templates", new JsonArray(List.copyOf(s.related())));
    }
    return o.put("pool", pool(s.pool()))
        .put("windows", windows(s.windows()))
        .put("totals", totals(s.totals()));
  }

  /** The pool gauge; nullable components stay null. */
  public static JsonObject pool(PoolGauge p) {
    return new JsonObject()
        .put("replicas", p.replicas())
        .put("statusReplicas", p.statusReplicas())
        .put("statusReadyReplicas", p.statusReadyReplicas())
        .put("readyFraction", finite(p.readyFraction()))
        .put("members", p.members())
        .put("readyMembers", p.readyMembers())
        .put("readyCurrentMembers", p.readyCurrentMembers())
        .put("readyFractionCurrentTemplate", finite(p.readyFractionCurrentTemplate()))
        .put("staleMembers", p.staleMembers())
        .put("notReadyMembers", p.notReadyMembers());
  }

  /** Windows keyed by their formatted length, in the given order. */
  public static JsonObject windows(List<WindowSlis> windows) {
    JsonObject o = new JsonObject();
    for (WindowSlis w : windows) {
      o.put(Durations.format(w.window()), window(w));
    }
    return o;
  }

  /** One window's SLIs. */
  public static JsonObject window(WindowSlis w) {
    return new JsonObject()
        .put("warmLaunches", w.warmLaunches())
        .put("coldLaunches", w.coldLaunches())
        .put("warmHitRatio", finite(w.warmHitRatio()))
        .put(
            "claimToReadySeconds",
            new JsonObject()
                .put("all", latency(w.claimToReady()))
                .put("warm", latency(w.claimToReadyWarm()))
                .put("cold", latency(w.claimToReadyCold())))
        .put("coldStartSeconds", latency(w.coldStart()))
        .put(
            "resume",
            new JsonObject()
                .put("attempts", w.resumeAttempts())
                .put("errors", w.resumeErrors())
                .put("errorRatio", finite(w.resumeErrorRatio()))
                .put("latencySeconds", latency(w.resumeLatency())));
  }

  /** {@code {"count","p50","p95","p99","max"}} in seconds; {@code null} for a null summary. */
  public static JsonObject latency(LatencySummary l) {
    if (l == null) {
      return null;
    }
    return new JsonObject()
        .put("count", l.count())
        .put("p50", seconds(l.p50()))
        .put("p95", seconds(l.p95()))
        .put("p99", seconds(l.p99()))
        .put("max", seconds(l.max()));
  }

  /** Cumulative counts. */
  public static JsonObject totals(Totals t) {
    return new JsonObject()
        .put("warmLaunches", t.warmLaunches())
        .put("coldLaunches", t.coldLaunches())
        .put("resumeSuccess", t.resumeSuccess())
        .put("resumeError", t.resumeError())
        .put("resumeTimeout", t.resumeTimeout());
  }

  /**
   * Informer sync and watch lag per kind, keyed by the upstream kind name ({@code Sandbox}, {@code
   * SandboxTemplate}, {@code SandboxWarmPool}, {@code SandboxClaim}); all kinds are listed, {@code
   * false}/{@code null} when unknown (also before the first snapshot, {@code s == null}).
   *
   * @return {@code {"at":...|null, "synced":{"Sandbox":true,...}, "watchLagSeconds":{"Sandbox":
   *     {"last":0.2,"max5m":1.5}|null,...}}}
   */
  public static JsonObject informers(FleetSnapshot s) {
    JsonObject synced = new JsonObject();
    JsonObject lag = new JsonObject();
    for (Kind k : Kind.values()) {
      synced.put(k.kindName(), s != null && Boolean.TRUE.equals(s.synced().get(k)));
      FleetSnapshot.WatchLag l = s == null ? null : s.watchLag().get(k);
      lag.put(
          k.kindName(),
          l == null
              ? null
              : new JsonObject()
                  .put("last", l.last() == null ? null : seconds(l.last()))
                  .put("max5m", l.max5m() == null ? null : seconds(l.max5m())));
    }
    return new JsonObject()
        .put("at", s == null ? null : s.at().toString())
        .put("synced", synced)
        .put("watchLagSeconds", lag);
  }

  /**
   * Watch lag per kind from watch deliveries only ({@code FleetEngine#watchLag}); every kind is
   * listed, {@code null} without a sample.
   *
   * @return {@code {"Sandbox":{"lastSeconds","lastAt","max5mSeconds","samples5m",
   *     "lastDeliveryAt"}|null,...}}
   */
  public static JsonObject watchLag(Map<Kind, org.sandboxslo.engine.diagnosis.KindLag> lags) {
    JsonObject o = new JsonObject();
    for (Kind k : Kind.values()) {
      org.sandboxslo.engine.diagnosis.KindLag l = lags.get(k);
      o.put(
          k.kindName(),
          l == null
              ? null
              : new JsonObject()
                  .put("lastSeconds", l.last() == null ? null : seconds(l.last()))
                  .put("lastAt", l.lastAt() == null ? null : l.lastAt().toString())
                  .put("max5mSeconds", seconds(l.max5m()))
                  .put("samples5m", l.samples5m())
                  .put(
                      "lastDeliveryAt",
                      l.lastDeliveryAt() == null ? null : l.lastDeliveryAt().toString()));
    }
    return o;
  }

  /**
   * Suspect-stale kinds in upstream order: {@code [{"kind","since","reason"}]}, empty when none.
   */
  public static io.vertx.core.json.JsonArray suspectStale(
      Map<Kind, org.sandboxslo.engine.diagnosis.InformerHealth.Suspicion> suspects) {
    io.vertx.core.json.JsonArray a = new io.vertx.core.json.JsonArray();
    new java.util.TreeMap<>(suspects)
        .values()
        .forEach(
            s ->
                a.add(
                    new JsonObject()
                        .put("kind", s.kind().kindName())
                        .put("since", s.since().toString())
                        .put("reason", s.reason())));
    return a;
  }

  /** Ingest error counts as a JSON object keyed {@code kind/reason}, sorted by key. */
  public static JsonObject ingestErrors(Map<String, Long> errors) {
    JsonObject o = new JsonObject();
    errors.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> o.put(e.getKey(), e.getValue()));
    return o;
  }

  /** Seconds with microsecond precision, see {@link SliName#seconds}. */
  public static double seconds(Duration d) {
    return SliName.seconds(d);
  }

  /** Scope by its API path segment: {@code templates} or {@code pools}. */
  static Scope scopeOfPath(String segment) {
    return "pools".equals(segment) ? Scope.POOL : Scope.TEMPLATE;
  }

  private static Double finite(Double v) {
    return v == null || !Double.isFinite(v) ? null : v;
  }

  /**
   * A finding as JSON: kind, subject, severity, times, explanation, evidence, objects, runbook,
   * proposals.
   */
  public static JsonObject finding(org.sandboxslo.engine.finding.Finding f) {
    io.vertx.core.json.JsonArray ev = new io.vertx.core.json.JsonArray();
    for (org.sandboxslo.engine.finding.Evidence e : f.evidence()) {
      ev.add(
          new JsonObject()
              .put("name", e.name())
              .put("value", e.value())
              .put("arithmetic", e.arithmetic()));
    }
    io.vertx.core.json.JsonArray ps = new io.vertx.core.json.JsonArray();
    for (org.sandboxslo.engine.finding.Proposal p : f.proposals()) {
      ps.add(
          new JsonObject()
              .put("action", p.action())
              .put("summary", p.summary())
              .put("steps", new io.vertx.core.json.JsonArray(p.steps()))
              .put("automatic", p.automatic())
              .put("deletes", new io.vertx.core.json.JsonArray(p.deletes()))
              .put("addsCreates", p.addsCreates()));
    }
    return new JsonObject()
        .put("kind", f.kind().wireName())
        .put("subject", f.subject())
        .put("severity", f.severity().wireName())
        .put("firstSeen", f.firstSeen() == null ? null : f.firstSeen().toString())
        .put("lastSeen", f.lastSeen() == null ? null : f.lastSeen().toString())
        .put("explanation", f.explanation())
        .put("evidence", ev)
        .put("objects", new io.vertx.core.json.JsonArray(f.objects()))
        .put("runbook", "runbooks/" + f.runbook() + ".md")
        .put("proposals", ps);
  }

  /**
   * A tracked finding: {@link #finding} plus {@code id} (stable per kind and subject), {@code
   * state} (open|closed), {@code openedAt}, {@code closedAt}.
   */
  public static JsonObject finding(FindingState s) {
    return finding(s.finding())
        .put("id", findingId(s.finding()))
        .put("state", s.open() ? "open" : "closed")
        .put("openedAt", s.firstSeen().toString())
        .put("closedAt", s.closedAt() == null ? null : s.closedAt().toString());
  }

  /**
   * The id of a finding, stable for a kind and subject: kind, a dash, the 8-hex FNV-1a hash of
   * "kind subject" (e.g. {@code StalePoolMembers-3f2a9c10}).
   */
  public static String findingId(org.sandboxslo.engine.finding.Finding f) {
    return f.kind().wireName()
        + "-"
        + org.sandboxslo.engine.upstream.NameHash.of(f.kind().wireName() + " " + f.subject());
  }
}
