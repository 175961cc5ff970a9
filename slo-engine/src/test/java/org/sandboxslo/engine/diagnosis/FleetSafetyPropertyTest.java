package org.sandboxslo.engine.diagnosis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sandboxslo.engine.diagnosis.LagTimeline.adopted;
import static org.sandboxslo.engine.diagnosis.LagTimeline.claim;
import static org.sandboxslo.engine.diagnosis.LagTimeline.member;
import static org.sandboxslo.engine.diagnosis.LagTimeline.pool;
import static org.sandboxslo.engine.diagnosis.LagTimeline.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.model.SandboxView;

/**
 * The safety invariants for every proposal of every finding, over generated fleets: pools with
 * members Ready or not, claimed or not, stale or current, over-creating or not, with the
 * expectations gate blocking or not, and with the Sandbox stream suspect or not. The hazards are
 * built into the timeline (ground truth), not read back from the engine.
 */
class FleetSafetyPropertyTest {
  static final double NOW = 100;

  /**
   * One generated pool.
   *
   * @param replicas spec.replicas, 1..5
   * @param codes members: bit 0 Ready, bit 1 stale, bit 2 claimed
   * @param overCreates add unschedulable members up to more than 3 × replicas
   * @param gate members reach the watch 40 s after they were created, and the pool is 2 short
   * @param suspect a claim names an unclaimed member that the Sandbox stream still shows
   *     pool-owned, for 35 s (≥ the 30 s bound)
   */
  record PoolSpec(
      int replicas, List<Integer> codes, boolean overCreates, boolean gate, boolean suspect) {}

  @Provide
  Arbitrary<List<PoolSpec>> fleets() {
    Arbitrary<PoolSpec> pool =
        Combinators.combine(
                Arbitraries.integers().between(1, 5),
                Arbitraries.integers().between(0, 7).list().ofMaxSize(7),
                Arbitraries.of(true, false),
                Arbitraries.of(true, false),
                Arbitraries.of(true, false))
            .as(PoolSpec::new);
    return pool.list().ofMinSize(1).ofMaxSize(3);
  }

  /** What the timeline makes true, per pool. */
  record Truth(
      String pool,
      boolean overCreates,
      boolean gate,
      boolean suspect,
      Set<String> claimed,
      Set<String> staleUnclaimed,
      Set<String> unclaimed,
      int readyUnclaimed,
      int replicas) {}

  static List<Truth> build(LagTimeline t, List<PoolSpec> specs) {
    List<Truth> truths = new ArrayList<>();
    for (int p = 0; p < specs.size(); p++) {
      PoolSpec s = specs.get(p);
      String pn = "pool" + p;
      String tn = "tpl" + p;
      boolean over = s.overCreates();
      boolean gate = !over && s.gate() && !s.codes().isEmpty();
      int replicas = gate ? s.replicas() + s.codes().size() + 2 : s.replicas();
      t.up(template(tn, "img:2"), 0).up(pool(pn, tn, replicas), 0);
      Set<String> claimed = new HashSet<>();
      Set<String> stale = new HashSet<>();
      Set<String> unclaimed = new HashSet<>();
      int ready = 0;
      double deliver = gate ? 45 : 5.2;
      List<SandboxView> ms = new ArrayList<>();
      for (int i = 0; i < s.codes().size(); i++) {
        int c = s.codes().get(i);
        String name = pn + "-m" + i;
        SandboxView m =
            member(name, pn, (c & 2) != 0 ? "img:1" : "img:2", 5, (c & 1) != 0 ? 6.0 : null, null);
        t.up(m, deliver);
        ms.add(m);
        if ((c & 4) != 0) {
          claimed.add(name);
        } else {
          unclaimed.add(name);
          if ((c & 2) != 0) {
            stale.add(name);
          }
          if ((c & 1) != 0) {
            ready++;
          }
        }
      }
      for (int i = 0; i < ms.size(); i++) {
        SandboxView m = ms.get(i);
        if (claimed.contains(m.ref().name())) {
          String cn = pn + "-c" + i;
          t.up(claim(cn, pn, m.ref().name(), deliver + 4, deliver + 5, null), deliver + 5.2);
          t.up(adopted(m, cn, "warm"), deliver + 5.3);
        }
      }
      if (over) {
        int extra = 3 * replicas + 2;
        for (int n = 0; n < extra; n++) {
          String name = pn + "-x" + n;
          t.up(
              member(name, pn, "img:2", 60 + n * 0.5, null, "0/1 nodes: Insufficient cpu"),
              60.2 + n * 0.5);
          unclaimed.add(name);
        }
      }
      boolean suspect = s.suspect() && !unclaimed.isEmpty();
      if (suspect) {
        String target = unclaimed.stream().sorted().findFirst().orElseThrow();
        t.up(claim(pn + "-spy", pn, target, 64.8, 65.0, null), 65);
      }
      truths.add(new Truth(pn, over, gate, suspect, claimed, stale, unclaimed, ready, replicas));
    }
    t.synced(0.5);
    return truths;
  }

  @Property(tries = 150)
  void everyProposalKeepsTheSafetyInvariants(@ForAll("fleets") List<PoolSpec> specs) {
    LagTimeline t = new LagTimeline();
    List<Truth> truths = build(t, specs);
    List<Finding> findings = t.findings(NOW, DiagnosisConfig.defaults());
    boolean anySuspect = truths.stream().anyMatch(Truth::suspect);
    Map<String, Truth> byPool = new HashMap<>();
    truths.forEach(x -> byPool.put(x.pool(), x));
    Set<String> allClaimed = new HashSet<>();
    truths.forEach(x -> allClaimed.addAll(x.claimed()));
    for (Finding f : findings) {
      Truth pool = null;
      for (Truth x : truths) {
        if (f.subject().equals("SandboxWarmPool team-b/" + x.pool())
            || f.subject().equals("SandboxTemplate team-b/tpl" + x.pool().substring(4))) {
          pool = x;
        }
      }
      for (Proposal p : f.proposals()) {
        String where = f.kind() + " " + f.subject() + " → " + p;
        for (String d : p.deletes()) {
          assertFalse(allClaimed.contains(d.substring(d.indexOf('/') + 1)), "claimed: " + where);
        }
        for (String step : p.steps()) {
          for (String c : allClaimed) {
            assertFalse(
                step.startsWith("delete") && List.of(step.split("[ ,/]+")).contains(c),
                "claimed in a step: " + where);
          }
        }
        if (anySuspect) {
          // the Sandbox stream is suspect: no plan acts on pools
          assertFalse(pool != null && (p.automatic() || p.addsCreates()), "suspect: " + where);
        }
        if (pool == null) {
          continue;
        }
        if (pool.overCreates()) {
          assertFalse(p.addsCreates(), "adds creates while over-creating: " + where);
        }
        if (pool.gate()) {
          assertFalse(
              p.automatic() || p.addsCreates() || !p.deletes().isEmpty(),
              "acts while the gate blocks: " + where);
        }
        if (p.action().equals("PacedRecreate")) {
          for (String d : p.deletes()) {
            assertTrue(pool.staleUnclaimed().contains(d.substring(d.indexOf('/') + 1)), where);
          }
          String last = p.steps().get(p.steps().size() - 1);
          int floor = Integer.parseInt(last.replaceAll(".*keep at least (\\d+) of.*", "$1"));
          if (pool.readyUnclaimed() > 0) {
            assertTrue(floor >= 1 && floor <= pool.readyUnclaimed(), "floor: " + where);
          }
        }
        if (p.action().equals("DeleteExcessMembers")) {
          for (String d : p.deletes()) {
            assertTrue(pool.unclaimed().contains(d.substring(d.indexOf('/') + 1)), where);
          }
        }
      }
    }
  }
}
