package dev.horae.invariant;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** The companions are pure: only the command line does I/O, and nothing reads a static clock. */
class PurityTest {

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.horae.invariant");

  @Test
  void companionsDoNoIoStartNoThreadAndDoNotLog() {
    ArchRule rule = noClasses()
        .that().resideInAnyPackage("dev.horae.invariant", "dev.horae.invariant.internal")
        .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio.file..", "java.net..", "org.slf4j..")
        .orShould().dependOnClassesThat().haveFullyQualifiedName(Thread.class.getName())
        .orShould().dependOnClassesThat().haveSimpleNameEndingWith("Executor")
        .orShould().dependOnClassesThat().haveSimpleNameEndingWith("ExecutorService")
        .because("companions run inside appends on host threads and must stay pure");
    rule.check(MAIN);
  }

  @Test
  void nothingReadsAStaticClock() {
    ArchRule rule = noClasses()
        .should().callMethod(java.time.Instant.class, "now")
        .orShould().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethod(java.time.Clock.class, "systemUTC")
        .orShould().callMethod(java.time.Clock.class, "systemDefaultZone");
    rule.check(MAIN);
  }

  @Test
  void theApiDoesNotDependOnTheCommandLine() {
    noClasses()
        .that().resideOutsideOfPackage("dev.horae.invariant.internal.cli")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.invariant.internal.cli")
        .check(MAIN);
  }
}
