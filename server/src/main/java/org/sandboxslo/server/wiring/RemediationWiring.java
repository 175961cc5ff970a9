package org.sandboxslo.server.wiring;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.sandboxslo.console.engine.EngineLoop;
import org.sandboxslo.console.engine.FindingState;
import org.sandboxslo.console.leader.Leadership;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.console.remediation.RemediationConfig;
import org.sandboxslo.console.remediation.RemediationFleet;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;
import org.sandboxslo.store.Database;

/**
 * Starts the {@link Remediation} of the assembled service: its own connection pool on the console
 * database, the engine as {@link RemediationFleet}, controller-lite's refill knob (demo only). In
 * demo mode without {@code sloconsole.auth.tokens}, random tokens for user {@code admin} (all
 * roles) and {@code reviewer} (approver) are generated and printed once on standard output.
 */
final class RemediationWiring {
  private RemediationWiring() {}

  static Remediation start(
      Vertx vertx,
      Map<String, String> settings,
      KubernetesClient client,
      EngineLoop engine,
      LocalController localOrNull,
      Database storage,
      Leadership leadership,
      io.opentelemetry.api.OpenTelemetry otel) {
    RemediationConfig cfg = RemediationConfig.fromMap(settings);
    if (localOrNull != null) {
      cfg = cfg.withDemoAdmin();
      if (cfg.demoToken() != null) {
        cfg.tokens()
            .forEach(
                (token, caller) ->
                    System.out.println(
                        "remediation API demo token for user "
                            + caller.user()
                            + " ("
                            + String.join("+", new java.util.TreeSet<>(caller.roles()))
                            + "): "
                            + token));
      }
    }
    RemediationFleet fleet =
        new RemediationFleet() {
          @Override
          public Future<PoolState> pool(ObjectRef ref) {
            return engine.call(e -> e.poolState(ref));
          }

          @Override
          public List<FindingState> findings() {
            return engine.findings();
          }

          @Override
          public boolean controllerLite() {
            return localOrNull != null;
          }

          @Override
          public void setMaxRefillRate(double perSecond) {
            if (localOrNull == null) {
              throw new IllegalStateException("controller-lite does not run in this process");
            }
            localOrNull.setMaxRefillRate(perSecond);
          }
        };
    return ConsoleProcess.await(
        Remediation.start(
            vertx,
            cfg,
            storage.remediationStore(),
            client,
            fleet,
            Clock.systemUTC(),
            leadership,
            otel));
  }
}
