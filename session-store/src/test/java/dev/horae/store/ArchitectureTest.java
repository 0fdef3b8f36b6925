package dev.horae.store;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The framing package is pure, the API does not leak internals, and nothing reads the clock. */
class ArchitectureTest {

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // the test classpath holds large PostgreSQL binary jars; this module's classes are a folder
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("dev.horae.store");

  @Test
  void framingIsPure() {
    noClasses()
        .that().resideInAPackage("dev.horae.store.internal.frame..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "java.io..", "java.nio.file..", "java.nio.channels..", "java.util.concurrent..", "org.slf4j..",
            "java.time..", "java.sql..")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .orShould().dependOnClassesThat().resideInAPackage("dev.horae.store.internal")
        .check(MAIN);
  }

  @Test
  void nothingReadsTheClock() {
    noClasses()
        .should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethod(java.time.Instant.class, "now")
        .orShould().callMethod(java.time.Clock.class, "systemUTC")
        .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
        .orShould().callMethod(java.time.LocalDateTime.class, "now")
        .orShould().callMethod(java.time.ZonedDateTime.class, "now")
        .check(MAIN);
  }

  @Test
  void theApiDependsOnlyOnTheSpiAndItsOwnInternals() {
    noClasses()
        .that().resideInAPackage("dev.horae.store..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.horae.testkit..", "dev.horae.schedule..", "dev.horae.gate..")
        .check(MAIN);
  }
}
