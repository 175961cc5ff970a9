package org.sandboxslo.tests.e2e;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.sandboxslo.store.EmbeddedDatabase;

/**
 * Fault injection into the console's PostgreSQL for the end-to-end suites: signals to the embedded
 * server's processes (postmaster from {@code postmaster.pid} and its descendants), and a dedicated
 * cluster of the Debian {@code postgresql} package driven with {@code pg_createcluster} and {@code
 * pg_ctlcluster} (installed by {@code .ci/run}).
 */
final class PostgresFaults {
  /** The Debian cluster the external-database suite creates and stops (never the main one). */
  static final String CLUSTER = "sloconsole-e2e";

  static final String USER = "sloconsole";
  static final String PASSWORD = "sloconsole-e2e";
  static final String DATABASE = "sloconsole_e2e";

  private PostgresFaults() {}

  /** Sends {@code signal} ({@code STOP}, {@code CONT}, {@code KILL}) to every server process. */
  static List<Long> signal(EmbeddedDatabase db, String signal) {
    OptionalLong pid = db.postmasterPid();
    List<Long> pids = new ArrayList<>();
    pid.ifPresent(
        p ->
            ProcessHandle.of(p)
                .ifPresent(
                    h -> {
                      pids.add(h.pid());
                      h.descendants().forEach(d -> pids.add(d.pid()));
                    }));
    if (pids.isEmpty()) {
      throw new IllegalStateException("no postmaster running in " + db.dataDir());
    }
    List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(p -> cmd.add(String.valueOf(p)));
    run(cmd);
    return pids;
  }

  /**
   * Whether the Debian server can be used: {@code pg_ctlcluster}, {@code pg_createcluster} and
   * {@code pg_dropcluster} are installed and this process runs as root (it creates a cluster owned
   * by {@code postgres}).
   */
  static boolean debianServerAvailable() {
    return Files.isExecutable(Path.of("/usr/bin/pg_ctlcluster"))
        && Files.isExecutable(Path.of("/usr/bin/pg_createcluster"))
        && Files.isExecutable(Path.of("/usr/bin/pg_dropcluster"))
        && Files.isDirectory(Path.of("/usr/lib/postgresql"))
        && "root".equals(System.getProperty("user.name"));
  }

  /** The newest installed server version, e.g. {@code 15}. */
  static String version() {
    try (var dirs = Files.list(Path.of("/usr/lib/postgresql"))) {
      return dirs.map(p -> p.getFileName().toString())
          .filter(n -> n.matches("\\d+"))
          .max(java.util.Comparator.comparingInt(Integer::parseInt))
          .orElseThrow(() -> new IllegalStateException("no server under /usr/lib/postgresql"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Creates the cluster {@value #CLUSTER} afresh on a free port (dropping one left by an earlier
   * run, whose port may be taken by now), starts it and adds role {@value #USER} and database
   * {@value #DATABASE}.
   *
   * @return its port
   */
  static int startCluster() {
    String v = version();
    if (clusterPort(v) >= 0) {
      run(List.of("pg_dropcluster", "--stop", v, CLUSTER));
    }
    int port = freePort();
    run(List.of("pg_createcluster", v, CLUSTER, "-p", String.valueOf(port), "--start"));
    psql(port, "create role " + USER + " login password '" + PASSWORD + "'");
    psql(port, "create database " + DATABASE + " owner " + USER);
    return port;
  }

  /** Stops and removes the cluster (data, configuration, log). */
  static void dropCluster() {
    run(List.of("pg_dropcluster", "--stop", version(), CLUSTER));
  }

  /** {@code pg_ctlcluster <v> sloconsole-e2e stop -m immediate}: no shutdown checkpoint. */
  static void stopCluster() {
    run(List.of("pg_ctlcluster", version(), CLUSTER, "stop", "-m", "immediate"));
  }

  static void startStoppedCluster() {
    run(List.of("pg_ctlcluster", version(), CLUSTER, "start"));
  }

  private static int clusterPort(String v) {
    for (String line : run(List.of("pg_lsclusters", "-h")).split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].equals(v) && f[1].equals(CLUSTER)) {
        return Integer.parseInt(f[2]);
      }
    }
    return -1;
  }

  private static void psql(int port, String sql) {
    run(
        List.of(
            "runuser",
            "-u",
            "postgres",
            "--",
            "psql",
            "-p",
            String.valueOf(port),
            "-v",
            "ON_ERROR_STOP=1",
            "-qc",
            sql));
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static String run(List<String> cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out.strip());
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    }
  }
}
