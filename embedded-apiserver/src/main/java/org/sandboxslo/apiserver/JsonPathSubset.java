package org.sandboxslo.apiserver;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The "simple JSONPath" subset CRD printer columns use: dotted fields ({@code .status.replicas}),
 * an index ({@code [0]}), a wildcard ({@code [*]}) and an equality filter ({@code
 * [?(@.type=='Ready')]}, single or double quotes). Evaluation never throws: an unparsable path or a
 * missing field gives no results.
 */
final class JsonPathSubset {
  private JsonPathSubset() {}

  private static final Pattern STEP =
      Pattern.compile(
          "\\.([A-Za-z0-9_\\-]+)"
              + "|\\[(\\d+)]"
              + "|\\[\\*]"
              + "|\\[\\?\\(@\\.([A-Za-z0-9_.\\-]+)\\s*==\\s*(?:'([^']*)'|\"([^\"]*)\")\\)]");

  /**
   * The values {@code path} selects in {@code root}, in document order.
   *
   * @param path e.g. {@code .status.conditions[?(@.type=='Ready')].status}; an optional {@code
   *     {...}} wrapper is accepted
   * @return the selected nodes (empty when none, or when the path is not in the subset)
   */
  static List<JsonNode> select(JsonNode root, String path) {
    String p = path.strip();
    if (p.startsWith("{") && p.endsWith("}")) {
      p = p.substring(1, p.length() - 1).strip();
    }
    if (p.startsWith("$")) {
      p = p.substring(1);
    }
    List<JsonNode> current = new ArrayList<>(List.of(root));
    Matcher m = STEP.matcher(p);
    int at = 0;
    while (at < p.length()) {
      if (!m.find(at) || m.start() != at) {
        return List.of();
      }
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode n : current) {
        if (m.group(1) != null) {
          if (n.isObject() && n.has(m.group(1))) {
            next.add(n.get(m.group(1)));
          }
        } else if (m.group(2) != null) {
          int i = Integer.parseInt(m.group(2));
          if (n.isArray() && i < n.size()) {
            next.add(n.get(i));
          }
        } else if (m.group(3) != null) {
          String want = m.group(4) != null ? m.group(4) : m.group(5);
          for (JsonNode e : n) {
            JsonNode v = Json.at(e, m.group(3));
            if (v.isValueNode() && v.asString().equals(want)) {
              next.add(e);
            }
          }
        } else if (n.isContainer()) {
          n.forEach(next::add);
        }
      }
      current = next;
      at = m.end();
    }
    return current;
  }
}
