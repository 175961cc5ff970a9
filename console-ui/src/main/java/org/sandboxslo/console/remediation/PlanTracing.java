package org.sandboxslo.console.remediation;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OpenTelemetry traces of remediation: one span {@value #PLAN_SPAN} per plan while this replica
 * executes it (from its first tick to its end, or until the replica stops or loses the leadership),
 * and one child span {@value #STEP_SPAN} per step, from its {@code step.before} audit row to its
 * {@code step.after} row. Attributes: {@code plan} (id), {@code action}, {@code subject}, {@code
 * step} (number), {@code objects} (the objects the step changes, {@code Kind ns/name}) and {@code
 * result} (the audit result; on the plan span its final state and result).
 *
 * <p>A changed object that carries the agent-sandbox annotation {@value #TRACE_CONTEXT_ANNOTATION}
 * (a JSON map of W3C Trace Context headers, e.g. {@code {"traceparent":"00-<trace>-<span>-01"}},
 * written by the agent-sandbox SDKs on the SandboxClaims they create) has that trace continued: the
 * step span links to the remote span context. A malformed annotation is ignored.
 *
 * <p>Without an SDK ({@link OpenTelemetry#noop()}) every call is a no-op. Thread-safe.
 */
final class PlanTracing {
  static final String PLAN_SPAN = "remediation.plan";
  static final String STEP_SPAN = "remediation.step";

  /** The agent-sandbox annotation carrying a caller's W3C trace context as a JSON map. */
  static final String TRACE_CONTEXT_ANNOTATION = "opentelemetry.io/trace-context";

  static final AttributeKey<String> PLAN = AttributeKey.stringKey("plan");
  static final AttributeKey<String> ACTION = AttributeKey.stringKey("action");
  static final AttributeKey<String> SUBJECT = AttributeKey.stringKey("subject");
  static final AttributeKey<Long> STEP = AttributeKey.longKey("step");
  static final AttributeKey<List<String>> OBJECTS = AttributeKey.stringArrayKey("objects");
  static final AttributeKey<String> RESULT = AttributeKey.stringKey("result");

  private static final TextMapGetter<Map<String, String>> MAP_GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private final Tracer tracer;
  private final Map<String, Span> plans = new ConcurrentHashMap<>();
  private final Map<String, Span> steps = new ConcurrentHashMap<>();

  /** Action and subject per plan with an open span. */
  private final Map<String, String[]> planAttributes = new ConcurrentHashMap<>();

  PlanTracing(OpenTelemetry otel) {
    this.tracer = Objects.requireNonNull(otel, "otel").getTracer("org.sandboxslo.console");
  }

  /** Starts the plan's span unless it is open already. */
  void planStarted(String id, String action, String subject) {
    planAttributes.put(id, new String[] {action, subject});
    plans.computeIfAbsent(
        id,
        k ->
            tracer
                .spanBuilder(PLAN_SPAN)
                .setSpanKind(SpanKind.INTERNAL)
                .setNoParent()
                .setAttribute(PLAN, id)
                .setAttribute(ACTION, action)
                .setAttribute(SUBJECT, subject)
                .startSpan());
  }

  /**
   * Ends the plan's span (if open) with {@code result}, e.g. {@code succeeded: 3 steps done} or
   * {@code handed over} when another replica continues it.
   */
  void planEnded(String id, String result, boolean error) {
    Span s = plans.remove(id);
    planAttributes.remove(id);
    if (s != null) {
      s.setAttribute(RESULT, result);
      if (error) {
        s.setStatus(StatusCode.ERROR, result);
      }
      s.end();
    }
  }

  /** Starts a step span under the plan's span (a root span when the plan has none here). */
  void stepStarted(String planId, int step, String object) {
    Span parent = plans.get(planId);
    var b =
        tracer
            .spanBuilder(STEP_SPAN)
            .setSpanKind(SpanKind.INTERNAL)
            .setAttribute(PLAN, planId)
            .setAttribute(STEP, (long) step);
    if (object != null) {
      b.setAttribute(OBJECTS, List.of(object));
    }
    String[] plan = planAttributes.get(planId);
    if (plan != null) {
      // the step repeats the plan's action and subject, so a step is found without its parent
      b.setAttribute(ACTION, plan[0]);
      b.setAttribute(SUBJECT, plan[1]);
    }
    if (parent != null) {
      b.setParent(Context.root().with(parent));
    } else {
      b.setNoParent();
    }
    Span old = steps.put(key(planId, step), b.startSpan());
    if (old != null) {
      old.end();
    }
  }

  /** Links the open step span to the trace an object's annotation carries, if any. */
  void continueTrace(String planId, int step, Map<String, String> annotations) {
    Span s = steps.get(key(planId, step));
    SpanContext remote = remoteContext(annotations);
    if (s != null && remote != null) {
      s.addLink(remote, Attributes.of(AttributeKey.stringKey("source"), TRACE_CONTEXT_ANNOTATION));
    }
  }

  /** Ends the step span with the audit result ({@code ok}, {@code skipped: ...}, an error). */
  void stepEnded(String planId, int step, String result) {
    Span s = steps.remove(key(planId, step));
    if (s != null) {
      s.setAttribute(RESULT, result);
      if (!result.startsWith("ok") && !result.startsWith("skipped")) {
        s.setStatus(StatusCode.ERROR, result);
      }
      s.end();
    }
  }

  /**
   * The span context of a {@value #TRACE_CONTEXT_ANNOTATION} annotation, or null when it is absent,
   * not a JSON object of strings, or not a valid W3C {@code traceparent}.
   */
  static SpanContext remoteContext(Map<String, String> annotations) {
    String json = annotations == null ? null : annotations.get(TRACE_CONTEXT_ANNOTATION);
    if (json == null || json.isBlank()) {
      return null;
    }
    Map<String, String> headers = new java.util.HashMap<>();
    try {
      new JsonObject(json)
          .forEach(
              e -> {
                if (e.getValue() instanceof String v) {
                  headers.put(e.getKey(), v);
                }
              });
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
    SpanContext c =
        Span.fromContext(
                W3CTraceContextPropagator.getInstance()
                    .extract(Context.root(), headers, MAP_GETTER))
            .getSpanContext();
    return c.isValid() ? c : null;
  }

  private static String key(String planId, int step) {
    return planId + "#" + step;
  }
}
