package dev.horae.gate;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The gate model is pure; no code in the module reads a static clock. */
class PurityArchTest {

  private static final JavaClasses MODULE = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.horae.gate");

  @Test
  void theGateModelReadsNoClockStartsNoThreadDoesNoIoAndDoesNotLog() {
    noClasses().that().resideInAPackage("dev.horae.gate")
        .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio.file..", "java.net..",
            "java.util.concurrent..", "org.slf4j..", "java.time..")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .check(MODULE);
  }

  @Test
  void nothingReadsAStaticClock() {
    noClasses().should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethod(java.time.Instant.class, "now")
        .orShould().callMethod(java.time.Clock.class, "systemUTC")
        .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
        .check(MODULE);
  }

  @Test
  void theEngineStartsNoThreads() {
    noClasses().that().resideInAPackage("dev.horae.gate.runtime")
        .should().dependOnClassesThat().areAssignableTo(Thread.class)
        .orShould().dependOnClassesThat().haveSimpleName("Executors")
        .check(MODULE);
  }
}
