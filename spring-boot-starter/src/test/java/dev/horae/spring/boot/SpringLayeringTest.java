package dev.horae.spring.boot;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering rules of docs/architecture.md for the two Spring modules. The {@code architecture}
 * module's {@code LayeringTest} cannot see them (putting Spring AI and Boot on its classpath would
 * move the versions every other module resolves, which is why their dependency management lives in
 * {@code spring-parent} alone), so the starter, which has both on its classpath, checks them here.
 */
class SpringLayeringTest {

  private static final String SPRING_AI = "dev.horae.springai..";
  private static final String STARTER = "dev.horae.spring..";

  private static JavaClasses classes;

  @BeforeAll
  static void importSpringModules() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.horae.springai", "dev.horae.spring");
  }

  @Test
  void bothModulesAreImported() {
    assertThat(classes.contain("dev.horae.springai.HoraeAdvisors")).isTrue();
    assertThat(classes.contain("dev.horae.spring.boot.HoraeAutoConfiguration")).isTrue();
  }

  @Test
  void stairsGoDownOnlyTheAdapterNeverReachesTheStarter() {
    noClasses().that().resideInAPackage(SPRING_AI).should().dependOnClassesThat().resideInAPackage(STARTER)
        .check(classes);
  }

  @Test
  void neitherDependsOnTheOtherAdaptersTheOperationsToolsOrTheTestkit() {
    noClasses().that().resideInAnyPackage(SPRING_AI, STARTER).should().dependOnClassesThat()
        .resideInAnyPackage("dev.horae.langchain4j..", "dev.horae.cli..",
            "dev.horae.testkit..", "dev.horae.conformance..", "dev.horae.examples..")
        .check(classes);
  }

  @Test
  void onlyTheStartersMetricsConfigurationTouchesTheOptionalMicrometerModule() {
    // horae-micrometer is an optional dependency: a class that names it outside the configuration
    // guarded by @ConditionalOnClass would fail to load in an application without it
    noClasses().that().resideInAPackage(SPRING_AI).should().dependOnClassesThat().resideInAPackage("dev.horae.micrometer..")
        .check(classes);
    noClasses().that().resideInAPackage(STARTER)
        .and().doNotHaveFullyQualifiedName("dev.horae.spring.boot.HoraeMetricsAutoConfiguration")
        .and().doNotHaveFullyQualifiedName("dev.horae.spring.boot.HoraeMetricsBinding")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.micrometer..")
        .check(classes);
  }

  @Test
  void onlyTheOtherModulesApiPackagesAreUsed() {
    classes().should(new ArchCondition<JavaClass>("use no other module's internal packages") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        for (var d : item.getDirectDependenciesFromSelf()) {
          String target = d.getTargetClass().getPackageName();
          if (target.startsWith("dev.horae.") && target.contains(".internal")) {
            events.add(SimpleConditionEvent.violated(d, d.getDescription()));
          }
        }
      }
    }).check(classes);
  }

  @Test
  void timeComesFromTheRuntimesClock() {
    // docs/architecture.md: no clock read outside the system-clock implementation
    noClasses().should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(java.time.Instant.class, "now")
        .orShould().callMethod(java.time.Clock.class, "systemUTC")
        .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
        .check(classes);
  }
}
