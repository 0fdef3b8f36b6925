package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.message.MessageSource;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Spec §3.6, §6.8, §12.9: forks, restarts and the implicit zone through the live tools. */
class LifecycleTest {

  @Test
  void aForkInheritsNoReminders() {
    Fixture f = new Fixture();
    TestAgent parent = f.agent();
    f.create(parent, "{\"prompt\":\"parent task\",\"after_seconds\":30}");
    Session child = f.host.sessions().fork(parent.session(), parent.session().length(), true);
    TestAgent forked = f.host.agentFor(child);
    assertThat(f.list(forked)).isEqualTo("[]");
    assertThat(f.delete(forked, "schedule-1")).contains("schedule_not_found");
    // ids are unique only within the owned suffix
    assertThat(f.create(forked, "{\"prompt\":\"child task\",\"after_seconds\":60}")).contains("\"schedule-1\"");
    f.host.advance(Duration.ofSeconds(30));
    assertThat(parent.followups()).hasSize(1);
    assertThat(forked.followups()).isEmpty();
    f.host.advance(Duration.ofSeconds(30));
    assertThat(forked.followups()).singleElement().satisfies(m -> assertThat(m.text()).contains("child task"));
  }

  @Test
  void overdueAtResumeIsDispatchedExactlyOnceAndASecondRestartSendsNothing() {
    TestHost first = TestHost.builder().start(Fixture.START).build();
    Fixture f = new Fixture(first);
    TestAgent a = f.agent();
    f.create(a, "{\"prompt\":\"due while down\",\"after_seconds\":60}");
    String sessionId = a.session().id();
    first.advance(Duration.ofSeconds(1));
    // the process dies; the reminder falls due 59 s later while nothing runs
    TestHost second = first.restart();
    second.time().advance(Duration.ofMinutes(5));
    Fixture g = new Fixture(second);
    // hold the owner's start preflight so the model is attached before the reminder turn
    dev.horae.testkit.session.HeldFlush preflight = second.store().script().thenHold();
    TestAgent resumed = second.agentFor(second.sessions().get(sessionId).orElseThrow());
    ScriptedModel model = new ScriptedModel().thenText("here is your reminder");
    resumed.useModel(model);
    assertThat(preflight.reached()).isTrue();
    preflight.release();
    second.settle();
    assertThat(resumed.followups())
        .as("warnings %s, owner %s, log %s", second.warnings().messages(), g.owner(resumed),
            resumed.session().events().stream().map(e -> e.type()).toList())
        .hasSize(1);
    second.advance(Duration.ofMinutes(1));
    assertThat(model.requests()).hasSize(1);
    assertThat(g.list(resumed)).isEqualTo("[]");

    TestHost third = second.restart();
    Fixture h = new Fixture(third);
    TestAgent again = third.agentFor(third.sessions().get(sessionId).orElseThrow());
    third.advance(Duration.ofHours(1));
    assertThat(again.followups()).isEmpty();
    assertThat(h.changes(again).stream().filter(e -> e.data().path("operation").asText().equals("dispatch")))
        .hasSize(1);
  }

  private static void openStepWithReading(TestHost host, Session s, Optional<String> clientZone, boolean reading) {
    s.append(EventTypes.TURN_START, Json.parse("{\"turn\":1}"));
    s.append(EventTypes.STEP_START, Json.parse("{\"turn\":1,\"step\":1}"));
    s.append(EventTypes.USER_MESSAGE,
        host.messages().text("remind me", MessageSource.rpc("rpc-1", clientZone)).toJson());
    if (reading) {
      s.append(EventTypes.USER_MESSAGE, host.messages()
          .text("now", MessageSource.snapshot("time-context", List.of(Map.entry("time-context", "now")))).toJson());
    }
  }

  @Test
  void localAtWithoutZoneUsesTheConfirmedImplicitZone() {
    Fixture f = new Fixture();
    TestAgent a = f.agent("Asia/Shanghai");
    openStepWithReading(f.host, a.session(), Optional.of("Asia/Shanghai"), true);
    assertThat(f.create(a, "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\"}}"))
        .contains("\"scheduledAt\":\"2026-08-06T01:00:00.000Z\"");
  }

  @Test
  void implicitZoneNeedsAReadingInTheCurrentStepAndMatchingZones() {
    Fixture f = new Fixture();
    TestAgent noReading = f.agent("Asia/Shanghai");
    openStepWithReading(f.host, noReading.session(), Optional.of("Asia/Shanghai"), false);
    String at = "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\"}}";
    assertThat(f.create(noReading, at)).endsWith("\"sessionTimeZone\":\"Asia/Shanghai\",\"clientTimeZones\":[]}");
    TestAgent mismatch = f.agent("Asia/Shanghai");
    openStepWithReading(f.host, mismatch.session(), Optional.of("America/New_York"), true);
    assertThat(f.create(mismatch, at))
        .endsWith("\"sessionTimeZone\":\"Asia/Shanghai\",\"clientTimeZones\":[\"America/New_York\"]}");
    TestAgent headerless = f.agent();
    openStepWithReading(f.host, headerless.session(), Optional.of("Asia/Shanghai"), true);
    assertThat(f.create(headerless, at))
        .endsWith("\"sessionTimeZone\":\"unavailable\",\"clientTimeZones\":[\"Asia/Shanghai\"]}");
    // explicit zones never consult the authority
    assertThat(f.create(headerless,
        "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"time_zone\":\"UTC\"}}"))
        .contains("2026-08-06T09:00:00.000Z");
    assertThat(f.changes(noReading)).isEmpty();
    assertThat(f.changes(mismatch)).isEmpty();
  }

  @Test
  void implicitZoneReadsBackAsFarAsTheTurnStartOnALongLog() {
    Fixture f = new Fixture();
    TestAgent a = f.agent("Asia/Shanghai");
    for (int i = 0; i < 3000; i++) {
      a.session().append("host/noise", Json.parse("{}"));
    }
    openStepWithReading(f.host, a.session(), Optional.of("Asia/Shanghai"), true);
    for (int i = 0; i < 3000; i++) {
      a.session().append(EventTypes.TOOL_RESULT, Json.parse("{\"turn\":1}"));
    }
    String at = "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\"}}";
    assertThat(f.create(a, at)).contains("\"scheduledAt\":\"2026-08-06T01:00:00.000Z\"");
    TestAgent orphan = f.agent("Asia/Shanghai");
    orphan.session().append(EventTypes.STEP_START, Json.parse("{\"turn\":7,\"step\":1}"));
    orphan.session().append(EventTypes.USER_MESSAGE, f.host.messages()
        .text("now", MessageSource.snapshot("time-context", List.of(Map.entry("time-context", "now")))).toJson());
    for (int i = 0; i < 1000; i++) {
      orphan.session().append(EventTypes.TOOL_RESULT, Json.parse("{}"));
    }
    assertThat(f.create(orphan, at)).endsWith("\"sessionTimeZone\":\"Asia/Shanghai\",\"clientTimeZones\":[]}");
  }
}
