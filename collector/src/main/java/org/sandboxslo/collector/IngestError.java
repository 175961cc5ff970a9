package org.sandboxslo.collector;

import java.util.Objects;
import org.sandboxslo.engine.model.Kind;

/**
 * A class of ingest failure counted by {@link SandboxCollector#ingestErrors()}. Bounded
 * cardinality: the reason never contains object names or values.
 *
 * @param kind the informer's kind
 * @param reason {@code <field> <code>} for malformed objects (e.g. {@code spec.warmPoolRef.name
 *     missing}, {@code metadata.annotations[agents.x-k8s.io/claim-first-ready-at] bad timestamp}),
 *     {@code sink} when the sink threw, {@code watch} when the informer's list/watch failed, or
 *     {@code unexpected <ExceptionClass>} for a conversion bug
 */
public record IngestError(Kind kind, String reason) {
  public IngestError {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
  }
}
