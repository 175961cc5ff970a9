package org.sandboxslo.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sandboxslo.console.api.ApiException;

/** Bearer token → caller, by hash comparison over every configured token. */
class AuthenticatorTest {
  static final Caller ALICE = new Caller("alice", Set.of("operator"));
  static final Caller BOB = new Caller("bob", Set.of("approver:team-a"));
  final Authenticator auth =
      new Authenticator(Map.of("token-alice-0123", ALICE, "token-bob-4567", BOB));

  @Test
  void eachTokenMapsToItsCaller() {
    assertEquals(ALICE, auth.authenticate("Bearer token-alice-0123"));
    assertEquals(BOB, auth.authenticate("Bearer token-bob-4567"));
    // the scheme is case-insensitive (RFC 7235), surrounding blanks of the token are ignored
    assertEquals(BOB, auth.authenticate("bearer  token-bob-4567 "));
  }

  @Test
  void unknownPrefixOrExtendedTokensAre401() {
    for (String header :
        new String[] {
          "Bearer token-alice-012", // a prefix of a real token
          "Bearer token-alice-01234", // a real token plus one character
          "Bearer TOKEN-ALICE-0123", // tokens are case-sensitive
          "Bearer "
        }) {
      ApiException e = assertThrows(ApiException.class, () -> auth.authenticate(header), header);
      assertEquals(401, e.status());
      assertEquals("Authorization", e.toJson().getString("field"));
    }
    assertEquals(
        "unknown token",
        assertThrows(ApiException.class, () -> auth.authenticate("Bearer nope"))
            .toJson()
            .getString("reason"));
  }

  @Test
  void missingOrOtherSchemesAre401WithTheExpectedForm() {
    assertEquals(
        "missing bearer token (Authorization: Bearer <token>)",
        assertThrows(ApiException.class, () -> auth.authenticate(null))
            .toJson()
            .getString("reason"));
    assertEquals(
        "expected Authorization: Bearer <token>",
        assertThrows(ApiException.class, () -> auth.authenticate("Basic dG9rZW4tYWxpY2UtMDEyMw=="))
            .toJson()
            .getString("reason"));
  }

  @Test
  void withoutConfiguredTokensEveryCallIs401() {
    Authenticator none = new Authenticator(Map.of());
    assertEquals(
        401,
        assertThrows(ApiException.class, () -> none.authenticate("Bearer token-alice-0123"))
            .status());
  }
}
