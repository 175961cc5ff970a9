package org.sandboxslo.collector;

/**
 * A Kubernetes object (or manifest document) lacks a required field or carries a value of the wrong
 * shape, so it cannot become an engine view.
 *
 * <p>The message is one line, {@code <kind> <objectRef>: <field>: <reason>}, for example {@code
 * SandboxClaim demo/c1: spec.warmPoolRef.name: missing}.
 */
public final class MalformedObjectException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String kind;
  private final String objectRef;
  private final String field;
  private final String reason;
  private final String code;

  /**
   * @param kind the object's {@code kind} as given (e.g. {@code SandboxClaim}), or {@code object}
   *     when it has none
   * @param objectRef whatever name is known: {@code ns/name}, {@code name}, or {@code <unnamed>}
   * @param field dotted field path, e.g. {@code spec.warmPoolRef.name}
   * @param reason human reason, e.g. {@code missing}, {@code bad timestamp 'x'}
   * @param code the reason without the offending value (bounded cardinality, for counters), e.g.
   *     {@code bad timestamp}
   */
  public MalformedObjectException(
      String kind, String objectRef, String field, String reason, String code) {
    super(kind + " " + objectRef + ": " + field + ": " + reason, null, false, false);
    this.kind = kind;
    this.objectRef = objectRef;
    this.field = field;
    this.reason = reason;
    this.code = code;
  }

  /** The object's kind as given, or {@code object}. */
  public String kind() {
    return kind;
  }

  /** {@code ns/name}, {@code name} or {@code <unnamed>} (what was known). */
  public String objectRef() {
    return objectRef;
  }

  /** Dotted path of the offending field. */
  public String field() {
    return field;
  }

  /** Human reason, may contain the offending value. */
  public String reason() {
    return reason;
  }

  /**
   * {@code field + " " + code}, e.g. {@code spec.warmPoolRef.name missing}; bounded cardinality.
   */
  public String shortKey() {
    return field + " " + code;
  }
}
