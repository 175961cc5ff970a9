package org.sandboxslo.console.slo;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloStatus;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.SloStore;

/**
 * JSON of an SLO ({@code GET /api/v1/slos/{id}}):
 *
 * <pre>{@code
 * {"id","name","origin":"default|file|user","sli","selector":{"namespace","sandboxTemplate"},
 *  "objective":95.0,"errorBudget":0.05,"period":"28d","latencyThreshold"?,"readyFloor"?,"eligibleOnly"?,
 *  "minEvents":10,"at","status":"ok|burning|exhausted|no data",
 *  "sliNow":0.97|null (shortest short window),"sliPeriod":0.96|null,"good","valid",
 *  "budgetConsumed":0.2|null,"budgetRemaining":0.8|null,"timeToExhaustionSeconds":12345|null,
 *  "firingTiers":["fast"],"insufficientData":true|false,
 *  "tiers":[{"tier","severity","factor","firing","insufficientData",
 *            "long":{"window","good","valid","errorRatio","burnRate","sufficient"},"short":{...}}],
 *  "exclusions":[{"id","from","to","reason","author","createdAt"}],"definition":{...as POSTed}}
 * }</pre>
 *
 * Ratios without valid events are {@code null}, never NaN. A tier is {@code insufficientData} when
 * either window has fewer than {@code minEvents} valid events (it cannot fire then).
 */
public final class SloJson {
  private SloJson() {}

  /** The JSON of one SLO (shape above). */
  public static JsonObject slo(SloReport report) {
    RegisteredSlo r = report.slo();
    SloStatus s = report.status();
    List<SloStore.StoredExclusion> exclusions = report.exclusions();
    SloDefinition d = r.definition();
    JsonObject sel = new JsonObject();
    if (d.namespace() != null) {
      sel.put("namespace", d.namespace());
    }
    if (d.sandboxTemplate() != null) {
      sel.put("sandboxTemplate", d.sandboxTemplate());
    }
    JsonObject o =
        new JsonObject()
            .put("id", d.name())
            .put("name", d.name())
            .put("origin", r.origin().wireName())
            .put("sli", d.sli().wireName())
            .put("selector", sel)
            .put("objective", d.objectivePercent())
            .put("errorBudget", d.errorBudget())
            .put("period", Durations.format(d.period()));
    switch (d.sli()) {
      case CLAIM_TO_READY_LATENCY ->
          o.put("latencyThreshold", Durations.format(d.latencyThreshold()));
      case POOL_READY_FRACTION -> o.put("readyFloor", d.readyFloor());
      case WARM_HIT_RATIO -> o.put("eligibleOnly", d.eligibleOnly());
      default -> {}
    }
    o.put("minEvents", d.minEvents())
        .put("at", s.at().toString())
        .put("status", s.state().wireName());
    SloStatus.WindowBurn shortest = null;
    JsonArray tiers = new JsonArray();
    JsonArray firing = new JsonArray();
    boolean insufficient = false;
    for (SloStatus.TierStatus t : s.tiers()) {
      boolean ins = !t.longWindow().sufficient() || !t.shortWindow().sufficient();
      insufficient |= ins;
      if (t.firing()) {
        firing.add(t.tier().tier());
      }
      if (shortest == null || t.shortWindow().window().compareTo(shortest.window()) < 0) {
        shortest = t.shortWindow();
      }
      tiers.add(
          new JsonObject()
              .put("tier", t.tier().tier())
              .put("severity", t.tier().severity())
              .put("factor", t.tier().factor())
              .put("firing", t.firing())
              .put("insufficientData", ins)
              .put("long", window(t.longWindow()))
              .put("short", window(t.shortWindow())));
    }
    Double sliNow =
        shortest == null || shortest.errorRatio() == null ? null : 1 - shortest.errorRatio();
    o.put("sliNow", sliNow)
        .put("sliPeriod", s.sli())
        .put("good", s.good())
        .put("valid", s.valid())
        .put("budgetConsumed", s.budgetConsumed())
        .put("budgetRemaining", s.budgetRemaining())
        .put(
            "timeToExhaustionSeconds",
            s.timeToExhaustion() == null ? null : s.timeToExhaustion().toSeconds())
        .put("firingTiers", firing)
        .put("insufficientData", insufficient)
        .put("tiers", tiers);
    JsonArray xs = new JsonArray();
    exclusions.forEach(x -> xs.add(exclusion(x)));
    o.put("exclusions", xs).put("definition", r.body());
    return o;
  }

  static JsonObject window(SloStatus.WindowBurn w) {
    return new JsonObject()
        .put("window", Durations.format(w.window()))
        .put("good", w.good())
        .put("valid", w.valid())
        .put("errorRatio", w.errorRatio())
        .put("burnRate", w.burnRate())
        .put("sufficient", w.sufficient());
  }

  public static JsonObject exclusion(SloStore.StoredExclusion x) {
    return new JsonObject()
        .put("id", x.id())
        .put("from", x.from().toString())
        .put("to", x.to().toString())
        .put("reason", x.reason())
        .put("author", x.author())
        .put("createdAt", x.createdAt().toString());
  }
}
