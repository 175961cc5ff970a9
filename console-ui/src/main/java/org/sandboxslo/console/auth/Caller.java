package org.sandboxslo.console.auth;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Who calls the console, as resolved once per request by {@link ConsoleAuth} (a static token, a
 * validated JWT, or identity headers of an authenticating proxy).
 *
 * @param user user name, e.g. {@code alice}; the actor written to every audit row
 * @param roles roles, each {@code role} (any namespace) or {@code role:namespace}; roles are {@code
 *     viewer} (read everything), {@code operator} (create, execute and cancel plans), {@code
 *     approver} (approve plans), {@code slo-owner} (create, replace and delete SLOs, add and revoke
 *     budget exclusions) and {@code admin} (all of them)
 */
public record Caller(String user, Set<String> roles) {
  /** The roles a caller may hold. */
  public static final List<String> ROLES =
      List.of("viewer", "operator", "approver", "slo-owner", "admin");

  /** The caller of an unauthenticated read when {@code sloconsole.auth.anonymous-read=true}. */
  public static final Caller ANONYMOUS = new Caller("anonymous", Set.of("viewer"));

  public Caller {
    Objects.requireNonNull(user, "user");
    roles = Set.copyOf(roles);
  }

  /**
   * Whether the caller holds {@code role} for {@code namespace} ({@code null}: a cluster-wide
   * subject, only unscoped roles count). {@code admin} holds every role; {@code operator}, {@code
   * approver} and {@code slo-owner} imply {@code viewer}.
   */
  public boolean has(String role, String namespace) {
    for (String r : roles) {
      int i = r.indexOf(':');
      String name = i < 0 ? r : r.substring(0, i);
      String ns = i < 0 ? null : r.substring(i + 1);
      boolean roleOk =
          name.equals(role)
              || name.equals("admin")
              || (role.equals("viewer")
                  && (name.equals("operator")
                      || name.equals("approver")
                      || name.equals("slo-owner")));
      if (roleOk && (ns == null || ns.equals(namespace))) {
        return true;
      }
    }
    return false;
  }
}
