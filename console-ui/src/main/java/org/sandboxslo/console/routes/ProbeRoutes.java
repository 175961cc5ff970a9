package org.sandboxslo.console.routes;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.sandboxslo.collector.CoreViews;
import org.sandboxslo.collector.MalformedObjectException;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.console.api.JsonBody;
import org.sandboxslo.console.api.Replies;
import org.sandboxslo.console.auth.ConsoleAuth;
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
 *       randomSampleHash}, {@code vmgenidPresent}, {@code body}, ...); 415 for a body that is not
 *       {@code application/json}, 413 over {@value #BODY_LIMIT} bytes ({@link JsonBody});
 *   <li>401 without a signed-in caller ({@link ConsoleAuth}, mounted in front), 403 when the caller
 *       lacks role {@code operator} for the sandbox's namespace;
 *   <li>503 when this process has no engine to feed.
 * </ul>
 */
public final class ProbeRoutes {
  /** Largest accepted body; a probe is a few hundred bytes. */
  static final int BODY_LIMIT = 16 * 1024;

  private final Supplier<Consumer<FleetEvent>> sink;
  private final Clock clock;

  /**
   * @param sink where accepted probes go (asked per request; null answers 503)
   * @param clock the receive time, used as {@code observedAt} when the body has none
   */
  public ProbeRoutes(Supplier<Consumer<FleetEvent>> sink, Clock clock) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Adds the route to {@code router}, behind the console's {@link ConsoleAuth}. */
  public void mount(Router router) {
    router.post("/api/v1/probes").handler(JsonBody.reader(BODY_LIMIT));
    router.post("/api/v1/probes").handler(this::post);
  }

  private void post(RoutingContext ctx) {
    Consumer<FleetEvent> to = sink.get();
    if (to == null) {
      throw ApiException.notReady(
          "identity probes need the engine, which this process does not run");
    }
    ConsoleAuth.caller(ctx); // 401 before the body is looked at
    IdentityProbe probe = parse(ctx);
    ConsoleAuth.require(ctx, "operator", probe.sandbox().namespace());
    to.accept(new FleetEvent.ProbeReported(probe, clock.instant()));
    Replies.json(
        ctx,
        202,
        new JsonObject()
            .put("accepted", true)
            .put("sandbox", probe.sandbox().toString())
            .put("snapshot", probe.snapshot())
            .put("observedAt", probe.observedAt().toString()));
  }

  private IdentityProbe parse(RoutingContext ctx) {
    JsonObject body =
        JsonBody.object(
            ctx, "an identity probe {\"sandbox\":\"ns/name\",\"randomSampleHash\",...}");
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
