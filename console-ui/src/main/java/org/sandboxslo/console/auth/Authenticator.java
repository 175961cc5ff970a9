package org.sandboxslo.console.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sandboxslo.console.api.ApiException;

/**
 * Maps an {@code Authorization: Bearer <token>} header to the {@link Caller} configured for the
 * token ({@code sloconsole.auth.tokens}).
 *
 * <p>Only SHA-256 hashes of the configured tokens are kept. A presented token is hashed and
 * compared with every configured hash by {@link MessageDigest#isEqual} (constant time in the hash
 * length), without stopping at a match, so neither the comparison nor a map lookup keyed by the
 * secret tells an attacker how much of a guess was right. Thread-safe and immutable.
 */
public final class Authenticator {
  private record Entry(byte[] hash, Caller caller) {}

  private final List<Entry> entries;

  /**
   * @param tokens token → caller, as configured; empty means every call is 401
   */
  public Authenticator(Map<String, Caller> tokens) {
    List<Entry> out = new ArrayList<>();
    tokens.forEach((token, caller) -> out.add(new Entry(sha256(token), caller)));
    this.entries = List.copyOf(out);
  }

  /**
   * The caller of a request.
   *
   * @param authorization the {@code Authorization} header, or null
   * @throws ApiException 401 when the header is missing, not {@code Bearer}, or the token unknown
   */
  public Caller authenticate(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      throw new ApiException(
          401,
          "unauthorized",
          "Authorization",
          "missing bearer token (Authorization: Bearer <token>)");
    }
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new ApiException(
          401, "unauthorized", "Authorization", "expected Authorization: Bearer <token>");
    }
    Caller found = find(authorization.substring(7).trim());
    if (found == null) {
      throw new ApiException(401, "unauthorized", "Authorization", "unknown token");
    }
    return found;
  }

  /**
   * The caller of a bare token, or null when no configured token matches. Compares the token's
   * SHA-256 with every configured hash in constant time, without stopping at a match.
   */
  public Caller find(String token) {
    byte[] presented = sha256(token);
    Caller found = null;
    for (Entry e : entries) {
      if (MessageDigest.isEqual(e.hash(), presented) && found == null) {
        found = e.caller();
      }
    }
    return found;
  }

  /** Whether any token is configured. */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
