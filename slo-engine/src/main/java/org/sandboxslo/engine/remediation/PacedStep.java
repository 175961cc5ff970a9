package org.sandboxslo.engine.remediation;

import java.util.List;

/**
 * What a paced Recreate does next, decided from the live pool state: delete a batch, wait, or stop.
 */
public sealed interface PacedStep {
  /**
   * Delete these members now (each re-checked just before: still owned by the pool, still stale).
   *
   * @param names 1..maxUnavailable member names, in plan order
   */
  record Delete(List<String> names) implements PacedStep {
    public Delete {
      names = List.copyOf(names);
      if (names.isEmpty()) {
        throw new IllegalArgumentException("a delete step needs at least one member");
      }
    }
  }

  /**
   * Set the pool's {@code spec.replicas} first: a surge that makes the controller create canaries
   * on the current template before any Ready stale member is deleted, or, at the end, the restore
   * to the replicas the plan started from.
   *
   * @param replicas the new spec.replicas, &gt;= 0
   * @param reason one sentence with the numbers
   */
  record Scale(int replicas, String reason) implements PacedStep {
    public Scale {
      if (replicas < 0) {
        throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
      }
    }
  }

  /**
   * Not now: the replacements of the previous batch are not Ready yet, or deleting would take the
   * pool below its floor.
   *
   * @param reason one sentence with the numbers
   */
  record Wait(String reason) implements PacedStep {}

  /**
   * Finished: no planned member is left to delete and the pool is back at or above its floor.
   *
   * @param skipped planned members not deleted because they were claimed, gone, or no longer stale
   *     when their turn came
   */
  record Done(List<String> skipped) implements PacedStep {
    public Done {
      skipped = List.copyOf(skipped);
    }
  }
}
