package dev.horae.jobs;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The pure parts (texts, bounding, config validation, renderings, the output window) read no
 * clock, start no thread, do no I/O and do not log; and no class of the module reads a static
 * clock.
 */
class PurityArchTest {

  private static final JavaClasses ALL =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.horae.jobs");

  private static final String[] PURE = {
    "dev.horae.jobs.JobTexts",
    "dev.horae.jobs.JobTexts$Notice",
    "dev.horae.jobs.Utf8Bounds",
    "dev.horae.jobs.JobsControllerConfig",
    "dev.horae.jobs.CompletionDelivery",
    "dev.horae.jobs.registry.JobServiceConfig",
    "dev.horae.jobs.internal.ConfigValidation",
    "dev.horae.jobs.errors.internal.Errors",
    "dev.horae.jobs.internal.Schemas",
    "dev.horae.jobs.shell.OutputWindow",
    "dev.horae.jobs.shell.internal.Signals",
    "dev.horae.jobs.shell.internal.Signals$Platform",
  };

  @Test
  void everyListedPureClassExists() {
    // a class renamed or moved without this list following would silently leave the rules below
    assertThat(PURE).allSatisfy(name -> assertThat(ALL.contain(name)).as(name).isTrue());
  }

  @Test
  void noClassReadsAStaticClock() {
    noClasses()
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.time.Clock.class, "systemUTC")
        .orShould()
        .callMethod(java.time.Clock.class, "systemDefaultZone")
        .check(ALL);
  }

  @Test
  void pureClassesReadNoClockStartNoThreadDoNoIoAndDoNotLog() {
    noClasses()
        .that(
            DescribedPredicate.describe(
                "are pure", (JavaClass c) -> Arrays.asList(PURE).contains(c.getName())))
        .should()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethodWhere(JavaCall.Predicates.target(HasName.Predicates.name("now")))
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.io..", "java.nio.file..", "java.nio.channels..", "java.net..",
            "java.util.logging..", "org.slf4j..", "java.lang.management..")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.lang.Thread")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.lang.ProcessBuilder")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.lang.Runtime")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.time.Clock")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.time.InstantSource")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.util.concurrent.Executor")
        .check(ALL);
  }
}
