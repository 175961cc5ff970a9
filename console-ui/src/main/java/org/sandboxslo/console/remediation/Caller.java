package org.sandboxslo.console.remediation;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Who calls the remediation API, as mapped from a bearer token in configuration.
 *
 * @param user user name, e.g. {@code alice}
 * @param roles roles, each {@code role} (any namespace) or {@code role:namespace}; roles are {@code
 *     viewer} (read plans and audit), {@code operator} (create, execute, cancel), {@code approver}
 *     (approve) and {@code admin} (all of them)
 */
public record Caller(String user, Set<String> roles) {
  /** The roles a caller may hold. */
  public static final List<String> ROLES = List.of("viewer", "operator", "approver", "admin");

  public Caller {
    Objects.requireNonNull(user, "user");
    roles = Set.copyOf(roles);
  }

  /**
   * Whether the caller holds {@code role} for {@code namespace} ({@code null}: a cluster-wide
   * subject, only unscoped roles count). {@code admin} holds every role; {@code operator} and
   * {@code approver} imply {@code viewer}.
   */
  public boolean has(String role, String namespace) {
    for (String r : roles) {
      int i = r.indexOf(':');
      String name = i < 0 ? r : r.substring(0, i);
      String ns = i < 0 ? null : r.substring(i + 1);
      boolean roleOk =
          name.equals(role)
              || name.equals("admin")
              || (role.equals("viewer") && (name.equals("operator") || name.equals("approver")));
      if (roleOk && (ns == null || ns.equals(namespace))) {
        return true;
      }
    }
    return false;
  }
}
