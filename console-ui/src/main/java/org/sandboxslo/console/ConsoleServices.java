package org.sandboxslo.console;

import java.util.Map;
import java.util.function.Supplier;
import org.sandboxslo.console.api.IdempotencyKeys;
import org.sandboxslo.console.auth.AuthConfig;
import org.sandboxslo.console.auth.ConsoleAuth;
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
 * @param auth the sign-in layer that resolves the caller of every API request
 * @param idempotencyOrNull where {@code Idempotency-Key}s are kept (PostgreSQL); null keeps at most
 *     {@value #MEMORY_KEYS} in memory
 * @param database the database health ({@link org.sandboxslo.store.Database#status}) reported by
 *     {@code /readyz}, or null without a database
 */
public record ConsoleServices(
    SloRegistry slos,
    ControllerViewVerticle controllerView,
    Remediation remediation,
    ConsoleAuth auth,
    IdempotencyKeys idempotencyOrNull,
    Supplier<DatabaseStatus> database) {
  /** Keys kept in memory without a database. */
  public static final int MEMORY_KEYS = 10_000;

  public ConsoleServices {
    java.util.Objects.requireNonNull(auth, "auth");
  }

  /** A copy keeping {@code Idempotency-Key}s in {@code keys}. */
  public ConsoleServices withIdempotency(IdempotencyKeys keys) {
    return new ConsoleServices(slos, controllerView, remediation, auth, keys, database);
  }

  /** A copy whose {@code /readyz} also reports {@code database}. */
  public ConsoleServices withDatabase(Supplier<DatabaseStatus> database) {
    return new ConsoleServices(
        slos, controllerView, remediation, auth, idempotencyOrNull, database);
  }

  /** No SLO service, no remediation; anonymous reads, no tokens (every write is 401). */
  public static ConsoleServices none() {
    return new ConsoleServices(
        null, null, null, ConsoleAuth.of(AuthConfig.ofTokens(Map.of(), true)), null, null);
  }

  /**
   * The services with the static tokens of the remediation configuration and anonymous reads, as
   * the tests use them; the process ({@code server}) passes its configured sign-in with {@link
   * #of(SloSubsystem, Remediation, ConsoleAuth)}.
   *
   * @param sloOrNull the running SLO subsystem, or null
   * @param remediationOrNull the running remediation service, or null
   */
  public static ConsoleServices of(SloSubsystem sloOrNull, Remediation remediationOrNull) {
    return of(
        sloOrNull,
        remediationOrNull,
        ConsoleAuth.of(
            AuthConfig.ofTokens(
                remediationOrNull == null ? Map.of() : remediationOrNull.config().tokens(), true)));
  }

  /** As above with the given sign-in layer. */
  public static ConsoleServices of(
      SloSubsystem sloOrNull, Remediation remediationOrNull, ConsoleAuth auth) {
    return new ConsoleServices(
        sloOrNull == null ? null : sloOrNull.registry(),
        sloOrNull == null ? null : sloOrNull.controllerView(),
        remediationOrNull,
        auth,
        null,
        null);
  }
}
