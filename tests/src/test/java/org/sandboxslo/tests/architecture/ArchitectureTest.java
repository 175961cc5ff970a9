package org.sandboxslo.tests.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layout holds: no package cycles anywhere in the production code, and each module depends only
 * in the direction of the data flow (engine ← collector/store ← console-ui ← server ← demo).
 */
class ArchitectureTest {
  static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // jOOQ's generated schema and tables refer to each other by design
            .withImportOption(location -> !location.contains("/org/sandboxslo/store/jooq/"))
            .importPackages("org.sandboxslo");
  }

  @Test
  void noPackageCycles() {
    slices().matching("org.sandboxslo.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void theEngineIsPure() {
    noClasses()
        .that()
        .resideInAPackage("org.sandboxslo.engine..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.sandboxslo.collector..",
            "org.sandboxslo.store..",
            "org.sandboxslo.console..",
            "org.sandboxslo.server..",
            "org.sandboxslo.controller..",
            "org.sandboxslo.demo..",
            "io.vertx..",
            "io.fabric8..",
            "io.prometheus..",
            "org.jooq..",
            "java.sql..")
        .check(classes);
  }

  @Test
  void theProductionServerKnowsNothingOfTheDemo() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "org.sandboxslo.engine..",
            "org.sandboxslo.collector..",
            "org.sandboxslo.store..",
            "org.sandboxslo.console..",
            "org.sandboxslo.server..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.sandboxslo.demo..",
            "org.sandboxslo.controller..",
            "org.sandboxslo.apiserver..",
            "io.fabric8.kubernetes.client.server.mock..",
            "io.fabric8.mockwebserver..")
        .check(classes);
  }

  @Test
  void onlyTheEmbeddedDatabaseTouchesTheEmbeddedPostgres() {
    // zonky is an optional dependency of store/: present in the laptop distribution only
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName("org.sandboxslo.store.EmbeddedDatabase")
        .and()
        .resideOutsideOfPackage("org.sandboxslo.demo..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.zonky..")
        .check(classes);
  }

  @Test
  void theConsoleDoesNotReachIntoTheWiring() {
    noClasses()
        .that()
        .resideInAnyPackage("org.sandboxslo.console..", "org.sandboxslo.store..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.sandboxslo.server..")
        .check(classes);
  }
}
