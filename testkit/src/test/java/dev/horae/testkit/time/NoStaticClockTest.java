package dev.horae.testkit.time;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Host contract §12.1: nothing reads a static clock. Every {@code dev.horae} class on the test
 * classpath (this module, its tests and the host contract it depends on) is scanned; the only
 * class allowed to read the system clock is {@code dev.horae.spi.time.SystemTime}.
 */
class NoStaticClockTest {

  private static final String SYSTEM_TIME = "dev.horae.spi.time.SystemTime";

  private static final Set<String> FORBIDDEN = Set.of(
      "java.time.Instant.now",
      "java.lang.System.currentTimeMillis",
      "java.lang.System.nanoTime",
      "java.time.Clock.systemUTC",
      "java.time.Clock.systemDefaultZone",
      "java.time.Clock.system");

  private static final DescribedPredicate<JavaAccess<?>> STATIC_CLOCK = DescribedPredicate.describe(
      "a static clock (Instant.now, System.currentTimeMillis, System.nanoTime, Clock.system*)",
      access -> FORBIDDEN.contains(access.getTarget().getOwner().getName() + "." + access.getTarget().getName()));

  private static final DescribedPredicate<JavaClass> LIBRARY_CODE = DescribedPredicate.describe(
      "Horae classes other than SystemTime",
      c -> c.getPackageName().startsWith("dev.horae")
          && !c.getName().equals(SYSTEM_TIME)
          && !c.getName().startsWith(SYSTEM_TIME + "$")
          && !c.getName().startsWith(StaticClockCanary.class.getName()));

  private static ArchRule noStaticClock(DescribedPredicate<JavaClass> scope) {
    return noClasses().that(scope).should().accessTargetWhere(STATIC_CLOCK);
  }

  private static boolean resolveBefore;

  @BeforeAll
  static void importOnlyWhatIsScanned() {
    // resolving every JDK and Jackson class the scanned code touches costs tens of seconds and the
    // rule needs only the names of access targets, which are known without resolving them
    resolveBefore = ArchConfiguration.get().resolveMissingDependenciesFromClassPath();
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
  }

  @AfterAll
  static void restoreImportConfiguration() {
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(resolveBefore);
  }

  @Test
  void noHoraeClassReadsAStaticClock() {
    JavaClasses classes = new ClassFileImporter().importPackages("dev.horae");
    // the scan must see both this module and the host contract, or the rule proves nothing
    assertThat(classes.contain(ManualTime.class)).isTrue();
    assertThat(classes.contain(SYSTEM_TIME)).isTrue();

    noStaticClock(LIBRARY_CODE).check(classes);
  }

  @Test
  void theRuleCatchesEveryForbiddenForm() {
    JavaClasses canary = new ClassFileImporter().importClasses(StaticClockCanary.class);

    EvaluationResult result = noStaticClock(DescribedPredicate.describe("canary", c -> true)).evaluate(canary);

    List<String> details = result.getFailureReport().getDetails();
    assertThat(details).anyMatch(d -> d.contains("Instant.now"))
        .anyMatch(d -> d.contains("System.currentTimeMillis"))
        .anyMatch(d -> d.contains("System.nanoTime"))
        .anyMatch(d -> d.contains("Clock.systemUTC"))
        .hasSizeGreaterThanOrEqualTo(5);
  }

  /** Deliberately breaks the rule; excluded from the real scan by name. */
  static final class StaticClockCanary {
    private StaticClockCanary() {}

    static long readAll() {
      LongSupplier ref = System::currentTimeMillis;
      return Instant.now().toEpochMilli() + System.currentTimeMillis() + System.nanoTime()
          + Clock.systemUTC().millis() + ref.getAsLong();
    }
  }
}
