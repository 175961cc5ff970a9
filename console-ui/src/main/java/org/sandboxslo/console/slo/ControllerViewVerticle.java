package org.sandboxslo.console.slo;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.CounterIncrease;
import org.sandboxslo.engine.scrape.HistogramQuantile;
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.scrape.Scrape;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller-reported view: scrapes the agent-sandbox controller's {@code /metrics} (text
 * exposition, reference §d) every {@code sloconsole.controller-view.interval}, keeps the scrapes of
 * the last {@code sloconsole.controller-view.window}, and computes per template the warm-hit ratio
 * ({@code agent_sandbox_claim_creation_total}) and p95 claim-to-ready ({@code
 * agent_sandbox_claim_controller_startup_latency_ms}, ms → s) with {@link CounterIncrease} (resets
 * as in C14). A window is {@code partial} when it saw a restart or a scrape gap (two successful
 * scrapes more than 2 × interval + 1 s apart, or failed scrapes). The scraper runs as a verticle
 * (its HTTP client and timer live on the verticle's context); the view is read from any thread.
 */
public final class ControllerViewVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerViewVerticle.class);

  /**
   * The view of one template.
   *
   * @param warm Δ warm claims in the window
   * @param cold Δ cold claims in the window
   * @param warmHitRatio warm / (warm + cold), null without claims
   * @param p95Seconds p95 controller startup latency in seconds, null without observations
   * @param partial a restart or a scrape gap inside the window
   * @param restarts restarts seen in the window
   * @param from window start
   * @param to window end (last scrape)
   * @param scrapes scrapes in the window
   */
  public record View(
      double warm,
      double cold,
      Double warmHitRatio,
      Double p95Seconds,
      boolean partial,
      int restarts,
      Instant from,
      Instant to,
      int scrapes) {}

  private final String url;
  private final Duration interval;
  private final Duration window;
  private final double tolerance;
  private final Clock clock;
  private final List<Scrape> scrapes = new CopyOnWriteArrayList<>();
  private final List<Instant> failures = new CopyOnWriteArrayList<>();
  private HttpClient http;
  private long timer = -1;
  private final java.util.function.Consumer<Scrape> onScrape;
  private volatile String lastError;

  /**
   * Scrapes {@code settings.controllerUrl()} (must be set) once deployed.
   *
   * @throws NullPointerException without a controller URL
   */
  public ControllerViewVerticle(SloSettings settings, Clock clock) {
    this(settings, clock, s -> {});
  }

  /**
   * As above, and hands every successful scrape to {@code onScrape} as well (the wiring feeds the
   * engine's {@code FleetEvent.Scraped}); it runs on the event loop and must not block.
   */
  public ControllerViewVerticle(
      SloSettings settings, Clock clock, java.util.function.Consumer<Scrape> onScrape) {
    this.onScrape = Objects.requireNonNull(onScrape, "onScrape");
    this.url = Objects.requireNonNull(settings.controllerUrl(), "controller-view url");
    this.interval = settings.controllerInterval();
    this.window = settings.controllerWindow();
    this.tolerance = settings.tolerance();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Scrapes once at once, then every interval. */
  @Override
  public Future<?> start() {
    http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5000));
    scrapeOnce();
    timer = vertx.setPeriodic(interval.toMillis(), id -> scrapeOnce());
    return Future.succeededFuture();
  }

  private void scrapeOnce() {
    Instant at = clock.instant();
    http.request(
            new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url).setTimeout(10_000))
        .compose(req -> req.send())
        .compose(
            resp ->
                resp.statusCode() == 200
                    ? resp.body()
                    : Future.failedFuture("HTTP " + resp.statusCode()))
        .onSuccess(
            body -> {
              try {
                Scrape s = new Scrape(at, url, PromText.parse(body.toString()));
                add(s);
                lastError = null;
                onScrape.accept(s);
              } catch (IllegalArgumentException e) {
                fail(at, "bad exposition text: " + e.getMessage());
              }
            })
        .onFailure(e -> fail(at, e.getMessage()));
  }

  private void fail(Instant at, String why) {
    if (lastError == null) {
      LOG.warn("controller scrape {} failed: {}", url, why);
    }
    lastError = why;
    failures.add(at);
    failures.removeIf(t -> t.isBefore(at.minus(window)));
  }

  /**
   * Adds a scrape (tests feed recorded scrapes through this) and drops those older than the window.
   */
  void add(Scrape s) {
    scrapes.add(s);
    Instant oldest = s.at().minus(window).minus(interval);
    scrapes.removeIf(x -> x.at().isBefore(oldest));
  }

  /** Scrapes held. */
  public List<Scrape> scrapes() {
    return List.copyOf(scrapes);
  }

  /** The view of one template over the held window; null before two scrapes. */
  public View view(String namespace, String template) {
    List<Scrape> held = scrapes();
    if (held.size() < 2) {
      return null;
    }
    Instant to = held.get(held.size() - 1).at();
    Instant from = to.minus(window);
    boolean gap = failures.stream().anyMatch(t -> !t.isBefore(from));
    return compute(held, namespace, template, from, to, interval, gap);
  }

  /**
   * The pure computation over recorded scrapes.
   *
   * @param interval the expected scrape interval (a gap longer than 2 × interval makes it partial)
   * @param failedScrapes whether scrapes failed inside the window
   */
  public static View compute(
      List<Scrape> scrapes,
      String namespace,
      String template,
      Instant from,
      Instant to,
      Duration interval,
      boolean failedScrapes) {
    ControllerView.WarmHit w = ControllerView.warmHit(scrapes, namespace, template, from, to);
    HistogramQuantile.Estimate p95 =
        ControllerView.latencyQuantileMs(
            scrapes, ControllerView.CONTROLLER_STARTUP_LATENCY_MS, template, null, 0.95, from, to);
    List<Instant> times = new ArrayList<>();
    for (Scrape s : scrapes) {
      if (!s.at().isBefore(from) && !s.at().isAfter(to)) {
        times.add(s.at());
      }
    }
    times.sort(Instant::compareTo);
    boolean gap = failedScrapes;
    for (int i = 1; i < times.size(); i++) {
      if (Duration.between(times.get(i - 1), times.get(i))
              .compareTo(interval.multipliedBy(2).plusSeconds(1))
          > 0) {
        gap = true;
      }
    }
    return new View(
        w.warm(),
        w.cold(),
        w.ratio(),
        p95 == null ? null : p95.value() / 1000.0,
        w.partial() || gap,
        w.restarts().size(),
        from,
        to,
        times.size());
  }

  /**
   * Adds {@code controllerView} to a template item ({@code namespace}, {@code name}, {@code
   * windows}) and {@code disagreement} when the console's warm-hit over the same window differs by
   * more than the tolerance (null otherwise).
   */
  public void decorate(JsonObject item) {
    String ns = item.getString("namespace");
    String name = item.getString("name");
    if (ns == null || name == null) {
      return;
    }
    View v = view(ns, name);
    if (v == null) {
      item.put("controllerView", null);
      return;
    }
    item.put(
        "controllerView",
        new JsonObject()
            .put("source", url)
            .put("window", org.sandboxslo.engine.time.Durations.format(window))
            .put("warmLaunches", v.warm())
            .put("coldLaunches", v.cold())
            .put("warmHitRatio", v.warmHitRatio())
            .put("p95Seconds", v.p95Seconds())
            .put("partial", v.partial())
            .put("restarts", v.restarts())
            .put("scrapes", v.scrapes())
            .put("lastError", lastError));
    JsonObject windows = item.getJsonObject("windows");
    JsonObject w =
        windows == null
            ? null
            : windows.getJsonObject(org.sandboxslo.engine.time.Durations.format(window));
    Double console = w == null ? null : w.getDouble("warmHitRatio");
    JsonArray dis = new JsonArray();
    if (console != null
        && v.warmHitRatio() != null
        && Math.abs(console - v.warmHitRatio()) > tolerance) {
      dis.add(
          new JsonObject()
              .put("sli", "warm_hit_ratio")
              .put("console", console)
              .put("controller", v.warmHitRatio())
              .put("difference", console - v.warmHitRatio())
              .put("tolerance", tolerance));
    }
    item.put("disagreement", dis.isEmpty() ? null : dis);
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return http.close();
  }
}
