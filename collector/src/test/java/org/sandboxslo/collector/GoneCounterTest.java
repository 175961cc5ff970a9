package org.sandboxslo.collector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Test;

class GoneCounterTest {
  static KubernetesClientException http(int code) {
    return new KubernetesClientException(new StatusBuilder().withCode(code).build());
  }

  @Test
  void threeGoneInARowCallForARecreationAndASuccessResetsTheCount() {
    GoneCounter g = new GoneCounter(3);
    assertFalse(g.failed());
    assertFalse(g.failed());
    g.succeeded(); // a list went through: start again
    assertEquals(0, g.inARow());
    assertFalse(g.failed());
    assertFalse(g.failed());
    assertTrue(g.failed());
    assertEquals(0, g.inARow(), "counting restarts for the re-created informer");
    assertEquals(
        "limit must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> new GoneCounter(0)).getMessage());
  }

  @Test
  void recognisesGoneFromTheListAndFromTheWatchButNotOtherFailures() {
    assertTrue(GoneCounter.isGone(http(410)));
    assertTrue(GoneCounter.isGone(new RuntimeException("wrapped", http(410))));
    assertTrue(GoneCounter.isGone(new WatcherException("too old resource version", http(410))));
    assertFalse(GoneCounter.isGone(http(500)));
    assertFalse(GoneCounter.isGone(new java.io.IOException("connection reset")));
  }
}
