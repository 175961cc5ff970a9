package org.sandboxslo.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server failing under a running {@link Database}: killed (SIGKILL of the postmaster
 * and every child, as a crash) while durable audit appends are in flight, and frozen (SIGSTOP). The
 * database is supervised: a killed server is restarted on the same port and the same pool serves
 * again; a frozen one makes queries fail with {@link StoreUnavailableException} within the
 * configured bound instead of hanging.
 */
class DatabaseFailureTest {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(DatabaseFailureTest.class);
  // statement and connect timeout; 4 s leaves room for a loaded machine to open a connection
  private static final Duration TIMEOUT = Duration.ofSeconds(4);

  @TempDir Path tmp;
  private Vertx vertx;
  private Database db;

  @BeforeEach
  void open() throws Exception {
    vertx = Vertx.vertx();
    db =
        get(
            Database.open(
                vertx,
                new DatabaseConfig(
                    "",
                    "postgres",
                    "",
                    tmp.resolve("pg"),
                    Path.of("target", "embedded-pg"),
                    TIMEOUT,
                    TIMEOUT,
                    Duration.ofMillis(200))));
  }

  @AfterEach
  void close() throws Exception {
    try {
      if (db.embedded() != null && db.embedded().alive()) {
        PostgresProcesses.signal(db.embedded(), "CONT");
      }
      get(db.close());
    } finally {
      get(vertx.close());
    }
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static AuditEntry row(int i) {
    return new AuditEntry(
        0,
        Instant.parse("2026-11-29T09:00:00Z").plusMillis(i),
        "executor",
        "step.before",
        "p-1",
        i,
        "Sandbox ns/m-" + i,
        "crash test",
        "intent");
  }

  /**
   * Appends rows {@code i}, {@code i + 8}, ... below 400 one after the other; stops at a failure.
   */
  private static Future<Long> lane(RemediationStore store, int i, Set<Long> acknowledged) {
    if (i >= 400) {
      return Future.succeededFuture(0L);
    }
    return store
        .append(row(i))
        .onSuccess(acknowledged::add)
        .compose(seq -> lane(store, i + 8, acknowledged));
  }

  @Test
  void everyAcknowledgedAuditRowSurvivesAKillAndTheServerIsRestartedUnderTheSamePool()
      throws Exception {
    RemediationStore store = new RemediationStore(db.pool());
    int port = db.embedded().port();
    Set<Long> acknowledged = new ConcurrentSkipListSet<>();
    List<Future<Long>> all = new ArrayList<>();
    // 400 appends in 8 lanes of one append after the other, so at most 8 are in flight (the pool
    // size) and none waits for a pooled connection; the kill lands while 8 are in flight
    for (int lane = 0; lane < 8; lane++) {
      all.add(lane(store, lane, acknowledged));
    }
    // each append waits for its WAL flush: on a loaded machine 100 of them may take a minute
    await().atMost(Duration.ofSeconds(120)).until(() -> acknowledged.size() >= 100);
    List<Long> killed = PostgresProcesses.signal(db.embedded(), "KILL");
    assertTrue(killed.size() >= 3, "postmaster and its children: " + killed);
    for (Future<Long> f : all) {
      try {
        get(f.otherwiseEmpty());
      } catch (ExecutionException e) {
        // an append in flight at the kill may fail: it was not acknowledged
      }
    }
    int ackedAtKill = acknowledged.size();
    LOG.info("SIGKILL with {} of 400 durable appends acknowledged", ackedAtKill);
    assertTrue(ackedAtKill >= 100 && ackedAtKill <= 400, "acknowledged " + ackedAtKill);

    // supervised: the probe sees the dead postmaster and restarts it on the same port
    await().atMost(Duration.ofSeconds(60)).until(() -> db.status().restarts() == 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> db.status().up());
    assertEquals(port, db.embedded().port());
    assertTrue(db.embedded().alive());

    List<AuditEntry> stored = get(store.audit("p-1", null, null));
    Set<Long> seqs = stored.stream().map(AuditEntry::seq).collect(Collectors.toSet());
    Set<Long> lost = new java.util.TreeSet<>(acknowledged);
    lost.removeAll(seqs);
    assertEquals(Set.of(), lost, "acknowledged rows lost by the crash");
    LOG.info("after the restart: {} rows stored, {} acknowledged lost", stored.size(), lost.size());
    // nothing appears that was never sent: every stored row is one of the 400
    assertTrue(stored.size() >= ackedAtKill && stored.size() <= 400, "stored " + stored.size());
    // the same pool writes again after the restart
    long next = get(store.append(row(400)));
    assertTrue(next > 0);
  }

  @Test
  void aFrozenServerFailsQueriesWithinTheBoundAndRecoversWhenResumed() throws Exception {
    SliStore sli = db.store();
    assertEquals(0L, get(sli.count()));
    PostgresProcesses.signal(db.embedded(), "STOP");
    long started = System.nanoTime();
    ExecutionException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class, () -> get(sli.count()));
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    LOG.info(
        "a query on the frozen server failed after {} ms: {}",
        took.toMillis(),
        e.getCause().getMessage());
    assertInstanceOf(StoreUnavailableException.class, e.getCause(), String.valueOf(e.getCause()));
    // the deadline is connect 4 s + statement 4 s + 1 s: never a 49 s hang
    assertTrue(
        took.compareTo(db.failureBound().plusSeconds(1)) < 0,
        "failed after " + took + ", bound " + db.failureBound());
    assertFalse(
        e.getCause().getMessage().contains("localhost")
            || e.getCause().getMessage().contains("127.0.0.1"),
        e.getCause().getMessage());
    await().atMost(Duration.ofSeconds(10)).until(() -> !db.status().up());
    assertNotEquals(null, db.status().reason());
    assertTrue(db.embedded().alive(), "a stopped server is alive: it is not restarted");

    PostgresProcesses.signal(db.embedded(), "CONT");
    await().atMost(Duration.ofSeconds(15)).until(() -> db.status().up());
    assertEquals(0L, get(sli.count()));
    assertEquals(0, db.status().restarts());
  }

  @Test
  void aDurableWriteAnsweredUnavailableWhileFrozenIsRolledBackWhenTheServerResumes()
      throws Exception {
    RemediationStore store = db.remediationStore();
    // negative control: acknowledged before the freeze, stored
    long first = get(store.append(row(1)));
    PostgresProcesses.signal(db.embedded(), "STOP");
    ExecutionException e;
    try {
      e =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class, () -> get(store.append(row(2))));
    } finally {
      PostgresProcesses.signal(db.embedded(), "CONT");
    }
    assertInstanceOf(StoreUnavailableException.class, e.getCause(), String.valueOf(e.getCause()));
    await().atMost(Duration.ofSeconds(15)).until(() -> db.status().up());
    // the caller was told 503: the queued insert runs when the server resumes, but its
    // transaction is rolled back instead of committed; it stays absent
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                get(store.audit("p-1", null, null)).stream()
                    .map(AuditEntry::seq)
                    .toList()
                    .equals(java.util.List.of(first)));
    // the same pool writes durably again
    long third = get(store.append(row(3)));
    assertEquals(
        java.util.List.of(first, third),
        get(store.audit("p-1", null, null)).stream().map(AuditEntry::seq).toList());
  }
}
