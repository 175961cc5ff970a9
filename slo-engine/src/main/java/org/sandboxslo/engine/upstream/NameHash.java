package org.sandboxslo.engine.upstream;

import java.nio.charset.StandardCharsets;

/**
 * Upstream {@code NameHash}: 32-bit FNV-1a of the UTF-8 bytes, printed as 8 lowercase hex chars
 * (zero-padded). Example: {@code pool-py} → {@code d6848635}.
 */
public final class NameHash {
  private NameHash() {}

  private static final int FNV_OFFSET = 0x811c9dc5;
  private static final int FNV_PRIME = 0x01000193;

  /** Hash of {@code s}; throws {@link NullPointerException} for null. */
  public static String of(String s) {
    int h = FNV_OFFSET;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= (b & 0xff);
      h *= FNV_PRIME;
    }
    return String.format("%08x", h);
  }
}
