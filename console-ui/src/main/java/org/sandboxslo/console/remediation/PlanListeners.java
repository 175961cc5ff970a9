package org.sandboxslo.console.remediation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.sandboxslo.store.PlanRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The registered {@link PlanListener}s of one {@link Remediation}; thread-safe. */
final class PlanListeners {
  private static final Logger LOG = LoggerFactory.getLogger(PlanListeners.class);
  private final List<PlanListener> listeners = new CopyOnWriteArrayList<>();

  Runnable add(PlanListener l) {
    listeners.add(l);
    return () -> listeners.remove(l);
  }

  void executing(PlanRow p) {
    for (PlanListener l : listeners) {
      try {
        l.executing(p);
      } catch (RuntimeException e) {
        LOG.warn("plan listener failed on {} executing: {}", p.id(), e.toString());
      }
    }
  }

  void finished(PlanRow p, PlanState state) {
    for (PlanListener l : listeners) {
      try {
        l.finished(p, state);
      } catch (RuntimeException e) {
        LOG.warn("plan listener failed on {} {}: {}", p.id(), state, e.toString());
      }
    }
  }
}
