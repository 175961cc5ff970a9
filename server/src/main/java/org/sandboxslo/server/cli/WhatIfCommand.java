package org.sandboxslo.server.cli;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sandboxslo.console.routes.WhatIfRoutes;
import org.sandboxslo.engine.whatif.WhatIfComparison;
import org.sandboxslo.engine.whatif.WhatIfRequest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sandbox-slo whatif}: simulates a demand curve against today's and a proposed warm-pool
 * configuration and prints both side by side (warm-hit ratio, claim-to-ready p50/p95/p99, minimum
 * ready fraction, idle cost), or the JSON of {@code POST /api/v1/whatif} with {@code --json}. The
 * question is either a file in the API's body shape ({@code --request}) or flags: the demand
 * ({@code --shape}, {@code --rate}, ...) and pool keys as {@code --current KEY=VALUE} / {@code
 * --proposed KEY=VALUE} (the API's keys; proposed ones default to current's). Bad input is one
 * error line naming the field and exit 2.
 *
 * <pre>
 * sandbox-slo whatif --rate 40 --duration 1h \
 *   --current pools=1 --current replicas=450 --current refillRatePerPool=70 --current coldStartP50=45s \
 *   --proposed pools=4 --proposed refillRatePerPool=10
 * </pre>
 */
@Command(
    name = "whatif",
    mixinStandardHelpOptions = true,
    description =
        "Simulate a demand curve against the current and a proposed warm-pool configuration "
            + "(warm-hit ratio, claim-to-ready p50/p95/p99, minimum ready fraction, idle cost).")
public final class WhatIfCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--request",
      paramLabel = "FILE",
      description = "JSON request in the shape of POST /api/v1/whatif (instead of the flags).")
  Path request;

  @Option(
      names = "--shape",
      paramLabel = "SHAPE",
      description = "Demand: steady, diurnal, bursts or recorded (default: steady).")
  String shape;

  @Option(names = "--rate", paramLabel = "N", description = "steady: claims per second.")
  String rate;

  @Option(names = "--trough", paramLabel = "N", description = "diurnal: lowest claims/s.")
  String trough;

  @Option(names = "--peak", paramLabel = "N", description = "diurnal: highest claims/s.")
  String peak;

  @Option(
      names = "--period",
      paramLabel = "DURATION",
      description = "diurnal: period (default: 24h).")
  String period;

  @Option(names = "--base-rate", paramLabel = "N", description = "bursts: claims/s between.")
  String baseRate;

  @Option(names = "--burst-size", paramLabel = "N", description = "bursts: claims per burst.")
  String burstSize;

  @Option(names = "--every", paramLabel = "DURATION", description = "bursts: time between.")
  String every;

  @Option(
      names = "--recorded",
      paramLabel = "FILE",
      description = "recorded: one claim arrival per line (seconds or 1.5s/200ms from the start).")
  Path recorded;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      description = "Simulated period (default: 1h).")
  String duration;

  @Option(
      names = "--current",
      paramLabel = "KEY=VALUE",
      description =
          "Today's pool configuration (repeatable): pools, replicas, coldStartP50, coldStartP95, "
              + "refillRatePerPool, maxBatch, warmAdoptionP50, warmAdoptionP95, watchLag, "
              + "expectationsGate, expectationsTimeout, pendingCandidateWait, cpuMillisPerMember, "
              + "memoryBytesPerMember.")
  Map<String, String> current = new LinkedHashMap<>();

  @Option(
      names = "--proposed",
      paramLabel = "KEY=VALUE",
      description = "The proposal (repeatable; unset keys are today's).")
  Map<String, String> proposed = new LinkedHashMap<>();

  @Option(names = "--seed", paramLabel = "N", description = "Random seed (default: 1).")
  Long seed;

  @Option(names = "--json", description = "Print the JSON answer of POST /api/v1/whatif.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    WhatIfRequest req = WhatIfRequest.parse(request != null ? fromFile() : fromFlags());
    WhatIfComparison c = req.run();
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      o.println(new JsonObject(WhatIfRequest.toTree(c)).encodePrettily());
    } else {
      o.print(WhatIfRequest.toText(c));
    }
    o.flush();
    return 0;
  }

  private Map<String, Object> fromFile() throws IOException {
    if (shape != null
        || rate != null
        || recorded != null
        || !current.isEmpty()
        || !proposed.isEmpty()) {
      throw new IllegalArgumentException("--request: give either a request file or the flags");
    }
    String text;
    try {
      text = Files.readString(request);
    } catch (IOException e) {
      throw new IllegalArgumentException("--request: cannot read " + request + ": " + e);
    }
    try {
      Map<String, Object> tree = WhatIfRoutes.tree(new JsonObject(text));
      if (seed != null) {
        tree.put("seed", seed);
      }
      return tree;
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException("--request: not a JSON object: " + Main.message(e), e);
    }
  }

  private Map<String, Object> fromFlags() throws IOException {
    Map<String, Object> d = new LinkedHashMap<>();
    String s = shape == null ? (recorded != null ? "recorded" : "steady") : shape;
    d.put("shape", s);
    putIf(d, "claimsPerSecond", rate);
    putIf(d, "troughClaimsPerSecond", trough);
    putIf(d, "peakClaimsPerSecond", peak);
    putIf(d, "period", period == null && "diurnal".equals(s) ? "24h" : period);
    putIf(d, "baseClaimsPerSecond", baseRate);
    putIf(d, "burstSize", burstSize);
    putIf(d, "every", every);
    d.put("duration", duration == null ? "1h" : duration);
    if (recorded != null) {
      List<Object> offsets = new ArrayList<>();
      for (String line : Files.readAllLines(recorded)) {
        if (!line.isBlank() && !line.startsWith("#")) {
          offsets.add(line.trim());
        }
      }
      d.put("offsets", offsets);
    }
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("seed", seed == null ? 1L : seed);
    tree.put("demand", d);
    tree.put("current", new LinkedHashMap<String, Object>(current));
    if (!proposed.isEmpty()) {
      tree.put("proposed", new LinkedHashMap<String, Object>(proposed));
    }
    return tree;
  }

  private static void putIf(Map<String, Object> m, String k, String v) {
    if (v != null) {
      m.put(k, v);
    }
  }
}
