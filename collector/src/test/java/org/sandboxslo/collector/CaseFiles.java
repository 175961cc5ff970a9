package org.sandboxslo.collector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Reads the objects of a case timeline ({@code shared/cases/inputs/*.yaml}, {@code
 * timeline[].object}).
 */
final class CaseFiles {
  private CaseFiles() {}

  static Path shared() {
    String dir = System.getProperty("shared.dir");
    if (dir == null) {
      throw new IllegalStateException("system property shared.dir is not set (surefire sets it)");
    }
    return Path.of(dir);
  }

  /** Every {@code timeline[].object} of the case file, freshly parsed (callers may mutate). */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> objects(String caseFile) {
    Path p = shared().resolve("cases/inputs").resolve(caseFile);
    try {
      Object doc = new Load(LoadSettings.builder().build()).loadFromString(Files.readString(p));
      List<Map<String, Object>> out = new ArrayList<>();
      for (Object entry : (List<Object>) ((Map<String, Object>) doc).get("timeline")) {
        Object o = ((Map<String, Object>) entry).get("object");
        if (o != null) {
          out.add((Map<String, Object>) o);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The object of the given kind, name and resourceVersion in the case file. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(String caseFile, String kind, String name, String rv) {
    for (Map<String, Object> o : objects(caseFile)) {
      Map<String, Object> md = (Map<String, Object>) o.get("metadata");
      if (kind.equals(o.get("kind"))
          && name.equals(md.get("name"))
          && rv.equals(md.get("resourceVersion"))) {
        return o;
      }
    }
    throw new IllegalArgumentException(caseFile + ": no " + kind + " " + name + "@" + rv);
  }
}
