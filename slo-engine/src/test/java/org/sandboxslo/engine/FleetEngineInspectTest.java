package org.sandboxslo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.sandboxslo.engine.Fixtures.NS;
import static org.sandboxslo.engine.Fixtures.at;
import static org.sandboxslo.engine.Fixtures.claim;
import static org.sandboxslo.engine.Fixtures.pool;
import static org.sandboxslo.engine.Fixtures.spec;
import static org.sandboxslo.engine.Fixtures.up;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sandboxslo.engine.inspect.ClaimDetail;
import org.sandboxslo.engine.inspect.ClaimOutcome;
import org.sandboxslo.engine.inspect.ColdStartCause;
import org.sandboxslo.engine.inspect.FieldDiff;
import org.sandboxslo.engine.inspect.MemberDetail;
import org.sandboxslo.engine.inspect.MemberState;
import org.sandboxslo.engine.inspect.PoolDetail;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;

/** The read accessors behind the web console's pool and claims pages. */
class FleetEngineInspectTest {
  static TemplateView template(String image, long generation, String rv) {
    Map<String, Object> s = spec(image);
    return new TemplateView(
        new ObjectRef(NS, "tpl-py"),
        "uid-tpl-py",
        rv,
        generation,
        Blueprints.digest(s),
        null,
        null,
        List.of(image),
        Blueprints.canonical(s));
  }

  static SandboxView sandbox(
      String name,
      OwnerView owner,
      String image,
      ConditionView ready,
      ConditionView scheduled,
      boolean deleting) {
    Map<String, Object> s = spec(image);
    return new SandboxView(
        new ObjectRef(NS, name),
        "uid-" + name,
        "1",
        at(0),
        owner,
        owner.kind().equals("SandboxClaim") ? "warm" : null,
        "controller",
        "tpl-py",
        "hash",
        null,
        Blueprints.digest(s),
        "Running",
        ready,
        null,
        scheduled,
        null,
        deleting,
        null,
        List.of(image),
        Blueprints.canonical(s),
        List.of());
  }

  static final OwnerView POOL = new OwnerView("SandboxWarmPool", "pool-py", "uid-pool-py");
  static final ConditionView READY = new ConditionView("True", "DependenciesReady", at(12));
  static final ConditionView NOT_READY = new ConditionView("False", "DependenciesNotReady", at(1));

  @Test
  void poolMembersHaveOneStateGenerationAndTheFieldsThatDiffer() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(template("img:1", 4, "1"), 0));
    e.apply(up(pool("pool-py", "tpl-py", 4, 3), 0));
    e.apply(up(sandbox("pool-py-a", POOL, "img:1", READY, null, false), 13));
    e.apply(up(sandbox("pool-py-b", POOL, "img:1", NOT_READY, null, false), 13));
    e.apply(
        up(
            sandbox(
                "pool-py-c",
                POOL,
                "img:1",
                NOT_READY,
                new ConditionView("False", "Unschedulable", at(2)),
                false),
            13));
    // negative controls: a member being deleted, a member of another pool, an earlier pool
    // object's member (owner UID differs)
    e.apply(up(sandbox("pool-py-d", POOL, "img:1", READY, null, true), 13));
    e.apply(
        up(
            sandbox(
                "other-a",
                new OwnerView("SandboxWarmPool", "other", "uid-other"),
                "img:1",
                READY,
                null,
                false),
            13));
    e.apply(
        up(
            sandbox(
                "pool-py-old",
                new OwnerView("SandboxWarmPool", "pool-py", "uid-earlier"),
                "img:1",
                READY,
                null,
                false),
            13));
    // adopted from this pool by claim c1; a claim of another pool adopting doesn't count
    e.apply(up(claim("c1", "pool-py", "pool-py-e", 20, 20.4, false, "1"), 21));
    e.apply(
        up(
            sandbox(
                "pool-py-e",
                new OwnerView("SandboxClaim", "c1", "uid-c1"),
                "img:1",
                READY,
                null,
                false),
            21));
    e.apply(up(claim("c2", "other", "other-b", 20, 20.4, false, "1"), 21));
    e.apply(
        up(
            sandbox(
                "other-b",
                new OwnerView("SandboxClaim", "c2", "uid-c2"),
                "img:1",
                READY,
                null,
                false),
            21));

    PoolDetail d = e.poolDetail(new ObjectRef(NS, "pool-py"));
    assertEquals(
        List.of("pool-py-a", "pool-py-b", "pool-py-c", "pool-py-e"),
        d.members().stream().map(MemberDetail::name).toList());
    assertEquals(
        List.of(
            MemberState.READY, MemberState.PENDING, MemberState.UNSCHEDULABLE, MemberState.CLAIMED),
        d.members().stream().map(MemberDetail::state).toList());
    assertEquals("Unschedulable", d.members().get(2).reason());
    assertEquals("c1", d.members().get(3).claim());
    assertEquals(4L, d.members().get(0).templateGeneration());
    assertEquals(at(12), d.members().get(0).readyAt());
    assertNull(d.members().get(1).readyAt());
    assertEquals(4L, d.templateGeneration());
    assertEquals(4, d.replicas());

    // the template's image changes (generation 5): every member built from img:1 is stale and
    // says which leaf differs; the unschedulable one stays unschedulable, the claimed one claimed
    e.apply(up(template("img:2", 5, "2"), 30));
    PoolDetail after = e.poolDetail(new ObjectRef(NS, "pool-py"));
    MemberDetail a = after.members().get(0);
    assertEquals(MemberState.STALE, a.state());
    assertEquals(true, a.ready());
    assertNull(a.templateGeneration());
    assertEquals(5L, a.olderThanGeneration());
    assertEquals(
        List.of(new FieldDiff("podSpec.containers[0].image", "img:1", "img:2")), a.differences());
    assertEquals(MemberState.STALE, after.members().get(1).state());
    assertEquals(MemberState.UNSCHEDULABLE, after.members().get(2).state());
    assertEquals(MemberState.CLAIMED, after.members().get(3).state());
    assertEquals(2, after.count(MemberState.STALE));
    assertEquals(List.of("img:2"), after.templateImages());

    assertNull(e.poolDetail(new ObjectRef(NS, "nope")));
  }

  static ClaimView failed(String name, String reason, java.time.Instant readyAt) {
    return new ClaimView(
        new ObjectRef(NS, name),
        "uid-" + name,
        "1",
        at(50),
        at(50.25),
        readyAt,
        "pool-py",
        null,
        false,
        false,
        null,
        new ConditionView("False", reason, at(51)),
        null,
        null,
        null,
        null);
  }

  @Test
  void claimsCarryLaunchTypeLatencyColdCauseAndOutcome() {
    FleetEngine e = new FleetEngine(EngineConfig.defaults());
    e.apply(up(template("img:1", 1, "1"), 0));
    e.apply(up(pool("pool-py", "tpl-py", 2, 2), 0));
    // warm: adopted a pool-named Sandbox labelled warm; 10.25 → 10.75 = 0.5 s
    e.apply(up(claim("warm-1", "pool-py", "pool-py-x", 10.25, 10.75, false, "1"), 11));
    e.apply(
        up(
            sandbox(
                "pool-py-x",
                new OwnerView("SandboxClaim", "warm-1", "uid-warm-1"),
                "img:1",
                READY,
                null,
                false),
            11));
    // cold because of spec.env: 20 → 23.5 = 3.5 s
    e.apply(up(claim("env-1", "pool-py", "env-1", 20, 23.5, true, "1"), 24));
    // cold with nothing in the request: the pool had no adoptable member; 30 → 32 = 2 s
    e.apply(up(claim("cold-1", "pool-py", "cold-1", 30, 32.0, false, "1"), 33));
    // never Ready
    e.apply(up(claim("wait-1", "pool-py", null, 40, null, false, "1"), 41));
    e.apply(up(failed("rej-1", "EnvVarsInjectionRejected", null), 52));
    e.apply(up(failed("exp-1", "ClaimExpired", null), 52));
    // negative control: expired after it had been Ready is a served claim
    e.apply(up(failed("exp-2", "ClaimExpired", at(50.5)), 52));

    List<ClaimDetail> all = e.claimDetails();
    // newest first by first-seen; exp-1 and exp-2 and rej-1 tie at 50.25 → by name
    assertEquals(
        List.of("exp-1", "exp-2", "rej-1", "wait-1", "cold-1", "env-1", "warm-1"),
        all.stream().map(c -> c.claim().name()).toList());
    ClaimDetail warm = find(all, "warm-1");
    assertEquals("warm", warm.launchType());
    assertEquals(Duration.ofMillis(500), warm.claimToReady());
    assertNull(warm.coldStartCause());
    assertEquals(ClaimOutcome.READY, warm.outcome());
    assertEquals("tpl-py", warm.template());
    assertEquals("python-client", warm.createdBy());

    ClaimDetail env = find(all, "env-1");
    assertEquals("cold", env.launchType());
    assertEquals(Duration.ofMillis(3500), env.claimToReady());
    assertEquals(ColdStartCause.SPEC_ENV, env.coldStartCause());

    ClaimDetail cold = find(all, "cold-1");
    assertEquals(ColdStartCause.NO_WARM_MEMBER, cold.coldStartCause());
    assertEquals(Duration.ofSeconds(2), cold.claimToReady());

    ClaimDetail wait = find(all, "wait-1");
    assertEquals(ClaimOutcome.PENDING, wait.outcome());
    assertNull(wait.launchType());
    assertNull(wait.claimToReady());

    assertEquals(ClaimOutcome.REJECTED, find(all, "rej-1").outcome());
    assertEquals("EnvVarsInjectionRejected", find(all, "rej-1").reason());
    assertEquals("unknown", find(all, "rej-1").createdBy());
    assertEquals(ClaimOutcome.EXPIRED_UNSERVED, find(all, "exp-1").outcome());
    assertEquals(ClaimOutcome.READY, find(all, "exp-2").outcome());
    // 50.25 → 50.5 = 0.25 s; no Sandbox seen, none named: cold by the naming rule
    assertEquals(Duration.ofMillis(250), find(all, "exp-2").claimToReady());
  }

  static ClaimDetail find(List<ClaimDetail> all, String name) {
    return all.stream().filter(c -> c.claim().name().equals(name)).findFirst().orElseThrow();
  }
}
