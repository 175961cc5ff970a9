package org.sandboxslo.collector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sandboxslo.engine.model.ClaimView;
import org.sandboxslo.engine.model.ConditionView;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.model.OwnerView;
import org.sandboxslo.engine.model.PoolView;
import org.sandboxslo.engine.model.SandboxView;
import org.sandboxslo.engine.model.TemplateView;
import org.sandboxslo.engine.upstream.Blueprints;

class ObjectViewsTest {
  private static final String C03 = "C03-stale-members-onreplenish.yaml";
  private static final String C05 = "C05-env-vct-forced-cold-start.yaml";
  private static final String C09 = "C09-expired-retained-claims.yaml";
  private static final String TPL_UID = "a4e2a108-19e3-572f-8d0f-9cea0b68ea8a";
  private static final String POOL_UID = "5984ef53-f6a0-52fd-96d0-60b8e1aafc2d";
  private static final String CLAIM001_UID = "ebe879e6-0552-53fc-80e8-07df44df923a";
  private static final String IMG = "registry.example.invalid/team-a/python-runtime:";

  private static Instant t(String s) {
    return Instant.parse(s);
  }

  private static Arguments row(
      String file, String kind, String name, String rv, String field, Object expected) {
    return Arguments.of(file, kind, name, rv, field, expected);
  }

  /** One row per view field: (case file, kind, name, resourceVersion, record component, value). */
  static Stream<Arguments> fields() {
    return Stream.of(
        // SandboxTemplate, C03 gen 1 and gen 2, C05 (policies Allowed)
        row(C03, "SandboxTemplate", "tpl-py", "1052", "ref", new ObjectRef("team-a", "tpl-py")),
        row(C03, "SandboxTemplate", "tpl-py", "1052", "uid", TPL_UID),
        row(C03, "SandboxTemplate", "tpl-py", "1052", "resourceVersion", "1052"),
        row(C03, "SandboxTemplate", "tpl-py", "1052", "generation", 1L),
        row(C03, "SandboxTemplate", "tpl-py", "1057", "generation", 2L),
        row(C03, "SandboxTemplate", "tpl-py", "1052", "envVarsInjectionPolicy", "Disallowed"),
        row(C03, "SandboxTemplate", "tpl-py", "1052", "volumeClaimTemplatesPolicy", "Disallowed"),
        row(C03, "SandboxTemplate", "tpl-py", "1052", "images", List.of(IMG + "3.11")),
        row(C03, "SandboxTemplate", "tpl-py", "1057", "images", List.of(IMG + "3.12")),
        row(C05, "SandboxTemplate", "tpl-py", "1082", "envVarsInjectionPolicy", "Allowed"),
        row(C05, "SandboxTemplate", "tpl-py", "1082", "volumeClaimTemplatesPolicy", "Allowed"),
        // SandboxWarmPool
        row(C03, "SandboxWarmPool", "pool-py", "1053", "ref", new ObjectRef("team-a", "pool-py")),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "uid", POOL_UID),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "resourceVersion", "1053"),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "generation", 1L),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "templateName", "tpl-py"),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "replicas", 3),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "updateStrategy", "OnReplenish"),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "statusReplicas", 3),
        row(C03, "SandboxWarmPool", "pool-py", "1053", "statusReadyReplicas", 3),
        // Sandbox: pool member a1 before and after adoption, b1 not Ready, cold claim-102
        row(C03, "Sandbox", "pool-py-a1", "1054", "ref", new ObjectRef("team-a", "pool-py-a1")),
        row(C03, "Sandbox", "pool-py-a1", "1054", "uid", "1fb536c4-59a3-5422-acd5-f0aaf9b3fae7"),
        row(C03, "Sandbox", "pool-py-a1", "1054", "resourceVersion", "1054"),
        row(C03, "Sandbox", "pool-py-a1", "1054", "createdAt", t("2026-09-01T08:00:00Z")),
        row(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            "owner",
            new OwnerView("SandboxWarmPool", "pool-py", POOL_UID)),
        row(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1061",
            "owner",
            new OwnerView("SandboxClaim", "claim-001", CLAIM001_UID)),
        row(C03, "Sandbox", "pool-py-a1", "1054", "launchType", "warm"),
        row(C05, "Sandbox", "claim-102", "1096", "launchType", "cold"),
        row(C03, "Sandbox", "pool-py-a1", "1054", "createdBy", "controller"),
        row(C03, "Sandbox", "pool-py-a1", "1054", "templateName", "tpl-py"),
        row(C03, "Sandbox", "pool-py-a1", "1054", "warmPoolHash", "d6848635"),
        row(C03, "Sandbox", "pool-py-a1", "1061", "warmPoolHash", null),
        row(C03, "Sandbox", "pool-py-a1", "1054", "claimUid", null),
        row(C03, "Sandbox", "pool-py-a1", "1061", "claimUid", CLAIM001_UID),
        row(C03, "Sandbox", "pool-py-a1", "1054", "operatingMode", "Running"),
        row(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            "ready",
            new ConditionView("True", "DependenciesReady", t("2026-09-01T08:00:14Z"))),
        row(
            C03,
            "Sandbox",
            "pool-py-b1",
            "1062",
            "ready",
            new ConditionView("False", "DependenciesNotReady", t("2026-09-01T10:05:03Z"))),
        row(C03, "Sandbox", "pool-py-a1", "1054", "suspended", null),
        row(C03, "Sandbox", "pool-py-a1", "1054", "podScheduled", null),
        row(C03, "Sandbox", "pool-py-a1", "1054", "shutdownTime", null),
        row(C03, "Sandbox", "pool-py-a1", "1054", "deleting", false),
        // SandboxClaim: claim-001 before/after Ready, C05 env / VCT claims, C09 lifecycle
        row(C03, "SandboxClaim", "claim-001", "1059", "ref", new ObjectRef("team-a", "claim-001")),
        row(C03, "SandboxClaim", "claim-001", "1059", "uid", CLAIM001_UID),
        row(C03, "SandboxClaim", "claim-001", "1059", "resourceVersion", "1059"),
        row(C03, "SandboxClaim", "claim-001", "1059", "createdAt", t("2026-09-01T10:05:00Z")),
        row(C03, "SandboxClaim", "claim-001", "1059", "firstObservedAt", t("2026-09-01T10:05:00Z")),
        row(C03, "SandboxClaim", "claim-001", "1059", "firstReadyAt", null),
        row(
            C03,
            "SandboxClaim",
            "claim-001",
            "1060",
            "firstReadyAt",
            t("2026-09-01T10:05:00.420Z")),
        row(C03, "SandboxClaim", "claim-001", "1059", "warmPoolName", "pool-py"),
        row(C03, "SandboxClaim", "claim-001", "1059", "sandboxName", null),
        row(C03, "SandboxClaim", "claim-001", "1060", "sandboxName", "pool-py-a1"),
        row(C03, "SandboxClaim", "claim-001", "1059", "setsEnv", false),
        row(C05, "SandboxClaim", "claim-102", "1094", "setsEnv", true),
        row(C05, "SandboxClaim", "claim-102", "1094", "setsVolumeClaimTemplates", false),
        row(C05, "SandboxClaim", "claim-104", "1104", "setsEnv", false),
        row(C05, "SandboxClaim", "claim-104", "1104", "setsVolumeClaimTemplates", true),
        row(C03, "SandboxClaim", "claim-001", "1059", "createdBy", "python-client"),
        row(C03, "SandboxClaim", "claim-001", "1059", "ready", null),
        row(
            C03,
            "SandboxClaim",
            "claim-001",
            "1060",
            "ready",
            new ConditionView("True", "DependenciesReady", t("2026-09-01T10:05:01Z"))),
        row(C03, "SandboxClaim", "claim-001", "1060", "finished", null),
        row(
            C09,
            "SandboxClaim",
            "claim-801",
            "1050",
            "finished",
            new ConditionView("True", "PodSucceeded", t("2026-08-29T12:00:00Z"))),
        row(C03, "SandboxClaim", "claim-001", "1060", "shutdownPolicy", null),
        row(C09, "SandboxClaim", "claim-701", "1044", "shutdownPolicy", "Retain"),
        row(C09, "SandboxClaim", "claim-701", "1044", "shutdownTime", t("2026-08-31T08:00:00Z")),
        row(C09, "SandboxClaim", "claim-701", "1044", "ttlSecondsAfterFinished", null));
  }

  @ParameterizedTest(name = "{0} {1} {2}@{3}: {4}")
  @MethodSource("fields")
  void mapsEveryField(
      String file, String kind, String name, String rv, String field, Object expected)
      throws Exception {
    ObjectView view = ObjectViews.toView(CaseFiles.object(file, kind, name, rv));
    assertEquals(kind, view.kind().kindName());
    RecordComponent rc =
        Stream.of(view.getClass().getRecordComponents())
            .filter(c -> c.getName().equals(field))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no field " + field + " on " + view.getClass()));
    assertEquals(expected, rc.getAccessor().invoke(view));
  }

  @Test
  void blueprintDigestIsTheSemanticDigestOfSpec() {
    Map<String, Object> gen1 = CaseFiles.object(C03, "SandboxTemplate", "tpl-py", "1052");
    Map<String, Object> gen2 = CaseFiles.object(C03, "SandboxTemplate", "tpl-py", "1057");
    TemplateView v1 = (TemplateView) ObjectViews.toView(gen1);
    TemplateView v2 = (TemplateView) ObjectViews.toView(gen2);
    @SuppressWarnings("unchecked")
    Map<String, Object> spec1 = (Map<String, Object>) gen1.get("spec");
    assertEquals(Blueprints.digest(spec1), v1.blueprintDigest());
    assertNotEquals(v1.blueprintDigest(), v2.blueprintDigest());

    SandboxView a1 =
        (SandboxView) ObjectViews.toView(CaseFiles.object(C03, "Sandbox", "pool-py-a1", "1054"));
    SandboxView a2 =
        (SandboxView) ObjectViews.toView(CaseFiles.object(C03, "Sandbox", "pool-py-a2", "1055"));
    SandboxView b1 =
        (SandboxView) ObjectViews.toView(CaseFiles.object(C03, "Sandbox", "pool-py-b1", "1062"));
    assertEquals(a1.blueprintDigest(), a2.blueprintDigest());
    assertNotEquals(a1.blueprintDigest(), b1.blueprintDigest());
  }

  @Test
  void wholeClaimViewAfterReady() {
    ClaimView v =
        (ClaimView) ObjectViews.toView(CaseFiles.object(C03, "SandboxClaim", "claim-001", "1060"));
    assertEquals(
        new ClaimView(
            new ObjectRef("team-a", "claim-001"),
            CLAIM001_UID,
            "1060",
            t("2026-09-01T10:05:00Z"),
            t("2026-09-01T10:05:00Z"),
            t("2026-09-01T10:05:00.420Z"),
            "pool-py",
            "pool-py-a1",
            false,
            false,
            "python-client",
            new ConditionView("True", "DependenciesReady", t("2026-09-01T10:05:01Z")),
            null,
            null,
            null,
            null),
        v);
  }

  @Test
  void wholePoolView() {
    assertEquals(
        new PoolView(
            new ObjectRef("team-a", "pool-py"),
            POOL_UID,
            "1083",
            1,
            "tpl-py",
            3,
            "OnReplenish",
            3,
            3),
        ObjectViews.toView(CaseFiles.object(C05, "SandboxWarmPool", "pool-py", "1083")));
  }

  @Test
  void fabric8ObjectGivesTheSameViewAndServerTime() {
    Map<String, Object> m = CaseFiles.object(C03, "SandboxClaim", "claim-001", "1060");
    GenericKubernetesResource r =
        new KubernetesSerialization().convertValue(m, GenericKubernetesResource.class);
    assertEquals(ObjectViews.toView(m), ObjectViews.toView(r));
    assertEquals(ObjectViews.serverTime(m), ObjectViews.serverTime(r));
  }

  static Stream<Arguments> serverTimes() {
    return Stream.of(
        // creation 10:05:00, first-observed 10:05:00, first-ready 10:05:00.420, Ready 10:05:01
        Arguments.of(C03, "SandboxClaim", "claim-001", "1060", t("2026-09-01T10:05:01Z")),
        Arguments.of(C03, "SandboxClaim", "claim-001", "1059", t("2026-09-01T10:05:00Z")),
        Arguments.of(C03, "Sandbox", "pool-py-a1", "1054", t("2026-09-01T08:00:14Z")),
        Arguments.of(C03, "Sandbox", "pool-py-b1", "1063", t("2026-09-01T10:05:16Z")),
        Arguments.of(C03, "SandboxTemplate", "tpl-py", "1057", t("2026-08-31T10:00:00Z")),
        Arguments.of(C09, "SandboxClaim", "claim-701", "1044", t("2026-08-31T08:00:00Z")));
  }

  @ParameterizedTest(name = "{1} {2}@{3} -> {4}")
  @MethodSource("serverTimes")
  void serverTimeIsTheNewestServerTimestamp(
      String file, String kind, String name, String rv, Instant expected) {
    assertEquals(expected, ObjectViews.serverTime(CaseFiles.object(file, kind, name, rv)));
  }

  @Test
  void serverTimeCountsDeletionAndIgnoresGarbage() {
    Map<String, Object> o = CaseFiles.object(C03, "Sandbox", "pool-py-a1", "1054");
    meta(o).put("deletionTimestamp", "2026-09-01T11:00:00Z");
    assertEquals(t("2026-09-01T11:00:00Z"), ObjectViews.serverTime(o));
    meta(o).put("deletionTimestamp", "not a time");
    assertEquals(t("2026-09-01T08:00:14Z"), ObjectViews.serverTime(o));
    assertNull(ObjectViews.serverTime(Map.of("kind", "Sandbox")));
  }

  @Test
  @SuppressWarnings("unchecked")
  void managedFieldsTimesAreServerChangeTimesAndConditionMessagesAreKeptTrimmed() {
    Map<String, Object> o = CaseFiles.object(C03, "Sandbox", "pool-py-a1", "1054");
    // a label-only write at 09:30:00 leaves no condition time but stamps managedFields
    meta(o)
        .put(
            "managedFields",
            new java.util.ArrayList<>(
                List.of(
                    Map.of("manager", "agent-sandbox-controller", "time", "2026-09-01T09:30:00Z"),
                    Map.of("manager", "kubectl", "time", "2026-09-01T08:10:00Z"))));
    assertEquals(t("2026-09-01T09:30:00Z"), ObjectViews.serverTime(o));
    Map<String, Object> status = (Map<String, Object>) o.get("status");
    List<Object> conds = new java.util.ArrayList<>((List<Object>) status.get("conditions"));
    conds.add(
        Map.of(
            "type", "PodScheduled",
            "status", "False",
            "reason", "Unschedulable",
            "lastTransitionTime", "2026-09-01T08:00:01Z",
            "message", "0/3 nodes are available:\n  3 Insufficient cpu."));
    status.put("conditions", conds);
    SandboxView v = (SandboxView) ObjectViews.toView(o);
    assertEquals("0/3 nodes are available: 3 Insufficient cpu.", v.podScheduled().message());
  }

  @Test
  void deletionTimestampMeansDeleting() {
    Map<String, Object> o = CaseFiles.object(C03, "Sandbox", "pool-py-a1", "1054");
    meta(o).put("deletionTimestamp", "2026-09-01T11:00:00Z");
    assertEquals(true, ((SandboxView) ObjectViews.toView(o)).deleting());
  }

  @Test
  void parsesRfc3339AndNano() {
    assertEquals(t("2026-09-01T10:05:00Z"), ObjectViews.parseTime("2026-09-01T10:05:00Z"));
    assertEquals(
        t("2026-09-01T10:05:00.123456789Z"),
        ObjectViews.parseTime("2026-09-01T10:05:00.123456789Z"));
    assertEquals(t("2026-09-01T10:05:00Z"), ObjectViews.parseTime("2026-09-01T12:05:00+02:00"));
    assertNull(ObjectViews.parseTime("unknown"));
    assertNull(ObjectViews.parseTime(null));
  }

  @Test
  void claimFirstReadyAtUnknownReadsAsNull() {
    Map<String, Object> o = CaseFiles.object(C03, "SandboxClaim", "claim-001", "1060");
    annotations(o).put("agents.x-k8s.io/claim-first-ready-at", "unknown");
    ClaimView v = (ClaimView) ObjectViews.toView(o);
    assertNull(v.firstReadyAt());
    assertEquals(t("2026-09-01T10:05:01Z"), v.readyAt()); // falls back to the Ready condition
  }

  @Test
  void lifecycleWithoutPolicyDefaultsToRetainAndReadsTtl() {
    Map<String, Object> o = CaseFiles.object(C03, "SandboxClaim", "claim-001", "1060");
    spec(o).put("lifecycle", new java.util.HashMap<>(Map.of("ttlSecondsAfterFinished", 0)));
    ClaimView v = (ClaimView) ObjectViews.toView(o);
    assertEquals("Retain", v.shutdownPolicy());
    assertEquals(0L, v.ttlSecondsAfterFinished());
  }

  @Test
  void poolDefaultsReplicasToOneAndReadsRecreate() {
    Map<String, Object> o = CaseFiles.object(C03, "SandboxWarmPool", "pool-py", "1053");
    spec(o).remove("replicas");
    spec(o).put("updateStrategy", Map.of("type", "Recreate"));
    o.remove("status");
    PoolView v = (PoolView) ObjectViews.toView(o);
    assertEquals(1, v.replicas());
    assertEquals("Recreate", v.updateStrategy());
    assertNull(v.statusReplicas());
    assertNull(v.statusReadyReplicas());
  }

  private static Arguments bad(
      String file,
      String kind,
      String name,
      String rv,
      Consumer<Map<String, Object>> edit,
      String message,
      String shortKey) {
    return Arguments.of(file, kind, name, rv, edit, message, shortKey);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1059",
            o -> spec(o).remove("warmPoolRef"),
            "SandboxClaim team-a/claim-001: spec.warmPoolRef.name: missing",
            "spec.warmPoolRef.name missing"),
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1059",
            o -> spec(o).put("warmPoolRef", Map.of("name", "")),
            "SandboxClaim team-a/claim-001: spec.warmPoolRef.name: missing",
            "spec.warmPoolRef.name missing"),
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1059",
            o -> spec(o).put("warmPoolRef", "pool-py"),
            "SandboxClaim team-a/claim-001: spec.warmPoolRef: not an object",
            "spec.warmPoolRef not an object"),
        bad(
            C03,
            "SandboxWarmPool",
            "pool-py",
            "1053",
            o -> spec(o).remove("sandboxTemplateRef"),
            "SandboxWarmPool team-a/pool-py: spec.sandboxTemplateRef.name: missing",
            "spec.sandboxTemplateRef.name missing"),
        bad(
            C03,
            "SandboxWarmPool",
            "pool-py",
            "1053",
            o -> spec(o).put("replicas", "3"),
            "SandboxWarmPool team-a/pool-py: spec.replicas: not a number",
            "spec.replicas not a number"),
        bad(
            C03,
            "SandboxWarmPool",
            "pool-py",
            "1053",
            o -> spec(o).put("replicas", 1.5),
            "SandboxWarmPool team-a/pool-py: spec.replicas: not an integer",
            "spec.replicas not an integer"),
        bad(
            C03,
            "SandboxWarmPool",
            "pool-py",
            "1053",
            o -> spec(o).put("replicas", -1),
            "SandboxWarmPool team-a/pool-py: spec.replicas: must be between 0 and 2147483647, got -1",
            "spec.replicas out of range"),
        bad(
            C03,
            "SandboxTemplate",
            "tpl-py",
            "1052",
            o -> spec(o).remove("podTemplate"),
            "SandboxTemplate team-a/tpl-py: spec.podTemplate: missing",
            "spec.podTemplate missing"),
        bad(
            C03,
            "SandboxTemplate",
            "tpl-py",
            "1052",
            o -> o.remove("spec"),
            "SandboxTemplate team-a/tpl-py: spec.podTemplate: missing",
            "spec.podTemplate missing"),
        bad(
            C03,
            "SandboxTemplate",
            "tpl-py",
            "1052",
            o -> meta(o).put("generation", "one"),
            "SandboxTemplate team-a/tpl-py: metadata.generation: not a number",
            "metadata.generation not a number"),
        bad(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            o -> meta(o).remove("uid"),
            "Sandbox team-a/pool-py-a1: metadata.uid: missing",
            "metadata.uid missing"),
        bad(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            o -> meta(o).remove("namespace"),
            "Sandbox pool-py-a1: metadata.namespace: missing",
            "metadata.namespace missing"),
        bad(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            o -> meta(o).remove("name"),
            "Sandbox team-a/<unnamed>: metadata.name: missing",
            "metadata.name missing"),
        bad(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            o -> o.remove("metadata"),
            "Sandbox <unnamed>: metadata.name: missing",
            "metadata.name missing"),
        bad(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            o -> meta(o).put("creationTimestamp", "yesterday"),
            "Sandbox team-a/pool-py-a1: metadata.creationTimestamp: bad timestamp 'yesterday'",
            "metadata.creationTimestamp bad timestamp"),
        bad(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            o -> condition0(o).put("lastTransitionTime", "2026-09-01 08:00:14"),
            "Sandbox team-a/pool-py-a1: status.conditions[0].lastTransitionTime: bad timestamp '2026-09-01 08:00:14'",
            "status.conditions[0].lastTransitionTime bad timestamp"),
        bad(
            C03,
            "Sandbox",
            "pool-py-a1",
            "1054",
            o -> labels(o).put("agents.x-k8s.io/launch-type", 1),
            "Sandbox team-a/pool-py-a1: metadata.labels[agents.x-k8s.io/launch-type]: not a string",
            "metadata.labels[agents.x-k8s.io/launch-type] not a string"),
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1060",
            o -> annotations(o).put("agents.x-k8s.io/controller-first-observed-at", "10:05"),
            "SandboxClaim team-a/claim-001: metadata.annotations[agents.x-k8s.io/controller-first-observed-at]: bad timestamp '10:05'",
            "metadata.annotations[agents.x-k8s.io/controller-first-observed-at] bad timestamp"),
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1059",
            o -> spec(o).put("env", "TASK_ID=42"),
            "SandboxClaim team-a/claim-001: spec.env: not a list",
            "spec.env not a list"),
        bad(
            C09,
            "SandboxClaim",
            "claim-701",
            "1044",
            o -> lifecycle(o).put("ttlSecondsAfterFinished", "10"),
            "SandboxClaim team-a/claim-701: spec.lifecycle.ttlSecondsAfterFinished: not a number",
            "spec.lifecycle.ttlSecondsAfterFinished not a number"),
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1059",
            o -> o.put("kind", "Foo"),
            "Foo team-a/claim-001: kind: unknown kind 'Foo'",
            "kind unknown kind"),
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1059",
            o -> o.remove("kind"),
            "object team-a/claim-001: kind: missing",
            "kind missing"),
        bad(
            C03,
            "SandboxClaim",
            "claim-001",
            "1059",
            o -> o.put("apiVersion", "extensions.agents.x-k8s.io/v1alpha1"),
            "SandboxClaim team-a/claim-001: apiVersion: expected 'extensions.agents.x-k8s.io/v1beta1', got 'extensions.agents.x-k8s.io/v1alpha1'",
            "apiVersion unsupported apiVersion"));
  }

  @ParameterizedTest(name = "{5}")
  @MethodSource("malformed")
  void malformedObjectsGiveOneLineErrors(
      String file,
      String kind,
      String name,
      String rv,
      Consumer<Map<String, Object>> edit,
      String message,
      String shortKey) {
    Map<String, Object> o = CaseFiles.object(file, kind, name, rv);
    edit.accept(o);
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> ObjectViews.toView(o));
    assertEquals(message, e.getMessage());
    assertEquals(shortKey, e.shortKey());
    assertEquals(-1, e.getMessage().indexOf('\n'));
  }

  @Test
  void exceptionCarriesItsParts() {
    Map<String, Object> o = CaseFiles.object(C03, "SandboxClaim", "claim-001", "1059");
    spec(o).remove("warmPoolRef");
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> ObjectViews.toView(o));
    assertEquals("SandboxClaim", e.kind());
    assertEquals("team-a/claim-001", e.objectRef());
    assertEquals("spec.warmPoolRef.name", e.field());
    assertEquals("missing", e.reason());
  }

  @Test
  void validateDoesNotNeedServerFields() {
    Map<String, Object> o = CaseFiles.object(C03, "SandboxClaim", "claim-001", "1059");
    meta(o).remove("uid");
    meta(o).remove("resourceVersion");
    assertEquals(org.sandboxslo.engine.model.Kind.SANDBOX_CLAIM, ObjectViews.validate(o));
    spec(o).remove("warmPoolRef");
    assertEquals(
        "SandboxClaim team-a/claim-001: spec.warmPoolRef.name: missing",
        assertThrows(MalformedObjectException.class, () -> ObjectViews.validate(o)).getMessage());
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> meta(Map<String, Object> o) {
    return (Map<String, Object>) o.get("metadata");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> spec(Map<String, Object> o) {
    return (Map<String, Object>) o.get("spec");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> labels(Map<String, Object> o) {
    return (Map<String, Object>) meta(o).get("labels");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> annotations(Map<String, Object> o) {
    return (Map<String, Object>) meta(o).get("annotations");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> lifecycle(Map<String, Object> o) {
    return (Map<String, Object>) spec(o).get("lifecycle");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> condition0(Map<String, Object> o) {
    Map<String, Object> status = (Map<String, Object>) o.get("status");
    return ((List<Map<String, Object>>) status.get("conditions")).get(0);
  }
}
