package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.demo.DemoApp;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.server.replay.ReplayResult;
import org.sandboxslo.server.replay.Replayer;

/**
 * {@code --record FILE} writes what the console saw; {@code replay FILE} later gives the same SLIs.
 */
class RecordReplayE2E {
  @TempDir static Path dir;

  @Test
  void aRecordedRunReplaysToTheSameCounts() throws Exception {
    Path recording = dir.resolve("incident.yaml");
    Map<String, String> s = Demo.settings(dir);
    s.put("sloconsole.app.record", recording.toString());
    s.put("sloconsole.load.profile", "constant");
    s.put("sloconsole.load.rate", "2");
    s.put("sloconsole.load.duration", "20s");
    s.put("sloconsole.load.repeat", "false");
    s.put("sloconsole.load.ground-truth", dir.resolve("gt.jsonl").toString());
    s.put("sloconsole.controller.cold-start-p50", "300ms");
    s.put("sloconsole.controller.cold-start-p95", "800ms");
    JsonNode live;
    try (DemoApp app = DemoApp.start(s, List.of(), Map.of(), e -> {})) {
      Demo.awaitReady(app);
      await()
          .atMost(Duration.ofSeconds(180))
          .until(
              () ->
                  app.load().current() != null
                      && app.load().current().awaitDone(Duration.ofMillis(10)));
      long ready = app.load().current().summary().ready();
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                long n = 0;
                for (JsonNode t :
                    Http.get(Demo.api(app, "/api/v1/templates")).json().get("items")) {
                  n +=
                      t.get("totals").get("warmLaunches").asLong()
                          + t.get("totals").get("coldLaunches").asLong();
                }
                assertEquals(ready, n);
              });
      live = Http.get(Demo.api(app, "/api/v1/templates")).json().get("items");
    }
    assertTrue(Files.size(recording) > 0);
    ReplayResult r = Replayer.replayFile(recording);
    assertEquals(List.of(), r.skipped());
    for (JsonNode t : live) {
      String name = t.get("name").asText();
      SliSnapshot replayed =
          r.snapshot().templates().stream()
              .filter(x -> x.key().name().equals(name))
              .findFirst()
              .orElseThrow();
      JsonNode h = t.get("windows").get("1h");
      assertEquals(
          h.get("warmLaunches").asLong(), replayed.windows().get(1).warmLaunches(), name + " warm");
      assertEquals(
          h.get("coldLaunches").asLong(), replayed.windows().get(1).coldLaunches(), name + " cold");
    }
  }
}
