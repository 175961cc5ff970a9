package org.sandboxslo.server.otel;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.SummaryPointData;
import io.opentelemetry.sdk.metrics.data.ValueAtQuantile;
import io.opentelemetry.sdk.metrics.export.MetricProducer;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableDoublePointData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableGaugeData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableHistogramData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableHistogramPointData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableMetricData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableSumData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableSummaryData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableSummaryPointData;
import io.opentelemetry.sdk.metrics.internal.data.ImmutableValueAtQuantile;
import io.opentelemetry.sdk.resources.Resource;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The Prometheus registry that {@code /metrics} serves, as OpenTelemetry metric data, so the same
 * series leave by OTLP ({@link OtlpExport}). client_java's own OpenTelemetry exporter is not
 * available to this build, so this is the bridge; it uses the SDK's immutable data classes.
 *
 * <p>Mapping (cumulative temporality; start time = the counter's created timestamp, else the
 * producer's start): counter → monotonic sum named without {@code _total}; gauge, unknown → gauge;
 * info → gauge 1 with the info labels; state set → gauge 1/0 per state with label {@code
 * <metric>=<state>}; classic histogram → histogram (bucket counts per bucket, bounds without {@code
 * +Inf}); summary → summary. Labels become string attributes; the unit is the metadata's.
 * Native-only histograms are skipped (none are registered here).
 */
final class PrometheusMetricProducer implements MetricProducer {
  private static final InstrumentationScopeInfo SCOPE =
      InstrumentationScopeInfo.create("org.sandboxslo.console.prometheus");

  private final PrometheusRegistry registry;
  private final Clock clock;
  private final long startNanos;

  PrometheusMetricProducer(PrometheusRegistry registry, Clock clock) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.startNanos = nanos(clock.millis());
  }

  @Override
  public Collection<MetricData> produce(Resource resource) {
    long now = nanos(clock.millis());
    List<MetricData> out = new ArrayList<>();
    for (MetricSnapshot s : registry.scrape()) {
      MetricData d = convert(resource, s, now);
      if (d != null) {
        out.add(d);
      }
    }
    return out;
  }

  private MetricData convert(Resource r, MetricSnapshot s, long now) {
    MetricMetadata m = s.getMetadata();
    String name = m.getName();
    String help = m.getHelp() == null ? "" : m.getHelp();
    String unit = m.hasUnit() ? m.getUnit().toString() : "";
    if (s instanceof CounterSnapshot c) {
      List<DoublePointData> points = new ArrayList<>();
      for (CounterSnapshot.CounterDataPointSnapshot p : c.getDataPoints()) {
        points.add(
            ImmutableDoublePointData.create(
                start(p), now, attributes(p.getLabels()), p.getValue()));
      }
      return ImmutableMetricData.createDoubleSum(
          r,
          SCOPE,
          name,
          help,
          unit,
          ImmutableSumData.create(true, AggregationTemporality.CUMULATIVE, points));
    }
    if (s instanceof GaugeSnapshot g) {
      List<DoublePointData> points = new ArrayList<>();
      for (GaugeSnapshot.GaugeDataPointSnapshot p : g.getDataPoints()) {
        points.add(
            ImmutableDoublePointData.create(
                startNanos, now, attributes(p.getLabels()), p.getValue()));
      }
      return gauge(r, name, help, unit, points);
    }
    if (s instanceof UnknownSnapshot u) {
      List<DoublePointData> points = new ArrayList<>();
      for (UnknownSnapshot.UnknownDataPointSnapshot p : u.getDataPoints()) {
        points.add(
            ImmutableDoublePointData.create(
                startNanos, now, attributes(p.getLabels()), p.getValue()));
      }
      return gauge(r, name, help, unit, points);
    }
    if (s instanceof InfoSnapshot i) {
      List<DoublePointData> points = new ArrayList<>();
      for (InfoSnapshot.InfoDataPointSnapshot p : i.getDataPoints()) {
        points.add(ImmutableDoublePointData.create(startNanos, now, attributes(p.getLabels()), 1));
      }
      return gauge(r, name, help, unit, points);
    }
    if (s instanceof StateSetSnapshot st) {
      List<DoublePointData> points = new ArrayList<>();
      for (StateSetSnapshot.StateSetDataPointSnapshot p : st.getDataPoints()) {
        for (int k = 0; k < p.size(); k++) {
          Attributes a = attributes(p.getLabels()).toBuilder().put(name, p.getName(k)).build();
          points.add(ImmutableDoublePointData.create(startNanos, now, a, p.isTrue(k) ? 1 : 0));
        }
      }
      return gauge(r, name, help, unit, points);
    }
    if (s instanceof HistogramSnapshot h) {
      List<HistogramPointData> points = new ArrayList<>();
      for (HistogramSnapshot.HistogramDataPointSnapshot p : h.getDataPoints()) {
        if (!p.hasClassicHistogramData()) {
          continue;
        }
        ClassicHistogramBuckets b = p.getClassicBuckets();
        List<Double> bounds = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (int k = 0; k < b.size(); k++) {
          if (!Double.isInfinite(b.getUpperBound(k))) {
            bounds.add(b.getUpperBound(k));
          }
          counts.add(b.getCount(k));
        }
        points.add(
            ImmutableHistogramPointData.create(
                start(p),
                now,
                attributes(p.getLabels()),
                p.hasSum() ? p.getSum() : 0,
                false,
                0,
                false,
                0,
                bounds,
                counts));
      }
      return ImmutableMetricData.createDoubleHistogram(
          r,
          SCOPE,
          name,
          help,
          unit,
          ImmutableHistogramData.create(AggregationTemporality.CUMULATIVE, points));
    }
    if (s instanceof SummarySnapshot su) {
      List<SummaryPointData> points = new ArrayList<>();
      for (SummarySnapshot.SummaryDataPointSnapshot p : su.getDataPoints()) {
        List<ValueAtQuantile> qs = new ArrayList<>();
        for (Quantile q : p.getQuantiles()) {
          qs.add(ImmutableValueAtQuantile.create(q.getQuantile(), q.getValue()));
        }
        points.add(
            ImmutableSummaryPointData.create(
                start(p),
                now,
                attributes(p.getLabels()),
                p.hasCount() ? p.getCount() : 0,
                p.hasSum() ? p.getSum() : 0,
                qs));
      }
      return ImmutableMetricData.createDoubleSummary(
          r, SCOPE, name, help, unit, ImmutableSummaryData.create(points));
    }
    return null;
  }

  private static MetricData gauge(
      Resource r, String name, String help, String unit, List<DoublePointData> points) {
    return ImmutableMetricData.createDoubleGauge(
        r, SCOPE, name, help, unit, ImmutableGaugeData.create(points));
  }

  private long start(DataPointSnapshot p) {
    return p.hasCreatedTimestamp() ? nanos(p.getCreatedTimestampMillis()) : startNanos;
  }

  static Attributes attributes(Labels labels) {
    AttributesBuilder b = Attributes.builder();
    for (int i = 0; i < labels.size(); i++) {
      b.put(labels.getName(i), labels.getValue(i));
    }
    return b.build();
  }

  private static long nanos(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }
}
