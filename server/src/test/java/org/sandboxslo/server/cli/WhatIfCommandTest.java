package org.sandboxslo.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code whatif} through the CLI. */
class WhatIfCommandTest {
  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code = Main.run(new PrintWriter(o), new PrintWriter(e), args);
    return new Run(code, o.toString(), e.toString());
  }

  @Test
  void theSizingExampleSideBySide() {
    // 40 claims/s × 45 s: one pool of 450 serves each of its 450 replacement chains once per 45 s
    // (36,080 of 144,000 claims warm, see WarmPoolSimulatorTest); four pools of 450 refilling at
    // 10/s serve every claim warm
    Run r =
        run(
            "whatif",
            "--rate",
            "40",
            "--duration",
            "1h",
            "--current",
            "pools=1",
            "--current",
            "replicas=450",
            "--current",
            "refillRatePerPool=70",
            "--current",
            "coldStartP50=45s",
            "--current",
            "warmAdoptionP50=100ms",
            "--current",
            "warmAdoptionP95=100ms",
            "--proposed",
            "pools=4",
            "--proposed",
            "refillRatePerPool=10");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("what-if: 144000 claims over 1h (seed 1)\n"), r.out());
    assertTrue(
        r.out().contains("pools × replicas                  1 × 450        4 × 450\n"), r.out());
    assertTrue(
        r.out().contains("warm-hit ratio                     25.1 %        100.0 %\n"), r.out());
  }

  @Test
  void aRequestFileAsJson(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("q.json");
    Files.writeString(
        f,
        """
        {"demand": {"shape": "bursts", "burstSize": 250, "every": "1h", "duration": "10m"},
         "current": {"pools": 1, "replicas": 100, "coldStartP50": "5s"},
         "proposed": {"replicas": 250}}
        """);
    Run r = run("whatif", "--request", f.toString(), "--json", "--seed", "5");
    assertEquals(0, r.code(), r.err());
    JsonObject o = new JsonObject(r.out());
    assertEquals(5, o.getLong("seed"));
    assertEquals(0.4, o.getJsonObject("current").getDouble("warmHitRatio"));
    assertEquals(1.0, o.getJsonObject("proposed").getDouble("warmHitRatio"));
  }

  @Test
  void badInputIsOneLineAndExit2() {
    Run r = run("whatif", "--rate", "10", "--current", "pools=1", "--current", "coldStartP50=3s");
    assertEquals(2, r.code());
    assertEquals("sandbox-slo: current.replicas: missing\n", r.err().replace("\r", ""));
    Run s =
        run(
            "whatif",
            "--shape",
            "weekly",
            "--current",
            "pools=1",
            "--current",
            "replicas=1",
            "--current",
            "coldStartP50=3s");
    assertEquals(2, s.code());
    assertEquals(
        "sandbox-slo: demand.shape: expected one of steady, diurnal, bursts, recorded, got"
            + " 'weekly'\n",
        s.err().replace("\r", ""));
  }
}
