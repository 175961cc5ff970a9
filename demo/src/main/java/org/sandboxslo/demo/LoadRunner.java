package org.sandboxslo.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.sandboxslo.controller.load.LoadProfile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the demo load profile, again and again when {@code repeat} is set, on its own thread. */
public final class LoadRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LoadRunner.class);

  private final KubernetesClient client;
  private final LoadSettings settings;
  private final AtomicInteger runs = new AtomicInteger();
  private volatile LoadProfile current;
  private volatile boolean closed;
  private final Thread thread;

  public LoadRunner(KubernetesClient client, LoadSettings settings) {
    this.client = client;
    this.settings = settings;
    this.thread = new Thread(this::loop, "demo-load");
    thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  /**
   * Waits (at most 60 s) until the target pools are full, so the first claims meet warm members
   * instead of measuring the initial fill.
   */
  private void awaitPoolsFilled() {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!closed && System.nanoTime() < deadline) {
      boolean full = true;
      for (var target : settings.profile().targets()) {
        var pool =
            client
                .genericKubernetesResources(
                    org.sandboxslo.collector.SandboxCollector.context(
                        org.sandboxslo.engine.model.Kind.SANDBOX_WARM_POOL))
                .inNamespace(target.pool().namespace())
                .withName(target.pool().name())
                .get();
        if (pool == null) {
          continue;
        }
        Object spec = pool.getAdditionalProperties().get("spec");
        Object status = pool.getAdditionalProperties().get("status");
        Number want =
            spec instanceof java.util.Map<?, ?> m && m.get("replicas") instanceof Number n ? n : 1;
        Number ready =
            status instanceof java.util.Map<?, ?> m && m.get("readyReplicas") instanceof Number n
                ? n
                : 0;
        full &= ready.intValue() >= want.intValue();
      }
      if (full) {
        return;
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void loop() {
    try {
      awaitPoolsFilled();
    } catch (RuntimeException e) {
      LOG.warn("could not check the pools before the load: {}", e.toString());
    }
    do {
      int n = runs.incrementAndGet();
      Path gt = settings.groundTruth(n);
      try {
        if (gt.getParent() != null) {
          Files.createDirectories(gt.getParent());
        }
        LoadProfile p = new LoadProfile(client, settings.profile(), gt);
        current = p;
        if (closed) {
          p.close();
          return;
        }
        LOG.info(
            "load run {} started ({}), ground truth {}", n, settings.profile().totalDuration(), gt);
        p.start();
        p.awaitDone(settings.profile().totalDuration().plus(Duration.ofMinutes(10)));
        LOG.info("load run {} done: {}", n, p.summary());
        p.close();
      } catch (Exception e) {
        if (!closed) {
          LOG.warn("load run {} failed: {}", n, e.toString());
        }
        return;
      }
    } while (settings.repeat() && !closed);
  }

  /** The profile of the current (or last) run; null before the first. */
  public LoadProfile current() {
    return current;
  }

  /** Runs started so far. */
  public int runs() {
    return runs.get();
  }

  @Override
  public void close() {
    closed = true;
    LoadProfile p = current;
    if (p != null) {
      p.close();
    }
    thread.interrupt();
  }
}
