package org.sandboxslo.engine.finding;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A diagnosis: what is wrong, about what, how sure (evidence with arithmetic), and what would fix
 * it.
 *
 * @param kind the kind
 * @param subject {@code namespace/name} of the pool, template, claim or object concerned (prefixed
 *     with its kind, e.g. {@code SandboxWarmPool team-a/pool-py})
 * @param severity how urgent
 * @param firstSeen when the condition started (evidence time, e.g. the template change)
 * @param lastSeen the evaluation time
 * @param explanation one or two sentences
 * @param evidence the numbers, each with its arithmetic
 * @param objects objects involved ({@code kind ns/name}), e.g. the stale members
 * @param proposals what would fix it
 */
public record Finding(
    FindingKind kind,
    String subject,
    Severity severity,
    Instant firstSeen,
    Instant lastSeen,
    String explanation,
    List<Evidence> evidence,
    List<String> objects,
    List<Proposal> proposals) {
  public Finding {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(severity, "severity");
    evidence = List.copyOf(evidence);
    objects = List.copyOf(objects);
    proposals = List.copyOf(proposals);
  }

  /** The value of the named evidence, or null. */
  public String evidence(String name) {
    for (Evidence e : evidence) {
      if (e.name().equals(name)) {
        return e.value();
      }
    }
    return null;
  }

  public String runbook() {
    return kind.runbook();
  }
}
