package org.sandboxslo.console.engine;

import java.time.Instant;
import java.util.Objects;
import org.sandboxslo.engine.finding.Finding;

/**
 * A finding as the console tracks it over time.
 *
 * @param finding the latest diagnosis (for closed ones, the last seen)
 * @param firstSeen when the console first reported it (or the finding's own evidence time, if
 *     earlier)
 * @param closedAt when it stopped being reported; null while open
 */
public record FindingState(Finding finding, Instant firstSeen, Instant closedAt) {
  public FindingState {
    Objects.requireNonNull(finding, "finding");
    Objects.requireNonNull(firstSeen, "firstSeen");
  }

  public boolean open() {
    return closedAt == null;
  }
}
