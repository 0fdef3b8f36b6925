package dev.horae.schedule;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The Schedule core is pure (spec §1.1): no clock reads, threads, I/O, logging or JDBC. Parsing
 * bytes held in memory with Jackson is not I/O.
 */
class PurityArchTest {

  private static final JavaClasses CORE = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.horae.schedule");

  @Test
  void readsNoClock() {
    noClasses().should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
            com.tngtech.archunit.core.domain.properties.HasName.Predicates.name("now")))
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.InstantSource")
        .check(CORE);
  }

  @Test
  void startsNoThreadsAndDoesNoIo() {
    // IOException is the checked exception Jackson's parser declares; the codec parses an event's
    // bytes in memory (ChangeCodec.decode(SessionEvent)), so it names the type and does no I/O.
    // ByteBuffer and StandardCharsets are memory, not I/O: the decoder's short path reads an
    // event's payload through SessionEvent.payload() (CanonicalChange)
    noClasses().should().dependOnClassesThat(resideInAnyPackage(
            "java.io..", "java.nio..", "java.net..", "java.sql..", "javax.sql..",
            "java.util.concurrent..", "java.util.logging..", "org.slf4j..", "java.lang.management..")
            .and(not(equivalentTo(IOException.class)))
            .and(not(equivalentTo(java.nio.ByteBuffer.class)))
            .and(not(equivalentTo(java.nio.charset.StandardCharsets.class))))
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.Thread")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.ProcessBuilder")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.Runtime")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.Random")
        .orShould().accessField(System.class, "out")
        .orShould().accessField(System.class, "err")
        .check(CORE);
  }
}
