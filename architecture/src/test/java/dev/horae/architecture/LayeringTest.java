package dev.horae.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering of {@code docs/architecture.md} over every {@code dev.horae} main class on
 * this module's classpath — every module, the applications ({@code examples}, {@code benchmarks})
 * and the adapters (LangChain4j, Spring AI and the Spring Boot starter) included — and the single
 * reader of the system clock. Test classes are not imported: test code
 * may use the testkit and anything else.
 */
class LayeringTest {

  private static final String SPI = "dev.horae.spi..";
  private static final String SCHEDULE_CORE = "dev.horae.schedule";
  private static final String SCHEDULE_CORE_INTERNAL = "dev.horae.schedule.internal..";
  private static final String SCHEDULE_TOOLS = "dev.horae.schedule.tools..";
  private static final String TIME_CONTEXT = "dev.horae.timecontext..";
  private static final String JOBS = "dev.horae.jobs..";
  private static final String GATE = "dev.horae.gate..";
  private static final String INVARIANT = "dev.horae.invariant..";
  private static final String STORE = "dev.horae.store..";
  private static final String RUNTIME = "dev.horae.runtime..";
  private static final String TESTKIT = "dev.horae.testkit..";
  private static final String CONFORMANCE = "dev.horae.conformance..";
  private static final String EXAMPLES = "dev.horae.examples..";
  private static final String BENCHMARKS = "dev.horae.benchmarks..";
  private static final String[] ADAPTERS_AND_OPERATIONS = {"dev.horae.langchain4j..", "dev.horae.springai..",
      "dev.horae.spring..", "dev.horae.micrometer..", "dev.horae.console..", "dev.horae.cli.."};
  /**
   * gate-runtime's non-API package (wire codec, tool batch): the runtime's turn engine commits with
   * it, so the gate's own packages and the runtime's may name it, and nothing else.
   */
  private static final String GATE_RUNTIME_INTERNAL = "dev.horae.gate.runtime.internal";
  /** The conformance module's TCK binding of the reference host: the one main class outside the testkit that runs on it. */
  private static final String TCK_BINDING = "dev.horae.conformance.scenario.TestkitScenarioHosts";

  private static JavaClasses classes;

  @BeforeAll
  static void importAll() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.horae");
  }

  @Test
  void everyModuleIsOnTheImportedClasspath() {
    assertThat(List.of("dev.horae.spi.time.SystemTime", "dev.horae.schedule.ScheduleFold",
            "dev.horae.timecontext.TimeReadings", "dev.horae.jobs.JobTexts", "dev.horae.gate.GateJson",
            "dev.horae.testkit.TestHost", "dev.horae.conformance.ConformanceRunner",
            "dev.horae.schedule.tools.SchedulePlugin", "dev.horae.invariant.Companions",
            "dev.horae.store.LogSessions", "dev.horae.runtime.HoraeRuntime", "dev.horae.examples.Demo",
            "dev.horae.examples.docs.Configs", "dev.horae.benchmarks.FoldBenchmark",
            "dev.horae.langchain4j.LangChain4jModel", "dev.horae.micrometer.HoraeMetrics", "dev.horae.console.Console", "dev.horae.cli.Horae",
            "dev.horae.springai.SpringAiModelPort", "dev.horae.spring.boot.HoraeAutoConfiguration"))
        .allSatisfy(name -> assertThat(classes.contain(name)).as(name).isTrue());
  }

  @Test
  void theClockRuleCatchesAClockRead() {
    JavaClasses offender = new ClassFileImporter().importClasses(ClockReader.class);
    assertThatThrownBy(() -> classes().should(notReadTheSystemClock()).check(offender))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Instant.now()")
        .hasMessageContaining("System.currentTimeMillis()")
        .hasMessageContaining("Clock.systemUTC()");
  }

  /** Reads the system clock three ways, so the rule has something to catch. */
  static final class ClockReader {
    long read() {
      return Instant.now().toEpochMilli() + System.currentTimeMillis() + Clock.systemUTC().millis();
    }
  }

  @Test
  void theHostContractDependsOnNoHoraeModule() {
    noClasses().that().resideInAPackage(SPI)
        .should().dependOnClassesThat().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL,
            SCHEDULE_TOOLS, TIME_CONTEXT, JOBS, GATE, INVARIANT, STORE, RUNTIME, TESTKIT, CONFORMANCE, EXAMPLES,
            BENCHMARKS)
        .check(classes);
  }

  @Test
  void theScheduleCoreDependsOnlyOnTheContract() {
    noClasses().that().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL)
        .should().dependOnClassesThat().resideInAnyPackage(SCHEDULE_TOOLS, TIME_CONTEXT, JOBS, GATE,
            INVARIANT, STORE, RUNTIME, TESTKIT, CONFORMANCE, EXAMPLES, BENCHMARKS)
        .check(classes);
  }

  @Test
  void pureCoresDoNotDependOnTheirAdapters() {
    // the pure halves of the plugin modules: time-context's reading builder, the gate contract
    noClasses().that().resideInAnyPackage("dev.horae.timecontext", "dev.horae.timecontext.internal..")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.timecontext.plugin..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.horae.gate")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.gate.runtime..")
        .check(classes);
    noClasses().that().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL, "dev.horae.timecontext",
            "dev.horae.timecontext.internal..", "dev.horae.gate")
        .should().dependOnClassesThat().resideInAnyPackage("org.slf4j..", "java.nio.file..", "java.net..")
        .orShould().dependOnClassesThat().belongToAnyOf(Thread.class, java.util.concurrent.Executors.class,
            java.util.concurrent.ExecutorService.class, java.util.Timer.class, java.io.File.class,
            java.io.FileInputStream.class, java.io.FileOutputStream.class)
        .check(classes);
  }

  @Test
  void noPluginDependsOnAnotherPlugin() {
    noClasses().that().resideInAPackage(SCHEDULE_TOOLS)
        .should().dependOnClassesThat().resideInAnyPackage(TIME_CONTEXT, JOBS, GATE)
        .check(classes);
    noClasses().that().resideInAPackage(TIME_CONTEXT)
        .should().dependOnClassesThat().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL,
            SCHEDULE_TOOLS, JOBS, GATE)
        .check(classes);
    noClasses().that().resideInAPackage(JOBS)
        .should().dependOnClassesThat().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL,
            SCHEDULE_TOOLS, TIME_CONTEXT, GATE)
        .check(classes);
    noClasses().that().resideInAPackage(GATE)
        .should().dependOnClassesThat().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL,
            SCHEDULE_TOOLS, TIME_CONTEXT, JOBS)
        .check(classes);
  }

  @Test
  void libraryModulesDependOnNoApplicationHostImplementationOrTestkit() {
    noClasses().that().resideInAnyPackage(SPI, SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL, SCHEDULE_TOOLS,
            TIME_CONTEXT, JOBS, GATE)
        .should().dependOnClassesThat().resideInAnyPackage(STORE, RUNTIME, TESTKIT, CONFORMANCE, EXAMPLES,
            BENCHMARKS)
        .allowEmptyShould(true)
        .check(classes);
    // the invariant module's check command reads file-store logs, so it may use the store's API
    noClasses().that().resideInAPackage(INVARIANT)
        .should().dependOnClassesThat().resideInAnyPackage(RUNTIME, TESTKIT, CONFORMANCE, EXAMPLES, BENCHMARKS)
        .allowEmptyShould(true)
        .check(classes);
    noClasses().that().resideInAPackage(STORE)
        .should().dependOnClassesThat().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL,
            SCHEDULE_TOOLS, TIME_CONTEXT, JOBS, GATE, INVARIANT, CONFORMANCE, EXAMPLES, BENCHMARKS)
        .allowEmptyShould(true)
        .check(classes);
    // testkit is the runtime plus controls: its builder takes the gate plugins the runtime's
    // builder takes (HoraeRuntime.Builder#gatePlugins), so it may name the gate's API package and
    // nothing below it (the gate's run engine, codecs, dispatcher)
    noClasses().that().resideInAPackage(TESTKIT)
        .should().dependOnClassesThat().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL,
            SCHEDULE_TOOLS, TIME_CONTEXT, JOBS, INVARIANT, CONFORMANCE, EXAMPLES, BENCHMARKS)
        .allowEmptyShould(true)
        .check(classes);
    noClasses().that().resideInAPackage(TESTKIT)
        .should().dependOnClassesThat().resideInAPackage("dev.horae.gate.runtime..")
        .allowEmptyShould(true)
        .check(classes);
    noClasses().that().resideInAPackage(STORE)
        .should().dependOnClassesThat().resideInAPackage(RUNTIME)
        .check(classes);
    // the examples' TCK example shows a host author how to bind the scenarios
    noClasses().that().resideOutsideOfPackages(CONFORMANCE, EXAMPLES)
        .should().dependOnClassesThat().resideInAPackage(CONFORMANCE)
        .check(classes);
  }

  @Test
  void noMainCodeDependsOnTheTestkitButTheTestkitAndTheTckBinding() {
    noMainCodeOnTheTestkit().check(classes);
  }

  @Test
  void theTestkitRuleCatchesAMainClassOnTheTestkit() {
    JavaClasses offender = new ClassFileImporter().importClasses(TestkitUser.class);
    assertThatThrownBy(() -> noMainCodeOnTheTestkit().check(offender))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("dev.horae.testkit.TestHost");
  }

  // test code is not imported, so "outside the testkit" means the main code of every other module
  private static ArchRule noMainCodeOnTheTestkit() {
    return noClasses().that().resideOutsideOfPackage(TESTKIT).and(DescribedPredicate.not(tckBinding()))
        .should().dependOnClassesThat().resideInAPackage(TESTKIT);
  }

  /** Uses the testkit, so the testkit rule has something to catch. */
  static final class TestkitUser {
    Object host() {
      return dev.horae.testkit.TestHost.builder().build();
    }
  }

  /** The TCK binding class and its nested and anonymous classes. */
  private static DescribedPredicate<JavaClass> tckBinding() {
    return DescribedPredicate.describe("the TCK binding " + TCK_BINDING,
        c -> c.getName().equals(TCK_BINDING) || c.getName().startsWith(TCK_BINDING + "$"));
  }

  @Test
  void theRuntimeDependsOnNoTestkitNoPluginAndNoApplication() {
    // it stands on the contract, the gate engine it runs and the sessions service; never above them
    noClasses().that().resideInAPackage(RUNTIME)
        .should().dependOnClassesThat().resideInAnyPackage(TESTKIT, SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL,
            SCHEDULE_TOOLS, TIME_CONTEXT, JOBS, INVARIANT, CONFORMANCE, EXAMPLES, BENCHMARKS)
        .check(classes);
  }

  @Test
  void noPluginDependsOnTheRuntime() {
    noClasses().that().resideInAnyPackage(SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL, SCHEDULE_TOOLS, TIME_CONTEXT,
            JOBS, GATE)
        .should().dependOnClassesThat().resideInAPackage(RUNTIME)
        .check(classes);
  }

  @Test
  void noLibraryModuleDependsOnAnAdapterOrAnOperationsModule() {
    // the framework adapters and the operations tools sit on top: a user of the runtime alone never
    // pulls LangChain4j, Spring, Micrometer or the command line
    noClasses().that().resideInAnyPackage(SPI, SCHEDULE_CORE, SCHEDULE_CORE_INTERNAL, SCHEDULE_TOOLS, TIME_CONTEXT,
            JOBS, GATE, STORE, RUNTIME, INVARIANT, TESTKIT)
        .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS_AND_OPERATIONS)
        .check(classes);
  }

  @Test
  void theAdaptersAndOperationsModulesDoNotDependOnEachOther() {
    noClasses().that().resideInAPackage("dev.horae.langchain4j..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.horae.springai..", "dev.horae.spring..",
            "dev.horae.micrometer..", "dev.horae.cli..")
        .check(classes);
    // the starter wires the Spring AI adapter (its one allowed crossing); the adapter never needs Boot
    noClasses().that().resideInAPackage("dev.horae.springai..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.horae.langchain4j..", "dev.horae.spring..",
            "dev.horae.micrometer..", "dev.horae.cli..", EXAMPLES)
        .check(classes);
    noClasses().that().resideInAPackage("dev.horae.spring..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.horae.langchain4j..", "dev.horae.cli..", EXAMPLES)
        .check(classes);
    // horae-micrometer is an optional dependency of the starter: a class that names it outside the
    // configuration guarded by @ConditionalOnClass would fail to load in an application without it
    noClasses().that().resideInAPackage("dev.horae.spring..")
        .and().doNotHaveFullyQualifiedName("dev.horae.spring.boot.HoraeMetricsAutoConfiguration")
        .and().doNotHaveFullyQualifiedName("dev.horae.spring.boot.HoraeMetricsBinding")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.micrometer..")
        .check(classes);
    noClasses().that().resideInAnyPackage("dev.horae.micrometer..", "dev.horae.cli..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.horae.langchain4j..", "dev.horae.springai..",
            "dev.horae.spring..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.horae.micrometer..")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.cli..").check(classes);
    noClasses().that().resideInAPackage("dev.horae.cli..")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.micrometer..").check(classes);
    // the console is a library both the command line and the starter adapt: it knows neither, nor
    // any framework or HTTP server, and the starter never reaches the command line (an application jar)
    noClasses().that().resideInAPackage("dev.horae.console..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.horae.cli..", "dev.horae.spring..",
            "dev.horae.springai..", "dev.horae.langchain4j..", "dev.horae.micrometer..", "com.sun.net.httpserver..",
            "jakarta.servlet..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.horae.micrometer..")
        .should().dependOnClassesThat().resideInAPackage("dev.horae.console..").check(classes);
  }

  @Test
  void onlyTheGateAndTheRuntimeReachGateRuntimesInternalPackage() {
    gateRuntimeInternalStaysInside().check(classes);
  }

  @Test
  void theGateRuntimeInternalRuleCatchesAnOutsideUser() {
    JavaClasses offender = new ClassFileImporter().importClasses(GateInternalUser.class);
    assertThatThrownBy(() -> gateRuntimeInternalStaysInside().check(offender))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(GATE_RUNTIME_INTERNAL + ".CommitCodec");
  }

  // main code only (tests are not imported): a test of any module may exercise the codec
  private static ArchRule gateRuntimeInternalStaysInside() {
    return noClasses().that().resideOutsideOfPackages(GATE, RUNTIME)
        .should().dependOnClassesThat().resideInAPackage(GATE_RUNTIME_INTERNAL + "..");
  }

  /** Encodes with gate-runtime's internal codec, so the rule has something to catch. */
  static final class GateInternalUser {
    Object policy() {
      return dev.horae.gate.runtime.internal.CommitCodec.encodePolicy(
          dev.horae.gate.runtime.ToolRecoveryPolicy.neverReplay());
    }
  }

  /** Module roots, most specific first: a package belongs to the first root it lies under. */
  private static final List<String> MODULE_ROOTS = List.of("dev.horae.spi", "dev.horae.schedule.tools",
      "dev.horae.schedule", "dev.horae.timecontext", "dev.horae.jobs", "dev.horae.gate", "dev.horae.invariant",
      "dev.horae.store", "dev.horae.runtime", "dev.horae.testkit", "dev.horae.conformance", "dev.horae.examples",
      "dev.horae.benchmarks", "dev.horae.langchain4j", "dev.horae.springai", "dev.horae.spring", "dev.horae.micrometer",
      "dev.horae.console", "dev.horae.cli");

  /**
   * Known crossings into another module's internal packages, reported to their owners; anything
   * not listed here fails. Remove an entry once it is fixed.
   */
  private static final Set<String> KNOWN_INTERNAL_CROSSINGS = Set.of(
      "dev.horae.invariant.internal.cli.SessionFolders -> dev.horae.store.internal.frame");

  /**
   * Internal packages another module uses by design, each with the one module allowed: the
   * runtime's turn engine commits with gate-runtime's machinery ({@link
   * #onlyTheGateAndTheRuntimeReachGateRuntimesInternalPackage} keeps everyone else out).
   */
  private static final Map<String, String> DESIGNED_INTERNAL_USERS =
      Map.of(GATE_RUNTIME_INTERNAL, "dev.horae.runtime");

  private static boolean designedUse(String fromModule, String target) {
    return DESIGNED_INTERNAL_USERS.entrySet().stream().anyMatch(e ->
        (target.equals(e.getKey()) || target.startsWith(e.getKey() + ".")) && e.getValue().equals(fromModule));
  }

  private static String module(String pkg) {
    for (String root : MODULE_ROOTS) {
      if (pkg.equals(root) || pkg.startsWith(root + ".")) {
        return root;
      }
    }
    return pkg;
  }

  @Test
  void noModuleReachesIntoAnotherModulesInternalPackages() {
    classes().should(new ArchCondition<JavaClass>("use only their own module's internal packages") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        String from = module(item.getPackageName());
        for (var d : item.getDirectDependenciesFromSelf()) {
          String target = d.getTargetClass().getPackageName();
          boolean internal = target.contains(".internal");
          String crossing = item.getName().replaceAll("\\$.*", "") + " -> " + target;
          if (internal && target.startsWith("dev.horae.") && !module(target).equals(from)
              && !KNOWN_INTERNAL_CROSSINGS.contains(crossing) && !designedUse(from, target)) {
            events.add(SimpleConditionEvent.violated(d, d.getDescription()));
          }
        }
      }
    }).check(classes);
  }

  @Test
  void theModulesFormNoCycle() {
    SlicesRuleDefinition.slices().matching("dev.horae.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void onlySystemTimeReadsTheSystemClock() {
    classes().that().doNotHaveFullyQualifiedName("dev.horae.spi.time.SystemTime")
        .should(notReadTheSystemClock())
        .check(classes);
  }

  private static final Set<String> CLOCK_OWNERS = Set.of("java.time.Instant", "java.time.LocalDateTime",
      "java.time.LocalDate", "java.time.LocalTime", "java.time.OffsetDateTime", "java.time.ZonedDateTime",
      "java.time.OffsetTime", "java.time.Year", "java.time.YearMonth", "java.time.MonthDay");

  // a positive condition on classes(): with noClasses() ArchUnit would invert the events
  private static ArchCondition<JavaClass> notReadTheSystemClock() {
    return new ArchCondition<>("not read the system clock (Instant.now, System.currentTimeMillis, Clock.system*)") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        for (JavaMethodCall call : item.getMethodCallsFromSelf()) {
          String owner = call.getTargetOwner().getFullName();
          String name = call.getName();
          boolean clock = (owner.equals("java.lang.System") && name.equals("currentTimeMillis"))
              || (owner.equals("java.time.Clock") && name.startsWith("system"))
              || (owner.equals("java.time.InstantSource") && name.equals("system"))
              || (CLOCK_OWNERS.contains(owner) && name.equals("now"));
          if (clock) {
            events.add(SimpleConditionEvent.violated(call, call.getDescription()));
          }
        }
      }
    };
  }
}
