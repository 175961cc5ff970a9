package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.sandboxslo.engine.model.Kind;

/**
 * Watch lag of one kind, from watch deliveries only (see {@link StreamHealth}).
 *
 * @param kind the kind
 * @param last lag of the newest sample (receive time − newest server time on the object)
 * @param lastAt console time of that sample
 * @param max5m largest lag sampled in the last 5 minutes (zero when none in that span)
 * @param samples5m samples in the last 5 minutes
 * @param lastDeliveryAt console time of the kind's last watch delivery, or null
 */
public record KindLag(
    Kind kind,
    Duration last,
    Instant lastAt,
    Duration max5m,
    long samples5m,
    Instant lastDeliveryAt) {
  public KindLag {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(max5m, "max5m");
  }
}
