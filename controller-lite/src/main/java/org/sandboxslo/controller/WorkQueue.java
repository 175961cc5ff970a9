package org.sandboxslo.controller;

import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.sandboxslo.engine.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A de-duplicating work queue of object keys (client-go style): a key is processed by at most one
 * worker at a time; adding a key that is running marks it dirty so it runs once more afterwards.
 * Delayed adds go through a single scheduler thread. Informer callbacks only call {@link #add}.
 */
final class WorkQueue implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);

  /** A queue key: kind + namespace + name. */
  record Key(Kind kind, String namespace, String name) {
    Key {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
      return kind.kindName() + " " + namespace + "/" + name;
    }
  }

  private final Set<Key> queued = new HashSet<>();
  private final Set<Key> running = new HashSet<>();
  private final Set<Key> dirty = new HashSet<>();
  private final ExecutorService workers;
  private final ScheduledExecutorService delayer;
  private final Consumer<Key> handler;
  private volatile boolean closed;

  WorkQueue(int workers, Consumer<Key> handler) {
    this.handler = handler;
    AtomicInteger n = new AtomicInteger();
    this.workers =
        Executors.newFixedThreadPool(
            workers,
            r -> {
              Thread t = new Thread(r, "controller-lite-worker-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.delayer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "controller-lite-requeue");
              t.setDaemon(true);
              return t;
            });
  }

  /** Enqueues {@code key} now (no-op if already queued). */
  void add(Key key) {
    if (closed) {
      return;
    }
    synchronized (this) {
      if (running.contains(key)) {
        dirty.add(key);
        return;
      }
      if (!queued.add(key)) {
        return;
      }
    }
    try {
      workers.execute(() -> process(key));
    } catch (RejectedExecutionException e) {
      // closing
    }
  }

  /** Enqueues {@code key} after {@code delay}. */
  void addAfter(Key key, Duration delay) {
    if (closed) {
      return;
    }
    if (delay.isZero() || delay.isNegative()) {
      add(key);
      return;
    }
    try {
      delayer.schedule(() -> add(key), delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // closing
    }
  }

  /** Runs {@code task} after {@code delay} on the scheduler thread (must be quick). */
  void schedule(Runnable task, Duration delay) {
    if (closed) {
      return;
    }
    try {
      delayer.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // closing
    }
  }

  private void process(Key key) {
    synchronized (this) {
      queued.remove(key);
      running.add(key);
    }
    try {
      if (!closed) {
        handler.accept(key);
      }
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      LOG.warn("{}: reconcile failed: {}", key, e.toString());
      addAfter(key, Duration.ofSeconds(1));
    } finally {
      boolean again;
      synchronized (this) {
        running.remove(key);
        again = dirty.remove(key);
      }
      if (again) {
        add(key);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    delayer.shutdownNow();
    workers.shutdownNow();
    try {
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
