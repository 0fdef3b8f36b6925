package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Every test of the build is bounded: the root pom's Surefire configuration gives JUnit a default
 * timeout for every test and lifecycle method, in a thread mode that aborts a test which ignores
 * interrupts. Removing or weakening those parameters fails this test.
 */
class DefaultTimeoutTest {

  private static final String DEFAULT = "junit.jupiter.execution.timeout.default";
  private static final String THREAD_MODE = "junit.jupiter.execution.timeout.thread.mode.default";
  private static final String MODE = "junit.jupiter.execution.timeout.mode";
  /** Set only on the nested run, so the hanging fixture never runs as a test of the build. */
  private static final String FIXTURE = "horae.defaultTimeoutTest.fixture";

  /** The configuration parameters this build gave JUnit, as the engine saw them. */
  private static final Map<String, String> BUILD = new ConcurrentHashMap<>();

  @RegisterExtension
  static final BeforeAllCallback READ_PARAMETERS = context -> {
    for (String key : List.of(DEFAULT, THREAD_MODE, MODE)) {
      context.getConfigurationParameter(key).ifPresent(value -> BUILD.put(key, value));
    }
  };

  /** What the hung fixture waits for; released after each test so no abandoned thread stays parked. */
  private static volatile Semaphore hold = new Semaphore(0);

  @AfterEach
  void releaseTheFixture() {
    hold.release();
  }

  @Test
  void theBuildGivesEveryTestSixtySecondsInASeparateThread() {
    assertThat(BUILD)
        .as("the root pom's surefire configurationParameters")
        .containsEntry(DEFAULT, "60 s")
        .containsEntry(THREAD_MODE, "SEPARATE_THREAD")
        .doesNotContainKey(MODE);
  }

  @Test
  void aTestThatIgnoresInterruptsFailsInTheBuildsThreadMode() throws Exception {
    hold = new Semaphore(0);
    String threadMode = BUILD.getOrDefault(THREAD_MODE, "SAME_THREAD");
    // the build's thread mode, with the default shortened so the check takes a moment
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectClass(Hanging.class))
        .filters(EngineFilter.includeEngines("junit-jupiter"))
        .configurationParameter(DEFAULT, "200 ms")
        .configurationParameter(THREAD_MODE, threadMode)
        .configurationParameter(FIXTURE, "true")
        .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    CompletableFuture<Void> run =
        CompletableFuture.runAsync(() -> LauncherFactory.create().execute(request, listener));
    try {
      run.get(30, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      fail("a test that ignores interrupts was not aborted by its timeout in thread mode " + threadMode
          + ": a hung test would hang the build");
    }

    TestExecutionSummary summary = listener.getSummary();
    assertThat(summary.getTestsFoundCount()).isEqualTo(1);
    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    Throwable failure = summary.getFailures().get(0).getException();
    assertThat(failure).isInstanceOf(TimeoutException.class).hasMessageContaining("timed out after 200 milliseconds");
  }

  /** A test that hangs and ignores interrupts, run only by the check above. */
  @ExtendWith(OnlyInsideTheCheck.class)
  static final class Hanging {

    @Test
    void ignoresInterrupts() {
      hold.acquireUninterruptibly();
    }
  }

  /** Disables {@link Hanging} everywhere but in the nested run of the check. */
  static final class OnlyInsideTheCheck implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getConfigurationParameter(FIXTURE).isPresent()
          ? ConditionEvaluationResult.enabled("the nested run of DefaultTimeoutTest")
          : ConditionEvaluationResult.disabled("a fixture of DefaultTimeoutTest, not a test of its own");
    }
  }
}
