package org.sandboxslo.server.otel;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OTLP/HTTP export of this process: spans (remediation plans and steps) in batches to {@code
 * <endpoint>/v1/traces}, and every {@code sloconsole.otlp.metrics-interval} the Prometheus registry
 * {@code /metrics} serves ({@link PrometheusMetricProducer}) to {@code <endpoint>/v1/metrics}.
 * Resource attributes: {@code service.name}, and {@code service.instance.id} = the leader-election
 * identity when one is given. A collector that is down costs a WARN from the SDK per failed export;
 * nothing is retried beyond the SDK's own retry. {@link #close()} flushes and shuts down.
 */
public final class OtlpExport implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OtlpExport.class);

  private final OpenTelemetrySdk sdk;

  private OtlpExport(OpenTelemetrySdk sdk) {
    this.sdk = sdk;
  }

  /**
   * Starts the export.
   *
   * @param config must be {@link OtlpConfig#enabled() enabled}
   * @param registry the registry exported as metrics
   * @param instanceOrNull {@code service.instance.id}, or null
   * @throws IllegalArgumentException when {@code config} has no endpoint
   */
  public static OtlpExport start(
      OtlpConfig config, PrometheusRegistry registry, String instanceOrNull) {
    Objects.requireNonNull(registry, "registry");
    if (!config.enabled()) {
      throw new IllegalArgumentException(OtlpConfig.ENDPOINT + " is not set");
    }
    var attrs =
        Attributes.builder().put(AttributeKey.stringKey("service.name"), config.serviceName());
    if (instanceOrNull != null) {
      attrs.put(AttributeKey.stringKey("service.instance.id"), instanceOrNull);
    }
    Resource resource = Resource.getDefault().merge(Resource.create(attrs.build()));
    String base = config.endpoint().toString();
    SdkTracerProvider traces =
        SdkTracerProvider.builder()
            .setResource(resource)
            .addSpanProcessor(
                BatchSpanProcessor.builder(
                        OtlpHttpSpanExporter.builder().setEndpoint(base + "/v1/traces").build())
                    .build())
            .build();
    SdkMeterProvider metrics =
        SdkMeterProvider.builder()
            .setResource(resource)
            .registerMetricProducer(new PrometheusMetricProducer(registry, Clock.systemUTC()))
            .registerMetricReader(
                PeriodicMetricReader.builder(
                        OtlpHttpMetricExporter.builder().setEndpoint(base + "/v1/metrics").build())
                    .setInterval(config.metricsInterval())
                    .build())
            .build();
    LOG.info("OTLP export to {} (traces; metrics every {})", base, config.metricsInterval());
    return new OtlpExport(
        OpenTelemetrySdk.builder().setTracerProvider(traces).setMeterProvider(metrics).build());
  }

  /** The OpenTelemetry the console traces through. */
  public OpenTelemetry openTelemetry() {
    return sdk;
  }

  /** Exports the pending spans and the current metrics now (blocking, at most 10 s). */
  public void flush() {
    sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
    sdk.getSdkMeterProvider().forceFlush().join(10, TimeUnit.SECONDS);
  }

  /** Flushes and shuts down (blocking, at most 10 s). */
  @Override
  public void close() {
    sdk.shutdown().join(10, TimeUnit.SECONDS);
  }
}
