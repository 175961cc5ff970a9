package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sandboxslo.apiserver.EmbeddedApiServer;
import org.sandboxslo.apiserver.Faults;
import org.sandboxslo.collector.CollectorConfig;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.controller.DemoManifests;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.sli.FleetSnapshot;
import org.sandboxslo.engine.sli.SliSnapshot;
import org.sandboxslo.engine.sli.Totals;
import org.sandboxslo.engine.upstream.Labels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relist chaos: 10,000 SandboxClaims are driven through the embedded API server while it closes
 * every watch every 4 s (each reconnect answered 410 Gone), expires lists so informers must be
 * re-created, and sends every watch event twice. The console's collector and engine must end with
 * counts equal to the ground truth exactly: the live claims, and the warm and cold launches of the
 * template.
 *
 * <p>Ground truth, by construction (i = 0..9,999 in namespace {@code demo}, pool {@code
 * python-runtime-pool} of template {@code python-runtime}): claims with {@code i % 10 == 9} (1,000)
 * are abandoned (never Ready) and deleted during the chaos; the other 9,000 are served: Ready by
 * the upstream {@code claim-first-ready-at} annotation (half at create, half by a later merge
 * patch), warm when {@code i} is even (their {@code sandbox-name} differs from the claim's name:
 * adopted from the pool) and cold when odd (the Sandbox has the claim's name). Even i among
 * 0..9,999 with i % 10 != 9: every even i qualifies (i % 10 = 9 is odd), so 5,000 warm; odd served:
 * 5,000 − 1,000 = 4,000 cold; live claims 10,000 − 1,000 = 9,000.
 */
class RelistChaosE2E {
  private static final Logger LOG = LoggerFactory.getLogger(RelistChaosE2E.class);
  static final String NS = "demo";
  static final int CLAIMS = 10_000;

  @Test
  void tenThousandClaimsThroughClosedWatches410sAndDuplicatesAreCountedExactly() throws Exception {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0);
        KubernetesClient client = api.client()) {
      DemoManifests.apply(client);
      Faults faults = api.faults();
      FleetEngine fleet = new FleetEngine(EngineConfig.fromMap(Map.of()));
      try (EngineLoop engine =
              new EngineLoop(fleet, Clock.systemUTC(), Duration.ofSeconds(1), Map::of);
          SandboxCollector collector =
              new SandboxCollector(
                  client,
                  CollectorConfig.fromMap(
                      Map.of(
                          CollectorConfig.NAMESPACES, NS,
                          CollectorConfig.RESYNC_PERIOD, "0s",
                          CollectorConfig.GONE_RECREATE_AFTER, "2")),
                  engine.sink(),
                  Clock.systemUTC())) {
        collector.start();
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> engine.snapshot() != null && engine.snapshot().allSynced());

        faults.duplicateEvents(true);
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger rounds = new AtomicInteger();
        chaos.scheduleWithFixedDelay(
            () -> {
              int r = rounds.incrementAndGet();
              faults.closeWatches();
              if (r % 3 == 0) {
                // two list failures in a row: the informer of the next kind to list is re-created
                faults.expireNextLists(2);
              }
            },
            4,
            4,
            TimeUnit.SECONDS);
        long started = System.nanoTime();
        ExecutorService driver = Executors.newFixedThreadPool(4);
        try {
          List<Future<?>> work = new ArrayList<>();
          for (int i = 0; i < CLAIMS; i++) {
            int n = i;
            work.add(driver.submit(() -> create(client, n)));
          }
          for (Future<?> f : work) {
            f.get(10, TimeUnit.MINUTES);
          }
          work.clear();
          for (int i = 0; i < CLAIMS; i++) {
            int n = i;
            if (abandoned(n)) {
              work.add(driver.submit(() -> delete(client, n)));
            } else if (n % 4 >= 2) {
              work.add(driver.submit(() -> markReady(client, n)));
            }
          }
          for (Future<?> f : work) {
            f.get(10, TimeUnit.MINUTES);
          }
        } finally {
          driver.shutdown();
          chaos.shutdownNow();
          chaos.awaitTermination(10, TimeUnit.SECONDS);
          faults.duplicateEvents(false);
        }
        LOG.info(
            "drove {} claims in {} s: {} watches closed, {} watches and {} lists answered 410,"
                + " {} events sent twice, informers re-created {}",
            CLAIMS,
            Duration.ofNanos(System.nanoTime() - started).toSeconds(),
            faults.watchesClosed(),
            faults.watchesExpired(),
            faults.listsExpired(),
            faults.duplicatesSent(),
            collector.goneRecreations());

        // the chaos happened
        assertTrue(faults.watchesClosed() > 0, "no watch was closed");
        assertTrue(faults.watchesExpired() > 0, "no watch got 410");
        assertTrue(faults.listsExpired() > 0, "no list got 410");
        assertTrue(faults.duplicatesSent() > 0, "no event was duplicated");

        // ground truth (see the class comment): 9,000 live claims, 5,000 warm, 4,000 cold
        await()
            .atMost(Duration.ofSeconds(180))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () ->
                    count(engine) == 9_000
                        && totals(engine).warmLaunches() == 5_000
                        && totals(engine).coldLaunches() == 4_000);
        // and they stay there: nothing counted twice by a late duplicate or re-list
        await()
            .during(Duration.ofSeconds(3))
            .atMost(Duration.ofSeconds(5))
            .until(
                () ->
                    count(engine) == 9_000
                        && totals(engine).warmLaunches() == 5_000
                        && totals(engine).coldLaunches() == 4_000);
        long duplicates =
            engine
                .call(FleetEngine::duplicatesIgnored)
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        LOG.info(
            "console counts: {} claims, {} warm, {} cold launches; {} duplicate deliveries ignored",
            count(engine),
            totals(engine).warmLaunches(),
            totals(engine).coldLaunches(),
            duplicates);
        assertTrue(duplicates > 0, "the engine saw no duplicate");
      }
    }
  }

  static boolean abandoned(int i) {
    return i % 10 == 9;
  }

  static String name(int i) {
    return "chaos-" + i;
  }

  static void create(KubernetesClient client, int i) {
    GenericKubernetesResource c = Resources.newObject(Kind.SANDBOX_CLAIM, NS);
    c.getMetadata().setName(name(i));
    Map<String, String> annotations = new HashMap<>();
    if (!abandoned(i)) {
      // warm: adopted a pool member (another name); cold: the Sandbox has the claim's name
      annotations.put(Labels.SANDBOX_NAME, i % 2 == 0 ? "python-runtime-pool-m" + i : name(i));
      if (i % 4 < 2) {
        annotations.put(Labels.CLAIM_FIRST_READY_AT, readyAt());
      }
    }
    c.getMetadata().setAnnotations(annotations);
    c.setAdditionalProperty("spec", Map.of("warmPoolRef", Map.of("name", "python-runtime-pool")));
    Resources.ops(client, Kind.SANDBOX_CLAIM).inNamespace(NS).resource(c).create();
  }

  static void markReady(KubernetesClient client, int i) {
    Resources.ops(client, Kind.SANDBOX_CLAIM)
        .inNamespace(NS)
        .withName(name(i))
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\""
                + Labels.CLAIM_FIRST_READY_AT
                + "\":\""
                + readyAt()
                + "\"}}}");
  }

  static void delete(KubernetesClient client, int i) {
    Resources.ops(client, Kind.SANDBOX_CLAIM).inNamespace(NS).withName(name(i)).delete();
  }

  static String readyAt() {
    return Instant.now().minusSeconds(5).toString();
  }

  static int count(EngineLoop engine) throws Exception {
    return engine
        .call(e -> e.objectCount(Kind.SANDBOX_CLAIM))
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  static Totals totals(EngineLoop engine) throws Exception {
    FleetSnapshot s =
        engine.refreshNow().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    for (SliSnapshot t : s.templates()) {
      if (t.key().namespace().equals(NS) && t.key().name().equals("python-runtime")) {
        return t.totals();
      }
    }
    throw new AssertionError("no template demo/python-runtime in the snapshot");
  }
}
