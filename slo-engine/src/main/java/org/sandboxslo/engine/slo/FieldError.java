package org.sandboxslo.engine.slo;

/**
 * A validation error for one input field (HTTP 400 body, CLI error line).
 *
 * @param field JSON path of the field, e.g. {@code objective} or {@code selector.sandboxTemplate}
 * @param reason what is wrong, one sentence
 */
public record FieldError(String field, String reason) {
  @Override
  public String toString() {
    return field + ": " + reason;
  }
}
