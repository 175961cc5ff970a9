package org.sandboxslo.engine;

import java.time.Instant;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.sli.FleetSnapshot;

/** Placeholder replaced in the next commit. */
public final class FleetEngine {
  public FleetEngine(EngineConfig config) {}

  public void apply(FleetEvent event) {}

  public FleetSnapshot snapshot(Instant now) {
    throw new UnsupportedOperationException();
  }
}
