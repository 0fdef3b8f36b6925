package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.invariant.junit.InvariantGuard;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Logs written by the real plugins on the reference host, with every companion registered (so
 * each append is vetted before it lands) and the guard watching: Schedule's create, delete and
 * dispatch, time-context readings before every step, a fork and a restart.
 */
class PluginLogsTest {

  @RegisterExtension final InvariantGuard guard = new InvariantGuard();

  private static final Instant START = Instant.parse("2026-08-05T12:00:00Z");

  private static List<String> changes(Session session) {
    return session.events().stream()
        .filter(e -> e.type().equals(EventTypes.SCHEDULE_CHANGE))
        .map(e -> e.data().get("operation").textValue())
        .toList();
  }

  @Test
  void scheduleAndTimeContextLogsPassEveryCompanion() {
    TestHost host = guard.watch(TestHost.builder().start(START).build());
    Companions.registerAll(host);
    host.install(SchedulePlugin.create());
    host.install(TimeContextPlugin.create(TimeContextConfig.builder().clientZoneGuidance(true).build()));
    TestAgent agent = host.createAgent(CreateOptions.withTimeZone("Asia/Shanghai")).useModel(new ScriptedModel()
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"stretch\",\"after_seconds\":60}"))
        .thenCall("schedule_create", Json.parse("{\"prompt\":\"drop me\",\"after_seconds\":600}"))
        .thenCall("schedule_delete", Json.parse("{\"id\":\"schedule-2\"}"))
        .thenText("done")
        .thenText("time to stretch"));
    host.prompt(agent, "remind me", "rpc-1", Optional.of("Asia/Shanghai"));
    host.settle();
    host.advance(Duration.ofSeconds(61));
    host.settle();

    Session session = agent.session();
    assertThat(changes(session)).containsExactly("create", "create", "delete", "dispatch");
    assertThat(session.events().stream().filter(e -> e.type().equals(EventTypes.TURN_START))).hasSize(2);
    assertThat(SessionLogCheck.check(session.header(), session.events())).isEmpty();
    assertThat(host.warnings().messages()).isEmpty();

    // a fork owns only its suffix; a restart resumes every session under the same companions
    Session child = host.sessions().fork(session, session.length(), true);
    assertThat(child.header().seedLength()).isEqualTo(session.length());
    host.sessions().flush(session).toCompletableFuture().join();
    host.sessions().flush(child).toCompletableFuture().join();
    TestHost restarted = guard.watch(host.restart());
    Companions.registerAll(restarted);
    assertThat(restarted.sessions().list()).hasSize(2);
    for (Session s : restarted.sessions().list()) {
      List<SessionEvent> events = s.events();
      assertThat(SessionLogCheck.check(s.header(), events)).isEmpty();
    }
  }
}
