package dev.horae.schedule.tools;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Time comes only from the host's injected clock and timers; nothing blocks on a thread. */
class PurityArchTest {

  private static final JavaClasses TOOLS = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.horae.schedule.tools");

  @Test
  void readsNoStaticClockAndNeverSleeps() {
    noClasses().should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethod(Instant.class, "now")
        .orShould().callMethod(Clock.class, "systemUTC")
        .orShould().callMethod(Clock.class, "systemDefaultZone")
        .orShould().callMethod(Thread.class, "sleep", long.class)
        .orShould().callMethod(java.util.concurrent.CompletableFuture.class, "join")
        .orShould().callMethod(java.util.concurrent.CompletableFuture.class, "get")
        .orShould().dependOnClassesThat().resideInAnyPackage("java.io..", "java.sql..", "java.util.logging..")
        .check(TOOLS);
  }
}
