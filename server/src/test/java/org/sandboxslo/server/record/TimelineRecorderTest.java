package org.sandboxslo.server.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.engine.model.Kind;

/** Issue 9: secrets never shown — env values are redacted in recordings. */
class TimelineRecorderTest {
  @TempDir Path dir;

  /** The trees informers deliver: plain maps and lists (fabric8), not Vert.x JSON types. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> plain(Map<String, Object> m) {
    return (Map<String, Object>) plainValue(m);
  }

  static Object plainValue(Object v) {
    if (v instanceof JsonObject o) {
      return plainValue(o.getMap());
    }
    if (v instanceof JsonArray a) {
      return plainValue(a.getList());
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new java.util.LinkedHashMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), plainValue(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      return l.stream().map(TimelineRecorderTest::plainValue).toList();
    }
    return v;
  }

  @Test
  void envValuesOfClaimsAndContainersAreRedactedNamesKept() throws Exception {
    Map<String, Object> claim =
        new JsonObject()
            .put("apiVersion", "extensions.agents.x-k8s.io/v1beta1")
            .put("kind", "SandboxClaim")
            .put("metadata", new JsonObject().put("name", "c1").put("namespace", "demo"))
            .put(
                "spec",
                new JsonObject()
                    .put("sandboxTemplateRef", new JsonObject().put("name", "python-runtime"))
                    .put(
                        "env",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("name", "API_TOKEN")
                                    .put("value", "s3cr3t-claim"))
                            .add(
                                new JsonObject()
                                    .put("name", "FROM_SECRET")
                                    .put(
                                        "valueFrom",
                                        new JsonObject()
                                            .put(
                                                "secretKeyRef",
                                                new JsonObject()
                                                    .put("name", "db")
                                                    .put("key", "pw"))))))
            .getMap();
    claim = plain(claim);
    JsonObject container =
        new JsonObject()
            .put("name", "main")
            .put("value", "kept") // a field named "value" outside env stays
            .put(
                "env",
                new JsonArray().add(new JsonObject().put("name", "PW").put("value", "s3cr3t-pod")));
    JsonObject podSpec = new JsonObject().put("containers", new JsonArray().add(container));
    Map<String, Object> sandbox =
        new JsonObject()
            .put("kind", "Sandbox")
            .put("metadata", new JsonObject().put("name", "s1").put("namespace", "demo"))
            .put("spec", new JsonObject().put("podTemplate", new JsonObject().put("spec", podSpec)))
            .getMap();
    sandbox = plain(sandbox);
    Path file = dir.resolve("rec.yaml");
    try (TimelineRecorder r = new TimelineRecorder(file)) {
      r.event("ADDED", Kind.SANDBOX_CLAIM, claim, Instant.parse("2026-11-29T08:00:00Z"));
      r.event("ADDED", Kind.SANDBOX, sandbox, Instant.parse("2026-11-29T08:00:01Z"));
    }
    String text = Files.readString(file);
    assertFalse(text.contains("s3cr3t"), text);
    List<String> lines = text.lines().filter(l -> l.startsWith("- ")).toList();
    assertEquals(2, lines.size());
    JsonObject c = new JsonObject(lines.get(0).substring(2)).getJsonObject("object");
    JsonArray env = c.getJsonObject("spec").getJsonArray("env");
    assertEquals(
        new JsonObject().put("name", "API_TOKEN").put("value", "<redacted>"), env.getJsonObject(0));
    assertEquals(
        "pw",
        env.getJsonObject(1)
            .getJsonObject("valueFrom")
            .getJsonObject("secretKeyRef")
            .getString("key"));
    JsonObject recorded =
        new JsonObject(lines.get(1).substring(2))
            .getJsonObject("object")
            .getJsonObject("spec")
            .getJsonObject("podTemplate")
            .getJsonObject("spec")
            .getJsonArray("containers")
            .getJsonObject(0);
    assertEquals("kept", recorded.getString("value"));
    assertEquals("<redacted>", recorded.getJsonArray("env").getJsonObject(0).getString("value"));
    // the original trees are untouched (the collector still sees the real object)
    assertTrue(new JsonObject(claim).encode().contains("s3cr3t-claim"));
  }
}
