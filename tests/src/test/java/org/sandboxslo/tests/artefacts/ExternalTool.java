package org.sandboxslo.tests.artefacts;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A command-line tool found on {@code PATH} (promtool, amtool, prometheus-alertmanager).
 *
 * <p>{@link #require} fails the calling test when the tool is missing and the {@code CI}
 * environment variable is set, and aborts it (JUnit assumption, reported as skipped) otherwise.
 *
 * @param name the command name, e.g. {@code promtool}
 * @param executable absolute path of the executable found on {@code PATH}
 */
record ExternalTool(String name, Path executable) {

  /** Output of one finished run: exit code and stdout+stderr interleaved, as UTF-8 text. */
  record Result(int exitCode, String output) {}

  /**
   * Finds {@code name} on {@code PATH}.
   *
   * @param installHint how to install it, shown in the failure/skip message
   * @return the tool; never returns when missing (fails under CI, skips otherwise)
   */
  static ExternalTool require(String name, String installHint) {
    Optional<Path> found = find(name);
    if (found.isPresent()) {
      return new ExternalTool(name, found.get());
    }
    String message = name + " not found on PATH (" + installHint + ")";
    if (System.getenv("CI") != null) {
      fail(message + "; the CI environment variable is set, so this is an error");
    }
    Assumptions.abort(message);
    throw new AssertionError("unreachable");
  }

  /** Looks {@code name} up in every {@code PATH} entry; empty when absent or not executable. */
  static Optional<Path> find(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate.toAbsolutePath());
      }
    }
    return Optional.empty();
  }

  /**
   * Runs the tool to completion.
   *
   * @param workDir working directory of the process
   * @param timeout the process is killed and the test fails after this long
   * @param args arguments after the executable
   * @return exit code and combined output
   */
  Result run(Path workDir, Duration timeout, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(args);
    Path log = null;
    try {
      // Output goes to a file so that a hung process cannot block us before the timeout.
      log = Files.createTempFile(name + "-", ".log");
      Process process =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      process.getOutputStream().close();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        fail(name + " did not finish within " + timeout + ": " + String.join(" ", command));
      }
      return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + name, e);
    } finally {
      deleteQuietly(log);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a leftover temp file is harmless
    }
  }

  /** {@link #run(Path, Duration, List)} with a 60 s timeout. */
  Result run(Path workDir, String... args) {
    return run(workDir, Duration.ofSeconds(60), List.of(args));
  }
}
