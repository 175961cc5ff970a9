package org.sandboxslo.tests.e2e;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.demo.DemoApp;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.server.wiring.ConsoleProcess;

/** Shared set-up of the end-to-end suites: settings for a demo on free ports with its own data. */
final class Demo {
  private Demo() {}

  /**
   * Free ports, the embedded PostgreSQL under {@code dir}; callers add load and controller keys.
   */
  static Map<String, String> settings(Path dir) {
    Map<String, String> s = new HashMap<>();
    s.put("sloconsole.http.port", "0");
    s.put("sloconsole.management.port", "0");
    s.put("sloconsole.db.data-dir", dir.resolve("pg").toString());
    s.put("sloconsole.db.work-dir", dir.resolve("pg-bin").toString());
    s.put("sloconsole.app.kubeconfig", dir.resolve("kubeconfig").toString());
    return s;
  }

  /**
   * Sets the first container's image of a SandboxTemplate through the API server, as a user's
   * {@code kubectl edit} would: the pool's existing members go stale.
   */
  @SuppressWarnings("unchecked")
  static void setImage(DemoApp app, String namespace, String template, String image) {
    GenericKubernetesResource t =
        Resources.ops(app.client(), Kind.SANDBOX_TEMPLATE)
            .inNamespace(namespace)
            .withName(template)
            .get();
    Map<String, Object> c =
        (Map<String, Object>)
            Resources.list(
                    Resources.map(Resources.map(Resources.spec(t), "podTemplate"), "spec"),
                    "containers")
                .get(0);
    c.put("image", image);
    Resources.ops(app.client(), Kind.SANDBOX_TEMPLATE).inNamespace(namespace).resource(t).update();
  }

  static String api(DemoApp app, String path) {
    return api(app.console(), path);
  }

  static String api(ConsoleProcess app, String path) {
    return "http://127.0.0.1:" + app.httpPort() + path;
  }

  static String mgmt(DemoApp app, String path) {
    return mgmt(app.console(), path);
  }

  static String mgmt(ConsoleProcess app, String path) {
    return "http://127.0.0.1:" + app.managementPort() + path;
  }

  /** Waits until {@code /readyz} answers 200 (informers synced, first snapshot computed). */
  static void awaitReady(DemoApp app) {
    awaitReady(app.console());
  }

  /** Waits until {@code /readyz} answers 200 (informers synced, first snapshot computed). */
  static void awaitReady(ConsoleProcess app) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> Http.get(mgmt(app, "/readyz")).status() == 200);
  }
}
