package org.sandboxslo.apiserver;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.model.Kind;

/** The scripted faults of relist chaos, as a fabric8 client sees them. */
class FaultsTest {
  record Seen(Watcher.Action action, String name, String resourceVersion) {}

  static final class Recorder implements Watcher<GenericKubernetesResource> {
    final List<Seen> events = new CopyOnWriteArrayList<>();
    final List<WatcherException> closes = new CopyOnWriteArrayList<>();

    @Override
    public void eventReceived(Action action, GenericKubernetesResource r) {
      events.add(new Seen(action, r.getMetadata().getName(), r.getMetadata().getResourceVersion()));
    }

    @Override
    public void onClose(WatcherException cause) {
      closes.add(cause);
    }
  }

  @Test
  void duplicatesClosedWatchesAndExpiredListsAreWhatTheyClaim() {
    try (EmbeddedApiServer api = EmbeddedApiServer.start(0);
        KubernetesClient client = api.client()) {
      Faults faults = api.faults();
      Recorder r = new Recorder();
      var sandboxes = EmbeddedApiServerTest.ops(client, Kind.SANDBOX).inNamespace("demo");
      try (var watch = sandboxes.watch(r)) {
        await().atMost(Duration.ofSeconds(10)).until(() -> faults.openWatches() == 1);

        // every event twice, same resourceVersion
        faults.duplicateEvents(true);
        GenericKubernetesResource a =
            sandboxes.resource(EmbeddedApiServerTest.sandbox("demo", "a", null)).create();
        String rv = a.getMetadata().getResourceVersion();
        await().atMost(Duration.ofSeconds(10)).until(() -> r.events.size() == 2);
        assertEquals(
            List.of(
                new Seen(Watcher.Action.ADDED, "a", rv), new Seen(Watcher.Action.ADDED, "a", rv)),
            r.events);
        assertEquals(1, faults.duplicatesSent());
        faults.duplicateEvents(false);

        // closing: the stream ends, and the reconnect from the old resourceVersion gets 410
        assertEquals(1, faults.closeWatches());
        assertEquals(1, faults.pendingExpiredWatches());
        await().atMost(Duration.ofSeconds(30)).until(() -> faults.watchesExpired() == 1);
        assertEquals(0, faults.pendingExpiredWatches());
      }

      // a list fails with 410 exactly as often as scripted
      faults.expireNextLists(1);
      KubernetesClientException gone =
          assertThrows(KubernetesClientException.class, sandboxes::list);
      assertEquals(410, gone.getCode());
      assertEquals(1, sandboxes.list().getItems().size());
      assertEquals(1, faults.listsExpired());
    }
  }
}
