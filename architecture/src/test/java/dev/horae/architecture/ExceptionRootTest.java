package dev.horae.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.horae.spi.HoraeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every exception a library module defines has the one root {@link HoraeException}, so an embedder
 * catches "anything Horae reported" in one clause. Applications (conformance, examples,
 * benchmarks) and the testkit are not library code; the two documented argument errors stay
 * {@link IllegalArgumentException}s.
 */
@Timeout(60)
class ExceptionRootTest {

  @Test
  void everyLibraryExceptionIsAHoraeException() {
    JavaClasses main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.horae");
    classes().that().areAssignableTo(RuntimeException.class)
        .and().resideOutsideOfPackages("dev.horae.conformance..", "dev.horae.examples..", "dev.horae.benchmarks..",
            "dev.horae.testkit..")
        .and().doNotHaveFullyQualifiedName("dev.horae.spi.message.PromptRejectedException")
        .and().doNotHaveFullyQualifiedName("dev.horae.gate.GateJsonException")
        .should().beAssignableTo(HoraeException.class)
        .because("one exception root for the library (issue: runtime, item 5)")
        .check(main);
  }
}
