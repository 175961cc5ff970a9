package org.sandboxslo.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

class TablesTest {
  @ParameterizedTest
  @CsvSource({
    "-5, <invalid>",
    "-1, 0s",
    "0, 0s",
    "119, 119s",
    // 2 min exactly; 5 min 3 s = 303 s
    "120, 2m",
    "303, 5m3s",
    // 10 min .. 3 h: minutes only; 179 min = 10740 s
    "600, 10m",
    "10740, 179m",
    // 3 h 20 min = 12000 s; 9 h = 32400 s; 47 h = 169200 s
    "12000, 3h20m",
    "32400, 9h",
    "169200, 47h",
    // 2 d 5 h = 53 h = 190800 s; 30 d = 2592000 s
    "190800, 2d5h",
    "2592000, 30d",
    // 2 y 10 d = 740 d = 63936000 s; 9 y = 3285 d = 283824000 s
    "63936000, 2y10d",
    "283824000, 9y",
  })
  void agesPrintLikeKubectl(long seconds, String expected) {
    assertEquals(expected, Tables.humanDuration(Duration.ofSeconds(seconds)));
  }

  static final JsonNode SANDBOX =
      Json.parse(
          """
          {"metadata":{"name":"s1","namespace":"n","creationTimestamp":"2026-01-01T00:00:00Z"},
           "status":{"conditions":[{"type":"Suspended","status":"False","reason":"NotSuspended"},
                                   {"type":"Ready","status":"True","reason":"DependenciesReady"}],
                     "podIPs":["10.0.0.1","10.0.0.2"]}}
          """);

  @Test
  void printerColumnPathsSelect() {
    assertEquals(
        List.of(Json.parse("\"True\"")),
        JsonPathSubset.select(SANDBOX, ".status.conditions[?(@.type=='Ready')].status"));
    assertEquals(
        List.of(Json.parse("\"NotSuspended\"")),
        JsonPathSubset.select(SANDBOX, "{.status.conditions[?(@.type==\"Suspended\")].reason}"));
    assertEquals(
        List.of(Json.parse("\"10.0.0.2\"")), JsonPathSubset.select(SANDBOX, ".status.podIPs[1]"));
    assertEquals(2, JsonPathSubset.select(SANDBOX, ".status.podIPs[*]").size());
    assertEquals(List.of(), JsonPathSubset.select(SANDBOX, ".status.missing.field"));
    assertEquals(List.of(), JsonPathSubset.select(SANDBOX, ".status.podIPs[9]"));
    assertEquals(List.of(), JsonPathSubset.select(SANDBOX, ".status..bad"));
  }

  @Test
  void aListBecomesATableWithTheCrdColumns() {
    ServedResource sandboxes =
        Discovery.fromCrd(
                Json.MAPPER.valueToTree(
                    EmbeddedApiServer.crds().stream()
                        .filter(c -> c.getSpec().getNames().getKind().equals("Sandbox"))
                        .findFirst()
                        .orElseThrow()))
            .get(0);
    JsonNode list = Json.object();
    ((tools.jackson.databind.node.ObjectNode) list).putArray("items").add(SANDBOX);
    ((tools.jackson.databind.node.ObjectNode) list)
        .putObject("metadata")
        .put("resourceVersion", "42");
    // 2026-01-01T00:00:00Z + 1 h 30 min = 90 min old
    JsonNode t =
        Tables.of(
            sandboxes, list, Tables.IncludeObject.METADATA, Instant.parse("2026-01-01T01:30:00Z"));
    assertEquals(
        List.of("Name", "Ready", "Reason", "Age"),
        t.path("columnDefinitions").valueStream().map(c -> c.path("name").asString()).toList());
    assertEquals(
        Json.parse("[\"s1\",\"True\",\"DependenciesReady\",\"90m\"]"),
        t.path("rows").get(0).path("cells"));
    assertEquals(
        "n", t.path("rows").get(0).path("object").path("metadata").path("namespace").asString());
    assertEquals(
        "PartialObjectMetadata", t.path("rows").get(0).path("object").path("kind").asString());
    assertEquals("42", t.path("metadata").path("resourceVersion").asString());
  }

  @Test
  void tableIsAskedForByAcceptParameters() {
    assertTrue(
        Tables.wanted(
            "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"));
    assertTrue(Tables.wanted("application/json; as=Table; g=meta.k8s.io; v=v1"));
    assertFalse(Tables.wanted("application/json;as=Table;v=v1beta1;g=meta.k8s.io"));
    assertFalse(Tables.wanted("application/json"));
    assertFalse(Tables.wanted(null));
  }
}
