package org.sandboxslo.console.chatops;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Posts to Slack {@code response_url}s with the Vert.x WebClient, within Slack's limits: at most
 * {@value #MAX_POSTS} posts per URL, within {@link #LIFETIME} of the request that brought it
 * (reference slo-alerting §5.3). A URL is accepted only with https (or http to a loopback host, for
 * tests) and a host of {@code sloconsole.chatops.slack.response-url-hosts}. Budgets are kept for at
 * most {@value #MAX_URLS} URLs. Thread-safe.
 */
final class ResponseUrls {
  static final int MAX_POSTS = 5;
  static final Duration LIFETIME = Duration.ofMinutes(30);
  static final int MAX_URLS = 10_000;
  private static final long TIMEOUT_MS = 10_000;

  private record Budget(Instant until, int used) {}

  private final WebClient web;
  private final Set<String> hosts;
  private final Clock clock;
  private final Map<String, Budget> budgets = new LinkedHashMap<>();

  ResponseUrls(WebClient web, Set<String> hosts, Clock clock) {
    this.web = Objects.requireNonNull(web, "web");
    this.hosts = Set.copyOf(hosts);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Whether the console would post to {@code url}. */
  boolean allowed(String url) {
    if (url == null || url.isBlank()) {
      return false;
    }
    try {
      URI u = new URI(url);
      String host = u.getHost() == null ? "" : u.getHost().toLowerCase(java.util.Locale.ROOT);
      boolean loopback = host.equals("127.0.0.1") || host.equals("localhost");
      return hosts.contains(host)
          && ("https".equals(u.getScheme()) || ("http".equals(u.getScheme()) && loopback));
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  /** Starts the budget of a URL when its request arrives (idempotent). */
  synchronized void opened(String url) {
    Instant now = clock.instant();
    budgets.values().removeIf(b -> b.until().isBefore(now));
    budgets.putIfAbsent(url, new Budget(now.plus(LIFETIME), 0));
    Iterator<String> it = budgets.keySet().iterator();
    while (budgets.size() > MAX_URLS && it.hasNext()) {
      it.next();
      it.remove();
    }
  }

  private synchronized boolean take(String url) {
    Instant now = clock.instant();
    Budget b = budgets.get(url);
    if (b == null || b.until().isBefore(now) || b.used() >= MAX_POSTS) {
      return false;
    }
    budgets.put(url, new Budget(b.until(), b.used() + 1));
    return true;
  }

  /** Posts left for {@code url} (0 when unknown or expired). */
  synchronized int left(String url) {
    Budget b = budgets.get(url);
    return b == null || b.until().isBefore(clock.instant()) ? 0 : MAX_POSTS - b.used();
  }

  /**
   * Posts {@code message}.
   *
   * @return fails with a one-line reason: not allowed, budget used up or expired, connection error
   *     or a non-2xx answer
   */
  Future<Void> post(String url, JsonObject message) {
    if (!allowed(url)) {
      return Future.failedFuture("response_url " + host(url) + " is not an allowed host");
    }
    if (!take(url)) {
      return Future.failedFuture(
          "response_url budget used up ("
              + MAX_POSTS
              + " posts within "
              + LIFETIME.toMinutes()
              + " min)");
    }
    return web.postAbs(url)
        .timeout(TIMEOUT_MS)
        .sendJsonObject(message)
        .compose(
            r ->
                r.statusCode() / 100 == 2
                    ? Future.<Void>succeededFuture()
                    : Future.failedFuture("response_url answered " + r.statusCode()));
  }

  private static String host(String url) {
    try {
      return String.valueOf(new URI(url).getHost());
    } catch (java.net.URISyntaxException | NullPointerException e) {
      return "(unreadable)";
    }
  }
}
