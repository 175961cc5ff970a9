package org.sandboxslo.console.routes;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.sandboxslo.collector.CoreViews;
import org.sandboxslo.collector.MalformedObjectException;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.IdentityProbe;

/**
 * {@code POST /api/v1/probes}: an identity probe taken inside a sandbox right after it started or
 * resumed (fault kind 8, snapshot clones). Body ({@link CoreViews#probe}): {@code sandbox} ({@code
 * "ns/name"}), {@code randomSampleHash} (required), optional {@code snapshot}, {@code arch}, {@code
 * kernel}, {@code vmgenidPresent}, {@code bootId}, {@code probeDelay}, {@code observedAt}.
 *
 * <ul>
 *   <li>202 {@code {"accepted":true,"sandbox","snapshot","observedAt"}}: handed to the engine,
 *       which compares it with the other clones of the snapshot at its next diagnosis;
 *   <li>400 {@code {"error":"bad request","field","reason"}} naming the field ({@code
 *       randomSampleHash}, {@code vmgenidPresent}, {@code body}, ...);
 *   <li>401 without a known bearer token, 403 when the caller lacks role {@code operator} for the
 *       sandbox's namespace ({@link CallerCheck});
 *   <li>503 when this process has no engine to feed.
 * </ul>
 */
public final class ProbeRoutes {
  /** Largest accepted body; a probe is a few hundred bytes. */
  static final int BODY_LIMIT = 16 * 1024;

  /**
   * The caller check: the seam to whatever authenticates API callers (today the remediation API's
   * bearer tokens).
   */
  @FunctionalInterface
  public interface CallerCheck {
    /**
     * @param authorization the request's {@code Authorization} header, may be null
     * @param role the role needed, e.g. {@code operator}
     * @param namespace the namespace the request is about
     * @throws ApiException 401 when the caller is unknown, 403 when it lacks the role, 503 when
     *     nothing can authenticate
     */
    void require(String authorization, String role, String namespace);
  }

  private final Supplier<Consumer<FleetEvent>> sink;
  private final CallerCheck callers;
  private final Clock clock;

  /**
   * @param sink where accepted probes go (asked per request; null answers 503)
   * @param callers the caller check
   * @param clock the receive time, used as {@code observedAt} when the body has none
   */
  public ProbeRoutes(Supplier<Consumer<FleetEvent>> sink, CallerCheck callers, Clock clock) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.callers = Objects.requireNonNull(callers, "callers");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Adds the route to {@code router}. */
  public void mount(Router router) {
    router.post("/api/v1/probes").handler(BodyHandler.create().setBodyLimit(BODY_LIMIT));
    router.post("/api/v1/probes").handler(this::post);
  }

  private void post(RoutingContext ctx) {
    Consumer<FleetEvent> to = sink.get();
    if (to == null) {
      throw ApiException.notReady(
          "identity probes need the engine, which this process does not run");
    }
    String authorization = ctx.request().getHeader("Authorization");
    if (authorization == null || authorization.isBlank()) {
      // before reading the body: an anonymous caller learns nothing about it
      callers.require(authorization, "operator", null);
    }
    IdentityProbe probe = parse(ctx);
    callers.require(authorization, "operator", probe.sandbox().namespace());
    to.accept(new FleetEvent.ProbeReported(probe, clock.instant()));
    ctx.response()
        .setStatusCode(202)
        .putHeader("Content-Type", "application/json")
        .end(
            new JsonObject()
                .put("accepted", true)
                .put("sandbox", probe.sandbox().toString())
                .put("snapshot", probe.snapshot())
                .put("observedAt", probe.observedAt().toString())
                .encode());
  }

  private IdentityProbe parse(RoutingContext ctx) {
    JsonObject body;
    try {
      body = ctx.body().asJsonObject();
    } catch (DecodeException | ClassCastException e) {
      throw ApiException.badRequest("body", "not a JSON object");
    }
    if (body == null) {
      throw ApiException.badRequest(
          "body", "expected a JSON object {\"sandbox\":\"ns/name\",\"randomSampleHash\",...}");
    }
    Map<String, Object> map = body.getMap();
    try {
      return CoreViews.probe(map, clock.instant());
    } catch (MalformedObjectException e) {
      throw ApiException.badRequest(e.field(), e.getMessage());
    } catch (IllegalArgumentException e) { // ObjectRef: empty namespace or name
      throw ApiException.badRequest("sandbox", e.getMessage());
    }
  }
}
