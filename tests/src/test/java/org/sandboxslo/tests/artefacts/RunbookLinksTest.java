package org.sandboxslo.tests.artefacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.sandboxslo.engine.finding.FindingKind;
import org.sandboxslo.tests.artefacts.Artefacts.AlertRule;

/**
 * Every alert's {@code runbook_url} resolves to a file in {@code runbooks/}, every runbook has the
 * required sections, the index links every runbook, every console finding kind's runbook exists,
 * and no runbook is orphaned.
 */
class RunbookLinksTest {

  /** Level-2 headings every runbook must have, in this order. */
  static final List<String> REQUIRED_SECTIONS =
      List.of("Meaning", "Impact", "Confirm", "Likely causes", "Remediation", "Verify recovery");

  /** Runbooks for alerts that only exist once generated (alerts/generated/ may be empty). */
  static final Set<String> GENERATED_ALERT_RUNBOOKS = Set.of("SloErrorBudgetBurn.md");

  private static final Pattern HEADING = Pattern.compile("(?m)^## (.+?)\\s*$");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#]+)(#[^)]*)?\\)");

  @TestFactory
  Stream<DynamicTest> everyRunbookUrlResolvesToAFile() {
    List<AlertRule> alerts = Artefacts.alertRules();
    assertFalse(alerts.isEmpty(), "no alerting rules found");
    return alerts.stream()
        .map(
            a ->
                dynamicTest(
                    a.name(),
                    () -> {
                      String url = a.annotations().getOrDefault("runbook_url", "");
                      assertTrue(
                          url.startsWith(Artefacts.RUNBOOK_URL_PREFIX),
                          a.name()
                              + ": runbook_url "
                              + url
                              + " must start with "
                              + Artefacts.RUNBOOK_URL_PREFIX);
                      Path file =
                          Artefacts.repoRoot()
                              .resolve(url.substring(Artefacts.RUNBOOK_URL_PREFIX.length()))
                              .normalize();
                      assertTrue(
                          file.startsWith(Artefacts.runbooksDir()),
                          a.name() + ": runbook_url must point into runbooks/: " + url);
                      assertTrue(Files.isRegularFile(file), a.name() + ": missing runbook " + file);
                    }));
  }

  @TestFactory
  Stream<DynamicTest> everyRunbookHasTheRequiredSections() {
    return runbooks().stream()
        .map(
            file ->
                dynamicTest(
                    file.getFileName().toString(),
                    () -> {
                      String text = Artefacts.read(file);
                      String name = file.getFileName().toString().replaceFirst("\\.md$", "");
                      assertTrue(
                          text.startsWith("# " + name + "\n"),
                          file + ": first line must be '# " + name + "'");
                      List<String> headings = new ArrayList<>();
                      Matcher m = HEADING.matcher(text);
                      while (m.find()) {
                        headings.add(m.group(1));
                      }
                      assertEquals(
                          REQUIRED_SECTIONS,
                          headings.stream().filter(REQUIRED_SECTIONS::contains).toList(),
                          file + ": sections (## ...) missing or out of order; found " + headings);
                      for (String section : REQUIRED_SECTIONS) {
                        String body = sectionBody(text, section);
                        assertFalse(body.isBlank(), file + ": section '" + section + "' is empty");
                      }
                    }));
  }

  /** Every runbook belongs to an alert, a generated alert, or a console finding kind. */
  @Test
  void noOrphanRunbooks() {
    Set<String> expected = new TreeSet<>(GENERATED_ALERT_RUNBOOKS);
    Artefacts.alertRules().forEach(a -> expected.add(a.name() + ".md"));
    Arrays.stream(FindingKind.values()).forEach(k -> expected.add(k.runbook() + ".md"));
    Set<String> actual =
        runbooks().stream()
            .map(p -> p.getFileName().toString())
            .collect(Collectors.toCollection(TreeSet::new));
    actual.removeAll(expected);
    assertTrue(actual.isEmpty(), "runbooks without an alert or finding kind: " + actual);
  }

  /** The engine's findings link to {@code runbooks/<FindingKind.runbook()>.md}. */
  @Test
  void everyFindingKindRunbookExists() {
    List<String> missing =
        Arrays.stream(FindingKind.values())
            .filter(k -> !Files.isRegularFile(Artefacts.runbooksDir().resolve(k.runbook() + ".md")))
            .map(k -> k.wireName() + " -> runbooks/" + k.runbook() + ".md")
            .toList();
    assertTrue(missing.isEmpty(), "finding kinds without a runbook: " + missing);
  }

  @Test
  void indexLinksEveryRunbookAndEveryLinkResolves() {
    Path index = Artefacts.runbooksDir().resolve("README.md");
    assertTrue(Files.isRegularFile(index), "missing " + index);
    Set<String> linked = new TreeSet<>();
    Matcher m = LINK.matcher(Artefacts.read(index));
    while (m.find()) {
      String target = m.group(1);
      if (target.startsWith("http://") || target.startsWith("https://")) {
        continue;
      }
      Path resolved = Artefacts.runbooksDir().resolve(target).normalize();
      assertTrue(Files.exists(resolved), "README.md links to missing " + target);
      linked.add(resolved.getFileName().toString());
    }
    List<String> unlinked =
        runbooks().stream()
            .map(p -> p.getFileName().toString())
            .filter(n -> !linked.contains(n))
            .toList();
    assertTrue(unlinked.isEmpty(), "runbooks/README.md does not link " + unlinked);
  }

  private static List<Path> runbooks() {
    List<Path> files =
        Artefacts.filesEndingWith(Artefacts.runbooksDir(), ".md").stream()
            .filter(p -> !p.getFileName().toString().equals("README.md"))
            .toList();
    assertFalse(files.isEmpty(), "no runbooks in " + Artefacts.runbooksDir());
    return files;
  }

  private static String sectionBody(String text, String section) {
    int start = text.indexOf("\n## " + section + "\n");
    if (start < 0) {
      return "";
    }
    int bodyStart = start + section.length() + 5;
    int next = text.indexOf("\n## ", bodyStart);
    return text.substring(bodyStart, next < 0 ? text.length() : next);
  }
}
