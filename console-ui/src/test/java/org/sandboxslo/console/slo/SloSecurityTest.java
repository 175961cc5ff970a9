package org.sandboxslo.console.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.sqlclient.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 probes against the SLO routes, with a real console, SLO subsystem and embedded
 * PostgreSQL: writes need a signed-in {@code slo-owner}, are audited with that caller, exclusions
 * are revocable, bad input and hostile requests get 4xx with JSON, and a stored SLO that cannot be
 * loaded is skipped and reported instead of failing the start.
 */
class SloSecurityTest {
  @TempDir Path tmp;

  static JsonObject slo(String name, String namespace) {
    JsonObject o =
        new JsonObject()
            .put("name", name)
            .put("sli", "warm_hit_ratio")
            .put("objective", 95)
            .put("window", "1h");
    if (namespace != null) {
      o.put("selector", new JsonObject().put("namespace", namespace).put("sandboxTemplate", "t"));
    }
    return o;
  }

  static List<String> audit(SloHarness h) throws Exception {
    List<String> out = new ArrayList<>();
    for (Row r :
        SloHarness.get(
            h.storage
                .pool()
                .query(
                    "select actor, what, result from remediation_audit where what like 'slo.%'"
                        + " order by seq")
                .execute())) {
      out.add(r.getString(0) + " " + r.getString(1) + " " + r.getString(2));
    }
    return out;
  }

  /** A POST to /api/v1/slos on the harness's console with {@code Content-Type: contentType}. */
  static HttpRequest<Buffer> postSlos(SloHarness h, String contentType) {
    return h.web.post(h.port(), "127.0.0.1", "/api/v1/slos").putHeader("Content-Type", contentType);
  }

  /** A JSON POST to /api/v1/slos signed in as the SLO owner. */
  static HttpRequest<Buffer> ownerPostSlos(SloHarness h) {
    return postSlos(h, "application/json").putHeader("Authorization", "Bearer " + SloHarness.OWNER);
  }

  @Test
  void everyWriteNeedsASignedInSloOwner() throws Exception {
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      // the probe: one anonymous text/plain POST; now refused before the body is read
      HttpResponse<Buffer> plain =
          SloHarness.get(
              postSlos(h, "text/plain").sendBuffer(Buffer.buffer(slo("anon", null).encode())));
      assertEquals(401, plain.statusCode());
      assertEquals("Authorization", plain.bodyAsJsonObject().getString("field"));
      assertTrue(plain.getHeader("WWW-Authenticate").startsWith("Bearer"));
      assertEquals(401, h.post("/api/v1/slos", slo("anon", null), null).statusCode());
      assertEquals(401, h.post("/api/v1/slos", slo("anon", null), "guessed").statusCode());

      HttpResponse<Buffer> viewer = h.post("/api/v1/slos", slo("v", null), SloHarness.VIEWER);
      assertEquals(403, viewer.statusCode());
      assertEquals(
          "user victor lacks role slo-owner (cluster-wide), which creating SLO v requires",
          viewer.bodyAsJsonObject().getString("reason"));
      // a namespaced owner owns only its namespace
      assertEquals(
          403, h.post("/api/v1/slos", slo("b", "team-b"), SloHarness.TEAM_A_OWNER).statusCode());
      assertEquals(
          201, h.post("/api/v1/slos", slo("a", "team-a"), SloHarness.TEAM_A_OWNER).statusCode());
      assertEquals(201, h.post("/api/v1/slos", slo("w", null)).statusCode());

      assertEquals(401, h.delete("/api/v1/slos/w", null).statusCode());
      assertEquals(403, h.delete("/api/v1/slos/w", SloHarness.TEAM_A_OWNER).statusCode());
      JsonObject x =
          new JsonObject()
              .put("from", "2026-11-29T01:00:00Z")
              .put("to", "2026-11-29T02:00:00Z")
              .put("reason", "maintenance");
      assertEquals(401, h.post("/api/v1/slos/w/exclusions", x, null).statusCode());
      assertEquals(403, h.post("/api/v1/slos/w/exclusions", x, SloHarness.VIEWER).statusCode());
      // anonymous reads stay allowed (anonymous-read=true, the demo's default)
      HttpResponse<Buffer> list = h.get("/api/v1/slos");
      assertEquals(200, list.statusCode());
      assertEquals(2, list.bodyAsJsonObject().getJsonArray("items").size());
      assertEquals(
          List.of(
              "tara slo.create intent",
              "tara slo.create ok",
              "alice slo.create intent",
              "alice slo.create ok"),
          audit(h));
    }
  }

  @Test
  void readsNeedACallerWhenAnonymousReadIsOff() throws Exception {
    try (SloHarness h =
        new SloHarness(
            tmp.resolve("pg"),
            Map.of(
                "sloconsole.slo.defaults", "false", "sloconsole.auth.anonymous-read", "false"))) {
      assertEquals(401, h.get("/api/v1/slos").statusCode());
      assertEquals(401, h.get("/api/v1/status").statusCode());
      HttpResponse<Buffer> ok =
          SloHarness.get(
              h.web
                  .get(h.port(), "127.0.0.1", "/api/v1/slos")
                  .putHeader("Authorization", "Bearer " + SloHarness.VIEWER)
                  .send());
      assertEquals(200, ok.statusCode());
      // liveness and the page stay open
      assertEquals(200, h.get("/healthz").statusCode());
      assertEquals(200, h.get("/").statusCode());
    }
  }

  @Test
  void exclusionsCarryTheCallerAndCanBeRevoked() throws Exception {
    Instant now = Instant.now();
    JsonObject x =
        new JsonObject()
            .put("from", now.minusSeconds(7200).toString())
            .put("to", now.minusSeconds(3600).toString())
            .put("reason", "node pool upgrade");
    long id;
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      assertEquals(201, h.post("/api/v1/slos", slo("w", null)).statusCode());
      HttpResponse<Buffer> spoofed =
          h.post("/api/v1/slos/w/exclusions", x.copy().put("author", "mallory"));
      assertEquals(400, spoofed.statusCode());
      assertEquals("author", spoofed.bodyAsJsonObject().getString("field"));
      HttpResponse<Buffer> created = h.post("/api/v1/slos/w/exclusions", x);
      assertEquals(201, created.statusCode(), created.bodyAsString());
      assertEquals("alice", created.bodyAsJsonObject().getString("author"));
      id = created.bodyAsJsonObject().getLong("id");

      assertEquals(
          403, h.delete("/api/v1/slos/w/exclusions/" + id, SloHarness.VIEWER).statusCode());
      assertEquals(400, h.delete("/api/v1/slos/w/exclusions/abc").statusCode());
      HttpResponse<Buffer> revoked = h.delete("/api/v1/slos/w/exclusions/" + id + "?reason=done");
      assertEquals(200, revoked.statusCode(), revoked.bodyAsString());
      assertTrue(revoked.bodyAsJsonObject().getBoolean("revoked"));
      HttpResponse<Buffer> again = h.delete("/api/v1/slos/w/exclusions/" + id);
      assertEquals(404, again.statusCode());
      assertEquals("exclusionId", again.bodyAsJsonObject().getString("field"));
      assertEquals(0, h.get("/api/v1/slos/w").bodyAsJsonObject().getJsonArray("exclusions").size());
      assertEquals(0, (int) SloHarness.get(h.loop.call(e -> e.ledger("w").exclusions().size())));
      assertEquals(
          List.of(
              "alice slo.create intent",
              "alice slo.create ok",
              "alice slo.exclude intent",
              "alice slo.exclude ok",
              "alice slo.exclusion.revoke intent",
              "alice slo.exclusion.revoke ok"),
          audit(h));
      Row row =
          SloHarness.get(
                  h.storage
                      .pool()
                      .query(
                          "select author, revoked_by, revoke_reason from slo_exclusion where id = "
                              + id)
                      .execute())
              .iterator()
              .next();
      assertEquals("alice", row.getString(0));
      assertEquals("alice", row.getString(1));
      assertEquals("done", row.getString(2));
    }
    // a revoked exclusion is not re-applied after a restart
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      assertEquals(0, h.get("/api/v1/slos/w").bodyAsJsonObject().getJsonArray("exclusions").size());
    }
  }

  @Test
  void outOfBoundsDefinitionsAreRefusedAndBadStoredRowsAreSkipped() throws Exception {
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      // the probe: window 200000d was stored, answered 500 and bricked every restart
      HttpResponse<Buffer> res = h.post("/api/v1/slos", slo("huge", null).put("window", "200000d"));
      assertEquals(400, res.statusCode());
      assertEquals("window", res.bodyAsJsonObject().getString("field"));
      assertEquals("must be at most 366d, got 200000d", res.bodyAsJsonObject().getString("reason"));
      assertEquals(
          "window",
          h.post("/api/v1/slos", slo("h2", null).put("window", "99999999999999999999d"))
              .bodyAsJsonObject()
              .getString("field"));
      assertEquals(201, h.post("/api/v1/slos", slo("good", null)).statusCode());
      // rows written by an older console (or by hand) that no longer load
      SloHarness.get(
          h.storage
              .pool()
              .query(
                  "insert into slo_definition (name, body) values ('bricked', '"
                      + slo("bricked", null).put("window", "200000d").encode()
                      + "'), ('garbled', 'not json')")
              .execute());
    }
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      assertEquals(200, h.get("/api/v1/slos/good").statusCode());
      assertEquals(404, h.get("/api/v1/slos/bricked").statusCode());
      JsonArray errors =
          h.get("/api/v1/status")
              .bodyAsJsonObject()
              .getJsonObject("slos")
              .getJsonArray("loadErrors");
      assertEquals(2, errors.size(), errors.encode());
      assertEquals("bricked", errors.getJsonObject(0).getString("slo"));
      assertTrue(
          errors.getJsonObject(0).getString("reason").contains("must be at most 366d"),
          errors.encode());
      assertEquals("garbled", errors.getJsonObject(1).getString("slo"));
      assertEquals(
          "the stored body is not a JSON object", errors.getJsonObject(1).getString("reason"));
    }
  }

  @Test
  void hostileRequestsGetJsonRefusals() throws Exception {
    Path uploads = Path.of("file-uploads");
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      // cross-site write (CSRF) from a page the browser visits
      HttpResponse<Buffer> csrf =
          SloHarness.get(
              ownerPostSlos(h)
                  .putHeader("Origin", "https://evil.example")
                  .sendBuffer(Buffer.buffer(slo("csrf", null).encode())));
      assertEquals(403, csrf.statusCode());
      assertEquals("Origin", csrf.bodyAsJsonObject().getString("field"));
      HttpResponse<Buffer> same =
          SloHarness.get(
              ownerPostSlos(h)
                  .putHeader("Origin", "http://127.0.0.1:" + h.port())
                  .sendBuffer(Buffer.buffer(slo("same", null).encode())));
      assertEquals(201, same.statusCode(), same.bodyAsString());

      // multipart upload, anonymous and signed in: nothing is written to ./file-uploads
      String multipart =
          "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n"
              + "Content-Type: application/octet-stream\r\n\r\n"
              + "x".repeat(100_000)
              + "\r\n--b--\r\n";
      for (String token : new String[] {null, SloHarness.OWNER}) {
        var req = postSlos(h, "multipart/form-data; boundary=b");
        if (token != null) {
          req.putHeader("Authorization", "Bearer " + token);
        }
        HttpResponse<Buffer> up = SloHarness.get(req.sendBuffer(Buffer.buffer(multipart)));
        assertEquals(token == null ? 401 : 415, up.statusCode());
      }
      assertFalse(Files.exists(uploads), "no upload directory may be created");

      // security headers on the page
      HttpResponse<Buffer> page = h.get("/");
      assertEquals(200, page.statusCode());
      String csp = page.getHeader("Content-Security-Policy");
      assertTrue(csp.contains("frame-ancestors 'none'"), csp);
      assertFalse(csp.contains("unsafe-inline"), csp);
      assertEquals("nosniff", page.getHeader("X-Content-Type-Options"));
      assertEquals("no-referrer", page.getHeader("Referrer-Policy"));

      // wrong method
      HttpResponse<Buffer> put =
          SloHarness.get(
              h.web
                  .put(h.port(), "127.0.0.1", "/api/v1/slos")
                  .putHeader("Authorization", "Bearer " + SloHarness.OWNER)
                  .send());
      assertEquals(405, put.statusCode());
      assertEquals("method not allowed", put.bodyAsJsonObject().getString("error"));

      // 413 / 414 / 431 state their limits
      HttpResponse<Buffer> big =
          h.post("/api/v1/slos", "application/json", "{\"name\":\"" + "x".repeat(70_000) + "\"}");
      assertEquals(413, big.statusCode());
      assertEquals(
          "the request body exceeds the limit of 65536 bytes",
          big.bodyAsJsonObject().getString("reason"));
      HttpResponse<Buffer> uri = h.get("/api/v1/slos/" + "a".repeat(10_000));
      assertEquals(414, uri.statusCode());
      assertEquals(
          "the request line exceeds the limit of 8192 bytes",
          uri.bodyAsJsonObject().getString("reason"));
      HttpResponse<Buffer> headers =
          SloHarness.get(
              h.web
                  .get(h.port(), "127.0.0.1", "/api/v1/slos")
                  .putHeader("X-Padding", "p".repeat(20_000))
                  .send());
      assertEquals(431, headers.statusCode());
      assertEquals(
          "the request headers exceed the limit of 16384 bytes",
          headers.bodyAsJsonObject().getString("reason"));
    }
  }

  @Test
  void idempotencyKeysReplayAndDeadlinesStopLateWrites() throws Exception {
    try (SloHarness h =
        new SloHarness(tmp.resolve("pg"), Map.of("sloconsole.slo.defaults", "false"))) {
      JsonObject body = slo("once", null);
      HttpResponse<Buffer> first = post(h, body, "key-1", null);
      assertEquals(201, first.statusCode(), first.bodyAsString());
      assertNull(first.getHeader("Idempotent-Replayed"));
      HttpResponse<Buffer> retry = post(h, body, "key-1", null);
      assertEquals(201, retry.statusCode());
      assertEquals("true", retry.getHeader("Idempotent-Replayed"));
      assertEquals(first.bodyAsString(), retry.bodyAsString());
      // the change was made (and audited) once
      assertEquals(List.of("alice slo.create intent", "alice slo.create ok"), audit(h));
      HttpResponse<Buffer> reused = post(h, slo("other", null), "key-1", null);
      assertEquals(422, reused.statusCode());
      assertEquals("Idempotency-Key", reused.bodyAsJsonObject().getString("field"));
      assertEquals(1L, count(h, "select count(*) from idempotency_key"));

      // a client that has given up: its deadline has passed, nothing is applied
      HttpResponse<Buffer> late =
          post(h, slo("late", null), null, Instant.now().minusSeconds(5).toString());
      assertEquals(503, late.statusCode());
      assertEquals("X-Request-Deadline", late.bodyAsJsonObject().getString("field"));
      assertEquals(404, h.get("/api/v1/slos/late").statusCode());
      assertEquals(400, post(h, slo("late", null), null, "tomorrow").statusCode());
    }
  }

  static HttpResponse<Buffer> post(SloHarness h, JsonObject body, String key, String deadline)
      throws Exception {
    var req = ownerPostSlos(h);
    if (key != null) {
      req.putHeader("Idempotency-Key", key);
    }
    if (deadline != null) {
      req.putHeader("X-Request-Deadline", deadline);
    }
    return SloHarness.get(req.sendBuffer(Buffer.buffer(body.encode())));
  }

  static long count(SloHarness h, String sql) throws Exception {
    return SloHarness.get(h.storage.pool().query(sql).execute()).iterator().next().getLong(0);
  }
}
