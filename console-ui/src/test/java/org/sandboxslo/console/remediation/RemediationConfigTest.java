package org.sandboxslo.console.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.auth.Caller;

class RemediationConfigTest {
  @Test
  void tokensMapToUsersAndRolesAndAreMaskedInTheLog() {
    RemediationConfig c =
        RemediationConfig.fromMap(
            Map.of(
                RemediationConfig.TOKENS,
                "alice:token-a:operator+approver,bob:token-b:approver:team-a+viewer"));
    assertEquals(new Caller("alice", Set.of("operator", "approver")), c.tokens().get("token-a"));
    assertEquals(new Caller("bob", Set.of("approver:team-a", "viewer")), c.tokens().get("token-b"));
    assertTrue(c.twoPerson());
    assertEquals(0.34, c.maxUnavailableFraction());
    String d = c.describe();
    assertFalse(d.contains("token-a"), d);
    assertFalse(d.contains("token-b"), d);
    assertTrue(d.contains("alice:****:approver+operator"), d);
    assertNull(c.demoToken());
    assertEquals(c, c.withDemoAdmin());
  }

  @Test
  void withoutTokensTheDemoGetsARandomAdminToken() {
    RemediationConfig c = RemediationConfig.fromMap(Map.of()).withDemoAdmin();
    assertNotNull(c.demoToken());
    assertTrue(c.demoToken().matches("demo-[0-9a-f]{32}"), c.demoToken());
    assertEquals("admin", c.tokens().get(c.demoToken()).user());
    assertEquals(2, c.tokens().size());
    assertTrue(c.tokens().values().contains(new Caller("reviewer", Set.of("approver", "viewer"))));
    assertFalse(c.describe().contains(c.demoToken()));
  }

  @Test
  void badKeysAndValuesAreOneLineErrorsNamingTheKey() {
    assertEquals(
        "sloconsole.auth.tokens: unknown role 'root' for user alice; roles: viewer, operator, approver, slo-owner, admin "
            + "(optionally role:namespace)",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    RemediationConfig.fromMap(
                        Map.of(RemediationConfig.TOKENS, "alice:secret:root")))
            .getMessage());
    assertEquals(
        "sloconsole.auth.tokens: expected user:token:role+role, got 'alice:****:'",
        assertThrows(
                IllegalArgumentException.class,
                () -> RemediationConfig.fromMap(Map.of(RemediationConfig.TOKENS, "alice:secret:")))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> RemediationConfig.fromMap(Map.of("sloconsole.auth.tokenz", "x")))
            .getMessage()
            .startsWith("unknown configuration key sloconsole.auth.tokenz; known: "));
    assertEquals(
        "sloconsole.remediation.max-unavailable-fraction: expected a number in (0, 1], got 1.5",
        assertThrows(
                IllegalArgumentException.class,
                () -> RemediationConfig.fromMap(Map.of(RemediationConfig.MAX_UNAVAILABLE, "1.5")))
            .getMessage());
    assertEquals(
        "sloconsole.auth.two-person: expected true or false, got 'yes'",
        assertThrows(
                IllegalArgumentException.class,
                () -> RemediationConfig.fromMap(Map.of(RemediationConfig.TWO_PERSON, "yes")))
            .getMessage());
  }

  @Test
  void approverRolesArePerAction() {
    RemediationConfig c =
        RemediationConfig.fromMap(
            Map.of(
                RemediationConfig.APPROVER_ROLES,
                "DeleteExpiredClaims:admin,ShardPool:approver+admin"));
    assertEquals(java.util.List.of("admin"), c.approversOf(PlanAction.DELETE_EXPIRED_CLAIMS));
    assertEquals(java.util.List.of("approver", "admin"), c.approversOf(PlanAction.SHARD_POOL));
    assertEquals(java.util.List.of("approver"), c.approversOf(PlanAction.PACED_RECREATE));
    assertTrue(c.describe().contains("DeleteExpiredClaims:admin"), c.describe());
    assertEquals(
        "sloconsole.auth.approver-roles: expected Action:role+role with an action of PacedRecreate, "
            + "SetUpdateStrategy, ScalePool, ShardPool, SetRefillPacing, DeleteExpiredClaims, got 'Nuke:admin'",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    RemediationConfig.fromMap(
                        Map.of(RemediationConfig.APPROVER_ROLES, "Nuke:admin")))
            .getMessage());
  }

  @Test
  void rolesAreScopedByNamespaceAndAdminHoldsAll() {
    Caller bob = new Caller("bob", Set.of("approver:team-a"));
    assertTrue(bob.has("approver", "team-a"));
    assertFalse(bob.has("approver", "team-b"));
    assertFalse(bob.has("approver", null));
    assertTrue(bob.has("viewer", "team-a"));
    assertFalse(bob.has("operator", "team-a"));
    Caller admin = new Caller("admin", Set.of("admin"));
    assertTrue(admin.has("operator", "demo"));
    assertTrue(admin.has("approver", null));
  }
}
