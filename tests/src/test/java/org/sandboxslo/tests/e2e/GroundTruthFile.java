package org.sandboxslo.tests.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The load profile's ground truth (one JSON object per Ready claim), grouped by template. */
final class GroundTruthFile {
  private GroundTruthFile() {}

  /** Claims of one template. */
  static final class PerTemplate {
    long warm;
    long cold;
    final List<Double> allMs = new ArrayList<>();
    final List<Double> warmMs = new ArrayList<>();
    final List<Double> coldMs = new ArrayList<>();
  }

  static Map<String, PerTemplate> read(Path file) throws IOException {
    Map<String, PerTemplate> out = new TreeMap<>();
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode n = Http.JSON.readTree(line);
      PerTemplate t =
          out.computeIfAbsent(
              n.get("namespace").asText() + "/" + n.get("template").asText(),
              k -> new PerTemplate());
      double ms = n.get("latencyMs").asDouble();
      t.allMs.add(ms);
      if ("warm".equals(n.get("launchType").asText())) {
        t.warm++;
        t.warmMs.add(ms);
      } else {
        t.cold++;
        t.coldMs.add(ms);
      }
    }
    return out;
  }

  /** Nearest-rank quantile (the sample at rank ceil(q × n)), in seconds; null when empty. */
  static Double quantileSeconds(List<Double> ms, double q) {
    if (ms.isEmpty()) {
      return null;
    }
    List<Double> s = new ArrayList<>(ms);
    s.sort(null);
    int rank = (int) Math.max(1, Math.ceil(q * s.size()));
    return s.get(rank - 1) / 1000.0;
  }
}
