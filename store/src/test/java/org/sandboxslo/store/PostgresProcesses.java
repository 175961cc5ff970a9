package org.sandboxslo.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Signals to the embedded server's processes, for fault injection: the postmaster (pid from {@code
 * postmaster.pid}) and its children (backends, WAL writer, checkpointer...). {@code kill} is the
 * procps binary every Linux has.
 */
final class PostgresProcesses {
  private PostgresProcesses() {}

  /** The postmaster and its descendants, postmaster first; empty when the server is not running. */
  static List<Long> of(EmbeddedDatabase db) {
    OptionalLong pid = db.postmasterPid();
    List<Long> out = new ArrayList<>();
    if (pid.isEmpty()) {
      return out;
    }
    ProcessHandle.of(pid.getAsLong())
        .ifPresent(
            p -> {
              out.add(p.pid());
              p.descendants().forEach(d -> out.add(d.pid()));
            });
    return out;
  }

  /**
   * Sends {@code signal} ({@code STOP}, {@code CONT}, {@code KILL}) to every process of {@code db}.
   */
  static List<Long> signal(EmbeddedDatabase db, String signal)
      throws IOException, InterruptedException {
    List<Long> pids = of(db);
    if (pids.isEmpty()) {
      throw new IllegalStateException("no postmaster for " + db.dataDir());
    }
    List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(p -> cmd.add(String.valueOf(p)));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
    }
    return pids;
  }
}
