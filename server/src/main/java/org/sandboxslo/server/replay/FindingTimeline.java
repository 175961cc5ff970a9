package org.sandboxslo.server.replay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.Severity;

/**
 * Follows findings (by kind + subject) over the evaluations of a replay: when each first appeared,
 * when its alert fired or would fire ({@link FindingAlerts}), and which ones were resolved before
 * the clock. Evaluations must come in time order.
 */
public final class FindingTimeline {

  /**
   * A finding present at the clock.
   *
   * @param finding the finding as evaluated at the clock
   * @param appearedAt the first evaluation of the current uninterrupted run in which it was present
   * @param alert its alert, or null when the kind has none
   * @param firesAt when the alert fired (≤ clock) or would fire if the finding persists (&gt;
   *     clock); null without an alert or while the finding is below the alert's severity
   * @param worst the highest severity it had in this run
   */
  public record Tracked(
      Finding finding,
      Instant appearedAt,
      FindingAlerts.Alert alert,
      Instant firesAt,
      Severity worst) {
    public Tracked {
      Objects.requireNonNull(finding, "finding");
      Objects.requireNonNull(appearedAt, "appearedAt");
    }

    /** Whether the alert fired at or before {@code clock}. */
    public boolean firing(Instant clock) {
      return firesAt != null && !firesAt.isAfter(clock);
    }
  }

  /**
   * A finding that appeared and went away before the clock.
   *
   * @param kind wire name of its kind
   * @param subject its subject
   * @param appearedAt first evaluation it was present in
   * @param resolvedAt first evaluation it was absent from again
   * @param worst highest severity it had
   * @param alertFiredAt when its alert fired during the run, or null when it never did
   */
  public record Resolved(
      String kind,
      String subject,
      Instant appearedAt,
      Instant resolvedAt,
      Severity worst,
      Instant alertFiredAt) {}

  private static final class Run {
    Finding finding;
    Instant appearedAt;
    Instant qualifyingSince;
    Instant firedAt;
    Instant firstFiredAt;
    Severity worst;
  }

  private final Map<String, Run> open = new LinkedHashMap<>();
  private List<String> lastOrder = List.of();
  private final List<Resolved> resolved = new ArrayList<>();
  private int evaluations;

  /** Records the findings evaluated at {@code at}. */
  void evaluated(Instant at, List<Finding> findings) {
    evaluations++;
    Set<String> present = new HashSet<>();
    for (Finding f : findings) {
      String key = f.kind().wireName() + " " + f.subject();
      present.add(key);
      Run r = open.computeIfAbsent(key, k -> new Run());
      if (r.appearedAt == null) {
        r.appearedAt = at;
        r.worst = f.severity();
      }
      r.finding = f;
      if (f.severity().compareTo(r.worst) > 0) {
        r.worst = f.severity();
      }
      FindingAlerts.Alert a = FindingAlerts.of(f.kind());
      if (a != null && a.counts(f.severity())) {
        if (r.qualifyingSince == null) {
          r.qualifyingSince = at;
        }
        Instant due = r.qualifyingSince.plus(a.forDuration());
        if (r.firedAt == null && !due.isAfter(at)) {
          r.firedAt = due;
          if (r.firstFiredAt == null) {
            r.firstFiredAt = due;
          }
        }
      } else {
        // the alert's expression went false: it resolves, and its for: starts again
        r.qualifyingSince = null;
        r.firedAt = null;
      }
    }
    List<String> order = new ArrayList<>();
    findings.forEach(f -> order.add(f.kind().wireName() + " " + f.subject()));
    lastOrder = order;
    for (var it = open.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (!present.contains(e.getKey())) {
        Run r = e.getValue();
        resolved.add(
            new Resolved(
                r.finding.kind().wireName(),
                r.finding.subject(),
                r.appearedAt,
                at,
                r.worst,
                r.firstFiredAt));
        it.remove();
      }
    }
  }

  /** Evaluations recorded so far. */
  int evaluations() {
    return evaluations;
  }

  /** The findings present at the last evaluation, in the order it returned them. */
  List<Tracked> current() {
    List<Tracked> out = new ArrayList<>();
    for (String key : new java.util.LinkedHashSet<>(lastOrder)) {
      Run r = open.get(key);
      FindingAlerts.Alert a = FindingAlerts.of(r.finding.kind());
      Instant fires =
          r.firedAt != null
              ? r.firedAt
              : r.qualifyingSince == null ? null : r.qualifyingSince.plus(a.forDuration());
      out.add(new Tracked(r.finding, r.appearedAt, a, fires, r.worst));
    }
    return out;
  }

  /** Findings that came and went, in the order they were resolved. */
  List<Resolved> resolved() {
    return List.copyOf(resolved);
  }
}
