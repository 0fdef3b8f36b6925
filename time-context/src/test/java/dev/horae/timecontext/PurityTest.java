package dev.horae.timecontext;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The pure core reads no clock, starts no thread, does no I/O and does not log. */
class PurityTest {

  private static final JavaClasses MAIN =
      new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.horae.timecontext");

  private static final String[] PURE = {"dev.horae.timecontext", "dev.horae.timecontext.internal"};

  @Test
  void pureCoreHasNoClockThreadIoOrLogging() {
    noClasses()
        .that()
        .resideInAnyPackage(PURE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.io..", "java.nio..", "java.net..", "java.util.concurrent..", "org.slf4j..", "java.lang.reflect..")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.time.Clock")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.time.InstantSource")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.lang.Thread")
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.horae.timecontext.plugin..")
        .check(MAIN);
  }

  @Test
  void nothingReadsAStaticClock() {
    noClasses()
        .should()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(java.time.Clock.class, "systemUTC")
        .orShould()
        .callMethod(java.time.Clock.class, "systemDefaultZone")
        .orShould()
        .callMethod(java.time.ZoneId.class, "systemDefault")
        .orShould()
        .callMethod(java.time.LocalDateTime.class, "now")
        .orShould()
        .callMethod(java.time.ZonedDateTime.class, "now")
        .check(MAIN);
  }
}
