package org.sandboxslo.console;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.sandboxslo.console.engine.ConsoleSources;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.LatencySummary;
import org.sandboxslo.engine.sli.PoolGauge;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.Totals;
import org.sandboxslo.engine.sli.WindowSlis;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.SliName;

/**
 * The console's own Prometheus metrics, computed at scrape time from the latest {@link
 * FleetSnapshot} ({@link GaugeWithCallback}/{@link CounterWithCallback}); nothing is exported
 * before the first snapshot except {@code sandbox_slo_ingest_errors_total}. "No data" is omitted,
 * never exported as NaN. Upstream agent-sandbox exports no pool-size or resume metrics; the {@code
 * agent_sandbox_*} series below are derived by the console from objects.
 *
 * <p>Label values:
 *
 * <ul>
 *   <li>{@code namespace}, {@code warmpool_name}, {@code sandbox_template}: object names ({@code
 *       sandbox_template} is empty for a pool that names no template)
 *   <li>{@code sandbox_status} of {@code agent_sandbox_warmpool_size}: {@code ready} (Ready=True on
 *       the current template), {@code stale} (unclaimed, blueprint differs semantically from the
 *       template), {@code not_ready} (the rest: members − ready − stale). A partition: the three
 *       sum to the members observed.
 *   <li>{@code result} of {@code agent_sandbox_resume_total}: {@code success|error|timeout}
 *   <li>{@code window}: a configured window, e.g. {@code 5m}, {@code 1h}
 *   <li>{@code launch_type}: {@code all|warm|cold} ({@code warm|cold} for launch counters)
 *   <li>{@code quantile}: {@code 0.5|0.95|0.99}
 *   <li>{@code view} of {@code sandbox_slo_pool_ready_ratio}: {@code upstream}
 *       (status.readyReplicas / spec.replicas) or {@code current_template} (Ready members on the
 *       current template / spec.replicas)
 *   <li>{@code kind}: {@code Sandbox|SandboxTemplate|SandboxWarmPool|SandboxClaim} (ingest errors
 *       use the collector's kind string)
 *   <li>{@code reason}: the collector's ingest error reason
 * </ul>
 */
public final class ConsoleMetrics {
  private static final String[] QUANTILES = {"0.5", "0.95", "0.99"};
  private static final List<Function<LatencySummary, Duration>> QUANTILE_OF =
      List.of(LatencySummary::p50, LatencySummary::p95, LatencySummary::p99);

  private final PrometheusRegistry registry;
  private final ConsoleSources sources;
  private final List<Collector> collectors = new ArrayList<>();
  private io.prometheus.metrics.core.metrics.Counter dropped;

  private ConsoleMetrics(PrometheusRegistry registry, ConsoleSources sources) {
    this.registry = registry;
    this.sources = sources;
  }

  /**
   * Registers all console metrics on {@code registry}, reading {@code sources} at scrape time.
   *
   * @throws IllegalArgumentException when a metric of the same name is already registered
   */
  public static ConsoleMetrics register(PrometheusRegistry registry, ConsoleSources sources) {
    ConsoleMetrics m =
        new ConsoleMetrics(
            Objects.requireNonNull(registry, "registry"),
            Objects.requireNonNull(sources, "sources"));
    m.registerAll();
    return m;
  }

  /** Removes the metrics from the registry. */
  public void unregister() {
    collectors.forEach(registry::unregister);
    collectors.clear();
  }

  /**
   * Counts one item the console dropped to bound caller-added state ({@code
   * sandbox_slo_dropped_total{kind, reason}}; see {@link org.sandboxslo.console.api.DropCounter}).
   */
  public void dropped(String kind, String reason) {
    io.prometheus.metrics.core.metrics.Counter c = dropped;
    if (c != null) {
      c.labelValues(kind, reason).inc();
    }
  }

  private void registerAll() {
    dropped =
        io.prometheus.metrics.core.metrics.Counter.builder()
            .name("sandbox_slo_dropped_total")
            .help(
                "Caller-added items the console dropped to stay within its memory caps, by kind"
                    + " (alert|stream-client|idempotency-key) and reason (cap|oversized)")
            .labelNames("kind", "reason")
            .build();
    add(dropped);
    gauge(
        "agent_sandbox_warmpool_size",
        null,
        "SandboxWarmPool members observed by the console, by status (ready|stale|not_ready);"
            + " derived by the console, upstream exports no pool size",
        new String[] {"namespace", "warmpool_name", "sandbox_template", "sandbox_status"},
        (s, cb) -> {
          for (SliSnapshot p : s.pools()) {
            PoolGauge g = p.pool();
            int ready = g.readyCurrentMembers();
            int stale = g.staleMembers();
            int notReady = Math.max(0, g.members() - ready - stale);
            String[] l = poolLabels(p);
            cb.call(ready, l[0], l[1], l[2], "ready");
            cb.call(stale, l[0], l[1], l[2], "stale");
            cb.call(notReady, l[0], l[1], l[2], "not_ready");
          }
        });
    gauge(
        "agent_sandbox_warmpool_replicas",
        null,
        "SandboxWarmPool spec.replicas (desired members)",
        new String[] {"namespace", "warmpool_name", "sandbox_template"},
        (s, cb) -> {
          for (SliSnapshot p : s.pools()) {
            cb.call(p.pool().replicas(), poolLabels(p));
          }
        });
    counter(
        "agent_sandbox_resume_total",
        "Resumes (operatingMode Suspended to Running) that ended, by result (success|error|timeout),"
            + " per SandboxTemplate; derived by the console from conditions",
        new String[] {"namespace", "sandbox_template", "result"},
        (s, cb) -> {
          for (SliSnapshot t : s.templates()) {
            Totals x = t.totals();
            String ns = t.key().namespace();
            String name = t.key().name();
            cb.call(x.resumeSuccess(), ns, name, "success");
            cb.call(x.resumeError(), ns, name, "error");
            cb.call(x.resumeTimeout(), ns, name, "timeout");
          }
        });
    gauge(
        "sandbox_slo_warm_hit_ratio",
        Unit.RATIO,
        "Warm-hit ratio: warm launches / (warm + cold launches) of claims that became Ready in the"
            + " window; absent when the window has no launch",
        new String[] {"namespace", "sandbox_template", "window"},
        (s, cb) -> {
          for (SliSnapshot t : s.templates()) {
            for (WindowSlis w : t.windows()) {
              if (w.warmHitRatio() != null && Double.isFinite(w.warmHitRatio())) {
                cb.call(
                    w.warmHitRatio(),
                    t.key().namespace(),
                    t.key().name(),
                    Durations.format(w.window()));
              }
            }
          }
        });
    gauge(
        "sandbox_slo_claim_to_ready_quantile_seconds",
        Unit.SECONDS,
        "Claim-to-ready latency quantiles (SandboxClaim first seen to Ready) over the window, by"
            + " launch type (all|warm|cold); from HdrHistogram sketches, absent without claims",
        new String[] {"namespace", "sandbox_template", "window", "launch_type", "quantile"},
        (s, cb) -> {
          for (SliSnapshot t : s.templates()) {
            for (WindowSlis w : t.windows()) {
              String win = Durations.format(w.window());
              quantiles(cb, w.claimToReady(), t.key().namespace(), t.key().name(), win, "all");
              quantiles(cb, w.claimToReadyWarm(), t.key().namespace(), t.key().name(), win, "warm");
              quantiles(cb, w.claimToReadyCold(), t.key().namespace(), t.key().name(), win, "cold");
            }
          }
        });
    counter(
        "sandbox_slo_claim_launches_total",
        "Claims that became Ready since the console started, by launch type (warm|cold)",
        new String[] {"namespace", "sandbox_template", "launch_type"},
        (s, cb) -> {
          for (SliSnapshot t : s.templates()) {
            cb.call(t.totals().warmLaunches(), t.key().namespace(), t.key().name(), "warm");
            cb.call(t.totals().coldLaunches(), t.key().namespace(), t.key().name(), "cold");
          }
        });
    counter(
        "sandbox_slo_eligible_claim_launches_total",
        "Claims that set neither env nor volumeClaimTemplates (a pool could serve them) that became"
            + " Ready since the console started, by launch type (warm|cold); the warm-hit SLO counts these",
        new String[] {"namespace", "sandbox_template", "launch_type"},
        (s, cb) -> {
          for (SliSnapshot t : s.templates()) {
            cb.call(t.totals().eligibleWarmLaunches(), t.key().namespace(), t.key().name(), "warm");
            cb.call(t.totals().eligibleColdLaunches(), t.key().namespace(), t.key().name(), "cold");
          }
        });
    add(new ClaimToReadyHistogram());
    gauge(
        "sandbox_slo_refill_stalled",
        null,
        "1 while the SandboxWarmPool is below spec.replicas and created no member for longer than"
            + " expected (finding RefillStalled), else 0",
        new String[] {"namespace", "warmpool_name", "sandbox_template"},
        (s, cb) -> {
          java.util.Set<String> stalled = new java.util.HashSet<>();
          for (FindingState f : sources.findings()) {
            if (f.open()
                && f.finding().kind() == org.sandboxslo.engine.finding.FindingKind.REFILL_STALLED) {
              stalled.add(f.finding().subject());
            }
          }
          for (SliSnapshot p : s.pools()) {
            String[] l = poolLabels(p);
            cb.call(stalled.contains("SandboxWarmPool " + l[0] + "/" + l[1]) ? 1 : 0, l);
          }
        });
    gauge(
        "sandbox_slo_expired_claims",
        null,
        "SandboxClaims kept after expiry, by kind: retained_expired (Ready=False/ClaimExpired under"
            + " shutdownPolicy Retain) or finished_never_expiring (Finished for 24 h without"
            + " spec.lifecycle)",
        new String[] {"namespace", "kind"},
        (s, cb) -> {
          for (Map.Entry<String, long[]> e : sources.claimHygiene().entrySet()) {
            cb.call(e.getValue()[0], e.getKey(), "retained_expired");
            cb.call(e.getValue()[1], e.getKey(), "finished_never_expiring");
          }
        });
    gauge(
        "sandbox_slo_findings",
        null,
        "Open findings (diagnoses) by kind and severity (info|ticket|high|page|critical)",
        new String[] {"kind", "severity"},
        (s, cb) -> {
          Map<String, Integer> n = new java.util.TreeMap<>();
          for (FindingState f : sources.findings()) {
            if (f.open()) {
              n.merge(
                  f.finding().kind().wireName() + " " + f.finding().severity().wireName(),
                  1,
                  Integer::sum);
            }
          }
          n.forEach(
              (k, v) -> {
                String[] parts = k.split(" ");
                cb.call(v, parts[0], parts[1]);
              });
        });
    gauge(
        "sandbox_slo_pool_ready_ratio",
        Unit.RATIO,
        "SandboxWarmPool ready fraction by view: upstream (status.readyReplicas / spec.replicas)"
            + " or current_template (Ready members on the current template / spec.replicas);"
            + " draining below 0.2; absent when spec.replicas is 0 or there is no status",
        new String[] {"namespace", "warmpool_name", "sandbox_template", "view"},
        (s, cb) -> {
          for (SliSnapshot p : s.pools()) {
            String[] l = poolLabels(p);
            Double up = p.pool().readyFraction();
            Double cur = p.pool().readyFractionCurrentTemplate();
            if (up != null && Double.isFinite(up)) {
              cb.call(up, l[0], l[1], l[2], "upstream");
            }
            if (cur != null && Double.isFinite(cur)) {
              cb.call(cur, l[0], l[1], l[2], "current_template");
            }
          }
        });
    gauge(
        "sandbox_slo_cold_start_seconds",
        Unit.SECONDS,
        "Cold-start (refill) latency quantiles: pool member created to member Ready, 1 s"
            + " resolution; absent when no member became Ready in the window",
        new String[] {"namespace", "sandbox_template", "window", "quantile"},
        (s, cb) -> {
          for (SliSnapshot t : s.templates()) {
            for (WindowSlis w : t.windows()) {
              LatencySummary c = w.coldStart();
              if (c != null) {
                for (int i = 0; i < QUANTILES.length; i++) {
                  cb.call(
                      SliName.seconds(QUANTILE_OF.get(i).apply(c)),
                      t.key().namespace(),
                      t.key().name(),
                      Durations.format(w.window()),
                      QUANTILES[i]);
                }
              }
            }
          }
        });
    gauge(
        "sandbox_slo_stale_members",
        null,
        "Unclaimed SandboxWarmPool members whose blueprint differs semantically from the current"
            + " SandboxTemplate",
        new String[] {"namespace", "warmpool_name", "sandbox_template"},
        (s, cb) -> {
          for (SliSnapshot p : s.pools()) {
            cb.call(p.pool().staleMembers(), poolLabels(p));
          }
        });
    gauge(
        "sandbox_slo_informer_synced",
        null,
        "1 when the informer of the kind has reported its initial sync, else 0",
        new String[] {"kind"},
        (s, cb) -> {
          for (Kind k : Kind.values()) {
            cb.call(Boolean.TRUE.equals(s.synced().get(k)) ? 1 : 0, k.kindName());
          }
        });
    gauge(
        "sandbox_slo_watch_lag_seconds",
        Unit.SECONDS,
        "Watch lag of the kind: receive time minus the newest server time on the object, of the"
            + " last event that carried a newer server time",
        new String[] {"kind"},
        (s, cb) -> {
          for (Kind k : Kind.values()) {
            FleetSnapshot.WatchLag lag = s.watchLag().get(k);
            if (lag != null && lag.last() != null) {
              cb.call(SliName.seconds(lag.last()), k.kindName());
            }
          }
        });
    CounterWithCallback ingest =
        CounterWithCallback.builder()
            .name("sandbox_slo_ingest_errors_total")
            .help("Objects or events the collector could not ingest, by kind and reason")
            .labelNames("kind", "reason")
            .callback(
                cb -> {
                  Map<String, Long> errors = sources.ingestErrors();
                  if (errors == null) {
                    return;
                  }
                  errors.forEach(
                      (key, n) -> {
                        int slash = key.indexOf('/');
                        String kind = slash < 0 ? key : key.substring(0, slash);
                        String reason = slash < 0 ? "" : key.substring(slash + 1);
                        cb.call(n, kind, reason);
                      });
                })
            .build();
    add(ingest);
  }

  /**
   * {@code sandbox_slo_claim_to_ready_seconds}: a classic histogram of claim-to-ready latency per
   * template and launch type (buckets {@link Totals#LATENCY_BUCKETS_SECONDS} + +Inf), cumulative
   * since start, built from the engine totals at scrape time.
   */
  private final class ClaimToReadyHistogram implements Collector {
    @Override
    public MetricSnapshot collect() {
      io.prometheus.metrics.model.snapshots.HistogramSnapshot.Builder b =
          io.prometheus.metrics.model.snapshots.HistogramSnapshot.builder()
              .name("sandbox_slo_claim_to_ready_seconds")
              .help(
                  "Claim-to-ready latency (SandboxClaim first seen to Ready) since the console started,"
                      + " by launch type (warm|cold)")
              .unit(Unit.SECONDS);
      FleetSnapshot s = sources.snapshot();
      if (s != null) {
        List<Double> bounds = new ArrayList<>(Totals.LATENCY_BUCKETS_SECONDS);
        bounds.add(Double.POSITIVE_INFINITY);
        for (SliSnapshot t : s.templates()) {
          Totals x = t.totals();
          point(b, bounds, x.claimToReadyWarm(), x.claimToReadyWarmSumSeconds(), t, "warm");
          point(b, bounds, x.claimToReadyCold(), x.claimToReadyColdSumSeconds(), t, "cold");
        }
      }
      return b.build();
    }

    private void point(
        io.prometheus.metrics.model.snapshots.HistogramSnapshot.Builder b,
        List<Double> bounds,
        List<Long> counts,
        double sum,
        SliSnapshot t,
        String launchType) {
      if (counts.size() != bounds.size()) {
        return;
      }
      b.dataPoint(
          io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot
              .builder()
              .classicHistogramBuckets(
                  io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets.of(bounds, counts))
              .sum(sum)
              .labels(
                  io.prometheus.metrics.model.snapshots.Labels.of(
                      "launch_type",
                      launchType,
                      "namespace",
                      t.key().namespace(),
                      "sandbox_template",
                      t.key().name()))
              .build());
    }

    @Override
    public String getPrometheusName() {
      return "sandbox_slo_claim_to_ready_seconds";
    }
  }

  private static void quantiles(
      GaugeWithCallback.Callback cb,
      LatencySummary l,
      String ns,
      String template,
      String window,
      String launchType) {
    if (l == null) {
      return;
    }
    for (int i = 0; i < QUANTILES.length; i++) {
      cb.call(
          SliName.seconds(QUANTILE_OF.get(i).apply(l)),
          ns,
          template,
          window,
          launchType,
          QUANTILES[i]);
    }
  }

  private static String[] poolLabels(SliSnapshot p) {
    String template = p.related().isEmpty() ? "" : p.related().get(0);
    return new String[] {p.key().namespace(), p.key().name(), template};
  }

  private void gauge(
      String name,
      Unit unit,
      String help,
      String[] labels,
      BiConsumer<FleetSnapshot, GaugeWithCallback.Callback> body) {
    GaugeWithCallback.Builder b =
        GaugeWithCallback.builder()
            .name(name)
            .help(help)
            .labelNames(labels)
            .callback(
                cb -> {
                  FleetSnapshot s = sources.snapshot();
                  if (s != null) {
                    body.accept(s, cb);
                  }
                });
    if (unit != null) {
      b.unit(unit);
    }
    add(b.build());
  }

  private void counter(
      String name,
      String help,
      String[] labels,
      BiConsumer<FleetSnapshot, CounterWithCallback.Callback> body) {
    add(
        CounterWithCallback.builder()
            .name(name)
            .help(help)
            .labelNames(labels)
            .callback(
                cb -> {
                  FleetSnapshot s = sources.snapshot();
                  if (s != null) {
                    body.accept(s, cb);
                  }
                })
            .build());
  }

  private void add(Collector c) {
    registry.register(c);
    collectors.add(c);
  }
}
