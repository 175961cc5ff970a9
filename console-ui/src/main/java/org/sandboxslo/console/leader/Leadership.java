package org.sandboxslo.console.leader;

import java.util.function.Consumer;

/**
 * Whether this process is the one replica that acts: executes remediation plans, writes SLI and
 * budget history and prunes old rows. Every replica serves reads. The server wires a Kubernetes
 * Lease election behind it; without one, {@link #ALWAYS} keeps a single process the leader.
 *
 * <p>Implementations are thread-safe; {@link #isLeader()} is a cheap volatile read, callable on
 * event-loop threads.
 */
public interface Leadership {
  /** The single-process default: always the leader, never changes, no identity. */
  Leadership ALWAYS =
      new Leadership() {
        @Override
        public boolean isLeader() {
          return true;
        }

        @Override
        public void onChange(Consumer<Boolean> listener) {}
      };

  /** True while this process holds the leadership. */
  boolean isLeader();

  /**
   * Calls {@code listener} with the new value every time {@link #isLeader()} changes (on an
   * election thread: the listener must only enqueue work).
   */
  void onChange(Consumer<Boolean> listener);

  /** True when an election runs (false for {@link #ALWAYS}). */
  default boolean elected() {
    return false;
  }

  /** This process's identity in the election, or {@code null} without one. */
  default String identity() {
    return null;
  }

  /** The identity of the current leader as last observed, or {@code null} when unknown. */
  default String leader() {
    return isLeader() ? identity() : null;
  }
}
