package org.sandboxslo.demo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.engine.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's classic warm-pool incidents, provoked through the Kubernetes API like a user would, so
 * the console has something to diagnose and every dashboard panel has data:
 *
 * <ul>
 *   <li><b>template change under OnReplenish</b>: the low-traffic {@code legacy-tools} template's
 *       image is bumped; its idle members stay stale (finding StalePoolMembers, fixed by a paced
 *       Recreate plan), and a claim every 45 s is served a stale member;
 *   <li><b>suspend/resume</b>: Sandboxes owned by claims are suspended and resumed (resume SLI;
 *       with {@code sloconsole.controller.resume-failure-probability} some fail);
 *   <li><b>claims under Retain piling up</b>: claims with {@code shutdownPolicy: Retain} and a
 *       short {@code shutdownTime} expire and stay (ExpiredClaimsAccumulating);
 *   <li><b>a buggy client</b> creates a SandboxClaim without {@code spec.warmPoolRef}: the
 *       collector counts and skips it ({@code sandbox_slo_ingest_errors_total}), nothing crashes;
 *   <li><b>watch lag stalls refill</b>: 60 s after the start, controller-lite's watch falls 75 s
 *       behind for 150 s, so its creates stay unobserved and the expectations gate holds refill
 *       back (RefillStalled); then the lag clears.
 * </ul>
 *
 * The SDK that passes {@code env} on every claim is the load profile's {@code env-fraction}. Keys
 * under {@code sloconsole.app.}: {@code scenario} ({@code incidents} | {@code none}, default none),
 * {@code scenario-start} (delay before the first incident, default 90s).
 */
public final class IncidentScenario implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IncidentScenario.class);
  static final String NS = "demo";

  private final KubernetesClient client;
  private final ScheduledExecutorService timer;
  private final AtomicInteger retained = new AtomicInteger();
  private final AtomicInteger resumes = new AtomicInteger();
  private final AtomicInteger legacy = new AtomicInteger();
  private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());

  private final org.sandboxslo.controller.ControllerLite controller;

  /**
   * @param controller the demo controller, for the watch-lag incident; null skips that one
   */
  public IncidentScenario(
      KubernetesClient client, org.sandboxslo.controller.ControllerLite controller) {
    this.client = client;
    this.controller = controller;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "demo-incidents");
              t.setDaemon(true);
              return t;
            });
  }

  /** Schedules the incidents, the first after {@code start}. */
  public void start(Duration start) {
    long s = start.toMillis();
    timer.schedule(safe("template change", this::bumpTemplateImage), s, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(
        safe(
            "legacy claim",
            () ->
                claim(
                    "legacy-" + legacy.incrementAndGet(),
                    "legacy-tools-pool",
                    "{\"shutdownPolicy\":\"Delete\",\"shutdownTime\":\""
                        + Instant.now().plusSeconds(30)
                        + "\"}")),
        s + 20_000,
        45_000,
        TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(
        safe("suspend/resume", this::suspendAndResume), s + 10_000, 20_000, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(
        safe("retained claims", this::retainedClaim), s + 5_000, 15_000, TimeUnit.MILLISECONDS);
    timer.schedule(
        safe("malformed claim", this::malformedClaim), s + 15_000, TimeUnit.MILLISECONDS);
    if (controller != null) {
      timer.schedule(
          safe(
              "watch lag",
              () -> {
                controller.setWatchDelay(Duration.ofSeconds(75));
                note(
                    "controller-lite watch lag 75 s for 150 s: refill waits for unobserved creates");
              }),
          s + 60_000,
          TimeUnit.MILLISECONDS);
      timer.schedule(
          safe(
              "watch lag cleared",
              () -> {
                controller.setWatchDelay(Duration.ZERO);
                note("controller-lite watch lag cleared");
              }),
          s + 210_000,
          TimeUnit.MILLISECONDS);
    }
  }

  private Runnable safe(String what, Runnable r) {
    return () -> {
      try {
        r.run();
      } catch (KubernetesClientException | IllegalStateException e) {
        LOG.warn("incident '{}' step failed: {}", what, e.getMessage());
      }
    };
  }

  /** What the scenario did so far, one line per action. */
  public List<String> log() {
    return List.copyOf(log);
  }

  void bumpTemplateImage() {
    // change the template only once its pool is full, so there are old members to go stale
    GenericKubernetesResource pool =
        client
            .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_WARM_POOL))
            .inNamespace(NS)
            .withName("legacy-tools-pool")
            .get();
    Object status = pool == null ? null : pool.getAdditionalProperties().get("status");
    Object ready = status instanceof Map<?, ?> st ? st.get("readyReplicas") : null;
    if (pool != null && !(ready instanceof Number n && n.intValue() >= 3)) {
      timer.schedule(safe("template change", this::bumpTemplateImage), 2, TimeUnit.SECONDS);
      return;
    }
    GenericKubernetesResource t =
        client
            .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_TEMPLATE))
            .inNamespace(NS)
            .withName("legacy-tools")
            .get();
    if (t == null) {
      return;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) t.getAdditionalProperties().get("spec");
    @SuppressWarnings("unchecked")
    Map<String, Object> podSpec =
        (Map<String, Object>) ((Map<String, Object>) spec.get("podTemplate")).get("spec");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> containers = (List<Map<String, Object>>) podSpec.get("containers");
    String image = String.valueOf(containers.get(0).get("image"));
    String bumped = image.endsWith("-patched") ? image : image + "-patched";
    containers.get(0).put("image", bumped);
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_TEMPLATE))
        .inNamespace(NS)
        .resource(t)
        .update();
    note(
        "SandboxTemplate demo/legacy-tools image "
            + image
            + " -> "
            + bumped
            + " (OnReplenish keeps the old members)");
  }

  void suspendAndResume() {
    List<GenericKubernetesResource> owned = new ArrayList<>();
    for (GenericKubernetesResource s :
        client
            .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX))
            .inNamespace(NS)
            .list()
            .getItems()) {
      boolean byClaim =
          s.getMetadata().getOwnerReferences() != null
              && s.getMetadata().getOwnerReferences().stream()
                  .anyMatch(o -> "SandboxClaim".equals(o.getKind()));
      if (byClaim && s.getMetadata().getDeletionTimestamp() == null) {
        owned.add(s);
      }
    }
    if (owned.isEmpty()) {
      return;
    }
    // the newest claimed sandbox: older ones are close to their claim's shutdownTime
    owned.sort(
        java.util.Comparator.comparing(
                (GenericKubernetesResource x) ->
                    String.valueOf(x.getMetadata().getCreationTimestamp()))
            .thenComparing(x -> x.getMetadata().getName()));
    resumes.incrementAndGet();
    GenericKubernetesResource s = owned.get(owned.size() - 1);
    String name = s.getMetadata().getName();
    mode(name, "Suspended");
    timer.schedule(safe("resume", () -> mode(name, "Running")), 3, TimeUnit.SECONDS);
    note("Sandbox demo/" + name + " suspended, resumed 3 s later");
  }

  private void mode(String name, String mode) {
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX))
        .inNamespace(NS)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"operatingMode\":\"" + mode + "\"}}");
  }

  void retainedClaim() {
    String name = "retained-" + retained.incrementAndGet();
    claim(
        name,
        "node-runtime-pool",
        "{\"shutdownPolicy\":\"Retain\",\"shutdownTime\":\""
            + Instant.now().plusSeconds(10)
            + "\"}");
    note("SandboxClaim demo/" + name + " with shutdownPolicy Retain, expires in 10 s and stays");
  }

  void malformedClaim() {
    String json =
        """
        {"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxClaim",
         "metadata":{"name":"broken-client-claim","namespace":"%s"},"spec":{}}
        """
            .formatted(NS);
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
        .inNamespace(NS)
        .resource(
            client.getKubernetesSerialization().unmarshal(json, GenericKubernetesResource.class))
        .create();
    note(
        "SandboxClaim demo/broken-client-claim without spec.warmPoolRef (a buggy client): counted and skipped");
  }

  private void claim(String name, String pool, String lifecycleJson) {
    String json =
        """
        {"apiVersion":"extensions.agents.x-k8s.io/v1beta1","kind":"SandboxClaim",
         "metadata":{"name":"%s","namespace":"%s","labels":{"agents.x-k8s.io/created-by":"python-client"}},
         "spec":{"warmPoolRef":{"name":"%s"},"lifecycle":%s}}
        """
            .formatted(name, NS, pool, lifecycleJson);
    client
        .genericKubernetesResources(SandboxCollector.context(Kind.SANDBOX_CLAIM))
        .inNamespace(NS)
        .resource(
            client.getKubernetesSerialization().unmarshal(json, GenericKubernetesResource.class))
        .create();
  }

  private void note(String s) {
    LOG.info("demo incident: {}", s);
    log.add(Instant.now() + " " + s);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
