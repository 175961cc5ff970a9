package org.sandboxslo.apiserver;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Completes the fabric8 CRUD dispatcher where real clients need it, and delegates storage to it:
 * discovery and OpenAPI, 415 for protobuf bodies, namespace existence on create, CRD status, RFC
 * 7386 / RFC 6902 patches (applied here, stored as an update), the scale subresource, Table output
 * and the watch settings of chunked HTTP watches. Every request gets an answer: an unexpected
 * failure is a 500 Status, never a hang.
 */
final class ApiDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(ApiDispatcher.class);

  /** The Kubernetes version the server reports ({@code /version}). */
  static final String KUBERNETES_VERSION = "v1.32.0";

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static final String ACCEPTED_BODIES = "application/json, application/yaml";
  private static final String ACCEPTED_PATCHES =
      "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";
  private static final int PATCH_ATTEMPTS = 5;

  private final KubernetesCrudDispatcher store;
  private final Supplier<String> serverAddress;
  private final Faults faults;

  /**
   * Requests are handled on several event loops at once: a cached value is valid only while the
   * generation it was computed in is current; a write bumps the generation before and after it.
   */
  private final AtomicLong crdGeneration = new AtomicLong();

  private final AtomicLong namespaceGeneration = new AtomicLong();

  private record Cached<T>(long generation, T value) {}

  private volatile Cached<List<JsonNode>> crdCache;
  private volatile Cached<Discovery> discoveryCache;

  /** Namespaces known to exist, by object path, with the generation they were seen in. */
  private final Map<String, Long> knownNamespaces = new ConcurrentHashMap<>();

  private final Clock clock;

  ApiDispatcher(
      KubernetesCrudDispatcher store, Supplier<String> serverAddress, Faults faults, Clock clock) {
    this.store = store;
    this.serverAddress = serverAddress;
    this.faults = faults;
    this.clock = clock;
  }

  /** Answers one request; never throws. */
  Reply handle(RecordedRequest request) {
    try {
      return route(request);
    } catch (IllegalArgumentException e) {
      return plain(StatusBodies.badRequest(e.getMessage()));
    } catch (RuntimeException e) {
      LOG.warn("{} {} failed: {}", request.getMethod(), request.getPath(), e.toString());
      return plain(
          StatusBodies.failure(500, "InternalError", "embedded API server: " + e, null, null));
    }
  }

  private Reply route(RecordedRequest received) {
    RecordedRequest request = received;
    String uri = request.getPath();
    int q = uri.indexOf('?');
    String path = q < 0 ? uri : uri.substring(0, q);
    Map<String, String> query = query(q < 0 ? "" : uri.substring(q + 1));
    String method = request.getMethod().toUpperCase(Locale.ROOT);
    String contentType = request.getHeader("Content-Type");
    if (contentType != null
        && contentType.toLowerCase(Locale.ROOT).startsWith("application/vnd.kubernetes.protobuf")) {
      Optional<ObjectNode> ns =
          method.equals("POST") && path.equals("/api/v1/namespaces")
              ? ProtobufBodies.namespace(request.getBody().getBytes())
              : Optional.empty();
      if (ns.isEmpty()) {
        // an answer at once: client-go then uses JSON for its next requests
        return plain(StatusBodies.unsupportedMediaType(contentType, ACCEPTED_BODIES));
      }
      request = request(HttpMethod.POST, uri, ns.get());
    }
    if (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    invalidate(method, path);
    if (method.equals("GET") || method.equals("HEAD")) {
      Optional<MockResponse> info = nonResource(path, request.getHeader("Accept"));
      if (info.isPresent()) {
        return plain(info.get());
      }
    }
    Optional<ApiPath> parsed = ApiPath.parse(path);
    if (parsed.isEmpty()) {
      return plain(StatusBodies.noSuchResource());
    }
    ApiPath p = parsed.get();
    ServedResource served = discovery().find(p.group(), p.version(), p.resource()).orElse(null);
    Reply reply =
        switch (method) {
          case "GET", "HEAD" -> {
            if (isWatch(query)) {
              yield watch(p, served, uri, query, request.getHeader("Accept"));
            }
            if ("scale".equals(p.subresource())) {
              yield plain(scaleGet(p, served));
            }
            yield plain(get(p, served, uri, query, request.getHeader("Accept")));
          }
          case "POST" -> plain(create(p, request, query));
          case "PUT" ->
              plain(
                  "scale".equals(p.subresource())
                      ? scaleWrite(p, served, body(request), null)
                      : update(p, body(request), query));
          case "PATCH" -> plain(patch(p, served, request, query));
          case "DELETE" -> plain(delete(p, uri));
          default ->
              plain(
                  StatusBodies.failure(
                      405, "MethodNotAllowed", method + " is not allowed", null, null));
        };
    // again after the write: a read that raced it must not keep what it saw before
    invalidate(method, path);
    return reply;
  }

  // ---- discovery, OpenAPI, health -------------------------------------------------------

  private Optional<MockResponse> nonResource(String path, String accept) {
    if (path.equals("/version")) {
      ObjectNode v = Json.object();
      v.put("major", "1");
      v.put("minor", "32");
      v.put("gitVersion", KUBERNETES_VERSION);
      v.put("gitCommit", "0000000000000000000000000000000000000000");
      v.put("gitTreeState", "clean");
      v.put("buildDate", "2024-12-11T00:00:00Z");
      v.put("goVersion", "go1.23.3");
      v.put("compiler", "gc");
      v.put("platform", "linux/amd64");
      return Optional.of(ok(v));
    }
    if (path.equals("/healthz") || path.equals("/livez") || path.equals("/readyz")) {
      return Optional.of(
          new MockResponse()
              .setResponseCode(200)
              .setHeader("Content-Type", "text/plain")
              .setBody("ok"));
    }
    if (path.equals("/") || path.isEmpty()) {
      ObjectNode root = Json.object();
      ArrayNode paths = root.putArray("paths");
      List.of(
              "/api",
              "/api/v1",
              "/apis",
              "/healthz",
              "/livez",
              "/openapi/v2",
              "/openapi/v3",
              "/readyz",
              "/version")
          .forEach(paths::add);
      return Optional.of(ok(root));
    }
    if (path.equals("/api")) {
      return Optional.of(ok(discovery().apiVersions(serverAddress.get())));
    }
    if (path.equals("/apis")) {
      return Optional.of(ok(discovery().groupList()));
    }
    if (path.equals("/openapi/v2")) {
      if (accept != null && accept.contains("protobuf")) {
        return Optional.of(
            new MockResponse()
                .setResponseCode(200)
                .setHeader("Content-Type", OpenApi.V2_PROTOBUF)
                .setBody(OpenApi.v2Protobuf(KUBERNETES_VERSION)));
      }
      return Optional.of(ok(OpenApi.v2Json(KUBERNETES_VERSION)));
    }
    if (path.equals("/openapi/v3")) {
      return Optional.of(ok(OpenApi.v3Index(crds())));
    }
    if (path.startsWith("/openapi/v3/")) {
      return Optional.of(
          OpenApi.v3Document(crds(), path.substring("/openapi/v3/".length()))
              .map(ApiDispatcher::ok)
              .orElseGet(StatusBodies::noSuchResource));
    }
    String[] s = path.substring(1).split("/");
    if (s.length == 2 && s[0].equals("api")) {
      return Optional.of(
          discovery()
              .resourceList("", s[1])
              .map(ApiDispatcher::ok)
              .orElseGet(StatusBodies::noSuchResource));
    }
    if (s.length == 2 && s[0].equals("apis")) {
      return Optional.of(
          discovery().group(s[1]).map(ApiDispatcher::ok).orElseGet(StatusBodies::noSuchResource));
    }
    if (s.length == 3 && s[0].equals("apis")) {
      return Optional.of(
          discovery()
              .resourceList(s[1], s[2])
              .map(ApiDispatcher::ok)
              .orElseGet(StatusBodies::noSuchResource));
    }
    return Optional.empty();
  }

  /**
   * The stored CRDs as JSON trees (do not modify). Cached until a request writes a CRD: every
   * request needs discovery, and reading the CRDs scans the whole store and parses their schemas,
   * which made each request O(objects) several times over.
   */
  List<JsonNode> crds() {
    long generation = crdGeneration.get();
    Cached<List<JsonNode>> cached = crdCache;
    if (cached != null && cached.generation() == generation) {
      return cached.value();
    }
    MockResponse r = store.handleGet(CRDS);
    List<JsonNode> out = new ArrayList<>();
    if (r.code() == 200 && r.getBody() != null) {
      Json.parse(utf8(r)).path("items").forEach(out::add);
    }
    List<JsonNode> value = List.copyOf(out);
    crdCache = new Cached<>(generation, value);
    return value;
  }

  Discovery discovery() {
    long generation = crdGeneration.get();
    Cached<Discovery> cached = discoveryCache;
    if (cached != null && cached.generation() == generation) {
      return cached.value();
    }
    Discovery d = Discovery.of(crds());
    discoveryCache = new Cached<>(generation, d);
    return d;
  }

  /** Drops what a write to {@code path} may have made stale. */
  private void invalidate(String method, String path) {
    if (method.equals("GET") || method.equals("HEAD")) {
      return;
    }
    if (path.contains("/customresourcedefinitions")) {
      crdGeneration.incrementAndGet();
    }
    if (path.startsWith("/api/v1/namespaces") && path.split("/").length <= 6) {
      // the namespaces collection, a namespace, or its status/finalize subresource
      namespaceGeneration.incrementAndGet();
    }
  }

  // ---- reads and watches ------------------------------------------------------------------

  private MockResponse get(
      ApiPath p, ServedResource served, String uri, Map<String, String> query, String accept) {
    if (p.name() == null && faults.takeExpiredList()) {
      return StatusBodies.failure(
          410, "Expired", "the list resourceVersion is too old (scripted fault)", null, null);
    }
    MockResponse r = store.handleGet(uri);
    if (r.code() == 404 && p.name() != null) {
      return StatusBodies.notFound(p, p.name());
    }
    if (r.code() != 200 || p.subresource() != null) {
      return withJsonType(r);
    }
    JsonNode body = Json.parse(utf8(r));
    if (p.name() == null && body.path("items").isArray()) {
      // the store keeps insertion order; the API server lists by namespace, then name
      List<JsonNode> items = new ArrayList<>();
      body.path("items").forEach(items::add);
      items.sort(
          java.util.Comparator.comparing(
                  (JsonNode i) -> i.path("metadata").path("namespace").asString(""))
              .thenComparing(i -> i.path("metadata").path("name").asString("")));
      ArrayNode sorted = ((ObjectNode) body).putArray("items");
      items.forEach(sorted::add);
    }
    if (Tables.wanted(accept)) {
      return ok(
          Tables.of(
              served, body, Tables.IncludeObject.of(query.get("includeObject")), clock.instant()));
    }
    return ok(body);
  }

  private static boolean isWatch(Map<String, String> query) {
    String w = query.get("watch");
    return w != null && (w.equals("1") || w.equalsIgnoreCase("true"));
  }

  private Reply watch(
      ApiPath p, ServedResource served, String uri, Map<String, String> query, String accept) {
    Duration timeout = null;
    if (query.containsKey("timeoutSeconds")) {
      long t = parseLong(query.get("timeoutSeconds"), "timeoutSeconds");
      timeout = t > 0 ? Duration.ofSeconds(t) : null;
    }
    long since = 0;
    String rv = query.getOrDefault("resourceVersion", "");
    if (!rv.isEmpty()) {
      since = parseLong(rv, "resourceVersion");
    }
    Reply.WatchStream stream =
        new Reply.WatchStream(
            since,
            Tables.wanted(accept),
            served,
            Tables.IncludeObject.of(query.get("includeObject")),
            timeout);
    if (faults.takeExpiredWatch()) {
      return new Reply.Watch(
          new MockResponse().withWebSocketUpgrade(new Faults.ExpiredWatch()), stream);
    }
    // the store only recognises watch=true, and reads metadata.name from an unencoded selector
    StringBuilder q = new StringBuilder();
    query.forEach(
        (k, v) -> {
          if (!k.equals("watch")) {
            q.append(q.length() == 0 ? "" : "&").append(k).append('=').append(encode(v));
          }
        });
    String path = uri.substring(0, uri.indexOf('?'));
    MockResponse r = store.handleGet(path + "?" + q + (q.length() == 0 ? "" : "&") + "watch=true");
    if (r.getWebSocketListener() == null) {
      return plain(withJsonType(r));
    }
    return new Reply.Watch(faults.tracked(r, since), stream);
  }

  // ---- writes -----------------------------------------------------------------------------

  private MockResponse create(ApiPath p, RecordedRequest request, Map<String, String> query) {
    if (p.name() != null && p.subresource() == null) {
      return StatusBodies.failure(
          405, "MethodNotAllowed", "POST to an object is not allowed", null, null);
    }
    if (p.namespace() != null && !exists("/api/v1/namespaces/" + p.namespace())) {
      return StatusBodies.namespaceNotFound(p.namespace());
    }
    JsonNode body = body(request);
    if (!body.isObject()) {
      return StatusBodies.badRequest("the request body must be a JSON object");
    }
    ObjectNode obj = (ObjectNode) body;
    if (isNamespaces(p)) {
      ObjectNode spec = obj.withObjectProperty("spec");
      if (!spec.has("finalizers")) {
        spec.putArray("finalizers").add("kubernetes");
      }
      obj.withObjectProperty("status").put("phase", "Active");
    }
    if (isCrds(p)) {
      obj.set("status", crdStatus(obj, Json.object()));
    }
    if ("All".equals(query.get("dryRun"))) {
      return StatusBodies.json(201, Json.write(obj));
    }
    String collection = request.getPath();
    return withJsonType(store.handleCreate(request(HttpMethod.POST, collection, obj)));
  }

  private MockResponse update(ApiPath p, JsonNode body, Map<String, String> query) {
    if (p.name() == null) {
      return StatusBodies.failure(
          405, "MethodNotAllowed", "PUT to a collection is not allowed", null, null);
    }
    if (!body.isObject()) {
      return StatusBodies.badRequest("the request body must be a JSON object");
    }
    Optional<JsonNode> current = object(p.objectPath());
    if (current.isEmpty()) {
      return StatusBodies.notFound(p, p.name());
    }
    ObjectNode obj = (ObjectNode) body;
    if (isCrds(p) && p.subresource() == null) {
      obj.set("status", crdStatus(obj, current.get().path("status")));
    }
    if ("All".equals(query.get("dryRun"))) {
      return StatusBodies.json(200, Json.write(obj));
    }
    String target =
        p.subresource() == null ? p.objectPath() : p.objectPath() + "/" + p.subresource();
    MockResponse r = store.handleUpdate(request(HttpMethod.PUT, target, obj));
    return r.code() == 404 ? StatusBodies.notFound(p, p.name()) : withJsonType(r);
  }

  private MockResponse patch(
      ApiPath p, ServedResource served, RecordedRequest request, Map<String, String> query) {
    String contentType = request.getHeader("Content-Type");
    Optional<Patches.PatchType> type = Patches.PatchType.of(contentType);
    if (type.isEmpty()
        || type.get() == Patches.PatchType.STRATEGIC_MERGE_PATCH
            && served != null
            && served.custom()) {
      return StatusBodies.unsupportedMediaType(contentType, ACCEPTED_PATCHES);
    }
    if (p.name() == null) {
      return StatusBodies.failure(
          405, "MethodNotAllowed", "PATCH to a collection is not allowed", null, null);
    }
    JsonNode patch = body(request);
    if ("scale".equals(p.subresource())) {
      return scaleWrite(p, served, patch, type.get());
    }
    boolean pinned = !Json.at(patch, ".metadata.resourceVersion").isMissingNode();
    for (int attempt = 1; ; attempt++) {
      Optional<JsonNode> current = object(p.objectPath());
      if (current.isEmpty()) {
        if (type.get() == Patches.PatchType.APPLY_PATCH && p.subresource() == null) {
          return create(
              p.withoutName(), request(HttpMethod.POST, p.collectionPath(), patch), query);
        }
        return StatusBodies.notFound(p, p.name());
      }
      JsonNode updated =
          switch (type.get()) {
            case JSON_PATCH -> Patches.jsonPatch(current.get(), patch);
            case MERGE_PATCH, APPLY_PATCH -> Patches.mergePatch(current.get(), patch);
            case STRATEGIC_MERGE_PATCH ->
                Patches.mergePatch(current.get(), Patches.withoutDirectives(patch));
          };
      if (!updated.isObject()) {
        return StatusBodies.badRequest("the patched object is not a JSON object");
      }
      MockResponse r = update(p, updated, query);
      if (r.code() != 409 || pinned || attempt == PATCH_ATTEMPTS) {
        return r;
      }
    }
  }

  private MockResponse delete(ApiPath p, String uri) {
    MockResponse r = store.handleDelete(uri);
    if (r.code() == 404 && p.name() != null) {
      return StatusBodies.notFound(p, p.name());
    }
    return withJsonType(r);
  }

  // ---- the scale subresource ----------------------------------------------------------------

  private MockResponse scaleGet(ApiPath p, ServedResource served) {
    if (served == null || served.scale() == null || p.name() == null) {
      return StatusBodies.noSuchResource();
    }
    return object(p.objectPath())
        .map(o -> ok(scaleOf(o, served.scale())))
        .orElseGet(() -> StatusBodies.notFound(p, p.name()));
  }

  /**
   * PUT (type null) or PATCH of {@code autoscaling/v1 Scale}: the new {@code spec.replicas} is
   * written to the object's spec replicas path; a {@code metadata.resourceVersion} in the Scale is
   * a precondition.
   */
  private MockResponse scaleWrite(
      ApiPath p, ServedResource served, JsonNode body, Patches.PatchType type) {
    if (served == null || served.scale() == null || p.name() == null) {
      return StatusBodies.noSuchResource();
    }
    Optional<JsonNode> current = object(p.objectPath());
    if (current.isEmpty()) {
      return StatusBodies.notFound(p, p.name());
    }
    ObjectNode scale = scaleOf(current.get(), served.scale());
    JsonNode desired =
        type == null
            ? body
            : switch (type) {
              case JSON_PATCH -> Patches.jsonPatch(scale, body);
              default -> Patches.mergePatch(scale, Patches.withoutDirectives(body));
            };
    JsonNode replicas = Json.at(desired, ".spec.replicas");
    if (!replicas.isIntegralNumber() || replicas.asLong() < 0) {
      return StatusBodies.failure(
          422, "Invalid", "Scale.spec.replicas: must be an integer >= 0", "Scale", p.name());
    }
    ObjectNode obj = (ObjectNode) current.get().deepCopy();
    Json.set(obj, served.scale().specReplicasPath(), replicas);
    String pinned = Json.at(desired, ".metadata.resourceVersion").asString("");
    if (!pinned.isEmpty()) {
      obj.withObjectProperty("metadata").put("resourceVersion", pinned);
    }
    MockResponse r = store.handleUpdate(request(HttpMethod.PUT, p.objectPath(), obj));
    if (r.code() != 200) {
      return withJsonType(r);
    }
    return ok(scaleOf(Json.parse(utf8(r)), served.scale()));
  }

  private static ObjectNode scaleOf(JsonNode obj, ServedResource.Scale paths) {
    ObjectNode s = Json.object();
    s.put("kind", "Scale");
    s.put("apiVersion", "autoscaling/v1");
    ObjectNode m = s.putObject("metadata");
    JsonNode meta = obj.path("metadata");
    for (String k : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
      if (meta.has(k)) {
        m.set(k, meta.get(k));
      }
    }
    JsonNode spec = Json.at(obj, paths.specReplicasPath());
    s.putObject("spec").put("replicas", spec.isIntegralNumber() ? spec.asInt() : 0);
    ObjectNode st = s.putObject("status");
    JsonNode status = Json.at(obj, paths.statusReplicasPath());
    st.put("replicas", status.isIntegralNumber() ? status.asInt() : 0);
    if (paths.labelSelectorPath() != null) {
      JsonNode sel = Json.at(obj, paths.labelSelectorPath());
      if (sel.isString()) {
        st.put("selector", sel.asString());
      }
    }
    return s;
  }

  // ---- CRD status -----------------------------------------------------------------------------

  /**
   * The status a real API server gives an accepted CRD: accepted names = spec names, storedVersions
   * = the ones already stored plus the storage version, NamesAccepted and Established True (kept
   * transition times when already true).
   */
  private ObjectNode crdStatus(JsonNode crd, JsonNode previous) {
    ObjectNode st = Json.object();
    st.set("acceptedNames", crd.path("spec").path("names").deepCopy());
    List<String> stored = new ArrayList<>();
    previous.path("storedVersions").forEach(v -> stored.add(v.asString()));
    for (JsonNode v : crd.path("spec").path("versions")) {
      if (v.path("storage").asBoolean(false) && !stored.contains(v.path("name").asString())) {
        stored.add(v.path("name").asString());
      }
    }
    ArrayNode sv = st.putArray("storedVersions");
    stored.forEach(sv::add);
    Map<String, String> since = new LinkedHashMap<>();
    for (JsonNode c : previous.path("conditions")) {
      if ("True".equals(c.path("status").asString(""))) {
        since.put(c.path("type").asString(""), c.path("lastTransitionTime").asString(""));
      }
    }
    String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
    ArrayNode conds = st.putArray("conditions");
    conds
        .addObject()
        .put("type", "NamesAccepted")
        .put("status", "True")
        .put("lastTransitionTime", since.getOrDefault("NamesAccepted", now))
        .put("reason", "NoConflicts")
        .put("message", "no conflicts found");
    conds
        .addObject()
        .put("type", "Established")
        .put("status", "True")
        .put("lastTransitionTime", since.getOrDefault("Established", now))
        .put("reason", "InitialNamesAccepted")
        .put("message", "the initial names have been accepted");
    return st;
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private boolean exists(String objectPath) {
    boolean namespace =
        objectPath.startsWith("/api/v1/namespaces/") && objectPath.split("/").length == 5;
    long generation = namespaceGeneration.get();
    if (namespace && Long.valueOf(generation).equals(knownNamespaces.get(objectPath))) {
      return true;
    }
    boolean found = store.handleGet(objectPath).code() == 200;
    if (namespace && found) {
      knownNamespaces.put(objectPath, generation);
    }
    return found;
  }

  private Optional<JsonNode> object(String objectPath) {
    MockResponse r = store.handleGet(objectPath);
    if (r.code() != 200 || r.getBody() == null) {
      return Optional.empty();
    }
    return Optional.of(Json.parse(utf8(r)));
  }

  private static boolean isNamespaces(ApiPath p) {
    return p.group().isEmpty() && p.resource().equals("namespaces") && p.subresource() == null;
  }

  private static boolean isCrds(ApiPath p) {
    return p.group().equals("apiextensions.k8s.io")
        && p.resource().equals("customresourcedefinitions");
  }

  /** The request body as JSON (YAML bodies are read too). */
  private static JsonNode body(RecordedRequest request) {
    String text =
        request.getBody() == null
            ? ""
            : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    if (text.isBlank()) {
      throw new IllegalArgumentException("the request has no body");
    }
    String ct = request.getHeader("Content-Type");
    if (ct != null && ct.contains("yaml") && !text.stripLeading().startsWith("{")) {
      return Yaml.toJson(text);
    }
    return Json.parse(text);
  }

  private static RecordedRequest request(HttpMethod method, String path, JsonNode body) {
    return new RecordedRequest(
        "HTTP/1.1",
        method,
        path,
        Headers.builder().add("Content-Type", "application/json").build(),
        new Buffer(Json.write(body).getBytes(StandardCharsets.UTF_8)));
  }

  private static String utf8(MockResponse r) {
    return new String(r.getBody().getBytes(), StandardCharsets.UTF_8);
  }

  private static MockResponse ok(JsonNode body) {
    return StatusBodies.json(200, Json.write(body));
  }

  private static MockResponse withJsonType(MockResponse r) {
    if (r.getBody() != null && r.getBody().size() > 0 && r.header("Content-Type") == null) {
      r.setHeader("Content-Type", StatusBodies.JSON);
    }
    return r;
  }

  private static Reply plain(MockResponse r) {
    return new Reply.Plain(r);
  }

  private static long parseLong(String value, String name) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": expected an integer, got '" + value + "'");
    }
  }

  /**
   * A query value encoded for the store's URL parser, keeping {@code =}, {@code ,} and {@code !}
   * readable (the store reads {@code fieldSelector=metadata.name=NAME} literally).
   */
  private static String encode(String value) {
    return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8)
        .replace("+", "%20")
        .replace("%3D", "=")
        .replace("%2C", ",")
        .replace("%21", "!");
  }

  /** Query parameters, URL-decoded; the last value wins. */
  static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  Instant now() {
    return clock.instant();
  }
}
