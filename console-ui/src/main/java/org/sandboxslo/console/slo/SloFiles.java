package org.sandboxslo.console.slo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloDefinitions;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Loads SLO definitions from YAML files: every {@code *.yaml}/{@code *.yml} in a directory (or one
 * file), multi-document. A document with {@code apiVersion: openslo/v1} is an OpenSLO {@code SLO}
 * (see {@link SloDefinitions#fromOpenSlo} for what maps; unmapped fields are reported as notices:
 * {@code spec.service}, {@code spec.alertPolicies}, {@code spec.indicator.spec}, calendar windows,
 * extra objectives); any other document uses the console's own shape (as {@code POST
 * /api/v1/slos}). A bad document gives one error line naming file, document and field; the other
 * documents still load.
 */
public final class SloFiles {
  private SloFiles() {}

  /**
   * @param definitions valid definitions in file order
   * @param errors one line per bad document: {@code file#doc: field: reason}
   * @param notices one line per OpenSLO field that does not map
   */
  public record Loaded(
      List<SloDefinition> definitions,
      List<Map<String, Object>> bodies,
      List<String> errors,
      List<String> notices) {
    public Loaded {
      definitions = List.copyOf(definitions);
      bodies = List.copyOf(bodies);
      errors = List.copyOf(errors);
      notices = List.copyOf(notices);
    }
  }

  /** Loads a directory (non-recursive, sorted) or a single file. */
  public static Loaded load(Path path) {
    List<Path> files = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    if (Files.isDirectory(path)) {
      try (Stream<Path> s = Files.list(path)) {
        s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
            .sorted()
            .forEach(files::add);
      } catch (IOException e) {
        errors.add(path + ": cannot list: " + e.getMessage());
      }
    } else if (Files.isRegularFile(path)) {
      files.add(path);
    } else {
      errors.add(path + ": no such file or directory");
    }
    List<SloDefinition> defs = new ArrayList<>();
    List<Map<String, Object>> bodies = new ArrayList<>();
    List<String> notices = new ArrayList<>();
    for (Path f : files) {
      String text;
      try {
        text = Files.readString(f);
      } catch (IOException e) {
        errors.add(f + ": cannot read: " + e.getMessage());
        continue;
      }
      parse(f.toString(), text, defs, bodies, errors, notices);
    }
    return new Loaded(defs, bodies, errors, notices);
  }

  /** Parses YAML text (multi-document) named {@code source} in messages. */
  @SuppressWarnings("unchecked")
  public static void parse(
      String source,
      String text,
      List<SloDefinition> defs,
      List<Map<String, Object>> bodies,
      List<String> errors,
      List<String> notices) {
    Load yaml = new Load(LoadSettings.builder().build());
    int doc = 0;
    try {
      for (Object o : yaml.loadAllFromString(text)) {
        doc++;
        if (o == null) {
          continue;
        }
        String where = source + "#" + doc;
        if (!(o instanceof Map<?, ?> m)) {
          errors.add(where + ": expected a mapping");
          continue;
        }
        Map<String, Object> body = (Map<String, Object>) m;
        boolean openSlo =
            "openslo/v1".equals(body.get("apiVersion")) || body.containsKey("apiVersion");
        SloDefinitions.Parsed p =
            openSlo ? SloDefinitions.fromOpenSlo(body) : SloDefinitions.parse(body);
        if (!p.isValid()) {
          p.errors().forEach(e -> errors.add(where + ": " + e.field() + ": " + e.reason()));
          continue;
        }
        p.ignored()
            .forEach(
                i ->
                    notices.add(
                        where
                            + " ("
                            + p.definition().name()
                            + "): OpenSLO field not mapped: "
                            + i));
        defs.add(p.definition());
        bodies.add(body);
      }
    } catch (RuntimeException e) { // SnakeYAML syntax errors
      errors.add(
          source + "#" + (doc + 1) + ": not valid YAML: " + e.getMessage().replace('\n', ' '));
    }
  }
}
