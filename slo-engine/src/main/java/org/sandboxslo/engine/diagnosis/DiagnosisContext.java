package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import org.sandboxslo.engine.finding.DiagnosisConfig;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.scrape.ControllerView;
import org.sandboxslo.engine.scrape.Sample;
import org.sandboxslo.engine.scrape.Scrape;
import org.sandboxslo.engine.sli.FleetSnapshot;

/**
 * Everything a {@link Diagnosis} reads: the clock, thresholds, the SLI snapshot, the current
 * objects (read-only), the engine's staleness rule and its {@link FleetObservations}.
 *
 * @param now the evaluation time
 * @param config thresholds shared with the original diagnoses
 * @param settings thresholds of issue 8 part B
 * @param snapshot the SLIs at {@code now}
 * @param templates current templates
 * @param pools current pools
 * @param sandboxes current Sandboxes
 * @param claims current claims
 * @param stale the engine's staleness rule (member, template)
 * @param observations history and evidence
 */
public record DiagnosisContext(
    Instant now,
    DiagnosisConfig config,
    DiagnosisSettings settings,
    FleetSnapshot snapshot,
    Map<ObjectRef, TemplateView> templates,
    Map<ObjectRef, PoolView> pools,
    Map<ObjectRef, SandboxView> sandboxes,
    Map<ObjectRef, ClaimView> claims,
    BiPredicate<SandboxView, TemplateView> stale,
    FleetObservations observations) {
  public DiagnosisContext {
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(observations, "observations");
  }

  /** Pools sorted by namespace/name. */
  public List<PoolView> sortedPools() {
    List<PoolView> out = new ArrayList<>(pools.values());
    out.sort(Comparator.comparing(PoolView::ref));
    return out;
  }

  /** The pool's template, or null. */
  public TemplateView templateOf(PoolView p) {
    return templates.get(new ObjectRef(p.ref().namespace(), p.templateName()));
  }

  /** Active members of a pool by controller ownerReference (not deleting), sorted by name. */
  public List<SandboxView> members(PoolView p) {
    List<SandboxView> out = new ArrayList<>();
    for (SandboxView s : sandboxes.values()) {
      if (s.ownedByPool(p.ref().name())
          && s.ref().namespace().equals(p.ref().namespace())
          && !s.deleting()
          && (p.uid() == null || s.owner().uid() == null || p.uid().equals(s.owner().uid()))) {
        out.add(s);
      }
    }
    out.sort(Comparator.comparing(s -> s.ref().name()));
    return out;
  }

  /**
   * The controller's version: {@code git_version} of the newest scraped {@code
   * agent_sandbox_build_info}, else the configured one, else null.
   */
  public String controllerVersion() {
    List<Scrape> scrapes = observations.scrapes();
    for (int i = scrapes.size() - 1; i >= 0; i--) {
      for (Sample x : scrapes.get(i).samples()) {
        if (x.name().equals(ControllerView.BUILD_INFO) && x.labels().get("git_version") != null) {
          return x.labels().get("git_version");
        }
      }
    }
    return config.controllerVersion();
  }

  /** Per pool ref, its claims (by spec.warmPoolRef) — helper for rates. */
  public Map<ObjectRef, Integer> claimsByPool() {
    Map<ObjectRef, Integer> out = new HashMap<>();
    for (ClaimView c : claims.values()) {
      if (c.warmPoolName() != null) {
        out.merge(new ObjectRef(c.ref().namespace(), c.warmPoolName()), 1, Integer::sum);
      }
    }
    return out;
  }

  /** A rate per second: three significant digits below 1 (0.00667), else two decimals. */
  public static String rate(double perSecond) {
    return perSecond > 0 && perSecond < 1
        ? String.format(Locale.ROOT, "%.3g", perSecond)
        : String.format(Locale.ROOT, "%.2f", perSecond);
  }

  /** Two decimals, root locale. */
  public static String fmt(double d) {
    return String.format(Locale.ROOT, "%.2f", d);
  }

  /**
   * Whether version {@code v} (e.g. {@code v0.5.2}, {@code 0.5.2-rc1}) is before major.minor.patch;
   * false when it does not parse.
   */
  public static boolean versionBefore(String v, int major, int minor, int patch) {
    if (v == null) {
      return false;
    }
    String s = v.startsWith("v") ? v.substring(1) : v;
    String[] p = s.split("[.+-]");
    try {
      int[] x = {
        Integer.parseInt(p[0]),
        p.length > 1 ? Integer.parseInt(p[1]) : 0,
        p.length > 2 ? Integer.parseInt(p[2]) : 0
      };
      int[] y = {major, minor, patch};
      for (int i = 0; i < 3; i++) {
        if (x[i] != y[i]) {
          return x[i] < y[i];
        }
      }
      return false;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
