package dev.horae.invariant.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

class InvariantGuardTest {

  private static final String BAD_DELETE = "{\"version\":1,\"operation\":\"delete\",\"id\":\"missing\"}";

  /** Run only through the engine test kit below (Surefire skips nested classes). */
  static class PluginTests {
    @RegisterExtension final InvariantGuard guard = new InvariantGuard();

    @Test
    void pluginRunIsClean() {
      TestHost host = guard.watch(TestHost.builder().start(Instant.parse("2026-07-14T00:00:00Z")).build());
      host.install(TimeContextPlugin.create());
      TestAgent agent = host.createAgent().useModel(new ScriptedModel().thenText("ok"));
      host.prompt(agent, "hello");
      host.settle();
    }

    @Test
    void badAppendFailsTheTest() {
      // no companion is registered on the host, so only the guard sees the corruption
      TestHost host = guard.watch(TestHost.builder().build());
      Session session = host.sessions().create(CreateOptions.DEFAULT);
      session.append(EventTypes.SCHEDULE_CHANGE, Json.parse(BAD_DELETE));
    }

    @Test
    void provokedViolationsCanBeDrained() {
      TestHost host = guard.watch(TestHost.builder().build());
      Session session = host.sessions().create(CreateOptions.DEFAULT);
      session.append(EventTypes.SCHEDULE_CHANGE, Json.parse(BAD_DELETE));
      assertThat(guard.drain()).singleElement().asString().endsWith("targets inactive id \"missing\"");
    }
  }

  @Test
  void failsExactlyTheTestsWhoseAppendsBreakAnInvariant() {
    Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(PluginTests.class)).execute().testEvents();
    tests.assertStatistics(s -> s.started(3).succeeded(2).failed(1));
    assertThat(tests.failed().list()).singleElement().satisfies(e -> {
      assertThat(e.getTestDescriptor().getDisplayName()).isEqualTo("badAppendFailsTheTest()");
      Throwable failure = e.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable().orElseThrow();
      assertThat(failure).isInstanceOf(AssertionError.class).hasMessageContaining(
          "seq 0: invariant violated by \"@deepseek-ai/dsh-tool-schedule\": schedule delete targets inactive id \"missing\"");
    });
  }

  @Test
  void checksSessionsAlreadyLiveAndSessionsCreatedLater() {
    TestHost host = TestHost.builder().build();
    Session before = host.sessions().create(CreateOptions.DEFAULT);
    before.append(EventTypes.SCHEDULE_CHANGE, Json.parse(BAD_DELETE));
    InvariantGuard guard = new InvariantGuard();
    guard.watch(host);
    assertThat(guard.violations()).singleElement().asString().startsWith("session " + before.id() + ": seq 0: ");
    guard.drain();

    host.store().put(new dev.horae.spi.session.StoredSession(
        dev.horae.spi.session.SessionHeader.root("stored", 0, java.util.Optional.empty()), before.events()));
    host.sessions().resume("stored");
    assertThat(guard.violations()).singleElement().asString().startsWith("session stored: seq 0: ");
    assertThatThrownBy(guard::verify).isInstanceOf(AssertionError.class).hasMessageStartingWith("1 invariant violation(s)");
    guard.verify();
  }
}
