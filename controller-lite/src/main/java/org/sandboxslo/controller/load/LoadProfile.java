package org.sandboxslo.controller.load;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.upstream.Labels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Creates SandboxClaims at the rates of a {@link LoadProfileConfig} and records the ground truth of
 * every claim that becomes Ready: one JSON line per claim ({@link GroundTruth}), written the moment
 * the claim's {@code agents.x-k8s.io/claim-first-ready-at} annotation is seen (so claims later
 * deleted by their lifecycle are still recorded), exactly once per claim uid.
 *
 * <p>Claims are named {@code lp-<run>-<seq>} and labelled {@code sloconsole.io/load-profile=<run>};
 * the generator watches only its own claims. Arrivals within a phase are evenly spaced. Errors from
 * creates are counted, logged once each and never stop the run.
 */
public final class LoadProfile implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LoadProfile.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Label that marks the claims of one run. */
  public static final String RUN_LABEL = "sloconsole.io/load-profile";

  private final KubernetesClient client;
  private final LoadProfileConfig config;
  private final Path groundTruthFile;
  private final String run;
  private final Random random;

  /** claim uid → created claim (pending until recorded or gone). */
  private final Map<String, Created> created = new ConcurrentHashMap<>();

  /** claim name → created claim, filled before the create is sent. */
  private final Map<String, Created> byName = new ConcurrentHashMap<>();

  private final Set<String> recorded = ConcurrentHashMap.newKeySet();
  private final Set<String> goneUnready = ConcurrentHashMap.newKeySet();
  private final Map<ObjectRef, String> poolTemplates = new HashMap<>();
  private final AtomicInteger createErrors = new AtomicInteger();
  private final AtomicInteger warm = new AtomicInteger();
  private final AtomicInteger cold = new AtomicInteger();
  private final CountDownLatch generatorDone = new CountDownLatch(1);
  private final ExecutorService writer;
  private BufferedWriter out;
  private Thread generator;
  private SharedIndexInformer<GenericKubernetesResource> informer;
  private volatile boolean closed;

  private record Created(
      String namespace, String name, String pool, String createdAt, boolean env) {}

  /**
   * Counts of one run.
   *
   * @param created claims created
   * @param createErrors creates the API server refused
   * @param ready claims recorded Ready (lines written)
   * @param warm recorded with launch type warm
   * @param cold recorded with launch type cold
   */
  public record Summary(int created, int createErrors, int ready, int warm, int cold) {}

  /**
   * A stopped load profile.
   *
   * @param client client for the API server; not closed by {@link #close()}
   * @param config the profile
   * @param groundTruthFile JSONL output, created or truncated by {@link #start()}
   */
  public LoadProfile(KubernetesClient client, LoadProfileConfig config, Path groundTruthFile) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
    this.groundTruthFile = Objects.requireNonNull(groundTruthFile, "groundTruthFile");
    this.random = new Random(config.seed());
    this.run = Long.toString(Math.abs(new Random().nextLong()) % 1_000_000, 36);
    this.writer =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "load-profile-ground-truth");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Opens the ground-truth file, starts watching the run's claims, and starts creating claims.
   *
   * @throws UncheckedIOException when the file cannot be opened
   * @throws KubernetesClientException when the watch cannot be started
   */
  public synchronized void start() {
    if (generator != null) {
      throw new IllegalStateException("load profile already started");
    }
    try {
      Path parent = groundTruthFile.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      out = Files.newBufferedWriter(groundTruthFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open ground-truth file " + groundTruthFile, e);
    }
    List<ObjectRef> pools = new ArrayList<>();
    config.targets().forEach(t -> pools.add(t.pool()));
    pools.add(config.envPool());
    for (ObjectRef p : pools) {
      try {
        GenericKubernetesResource pool =
            Resources.ops(client, Kind.SANDBOX_WARM_POOL)
                .inNamespace(p.namespace())
                .withName(p.name())
                .get();
        if (pool != null) {
          poolTemplates.put(
              p,
              Resources.string(Resources.map(Resources.spec(pool), "sandboxTemplateRef"), "name"));
        }
      } catch (KubernetesClientException e) {
        LOG.warn("load profile: cannot read pool {}: {}", p, e.getMessage());
      }
    }
    informer =
        Resources.ops(client, Kind.SANDBOX_CLAIM)
            .inAnyNamespace()
            .withLabel(RUN_LABEL, run)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource obj) {
                    seen(obj);
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                    seen(newObj);
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource obj, boolean unknown) {
                    seen(obj);
                    if (obj.getMetadata() != null
                        && Resources.annotation(obj, Labels.CLAIM_FIRST_READY_AT) == null) {
                      goneUnready.add(obj.getMetadata().getUid());
                    }
                  }
                },
                0);
    generator = new Thread(this::generate, "load-profile-generator");
    generator.setDaemon(true);
    generator.start();
    LOG.info(
        "load profile run {} started: {} phase(s), {} total",
        run,
        config.phases().size(),
        config.totalDuration());
  }

  private void generate() {
    try {
      long t0 = System.nanoTime();
      long phaseStart = 0;
      int seq = 0;
      for (LoadProfileConfig.Phase phase : config.phases()) {
        long phaseNanos = phase.duration().toNanos();
        if (phase.claimsPerSecond() > 0) {
          // evenly spaced: claim k at k / rate, floor(duration * rate) claims per phase
          long count = (long) Math.floor(phaseNanos / 1e9 * phase.claimsPerSecond() + 1e-9);
          for (long k = 0; k < count && !closed; k++) {
            long at = (long) (k * 1e9 / phase.claimsPerSecond());
            long wait = t0 + phaseStart + at - System.nanoTime();
            if (wait > 0) {
              TimeUnit.NANOSECONDS.sleep(wait);
            }
            if (closed) {
              return;
            }
            createClaim(++seq, phase);
          }
        }
        phaseStart += phaseNanos;
        long wait = t0 + phaseStart - System.nanoTime();
        if (wait > 0 && !closed) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      generatorDone.countDown();
    }
  }

  private void createClaim(int seq, LoadProfileConfig.Phase phase) {
    boolean env;
    ObjectRef pool;
    synchronized (random) {
      env = random.nextDouble() < phase.envFraction();
      pool = env ? config.envPool() : pickTarget();
    }
    String name = "lp-" + run + "-" + String.format("%06d", seq);
    Instant now = Instant.now();
    String createdAt = Resources.rfc3339Nano(now);
    GenericKubernetesResource c = Resources.newObject(Kind.SANDBOX_CLAIM, pool.namespace());
    c.getMetadata().setName(name);
    c.getMetadata()
        .setLabels(
            new LinkedHashMap<>(Map.of(Labels.CREATED_BY, config.createdBy(), RUN_LABEL, run)));
    c.getMetadata()
        .setAnnotations(new LinkedHashMap<>(Map.of(Labels.CLIENT_FIRST_REQUESTED_AT, createdAt)));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("warmPoolRef", Map.of("name", pool.name()));
    spec.put(
        "lifecycle",
        Map.of(
            "shutdownPolicy",
            "Delete",
            "shutdownTime",
            Resources.rfc3339(now.plus(config.hold()).plusSeconds(1))));
    if (env) {
      spec.put("env", List.of(Map.of("name", "TASK_ID", "value", name)));
    }
    c.setAdditionalProperty("spec", spec);
    Created entry = new Created(pool.namespace(), name, pool.name(), createdAt, env);
    byName.put(pool.namespace() + "/" + name, entry);
    try {
      GenericKubernetesResource r =
          Resources.ops(client, Kind.SANDBOX_CLAIM)
              .inNamespace(pool.namespace())
              .resource(c)
              .create();
      created.put(r.getMetadata().getUid(), entry);
      seen(r);
    } catch (KubernetesClientException e) {
      byName.remove(pool.namespace() + "/" + name);
      createErrors.incrementAndGet();
      LOG.warn(
          "load profile: create of claim {}/{} failed: {}", pool.namespace(), name, e.getMessage());
    }
  }

  private ObjectRef pickTarget() {
    double total = config.targets().stream().mapToDouble(LoadProfileConfig.Target::weight).sum();
    double x = random.nextDouble() * total;
    for (LoadProfileConfig.Target t : config.targets()) {
      x -= t.weight();
      if (x < 0) {
        return t.pool();
      }
    }
    return config.targets().get(config.targets().size() - 1).pool();
  }

  /** Called from the informer and after create; records at most once per uid, off-thread. */
  private void seen(GenericKubernetesResource claim) {
    if (claim == null || claim.getMetadata() == null) {
      return;
    }
    String uid = claim.getMetadata().getUid();
    if (uid == null
        || recorded.contains(uid)
        || Resources.annotation(claim, Labels.CLAIM_FIRST_READY_AT) == null
        || Resources.annotation(claim, Labels.CONTROLLER_FIRST_OBSERVED_AT) == null) {
      return;
    }
    if (recorded.add(uid)) {
      try {
        writer.execute(() -> record(claim));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        recorded.remove(uid);
      }
    }
  }

  private void record(GenericKubernetesResource claim) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    String uid = claim.getMetadata().getUid();
    Created c = byName.get(ns + "/" + name);
    String pool = Resources.string(Resources.map(Resources.spec(claim), "warmPoolRef"), "name");
    String firstObserved = Resources.annotation(claim, Labels.CONTROLLER_FIRST_OBSERVED_AT);
    String readyAt = Resources.annotation(claim, Labels.CLAIM_FIRST_READY_AT);
    String sbName = Resources.annotation(claim, Labels.SANDBOX_NAME);
    String launch = null;
    String template = null;
    if (sbName != null) {
      try {
        GenericKubernetesResource sb =
            Resources.ops(client, Kind.SANDBOX).inNamespace(ns).withName(sbName).get();
        if (sb != null) {
          launch = Resources.label(sb, Labels.LAUNCH_TYPE);
          template = Resources.annotation(sb, Labels.SANDBOX_TEMPLATE_REF);
        }
      } catch (KubernetesClientException e) {
        LOG.warn("load profile: cannot read sandbox {}/{}: {}", ns, sbName, e.getMessage());
      }
    }
    if (launch == null) {
      // Sandbox already gone: a cold Sandbox is named exactly like its claim, an adopted one is
      // not.
      launch = name.equals(sbName) ? Labels.LAUNCH_COLD : Labels.LAUNCH_WARM;
    }
    if (template == null && pool != null) {
      template = poolTemplates.get(new ObjectRef(ns, pool));
    }
    Instant fo = Resources.parseTime(firstObserved);
    Instant ra = Resources.parseTime(readyAt);
    double latencyMs =
        fo == null || ra == null ? Double.NaN : Duration.between(fo, ra).toNanos() / 1e6;
    GroundTruth gt =
        new GroundTruth(
            ns,
            name,
            uid,
            pool,
            template,
            c == null
                ? Resources.rfc3339Nano(
                    Resources.creationTime(claim) == null
                        ? Instant.EPOCH
                        : Resources.creationTime(claim))
                : c.createdAt(),
            firstObserved,
            readyAt,
            launch,
            latencyMs,
            c != null ? c.env() : !Resources.list(Resources.spec(claim), "env").isEmpty());
    if (Labels.LAUNCH_WARM.equals(launch)) {
      warm.incrementAndGet();
    } else {
      cold.incrementAndGet();
    }
    try {
      out.write(JSON.writeValueAsString(gt.toMap()));
      out.newLine();
      out.flush();
    } catch (IOException e) {
      LOG.warn(
          "load profile: cannot write ground truth for claim {}/{}: {}", ns, name, e.getMessage());
    }
  }

  /**
   * Waits until every claim has been created and every created claim has been recorded Ready (or
   * was deleted without becoming Ready), then flushes the file.
   *
   * @param timeout how long to wait
   * @return true when done within {@code timeout}
   */
  public boolean awaitDone(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      if (!generatorDone.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        return false;
      }
      while (System.nanoTime() < deadline) {
        sweep();
        boolean pending = false;
        for (String uid : created.keySet()) {
          if (!recorded.contains(uid) && !goneUnready.contains(uid)) {
            pending = true;
            break;
          }
        }
        if (!pending) {
          flush();
          LOG.info("load profile run {} done: {}", run, summary());
          return true;
        }
        TimeUnit.MILLISECONDS.sleep(100);
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Records any Ready claim the watch may have missed (list from the API server). */
  private void sweep() {
    try {
      for (GenericKubernetesResource c :
          Resources.ops(client, Kind.SANDBOX_CLAIM)
              .inAnyNamespace()
              .withLabel(RUN_LABEL, run)
              .list()
              .getItems()) {
        seen(c);
      }
    } catch (KubernetesClientException e) {
      LOG.warn("load profile: sweep failed: {}", e.getMessage());
    }
  }

  private void flush() {
    try {
      writer.submit(() -> null).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("load profile: flush of the ground truth did not finish: {}", e.toString());
    }
  }

  /** Counts so far. */
  public Summary summary() {
    return new Summary(
        created.size(), createErrors.get(), warm.get() + cold.get(), warm.get(), cold.get());
  }

  /** The run id (value of {@link #RUN_LABEL} on the claims). */
  public String runId() {
    return run;
  }

  /** Stops creating claims, records what is Ready, flushes and closes the file. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (generator != null) {
      generator.interrupt();
      try {
        generator.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      sweep();
    }
    if (informer != null) {
      informer.close();
    }
    flush();
    writer.shutdown();
    try {
      writer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("load profile run {} closed: {}", run, summary());
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        LOG.warn("load profile: cannot close {}: {}", groundTruthFile, e.getMessage());
      }
    }
  }
}
