package org.sandboxslo.console;

import java.util.function.Supplier;
import org.sandboxslo.console.remediation.Remediation;
import org.sandboxslo.console.slo.ControllerViewVerticle;
import org.sandboxslo.console.slo.SloRegistry;
import org.sandboxslo.console.slo.SloSubsystem;
import org.sandboxslo.store.DatabaseStatus;

/**
 * The services the console mounts, given to {@link ConsoleServer#start} and {@link ConsoleVerticle}
 * by constructor. A missing service (null) makes its routes answer 503.
 *
 * @param slos the SLO registry behind {@code /api/v1/slos}, or null
 * @param controllerView the controller view added to template items, or null
 * @param remediation the remediation service behind {@code /api/v1/plans} and {@code
 *     /api/v1/audit}, or null
 * @param database the database health ({@link org.sandboxslo.store.Database#status}) reported by
 *     {@code /readyz}, or null without a database
 */
public record ConsoleServices(
    SloRegistry slos,
    ControllerViewVerticle controllerView,
    Remediation remediation,
    Supplier<DatabaseStatus> database) {
  /** No SLO service, no remediation. */
  public static ConsoleServices none() {
    return new ConsoleServices(null, null, null, null);
  }

  /**
   * @param sloOrNull the running SLO subsystem, or null
   * @param remediationOrNull the running remediation service, or null
   */
  public static ConsoleServices of(SloSubsystem sloOrNull, Remediation remediationOrNull) {
    return new ConsoleServices(
        sloOrNull == null ? null : sloOrNull.registry(),
        sloOrNull == null ? null : sloOrNull.controllerView(),
        remediationOrNull,
        null);
  }

  /** A copy whose {@code /readyz} also reports {@code database}. */
  public ConsoleServices withDatabase(Supplier<DatabaseStatus> database) {
    return new ConsoleServices(slos, controllerView, remediation, database);
  }
}
