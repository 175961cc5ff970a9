package org.sandboxslo.engine.diagnosis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.HealthThresholds;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.Kind;

/**
 * Health of the console's own data (fault kind 7). A kind's stream is <b>suspect-stale</b> when
 *
 * <ul>
 *   <li>its cache contradicts another stream ({@link Contradiction}) for at least {@link
 *       HealthThresholds#contradictionBound}, or
 *   <li>it stopped delivering for at least {@link HealthThresholds#silenceBound} while the stream
 *       coupled to it kept moving in a way that must change it: claims kept naming Sandboxes
 *       (adoption or cold start patches a Sandbox) while the Sandbox stream was silent, or
 *       Sandboxes kept being adopted while the claim stream was silent.
 * </ul>
 *
 * Findings that depend on a suspect kind are held back: kept, but at {@link Severity#INFO}, with a
 * {@code dataGap} evidence and no plan. The console's {@code /readyz} answers 503 while any kind is
 * suspect ({@code FleetEngine#suspectStaleKinds}).
 */
public final class InformerHealth {
  private InformerHealth() {}

  /** Coupled streams move at least this many times during the silence before it is suspect. */
  static final int COUPLED_MOVES = 3;

  /**
   * Why a kind is suspect.
   *
   * @param kind the kind
   * @param since from when its data is doubtful (the contradiction's start, or its last delivery)
   * @param reason one sentence with the numbers
   */
  public record Suspicion(Kind kind, Instant since, String reason) {
    public Suspicion {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(since, "since");
    }
  }

  /** The suspect kinds at {@code f.now()}, each with its earliest reason. */
  public static Map<Kind, Suspicion> suspects(FleetFacts f) {
    return suspects(f, Contradiction.find(f));
  }

  /**
   * The suspect kinds at {@code f.now()} given the contradictions already found ({@link
   * Contradiction#find}), so one evaluation finds them once.
   */
  public static Map<Kind, Suspicion> suspects(FleetFacts f, List<Contradiction> contradictions) {
    HealthThresholds h = f.health();
    Instant now = f.now();
    Map<Kind, Suspicion> out = new EnumMap<>(Kind.class);
    for (Contradiction c : contradictions) {
      if (c.age(now).compareTo(h.contradictionBound()) >= 0 && !out.containsKey(c.lagging())) {
        out.put(
            c.lagging(),
            new Suspicion(
                c.lagging(),
                c.since(),
                c.detail()
                    + " for "
                    + c.age(now).toSeconds()
                    + " s ≥ "
                    + h.contradictionBound().toSeconds()
                    + " s"));
      }
    }
    StreamHealth st = f.observations().streams();
    silence(f, st, Kind.SANDBOX, out, f.observations()::namedAfter, "claims named a Sandbox");
    silence(
        f,
        st,
        Kind.SANDBOX_CLAIM,
        out,
        f.observations()::adoptedAfter,
        "Sandboxes were adopted by claims");
    return out;
  }

  private static void silence(
      FleetFacts f,
      StreamHealth st,
      Kind kind,
      Map<Kind, Suspicion> out,
      java.util.function.Function<Instant, Integer> coupledMoves,
      String what) {
    if (out.containsKey(kind)) {
      return;
    }
    Instant last = st.lastDelivery(kind);
    if (last == null) {
      return;
    }
    Duration silent = Duration.between(last, f.now());
    if (silent.compareTo(f.health().silenceBound()) < 0) {
      return;
    }
    int moves = coupledMoves.apply(last);
    if (moves >= COUPLED_MOVES) {
      out.put(
          kind,
          new Suspicion(
              kind,
              last,
              "the "
                  + kind.kindName()
                  + " stream delivered nothing for "
                  + silent.toSeconds()
                  + " s (≥ "
                  + f.health().silenceBound().toSeconds()
                  + " s) while "
                  + moves
                  + " "
                  + what));
    }
  }

  /** One finding per suspect kind. */
  public static List<Finding> findings(FleetFacts f, Map<Kind, Suspicion> suspects) {
    List<Finding> out = new ArrayList<>();
    for (Suspicion s : suspects.values()) {
      List<Evidence> ev = new ArrayList<>();
      ev.add(Evidence.of("reason", s.reason()));
      ev.add(Evidence.of("suspectSince", s.since()));
      Instant last = f.observations().streams().lastDelivery(s.kind());
      ev.add(
          Evidence.of(
              "lastDelivery",
              last == null ? "none" : last,
              last == null ? "" : Duration.between(last, f.now()).toSeconds() + " s ago"));
      ev.add(
          Evidence.of("readyz", "503", "the console is not ready while a kind is suspect-stale"));
      out.add(
          new Finding(
              FindingKind.INFORMER_SUSPECT_STALE,
              "Informer " + s.kind().kindName(),
              Severity.HIGH,
              s.since(),
              f.now(),
              "The console's "
                  + s.kind().kindName()
                  + " data is suspect-stale: "
                  + s.reason()
                  + ". Findings that depend on it are held back.",
              ev,
              List.of(),
              List.of(
                  Proposal.none(
                      "Let the collector re-list "
                          + s.kind().plural()
                          + " (it re-creates an informer after repeated 410 Gone); if this persists,"
                          + " check the console's watch connection and the apiserver's APF queueing"
                          + " for "
                          + s.kind().plural()
                          + "."))));
    }
    return out;
  }

  /** The kinds a finding's evidence comes from; every kind for kinds not listed. */
  static Set<Kind> dependsOn(FindingKind k) {
    return switch (k) {
      case STALE_POOL_MEMBERS ->
          EnumSet.of(Kind.SANDBOX, Kind.SANDBOX_WARM_POOL, Kind.SANDBOX_TEMPLATE);
      case REFILL_STALLED,
          POOL_UNDERSIZED,
          POOL_NEEDS_SHARDING,
          MEMBERS_HELD_UNSCHEDULABLE,
          POOL_OVER_CREATION ->
          EnumSet.of(Kind.SANDBOX, Kind.SANDBOX_WARM_POOL);
      case SILENT_COLD_START, CLAIMS_UNSERVED -> EnumSet.of(Kind.SANDBOX_CLAIM, Kind.SANDBOX);
      case TEMPLATE_MISSING -> EnumSet.of(Kind.SANDBOX_TEMPLATE, Kind.SANDBOX_WARM_POOL);
      case EXPIRED_CLAIMS_ACCUMULATING, NEVER_EXPIRING_FINISHED_CLAIMS ->
          EnumSet.of(Kind.SANDBOX_CLAIM);
      case RESUME_FAILURES, RESERVED_LABEL_ON_USER_OBJECT -> EnumSet.of(Kind.SANDBOX);
      case UNSAFE_TEMPLATE -> EnumSet.of(Kind.SANDBOX_TEMPLATE);
      case FAILED_ROLLOUT ->
          EnumSet.of(Kind.SANDBOX, Kind.SANDBOX_WARM_POOL, Kind.SANDBOX_TEMPLATE);
      case CONTROLLER_HISTOGRAM_OVERCOUNT -> EnumSet.of(Kind.SANDBOX_CLAIM);
      case SUSPENDED_CONDITION_STALE -> EnumSet.of(Kind.SANDBOX);
      case CONTROLLER_CONFIG_CONTRADICTS_LOAD -> EnumSet.of(Kind.SANDBOX, Kind.SANDBOX_WARM_POOL);
      // these diagnose the data path itself, or rest on probes, scrapes and CRDs, not on a stream
      case WATCH_LAG,
          REFILL_GATED_BY_WATCH_LAG,
          INFORMER_SUSPECT_STALE,
          SNAPSHOT_CLONES_SHARE_RANDOMNESS,
          CRD_STORAGE_NOT_MIGRATED ->
          EnumSet.noneOf(Kind.class);
      default -> EnumSet.allOf(Kind.class);
    };
  }

  /**
   * Holds back findings that depend on a suspect kind: severity INFO, explanation prefixed with the
   * data gap, a {@code dataGap} evidence, and a single "no plan" proposal.
   */
  public static List<Finding> holdBack(List<Finding> findings, Map<Kind, Suspicion> suspects) {
    if (suspects.isEmpty()) {
      return findings;
    }
    List<Finding> out = new ArrayList<>(findings.size());
    for (Finding f : findings) {
      List<Suspicion> gaps = new ArrayList<>();
      for (Kind k : dependsOn(f.kind())) {
        if (suspects.containsKey(k)) {
          gaps.add(suspects.get(k));
        }
      }
      if (gaps.isEmpty()) {
        out.add(f);
        continue;
      }
      StringBuilder gap = new StringBuilder();
      for (Suspicion s : gaps) {
        if (gap.length() > 0) {
          gap.append("; ");
        }
        gap.append(s.kind().kindName()).append(" stream suspect-stale since ").append(s.since());
      }
      List<Evidence> ev = new ArrayList<>(f.evidence());
      ev.add(Evidence.of("dataGap", gap.toString(), gaps.get(0).reason()));
      out.add(
          new Finding(
              f.kind(),
              f.subject(),
              Severity.INFO,
              f.firstSeen(),
              f.lastSeen(),
              "Held back (data gap: " + gap + "). " + f.explanation(),
              ev,
              f.objects(),
              List.of(
                  Proposal.none(
                      "Held back: no plan is offered while the data it depends on is suspect-stale."))));
    }
    return out;
  }
}
