package org.sandboxslo.engine.diagnosis;

/**
 * Compares controller versions such as {@code v0.5.3} or {@code 0.5.4-rc.1} by major.minor.patch.
 */
final class VersionOrder {
  private VersionOrder() {}

  /** True when {@code v} is before {@code than}; false when either does not parse. */
  static boolean before(String v, String than) {
    int[] a = parse(v);
    int[] b = parse(than);
    if (a == null || b == null) {
      return false;
    }
    for (int i = 0; i < 3; i++) {
      if (a[i] != b[i]) {
        return a[i] < b[i];
      }
    }
    return false;
  }

  private static int[] parse(String v) {
    String s = v.startsWith("v") ? v.substring(1) : v;
    String[] p = s.split("[.+-]");
    try {
      return new int[] {
        Integer.parseInt(p[0]),
        p.length > 1 ? Integer.parseInt(p[1]) : 0,
        p.length > 2 ? Integer.parseInt(p[2]) : 0
      };
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
