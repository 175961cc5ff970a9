package org.sandboxslo.console.slo;

import java.util.List;
import java.util.Objects;
import org.sandboxslo.engine.slo.SloStatus;
import org.sandboxslo.store.SloStore;

/**
 * What the API shows of one SLO: its registration, its status, its budget exclusions.
 *
 * @param slo the registered SLO
 * @param status its evaluation (published with a snapshot, or evaluated just now)
 * @param exclusions its audited budget exclusions, oldest first; may be empty
 */
public record SloReport(
    RegisteredSlo slo, SloStatus status, List<SloStore.StoredExclusion> exclusions) {
  public SloReport {
    Objects.requireNonNull(slo, "slo");
    Objects.requireNonNull(status, "status");
    exclusions = List.copyOf(exclusions);
  }
}
