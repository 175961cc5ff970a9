package org.sandboxslo.server.record;

import io.vertx.core.json.JsonObject;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.sandboxslo.collector.EnvRedaction;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.engine.model.Kind;

/**
 * Writes what the console observes in the replay timeline format ({@code ../shared/cases}
 * conventions), so an incident can be replayed later with {@code sandbox-slo replay FILE}: a {@code
 * case}/{@code timeline} YAML document whose entries are one JSON flow mapping per line ({@code at}
 * = receive time, {@code type}, {@code object} or {@code kind}). The file is valid while it grows;
 * each line is flushed. Env values ({@code spec.env[].value} of claims, container env) are written
 * as {@value org.sandboxslo.collector.EnvRedaction#REDACTED} ({@link EnvRedaction}).
 */
public final class TimelineRecorder implements SandboxCollector.Recorder, AutoCloseable {
  private final BufferedWriter out;
  private final Path file;

  /**
   * Creates (or truncates) {@code file}; throws IllegalArgumentException naming it when it cannot.
   */
  public TimelineRecorder(Path file) {
    this.file = file;
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
      out.write(
          "# recorded by sandbox-slo; replay with: sandbox-slo replay "
              + file.getFileName()
              + "\n");
      out.write("case: recorded\ntimeline:\n");
      out.flush();
    } catch (IOException e) {
      throw new IllegalArgumentException("--record " + file + ": " + e.getMessage());
    }
  }

  @Override
  public synchronized void event(
      String type, Kind kind, Map<String, Object> object, Instant receivedAt) {
    JsonObject e = new JsonObject().put("at", receivedAt.toString()).put("type", type);
    if (object != null) {
      // secrets never leave the process: env values of claims and pod templates are redacted
      e.put("object", new JsonObject(EnvRedaction.redact(object)));
    } else {
      e.put("kind", kind.kindName());
    }
    try {
      out.write("- ");
      out.write(e.encode());
      out.write('\n');
      out.flush();
    } catch (IOException ex) {
      throw new UncheckedIOException("recording to " + file + " failed", ex);
    }
  }

  @Override
  public synchronized void close() {
    try {
      out.close();
    } catch (IOException e) {
      // nothing more can be written; the lines written so far are complete
    }
  }
}
