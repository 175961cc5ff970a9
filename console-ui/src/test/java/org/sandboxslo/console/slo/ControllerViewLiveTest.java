package org.sandboxslo.console.slo;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.controller.ControllerMetrics;

/** The console scrapes controller-lite's real /metrics and reports the view and disagreements. */
class ControllerViewLiveTest {

  @Test
  void scrapesControllerLiteAndFlagsDisagreement() throws Exception {
    Vertx vertx = Vertx.vertx();
    try (ControllerMetrics m = new ControllerMetrics(Clock.systemUTC())) {
      String url = m.serve("127.0.0.1", 0);
      SloSettings s =
          SloSettings.fromMap(
              Map.of(
                  "sloconsole.controller-view.url",
                  url,
                  "sloconsole.controller-view.interval",
                  "200ms",
                  "sloconsole.controller-view.window",
                  "5m",
                  "sloconsole.controller-view.tolerance",
                  "0.1"));
      ControllerViewVerticle view = new ControllerViewVerticle(s, Clock.systemUTC());
      String deployment =
          vertx.deployVerticle(view).toCompletionStage().toCompletableFuture().get();
      try {
        await().atMost(Duration.ofSeconds(60)).until(() -> view.scrapes().size() >= 2);
        Method created =
            ControllerMetrics.class.getDeclaredMethod(
                "claimCreated",
                String.class,
                String.class,
                String.class,
                String.class,
                boolean.class,
                String.class);
        created.setAccessible(true);
        for (int i = 0; i < 3; i++) {
          created.invoke(m, "team-a", "tpl-py", "warm", "pool-py", true, "python-client");
        }
        created.invoke(m, "team-a", "tpl-py", "cold", "pool-py", false, "python-client");
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> {
                  ControllerViewVerticle.View v = view.view("team-a", "tpl-py");
                  return v != null && v.warmHitRatio() != null && v.warm() + v.cold() == 4;
                });
        ControllerViewVerticle.View v = view.view("team-a", "tpl-py");
        assertEquals(0.75, v.warmHitRatio(), 1e-12);
        assertFalse(v.partial(), v.toString());

        JsonObject agree = item(0.8);
        view.decorate(agree);
        assertEquals(0.75, agree.getJsonObject("controllerView").getDouble("warmHitRatio"), 1e-12);
        assertNull(agree.getValue("disagreement"));
        JsonObject disagree = item(1.0);
        view.decorate(disagree);
        JsonObject d = disagree.getJsonArray("disagreement").getJsonObject(0);
        assertEquals("warm_hit_ratio", d.getString("sli"));
        assertEquals(0.25, d.getDouble("difference"), 1e-12);
      } finally {
        vertx.undeploy(deployment).toCompletionStage().toCompletableFuture().get();
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }

  private static JsonObject item(double consoleWarmHit) {
    return new JsonObject()
        .put("namespace", "team-a")
        .put("name", "tpl-py")
        .put(
            "windows",
            new JsonObject().put("5m", new JsonObject().put("warmHitRatio", consoleWarmHit)));
  }
}
