package org.sandboxslo.controller.load;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.controller.ControllerLite;
import org.sandboxslo.controller.ControllerLiteConfig;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.upstream.Labels;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class LoadProfileTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void tenSecondsAtThreePerSecondWritesOneLinePerReadyClaim(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ground-truth.jsonl");
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0)) {
      KubernetesClient client = api.client();
      DemoManifests.apply(client);
      Map<String, String> fast =
          Map.of(
              ControllerLiteConfig.COLD_START_P50,
              "50ms",
              ControllerLiteConfig.COLD_START_P95,
              "100ms",
              ControllerLiteConfig.WARM_ADOPTION_P50,
              "10ms",
              ControllerLiteConfig.WARM_ADOPTION_P95,
              "30ms");
      // Independent witnesses: which claims were seen Ready, and which launch type each claim's
      // Sandbox carried.
      Set<String> seenReady = ConcurrentHashMap.newKeySet();
      Map<String, String> launchByClaimUid = new ConcurrentHashMap<>();
      SharedIndexInformer<GenericKubernetesResource> claims =
          Resources.ops(client, Kind.SANDBOX_CLAIM)
              .inNamespace("demo")
              .inform(
                  handler(
                      c -> {
                        if (Resources.isTrue(c, "Ready")) {
                          seenReady.add(c.getMetadata().getUid());
                        }
                      }),
                  0);
      SharedIndexInformer<GenericKubernetesResource> sandboxes =
          Resources.ops(client, Kind.SANDBOX)
              .inNamespace("demo")
              .inform(
                  handler(
                      s -> {
                        String uid = Resources.label(s, Labels.CLAIM_UID);
                        if (uid != null) {
                          launchByClaimUid.put(uid, Resources.label(s, Labels.LAUNCH_TYPE));
                        }
                      }),
                  0);
      try (ControllerLite ctl = new ControllerLite(client, ControllerLiteConfig.fromMap(fast))) {
        ctl.start();
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    Integer.valueOf(8)
                        .equals(
                            Resources.status(
                                    Resources.ops(client, Kind.SANDBOX_WARM_POOL)
                                        .inNamespace("demo")
                                        .withName("python-runtime-pool")
                                        .get())
                                .get("readyReplicas")));
        LoadProfileConfig cfg =
            LoadProfileConfig.constant(Duration.ofSeconds(10), 3, 0.2, Duration.ofSeconds(4), 7);
        LoadProfile.Summary summary;
        try (LoadProfile lp = new LoadProfile(client, cfg, file)) {
          lp.start();
          assertTrue(lp.awaitDone(Duration.ofSeconds(30)), "load profile did not finish");
          summary = lp.summary();
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(30, summary.created());
        assertEquals(0, summary.createErrors());
        assertEquals(summary.ready(), lines.size());
        assertEquals(summary.warm() + summary.cold(), lines.size());
        assertTrue(summary.warm() > 0, "some claims adopt warm members");
        assertTrue(summary.cold() > 0, "env and gpu claims are cold");

        Set<String> uids = new HashSet<>();
        for (String line : lines) {
          JsonNode n = JSON.readTree(line);
          String uid = n.get("uid").asString();
          assertTrue(uids.add(uid), "duplicate line for " + uid);
          assertEquals("demo", n.get("namespace").asString());
          assertTrue(n.get("claim").asString().startsWith("lp-"));
          Instant observed = Instant.parse(n.get("firstObservedAt").asString());
          Instant ready = Instant.parse(n.get("readyAt").asString());
          assertEquals(
              Duration.between(observed, ready).toNanos() / 1e6,
              n.get("latencyMs").asDouble(),
              1e-6);
          assertTrue(n.get("latencyMs").asDouble() >= 0);
          assertNotNull(n.get("createdAt").asString());
          String launch = n.get("launchType").asString();
          assertEquals(launchByClaimUid.get(uid), launch, "launch type of " + n.get("claim"));
          if (n.get("env").asBoolean()) {
            assertEquals("cold", launch);
            assertEquals("data-notebook-pool", n.get("pool").asString());
            assertEquals("data-notebook", n.get("template").asString());
          }
          if ("gpu-trainer-pool".equals(n.get("pool").asString())) {
            assertEquals("cold", launch);
          }
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> seenReady.containsAll(uids));
        assertEquals(seenReady, uids, "every claim seen Ready is in the ground truth exactly once");
        assertFalse(uids.isEmpty());
      } finally {
        claims.close();
        sandboxes.close();
      }
    }
  }

  static ResourceEventHandler<GenericKubernetesResource> handler(
      java.util.function.Consumer<GenericKubernetesResource> f) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource obj) {
        f.accept(obj);
      }

      @Override
      public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
        f.accept(newObj);
      }

      @Override
      public void onDelete(GenericKubernetesResource obj, boolean unknown) {
        f.accept(obj);
      }
    };
  }
}
