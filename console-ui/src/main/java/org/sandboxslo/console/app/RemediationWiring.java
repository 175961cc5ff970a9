package org.sandboxslo.console.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.sandboxslo.console.ConsoleConfig;
import org.sandboxslo.console.ConsoleStorage;
import org.sandboxslo.console.FindingState;
import org.sandboxslo.console.remediation.RemediationConfig;
import org.sandboxslo.console.remediation.RemediationFleet;
import org.sandboxslo.console.remediation.RemediationService;
import org.sandboxslo.console.remediation.RemediationStore;
import org.sandboxslo.console.store.SliStore;
import org.sandboxslo.controller.ControllerLite;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;

/**
 * Starts the {@link RemediationService} of the assembled service: its own connection pool on the
 * console database, the engine as {@link RemediationFleet}, controller-lite's refill knob (demo
 * only). In demo mode without {@code sloconsole.auth.tokens}, random tokens for user {@code admin}
 * (all roles) and {@code reviewer} (approver) are generated and printed once on standard output.
 */
final class RemediationWiring {
  private RemediationWiring() {}

  /** A running service and the pool to close after it. */
  record Started(RemediationService service, Pool pool) {}

  static Started start(
      Vertx vertx,
      Map<String, String> settings,
      KubernetesClient client,
      EngineLoop engine,
      ControllerLite controllerOrNull,
      ConsoleStorage storage,
      ConsoleConfig console) {
    RemediationConfig cfg = RemediationConfig.fromMap(settings);
    if (controllerOrNull != null) {
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
    PgConnectOptions options =
        storage.embedded() != null
            ? storage.embedded().connectOptions()
            : SliStore.connectOptions(console.dbUrl(), console.dbUser(), console.dbPassword());
    Pool pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(2))
            .connectingTo(options)
            .using(vertx)
            .build();
    RemediationFleet fleet =
        new RemediationFleet() {
          @Override
          public PoolState pool(ObjectRef ref) {
            return engine.call(e -> e.poolState(ref));
          }

          @Override
          public List<FindingState> findings() {
            return engine.findings();
          }

          @Override
          public boolean controllerLite() {
            return controllerOrNull != null;
          }

          @Override
          public void setMaxRefillRate(double perSecond) {
            if (controllerOrNull == null) {
              throw new IllegalStateException("controller-lite does not run in this process");
            }
            controllerOrNull.setMaxRefillRate(perSecond);
          }
        };
    try {
      RemediationService s =
          App.await(
              RemediationService.start(
                  vertx, cfg, new RemediationStore(pool), client, fleet, Clock.systemUTC()));
      return new Started(s, pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }
}
