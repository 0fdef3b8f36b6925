package dev.horae.timecontext.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SurfaceOp;
import dev.horae.spi.zone.TimeContextAuthority;
import dev.horae.timecontext.ReadingInvariant;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.ReadingMessages;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The plugin on the reference host, driven by its manual clock. */
class TimeContextPluginTest {

  private static final Instant START = Instant.parse("2026-07-14T00:00:00Z");

  private static TestHost host() {
    return TestHost.builder().start(START).build();
  }

  private static TestAgent agent(TestHost host) {
    return host.createAgent().useModel(new ScriptedModel());
  }

  private static List<SessionEvent> readings(Session session) {
    return session.events().stream().filter(e -> e.type().equals(EventTypes.USER_MESSAGE) && ReadingMessages.isAttributed(e.data())).toList();
  }

  private static String text(SessionEvent reading) {
    return reading.data().path("content").get(0).path("text").textValue();
  }

  private static Throwable rootCause(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c;
  }

  private static List<String> types(Session session) {
    return session.events().stream().map(SessionEvent::type).toList();
  }

  @Test
  void eachEnteredStepGetsOneDurableTwoLineReadingBeforeTheRequest() {
    TestHost host = host();
    host.install(TimeContextPlugin.create());
    TestAgent agent = agent(host);
    host.prompt(agent, "hello");
    host.settle();

    Session session = agent.session();
    assertThat(types(session))
        .containsExactly(
            "turn/start", "step/start", "user/message", "user/message", "request/header", "assistant/chunk",
            "assistant/message", "step/end", "turn/end");
    SessionEvent reading = readings(session).get(0);
    assertThat(reading.seq()).isEqualTo(3);
    assertThat(reading.surfaceOp()).contains(SurfaceOp.APPEND);
    assertThat(text(reading))
        .isEqualTo(
            """
            Time sampled while preparing turn 1, step 1: 2026-07-14T00:00:00+00:00[UTC]
            Elapsed since the preceding model-visible message: unavailable.\
            """);
    assertThat(Json.write(reading.data().get("source")))
        .isEqualTo("{\"kind\":\"plugin\",\"plugin\":\"time-context\",\"form\":\"snapshot\",\"sections\":[{\"name\":\"time-context\",\"text\":"
            + Json.write(Json.mapper().getNodeFactory().textNode(text(reading))) + "}]}");
    assertThat(TimeContextAuthority.isReading(reading.data())).isTrue();
    // the reading is valid under the invariant rules against the prefix it was appended to
    assertThat(ReadingInvariant.check(session.events().subList(0, 3), reading)).isEmpty();
    // nothing of it reaches the request header
    assertThat(session.events().get(4).data().toString()).doesNotContain("Time sampled");
  }

  @Test
  void laterStepsMeasureFromTheStepContextAndTheNextTurnFromTheLastVisibleMessage() {
    TestHost host = host();
    host.install(TimeContextPlugin.create());
    TestAgent agent = host.createAgent().useModel(new ScriptedModel().thenCall("missing_tool", Json.mapper().createObjectNode()));
    // a downstream listener moves the wall clock while step 2 is being prepared
    host.agents().onPreStep(step -> {
      if (step.step() == 2) {
        host.time().setWall(START.plusSeconds(61));
      }
      return step.next();
    }, false);
    host.prompt(agent, "hello");
    host.settle();
    List<SessionEvent> readings = readings(agent.session());
    assertThat(readings).hasSize(2);
    assertThat(text(readings.get(1)))
        .isEqualTo(
            """
            Time sampled while preparing turn 1, step 2: 2026-07-14T00:01:01+00:00[UTC]
            Elapsed since the preceding step context: 1m 1s.\
            """);

    host.advance(Duration.ofMinutes(5));
    host.prompt(agent, "again");
    host.settle();
    // the latest visible message is the assistant's answer of turn 1, at 00:01:01
    assertThat(text(readings(agent.session()).get(2))).endsWith("model-visible message: 5m 0s.");
  }

  @Test
  void rejectedFailedAndThrowingDownstreamDecisionsRecordNothing() {
    for (String mode : List.of("reject", "fail", "throw")) {
      TestHost host = host();
      host.install(TimeContextPlugin.create());
      host.agents().onPreStep(step -> switch (mode) {
        case "reject" -> CompletableFuture.completedFuture(new StepDecision.Reject("policy"));
        case "fail" -> CompletableFuture.failedFuture(new IllegalStateException("downstream failed"));
        default -> throw new IllegalStateException("downstream threw");
      }, false);
      TestAgent agent = agent(host);
      host.prompt(agent, "hello");
      host.settle();
      assertThat(readings(agent.session())).as(mode).isEmpty();
      assertThat(types(agent.session())).as(mode).doesNotContain("step/start", "request/header");
    }
  }

  @Test
  void anAbortedTurnRecordsNothing() {
    TestHost host = host();
    host.install(TimeContextPlugin.create());
    TestAgent agent = agent(host);
    host.agents().onPreStep(step -> {
      agent.cancelTurn();
      return step.next();
    }, false);
    host.prompt(agent, "hello");
    host.settle();
    assertThat(readings(agent.session())).isEmpty();
    assertThat(types(agent.session())).containsExactly("turn/start", "turn/end");
  }

  @Test
  void anEmptyEnterStillGetsAReadingAndSoMakesARequest() {
    TestHost host = host();
    host.install(TimeContextPlugin.create());
    host.agents().onPreStep(step -> CompletableFuture.completedFuture(new StepDecision.Enter(List.of())), false);
    TestAgent agent = agent(host);
    host.prompt(agent, "hello");
    host.settle();
    assertThat(readings(agent.session())).hasSize(1);
    assertThat(types(agent.session())).contains("step/start", "request/header");
  }

  @Test
  void aPositiveIntervalHoldsAcrossTurnsRestartsAndBackwardClocks() {
    TestHost host = host();
    host.install(TimeContextPlugin.create(TimeContextConfig.builder().refreshIntervalMs(60000).build()));
    TestAgent agent = agent(host);
    host.prompt(agent, "one");
    host.settle();
    host.advance(Duration.ofSeconds(30));
    host.prompt(agent, "two");
    host.settle();
    assertThat(readings(agent.session())).hasSize(1);

    // a fresh process over the persisted log: the gate is read back from the log
    host.sessions().flush(agent.session()).toCompletableFuture().join();
    TestHost restarted = host.restart();
    restarted.install(TimeContextPlugin.create(TimeContextConfig.builder().refreshIntervalMs(60000).build()));
    TestAgent resumed = restarted.agentFor(restarted.sessions().get(agent.id()).orElseThrow()).useModel(new ScriptedModel());
    restarted.advance(Duration.ofMillis(29_999));
    restarted.prompt(resumed, "three");
    restarted.settle();
    assertThat(readings(resumed.session())).hasSize(1);

    restarted.advance(Duration.ofMillis(1));
    restarted.prompt(resumed, "four: exactly at the interval");
    restarted.settle();
    assertThat(readings(resumed.session())).hasSize(2);

    restarted.time().setWall(START.minusSeconds(10));
    restarted.prompt(resumed, "five: the wall clock went backwards");
    restarted.settle();
    List<SessionEvent> all = readings(resumed.session());
    assertThat(all).hasSize(3);
    assertThat(text(all.get(2))).contains("2026-07-13T23:59:50+00:00[UTC]").endsWith("message: 0s.");
  }

  @Test
  void readingsShadowedByCompactionOrInheritedFromAForkStillGate() {
    TestHost host = host();
    host.install(TimeContextPlugin.create(TimeContextConfig.builder().refreshIntervalMs(60000).build()));
    TestAgent agent = agent(host);
    host.prompt(agent, "one");
    host.settle();
    Session session = agent.session();
    long end = session.length() - 1;
    session.append(
        EventTypes.USER_MESSAGE,
        Json.parse("{\"id\":\"c\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"summary\"}],\"source\":{\"kind\":\"plugin\",\"plugin\":\"compact-basic\"}}"),
        new AppendOptions(Optional.of(new SurfaceOp.Replace(0, end)), List.of()));
    host.advance(Duration.ofSeconds(10));
    host.prompt(agent, "two");
    host.settle();
    assertThat(readings(session)).hasSize(1);

    Session child = host.sessions().fork(session, session.length(), true);
    TestAgent forked = host.agentFor(child).useModel(new ScriptedModel());
    host.prompt(forked, "in the fork");
    host.settle();
    assertThat(readings(child)).hasSize(1).allMatch(r -> r.seq() < child.header().seedLength());
    // sessions are gated independently
    TestAgent other = agent(host);
    host.prompt(other, "another session");
    host.settle();
    assertThat(readings(other.session())).hasSize(1);
  }

  @Test
  void theProcessZoneIsReadOnceAtLoadAndOnlyWhenNeeded() {
    TestHost host = host();
    int before = host.zone().reads();
    host.install(TimeContextPlugin.create());
    assertThat(host.zone().reads()).isEqualTo(before + 1);
    host.zone().set(ZoneId.of("Asia/Shanghai"));
    TestAgent agent = agent(host);
    host.prompt(agent, "hello");
    host.settle();
    assertThat(text(readings(agent.session()).get(0))).contains("+00:00[UTC]");
    assertThat(host.zone().reads()).isEqualTo(before + 1);

    TestHost configured = host();
    int reads = configured.zone().reads();
    configured.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone("US/Eastern").build()));
    assertThat(configured.zone().reads()).isEqualTo(reads);
    TestAgent eastern = agent(configured);
    configured.prompt(eastern, "hello");
    configured.settle();
    assertThat(text(readings(eastern.session()).get(0))).contains("2026-07-13T20:00:00-04:00[America/New_York]");
  }

  @Test
  void anUnresolvableProcessZoneFailsTheLoadAndRegistersNothing() {
    TestHost offset = TestHost.builder().start(START).processZone(ZoneId.of("+08:00")).build();
    assertThatThrownBy(() -> offset.install(TimeContextPlugin.create()))
        .isInstanceOf(CompositionException.class)
        .hasMessage("time-context: failed to resolve the system time zone");
    TestAgent agent = agent(offset);
    offset.prompt(agent, "hello");
    offset.settle();
    assertThat(readings(agent.session())).isEmpty();
    // a configured zone needs no process zone
    TestHost configured = TestHost.builder().start(START).processZone(ZoneId.of("+08:00")).build();
    configured.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone("UTC").build()));
    TestAgent reading = agent(configured);
    configured.prompt(reading, "hello");
    configured.settle();
    assertThat(readings(reading.session())).hasSize(1);
  }

  @Test
  void afterDisposalNoReadingIsAdded() {
    TestHost host = host();
    Installation installation = host.install(TimeContextPlugin.create());
    installation.close().toCompletableFuture().join();
    TestAgent agent = agent(host);
    host.prompt(agent, "hello");
    host.settle();
    assertThat(readings(agent.session())).isEmpty();
    assertThat(installation.close().toCompletableFuture().isDone()).isTrue();
  }

  @Test
  void theThreeLineFormFollowsThePromptsClientZoneAndGivesScheduleItsAuthority() {
    TestHost host = host();
    host.install(TimeContextPlugin.create(TimeContextConfig.builder().clientZoneGuidance(true).build()));
    TestAgent agent = host.createAgent(CreateOptions.withTimeZone("Asia/Shanghai")).useModel(new ScriptedModel());
    // read the authority when the request starts, while the step is open (as a tool call would)
    List<Optional<TimeContextAuthority>> seen = new ArrayList<>();
    host.sessions().onEvent((session, event) -> {
      if (event.type().equals(EventTypes.REQUEST_HEADER)) {
        seen.add(TimeContextAuthority.of(session.events(), session.header().timeZone()));
      }
    });
    host.prompt(agent, "remind me at nine", "rpc-1", Optional.of("asia/shanghai"));
    host.settle();
    SessionEvent first = readings(agent.session()).get(0);
    assertThat(text(first))
        .isEqualTo(
            """
            Time sampled while preparing turn 1, step 1: 2026-07-14T08:00:00+08:00[Asia/Shanghai]
            Browser time zone for this request: Asia/Shanghai. Interpret otherwise-unqualified dates and times in this zone.
            Elapsed since the preceding model-visible message: unavailable.\
            """);
    assertThat(ReadingInvariant.check(agent.session().events().subList(0, (int) first.seq()), first)).isEmpty();
    assertThat(seen)
        .containsExactly(
            Optional.of(new TimeContextAuthority(1, 1, Optional.of("Asia/Shanghai"), List.of("Asia/Shanghai"))));
    // after the step, there is no open step and so no authority
    assertThat(TimeContextAuthority.of(agent.session().events(), agent.session().header().timeZone())).isEmpty();
  }

  @Test
  void theDefaultFormAlsoGivesAnAuthorityButNamesNoClientZoneInItsText() {
    TestHost host = host();
    host.install(TimeContextPlugin.create());
    TestAgent agent = host.createAgent(CreateOptions.withTimeZone("Asia/Shanghai")).useModel(new ScriptedModel());
    List<Optional<TimeContextAuthority>> seen = new ArrayList<>();
    host.sessions().onEvent((session, event) -> {
      if (event.type().equals(EventTypes.REQUEST_HEADER)) {
        seen.add(TimeContextAuthority.of(session.events(), session.header().timeZone()));
      }
    });
    host.prompt(agent, "remind me at nine", "rpc-1", Optional.of("Asia/Shanghai"));
    host.settle();
    assertThat(text(readings(agent.session()).get(0))).doesNotContain("Browser").contains("[UTC]");
    assertThat(seen.get(0).orElseThrow().resolvedClientZone()).hasValue("Asia/Shanghai");
  }

  @Test
  void anInvalidRecordedClientZoneFailsTheStepInTheThreeLineFormOnly() {
    for (boolean guided : List.of(true, false)) {
      TestHost host = host();
      host.install(TimeContextPlugin.create(TimeContextConfig.builder().clientZoneGuidance(guided).build()));
      TestAgent agent = agent(host);
      // a non-conforming host recorded a zone it should have canonicalized
      host.agents().onPreStep(step -> {
        agent.session().append(
            EventTypes.USER_MESSAGE,
            Json.parse("{\"id\":\"x\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],"
                + "\"source\":{\"kind\":\"user\",\"rpcId\":\"r\",\"clientTimeZone\":\"US/Eastern\"}}"),
            AppendOptions.VISIBLE);
        return step.next();
      }, false);
      host.prompt(agent, "hello");
      host.settle();
      if (guided) {
        assertThat(readings(agent.session())).isEmpty();
        assertThat(types(agent.session())).doesNotContain("step/start");
        // the turn failed with the derivation's message
        assertThat(host.warnings().causes())
            .anySatisfy(c -> assertThat(rootCause(c)).hasMessage("browser time zone must be canonical: \"US/Eastern\""));
      } else {
        assertThat(readings(agent.session())).hasSize(1);
      }
    }
  }
}
