package org.sandboxslo.console.slo;

import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.representer.StandardRepresenter;

/**
 * Writes rule files with snakeyaml-engine from maps and lists (insertion order kept): block style,
 * lists indented under their key, lines never folded, multi-line strings (PromQL) as literal
 * blocks, and strings that YAML 1.1 readers (Prometheus' Go YAML) would take for booleans ({@code
 * yes}, {@code on}, ...) quoted. Numbers must be {@code Long} or {@code Double}; everything else is
 * a {@code String}, a {@code Map} or a {@code List}.
 */
final class RuleYaml {
  private RuleYaml() {}

  private static final Pattern YAML11_BOOL =
      Pattern.compile("y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF");

  private static final DumpSettings SETTINGS =
      DumpSettings.builder()
          .setDefaultFlowStyle(FlowStyle.BLOCK)
          .setIndent(2)
          .setIndicatorIndent(2)
          .setIndentWithIndicator(true)
          .setSplitLines(false)
          .setWidth(Integer.MAX_VALUE)
          .setDereferenceAliases(true)
          .build();

  /** The YAML document of {@code doc}, ending with a newline. */
  static String dump(Object doc) {
    return new Dump(SETTINGS, new Representer()).dumpToString(doc);
  }

  private static final class Representer extends StandardRepresenter {
    Representer() {
      super(SETTINGS);
      representers.put(String.class, data -> string((String) data));
    }

    private Node string(String s) {
      ScalarStyle style = ScalarStyle.PLAIN;
      if (s.indexOf('\n') >= 0) {
        style = ScalarStyle.LITERAL;
      } else if (YAML11_BOOL.matcher(s).matches()) {
        style = ScalarStyle.DOUBLE_QUOTED;
      }
      return representScalar(Tag.STR, s, style);
    }
  }
}
