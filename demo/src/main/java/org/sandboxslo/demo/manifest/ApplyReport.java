package org.sandboxslo.demo.manifest;

import java.util.List;

/**
 * What {@link ManifestApplier#apply} did. Every entry is one line.
 *
 * @param applied objects created or updated, in apply order, as {@code <Kind> <namespace>/<name>}
 *     (cluster-scoped: {@code <Kind> <name>}), e.g. {@code SandboxTemplate
 *     default/example-template}
 * @param skipped documents deliberately not applied, e.g. {@code file x/kustomization.yaml:
 *     document 1: Kustomization skipped (not expanded)}
 * @param errors problems, each naming the file and the document or object, e.g. {@code file x.yaml:
 *     SandboxClaim default/c1: spec.warmPoolRef.name: missing}; an error never stops the other
 *     documents
 */
public record ApplyReport(List<String> applied, List<String> skipped, List<String> errors) {
  public ApplyReport {
    applied = List.copyOf(applied);
    skipped = List.copyOf(skipped);
    errors = List.copyOf(errors);
  }

  /** True when there was no error. */
  public boolean ok() {
    return errors.isEmpty();
  }
}
