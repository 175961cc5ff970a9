package org.sandboxslo.console.slo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.slo.SloDefinition;
import org.sandboxslo.engine.slo.SloDefinitions;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.engine.upstream.NameHash;

/**
 * The four SLOs shipped for every template: warm-hit ≥ 95 % on eligible claims ({@code warm-hit}),
 * claims Ready within the threshold ≥ 95 % ({@code claim-ready}), pool ready fraction never below
 * 20 % as a time-slice SLO ≥ 99 % ({@code pool-ready}), resume success ≥ 99.5 % ({@code
 * resume-success}). Per template they are named {@code <base>-<namespace>-<template>} (shortened
 * with an FNV hash past 63 characters); a user or file SLO of the same name replaces a default.
 */
public final class SloDefaults {
  private SloDefaults() {}

  /** Base names, in order. */
  public static final List<String> BASES =
      List.of("warm-hit", "claim-ready", "pool-ready", "resume-success");

  /**
   * The default SLOs' bodies (our JSON shape) for one template, or for all templates when ns is
   * null.
   */
  public static List<Map<String, Object>> bodies(
      String ns, String template, Duration period, Duration threshold) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (String base : BASES) {
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("name", ns == null ? base : name(base, ns, template));
      switch (base) {
        case "warm-hit" -> {
          b.put("sli", "warm_hit_ratio");
          b.put("objective", 95);
          b.put("eligibleOnly", true);
          b.put(
              "description",
              "Eligible claims served warm (claims with env/volumeClaimTemplates always cold-start upstream)");
        }
        case "claim-ready" -> {
          b.put("sli", "claim_to_ready_latency");
          b.put("objective", 95);
          b.put("latencyThreshold", Durations.format(threshold));
          b.put("description", "Claims Ready within " + Durations.format(threshold));
        }
        case "pool-ready" -> {
          b.put("sli", "pool_ready_fraction");
          b.put("objective", 99);
          b.put("readyFloor", 0.2);
          b.put(
              "description",
              "Time slices in which the warm pool kept at least 20 % of spec.replicas Ready");
        }
        default -> {
          b.put("sli", "resume_success_ratio");
          b.put("objective", 99.5);
          b.put("description", "Resumes that reached Ready");
        }
      }
      if (ns != null) {
        b.put("selector", Map.of("namespace", ns, "sandboxTemplate", template));
      }
      b.put("window", Durations.format(period));
      out.add(b);
    }
    return out;
  }

  /** The default SLO definitions for one template. */
  public static List<SloDefinition> forTemplate(
      String ns, String template, Duration period, Duration threshold) {
    List<SloDefinition> out = new ArrayList<>();
    for (Map<String, Object> b : bodies(ns, template, period, threshold)) {
      SloDefinitions.Parsed p = SloDefinitions.parse(b);
      if (!p.isValid()) {
        throw new IllegalStateException("default SLO " + b.get("name") + " invalid: " + p.errors());
      }
      out.add(p.definition());
    }
    return out;
  }

  /** {@code <base>-<ns>-<template>}, a DNS-1123 label. */
  public static String name(String base, String ns, String template) {
    String n =
        (base + "-" + ns + "-" + template)
            .toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^a-z0-9-]", "-");
    if (n.length() > 63) {
      n =
          n.substring(0, 54).replaceAll("-+$", "")
              + "-"
              + NameHash.of(base + "/" + ns + "/" + template);
    }
    return n;
  }
}
