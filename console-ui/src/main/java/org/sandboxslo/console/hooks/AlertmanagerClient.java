package org.sandboxslo.console.hooks;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Alertmanager's API v2 (reference slo-alerting §4.2) over the Vert.x WebClient; nothing blocks.
 * Each call fails with a one-line message ({@code GET /api/v2/alerts: 503 ...} or the connection
 * error) after at most {@value #TIMEOUT_MS} ms.
 */
public final class AlertmanagerClient {
  static final long TIMEOUT_MS = 10_000;
  private final WebClient web;
  private final URI base;

  AlertmanagerClient(WebClient web, URI base) {
    this.web = Objects.requireNonNull(web, "web");
    this.base = Objects.requireNonNull(base, "base");
  }

  /** A client for {@code config.url()}, or null when no Alertmanager is configured. */
  public static AlertmanagerClient create(Vertx vertx, AlertmanagerConfig config) {
    if (config.url() == null) {
      return null;
    }
    return new AlertmanagerClient(
        WebClient.create(vertx, new WebClientOptions().setUserAgent("sandbox-slo-console")),
        config.url());
  }

  /** Alertmanager's base URL. */
  public URI base() {
    return base;
  }

  private HttpRequest<Buffer> request(io.vertx.core.http.HttpMethod method, String path) {
    return web.requestAbs(method, base + path).timeout(TIMEOUT_MS);
  }

  private static Future<HttpResponse<Buffer>> ok(
      Future<HttpResponse<Buffer>> f, String what, int... expected) {
    return f.recover(e -> Future.failedFuture(what + ": " + e.getMessage()))
        .compose(
            r -> {
              for (int code : expected) {
                if (r.statusCode() == code) {
                  return Future.succeededFuture(r);
                }
              }
              String body = r.bodyAsString() == null ? "" : r.bodyAsString().strip();
              return Future.failedFuture(
                  what
                      + ": "
                      + r.statusCode()
                      + (body.isEmpty()
                          ? ""
                          : " " + body.substring(0, Math.min(200, body.length()))));
            });
  }

  /**
   * {@code GET /api/v2/alerts} with one {@code filter} per matcher (active, silenced and inhibited
   * alerts alike): the alerts of a group, re-read when a notification was truncated.
   */
  public Future<JsonArray> alerts(List<SilenceMatcher> filters) {
    HttpRequest<Buffer> r = request(io.vertx.core.http.HttpMethod.GET, "/api/v2/alerts");
    filters.forEach(m -> r.addQueryParam("filter", m.toString()));
    return ok(r.send(), "GET /api/v2/alerts", 200).map(HttpResponse::bodyAsJsonArray);
  }

  /**
   * {@code POST /api/v2/silences}.
   *
   * @return the new silence's id
   */
  public Future<String> createSilence(
      List<SilenceMatcher> matchers,
      Instant startsAt,
      Instant endsAt,
      String createdBy,
      String comment) {
    JsonObject body =
        new JsonObject()
            .put("matchers", new JsonArray(matchers.stream().map(SilenceMatcher::toJson).toList()))
            .put("startsAt", startsAt.toString())
            .put("endsAt", endsAt.toString())
            .put("createdBy", createdBy)
            .put("comment", comment);
    return ok(
            request(io.vertx.core.http.HttpMethod.POST, "/api/v2/silences").sendJsonObject(body),
            "POST /api/v2/silences",
            200)
        .map(r -> r.bodyAsJsonObject().getString("silenceID"));
  }

  /** {@code GET /api/v2/silences}: every silence Alertmanager still keeps (any state). */
  public Future<JsonArray> silences() {
    return ok(
            request(io.vertx.core.http.HttpMethod.GET, "/api/v2/silences").send(),
            "GET /api/v2/silences",
            200)
        .map(HttpResponse::bodyAsJsonArray);
  }

  /** {@code GET /api/v2/silence/{id}}; null inside the Future when Alertmanager has no such id. */
  public Future<JsonObject> silence(String id) {
    return ok(
            request(io.vertx.core.http.HttpMethod.GET, "/api/v2/silence/" + id).send(),
            "GET /api/v2/silence/" + id,
            200,
            404)
        .map(r -> r.statusCode() == 404 ? null : r.bodyAsJsonObject());
  }

  /** {@code DELETE /api/v2/silence/{id}}: expires the silence. */
  public Future<Void> expire(String id) {
    return ok(
            request(io.vertx.core.http.HttpMethod.DELETE, "/api/v2/silence/" + id).send(),
            "DELETE /api/v2/silence/" + id,
            200)
        .mapEmpty();
  }
}
