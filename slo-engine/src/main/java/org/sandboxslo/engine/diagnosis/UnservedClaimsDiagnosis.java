package org.sandboxslo.engine.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.sandboxslo.engine.finding.Evidence;
import org.sandboxslo.engine.finding.Finding;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.engine.finding.Proposal;
import org.sandboxslo.engine.finding.Severity;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.TemplateView;

/**
 * Claims that are never served (fault kind 6), one finding per namespace, and missing templates
 * that block claims. Terminal unserved claims (rejected with a terminal reason, expired or deleted
 * before Ready) are bad events of the claim-to-ready SLOs (fed by the engine when they happen);
 * claims that wait with {@code TemplateNotFound}/{@code WarmPoolNotFound} are listed but not yet
 * counted.
 */
public final class UnservedClaimsDiagnosis {
  private UnservedClaimsDiagnosis() {}

  public static List<Finding> run(FleetFacts f) {
    Map<String, List<UnservedClaim>> byNs = new TreeMap<>();
    for (UnservedClaim u : f.observations().unserved()) {
      byNs.computeIfAbsent(u.claim().namespace(), x -> new ArrayList<>()).add(u);
    }
    List<Finding> out = new ArrayList<>();
    for (Map.Entry<String, List<UnservedClaim>> e : byNs.entrySet()) {
      out.add(finding(f, e.getKey(), e.getValue()));
    }
    out.addAll(templateMissing(f));
    return out;
  }

  private static Finding finding(FleetFacts f, String ns, List<UnservedClaim> us) {
    Map<UnservedClaim.Outcome, Integer> byOutcome = new TreeMap<>();
    Map<String, Integer> byReason = new TreeMap<>();
    List<String> objects = new ArrayList<>();
    Instant first = null;
    int terminal = 0;
    for (UnservedClaim u : us) {
      byOutcome.merge(u.outcome(), 1, Integer::sum);
      byReason.merge(u.reason(), 1, Integer::sum);
      objects.add(
          "SandboxClaim "
              + u.claim()
              + " ("
              + u.outcome()
              + ": "
              + u.reason()
              + (u.terminal() ? "" : ", waiting")
              + ")");
      if (u.terminal()) {
        terminal++;
      }
      if (first == null || u.endedAt().isBefore(first)) {
        first = u.endedAt();
      }
    }
    List<Evidence> ev = new ArrayList<>();
    StringBuilder outcomes = new StringBuilder();
    byOutcome.forEach(
        (k, v) ->
            outcomes.append(outcomes.length() == 0 ? "" : ", ").append(k).append(" ").append(v));
    ev.add(Evidence.of("unservedClaims", us.size(), outcomes.toString()));
    ev.add(
        Evidence.of(
            "badClaimReadyEvents",
            terminal,
            terminal
                + " terminal (counted as bad in claim-to-ready SLOs), "
                + (us.size() - terminal)
                + " still waiting"));
    byReason.forEach((k, v) -> ev.add(Evidence.of("reason." + k, v)));
    List<Proposal> proposals = new ArrayList<>();
    for (String reason : byReason.keySet()) {
      proposals.add(Proposal.none(advice(reason)));
    }
    boolean blocked =
        byReason.containsKey("TemplateNotFound") || byReason.containsKey("WarmPoolNotFound");
    return new Finding(
        FindingKind.CLAIMS_UNSERVED,
        "Namespace " + ns,
        blocked ? Severity.HIGH : Severity.TICKET,
        first,
        f.now(),
        us.size()
            + " claim(s) in "
            + ns
            + " never became Ready ("
            + outcomes
            + "); each is a bad event of the claim-to-ready SLI.",
        ev,
        objects,
        proposals);
  }

  static String advice(String reason) {
    return switch (reason) {
      case "EnvVarsInjectionRejected" ->
          "EnvVarsInjectionRejected: the template's envVarsInjectionPolicy is Disallowed; stop sending"
              + " spec.env or set the policy to Allowed/Overrides on a dedicated template.";
      case "VolumeClaimTemplatesError" ->
          "VolumeClaimTemplatesError: the template's volumeClaimTemplatesPolicy does not allow the"
              + " claim's volumeClaimTemplates.";
      case "InvalidMetadata" ->
          "InvalidMetadata: additionalPodMetadata uses keys outside the allowed label domains or"
              + " reserved annotations.";
      case "TemplateNotFound" ->
          "TemplateNotFound: create the SandboxTemplate the pool references, or point the pool at"
              + " an existing one.";
      case "WarmPoolNotFound" ->
          "WarmPoolNotFound: create the SandboxWarmPool the claims reference (replicas: 0 for cold"
              + " starts only).";
      case "ClaimExpired" ->
          "ClaimExpired before Ready: claims expire before provisioning finishes; lengthen"
              + " spec.lifecycle.shutdownTime or fix the slow provisioning.";
      default ->
          reason
              + ": the claim was deleted before it became Ready; compare client timeouts with the"
              + " claim-to-ready p99.";
    };
  }

  /**
   * Missing templates: for each pool whose template does not exist. After the template informer has
   * synced: {@link Severity#CRITICAL} when a claim of the pool is blocked (not Ready), else {@link
   * Severity#PAGE}, listing the templates that do exist in the namespace. Before it has synced,
   * only a claim reporting {@code TemplateNotFound} raises it, as INFO with {@code templateExists:
   * unknown}.
   */
  static List<Finding> templateMissing(FleetFacts f) {
    List<Finding> out = new ArrayList<>();
    boolean synced = f.synced(Kind.SANDBOX_TEMPLATE);
    for (PoolView p : f.sortedPools()) {
      if (f.template(p) != null) {
        continue;
      }
      List<String> blocked = new ArrayList<>();
      boolean reported = false;
      for (var c : f.claims().values()) {
        if (c.ref().namespace().equals(p.ref().namespace())
            && p.ref().name().equals(c.warmPoolName())
            && c.readyAt() == null
            && !c.isReady()) {
          blocked.add("SandboxClaim " + c.ref());
          if (c.ready() != null && "TemplateNotFound".equals(c.ready().reason())) {
            reported = true;
          }
        }
      }
      blocked.sort(null);
      if (!synced && !reported) {
        continue;
      }
      TreeSet<String> existing = new TreeSet<>();
      for (TemplateView t : f.templates().values()) {
        if (t.ref().namespace().equals(p.ref().namespace())) {
          existing.add(t.ref().name());
        }
      }
      List<Evidence> ev = new ArrayList<>();
      ev.add(Evidence.of("sandboxTemplateRef", p.templateName()));
      ev.add(
          Evidence.of(
              "templateExists",
              synced ? "no" : "unknown",
              synced
                  ? "the SandboxTemplate informer has synced"
                  : "the SandboxTemplate informer has not synced yet"));
      ev.add(
          Evidence.of(
              "existingTemplates",
              existing.isEmpty() ? "none" : String.join(", ", existing),
              "in namespace " + p.ref().namespace()));
      ev.add(Evidence.of("blockedClaims", blocked.size()));
      Severity sev =
          !synced ? Severity.INFO : blocked.isEmpty() ? Severity.PAGE : Severity.CRITICAL;
      List<String> objects = new ArrayList<>();
      objects.add("SandboxWarmPool " + p.ref());
      objects.addAll(blocked);
      out.add(
          new org.sandboxslo.engine.finding.Finding(
              FindingKind.TEMPLATE_MISSING,
              "SandboxWarmPool " + p.ref(),
              sev,
              f.now(),
              f.now(),
              p.ref()
                  + " references SandboxTemplate "
                  + p.templateName()
                  + (synced ? ", which does not exist" : ", which has not been seen yet")
                  + (blocked.isEmpty()
                      ? ""
                      : ": " + blocked.size() + " claim(s) wait with TemplateNotFound")
                  + ". Templates in "
                  + p.ref().namespace()
                  + ": "
                  + (existing.isEmpty() ? "none" : String.join(", ", existing))
                  + ".",
              ev,
              objects,
              List.of(
                  Proposal.none(
                      "Create SandboxTemplate "
                          + new ObjectRef(p.ref().namespace(), p.templateName())
                          + " or point spec.sandboxTemplateRef at an existing one"
                          + (existing.isEmpty()
                              ? "."
                              : " (" + String.join(", ", existing) + ").")))));
    }
    return out;
  }
}
