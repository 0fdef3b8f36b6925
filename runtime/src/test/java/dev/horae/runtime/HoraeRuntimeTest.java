package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.FinishReason;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.model.TokenUsage;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.FileSessionStore;
import dev.horae.store.MemorySessionStore;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The production runtime end to end on its own threads: every wait is on a stage, bounded. */
@Timeout(30)
class HoraeRuntimeTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  /** A model that answers from a script and keeps every request it was shown. */
  static final class Recording implements ModelPort {
    final List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());
    private final Deque<ModelResponse> script = new ArrayDeque<>();

    Recording then(ModelResponse r) {
      script.add(r);
      return this;
    }

    @Override
    public synchronized CompletionStage<ModelResponse> complete(ModelRequest request) {
      requests.add(request);
      ModelResponse next = script.poll();
      return CompletableFuture.completedFuture(next != null ? next : ModelResponse.text("ok"));
    }
  }

  private static ToolDefinition echo() {
    return ToolDefinition.builder("echo")
        .description("Echoes its text.")
        .parameters(Json.parse("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}"))
        .body((args, exec) -> CompletableFuture.completedFuture(Json.parse("{\"echoed\":" + Json.write(args.get("text")) + "}")))
        .build();
  }

  private static void settle(RuntimeAgent agent) throws Exception {
    agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void theLeaseKeeperIsTheOneThatLeasesTheSessionsAndAbsentWithoutLeases() throws Exception {
    try (HoraeRuntime plain = HoraeRuntime.builder().clock(CLOCK).build()) {
      assertThat(plain.leaseKeeper()).isEmpty();
    }
    dev.horae.store.MemorySessionStore store = new dev.horae.store.MemorySessionStore();
    try (HoraeRuntime leased = HoraeRuntime.builder().clock(CLOCK)
        .leases(store.leases("node-a", java.time.Duration.ofSeconds(30), CLOCK)).build()) {
      RuntimeAgent agent = leased.openAgent("s-leased");
      assertThat(leased.leaseKeeper()).hasValueSatisfying(keeper -> {
        assertThat(keeper.owns(agent.session().id())).isTrue();
        assertThat(keeper.owns("never-opened")).isFalse();
      });
    }
  }

  @Test
  void eachRequestCarriesThePreviousTurnsTheToolResultsAndTheToolDefinitions() throws Exception {
    Recording model = new Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "echo", Json.parse("{\"text\":\"hi\"}"))))
        .then(ModelResponse.text("echoed hi"))
        .then(ModelResponse.text("second answer"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(echo());
      RuntimeAgent agent = horae.openAgent("s1").systemPrompt("You are terse.");
      horae.prompt(agent, "say hi");
      settle(agent);
      horae.prompt(agent, "again");
      settle(agent);
    }
    assertThat(model.requests).hasSize(3);
    ModelRequest third = model.requests.get(2);
    assertThat(third.turn()).isEqualTo(2);
    assertThat(third.systemPrompt()).isEqualTo("You are terse.");
    assertThat(third.tools()).singleElement().satisfies(t -> {
      assertThat(t.name()).isEqualTo("echo");
      assertThat(t.parameters().path("required").get(0).asText()).isEqualTo("text");
    });
    List<ChatMessage> h = third.messages();
    assertThat(h).hasSize(5);
    assertThat(h.get(0)).isEqualTo(new ChatMessage.User("say hi", ((ChatMessage.User) h.get(0)).source()));
    assertThat(((ChatMessage.Assistant) h.get(1)).toolCalls()).singleElement()
        .satisfies(c -> assertThat(c.callId()).isEqualTo("c1"));
    assertThat(h.get(2)).isInstanceOfSatisfying(ChatMessage.ToolOutcome.class, r -> {
      assertThat(r.callId()).isEqualTo("c1");
      assertThat(r.error()).isFalse();
      assertThat(r.text()).contains("hi");
    });
    assertThat(((ChatMessage.Assistant) h.get(3)).text()).isEqualTo("echoed hi");
    assertThat(((ChatMessage.User) h.get(4)).text()).isEqualTo("again");
    assertThat(third.latestUserMessages()).extracting(ChatMessage.User::text).containsExactly("again");
  }

  private static Recording echoThenAnswers() {
    return new Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "echo", Json.parse("{\"text\":\"hi\"}"))))
        .then(ModelResponse.text("echoed hi"))
        .then(ModelResponse.text("second answer"))
        .then(ModelResponse.text("third answer"));
  }

  private static void assertFirstTurnThenAgain(ModelRequest request) {
    List<ChatMessage> h = request.messages();
    assertThat(h).hasSize(5);
    assertThat(((ChatMessage.User) h.get(0)).text()).isEqualTo("say hi");
    assertThat(((ChatMessage.Assistant) h.get(1)).toolCalls()).singleElement()
        .satisfies(c -> assertThat(c.callId()).isEqualTo("c1"));
    assertThat(h.get(2)).isInstanceOfSatisfying(ChatMessage.ToolOutcome.class, r -> assertThat(r.text()).contains("hi"));
    assertThat(((ChatMessage.Assistant) h.get(3)).text()).isEqualTo("echoed hi");
    assertThat(((ChatMessage.User) h.get(4)).text()).isEqualTo("again");
  }

  @Test
  void aTurnThatEndsAnIdleSpellCancelsTheReleaseThatSpellArmed() throws Exception {
    ManualTimers time = new ManualTimers(Instant.parse("2026-12-01T10:00:00Z"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).model(echoThenAnswers()).build()) {
      horae.tools().register(echo());
      RuntimeAgent agent = horae.openAgent("s-rearm");
      int before = time.armed();
      horae.prompt(agent, "say hi");
      settle(agent);
      horae.prompt(agent, "again");
      settle(agent);
      // one release armed, for the idle spell now running: the first spell's went when its driver started
      assertThat(time.armed()).isEqualTo(before + 1);
    }
  }

  @Test
  void disposingAnIdleAgentCancelsTheHistoryReleaseItsIdleSpellArmed() throws Exception {
    ManualTimers time = new ManualTimers(Instant.parse("2026-12-01T10:00:00Z"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).model(echoThenAnswers()).build()) {
      horae.tools().register(echo());
      RuntimeAgent agent = horae.openAgent("s-dispose-release");
      int before = time.armed();
      horae.prompt(agent, "say hi");
      settle(agent);
      assertThat(time.armed()).as("the idle spell armed its release").isEqualTo(before + 1);
      horae.agents().dispose(agent).toCompletableFuture().get(20, TimeUnit.SECONDS);
      // a disposed agent leaves no timer behind on the host's timer service
      assertThat(time.armed()).isEqualTo(before);
    }
  }

  @Test
  void anIdleAgentReleasesItsHistoryAfterTheRetentionAndItsNextRequestStillCarriesEveryTurn() throws Exception {
    ManualTimers time = new ManualTimers(Instant.parse("2026-12-01T10:00:00Z"));
    Recording model = echoThenAnswers();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).model(model).build()) {
      horae.tools().register(echo());
      RuntimeAgent agent = horae.openAgent("s-release");
      horae.prompt(agent, "say hi");
      settle(agent);
      assertThat(agent.holdsHistory()).isTrue();
      time.advance(java.time.Duration.ofSeconds(30));
      // a turn within the retention keeps the projection, and the release armed before it lapses
      horae.prompt(agent, "again");
      settle(agent);
      time.advance(java.time.Duration.ofSeconds(30));
      assertThat(agent.holdsHistory()).as("held a minute after the first idle, 30 s after the second").isTrue();
      time.advance(java.time.Duration.ofSeconds(29));
      assertThat(agent.holdsHistory()).isTrue();
      time.advance(java.time.Duration.ofSeconds(1));
      assertThat(agent.holdsHistory()).as("released after a minute idle").isFalse();
      horae.prompt(agent, "once more");
      settle(agent);
      assertThat(agent.holdsHistory()).isTrue();
    }
    assertThat(model.requests).hasSize(4);
    assertFirstTurnThenAgain(model.requests.get(2));
    List<ChatMessage> last = model.requests.get(3).messages();
    assertThat(last).hasSize(7);
    assertThat(last.subList(0, 5)).isEqualTo(model.requests.get(2).messages());
    assertThat(((ChatMessage.Assistant) last.get(5)).text()).isEqualTo("second answer");
    assertThat(((ChatMessage.User) last.get(6)).text()).isEqualTo("once more");
  }

  /** A timer service whose cancel comes too late: the release of an earlier idle spell still runs. */
  @Test
  void aReleaseArmedBeforeALaterTurnDoesNothingEvenWhenItsTimerStillFires() throws Exception {
    ManualTimers time = new ManualTimers(Instant.parse("2026-12-01T10:00:00Z"));
    dev.horae.spi.time.Timers uncancellable = (delay, task) -> {
      var unused = time.schedule(delay, task);
      return () -> { };
    };
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(uncancellable).model(echoThenAnswers()).build()) {
      horae.tools().register(echo());
      RuntimeAgent agent = horae.openAgent("s-late");
      horae.prompt(agent, "say hi");
      settle(agent);
      time.advance(java.time.Duration.ofSeconds(30));
      horae.prompt(agent, "again");
      settle(agent);
      time.advance(java.time.Duration.ofSeconds(30));
      assertThat(agent.holdsHistory()).as("the first idle spell's release ran after a later turn").isTrue();
      time.advance(java.time.Duration.ofSeconds(30));
      assertThat(agent.holdsHistory()).isFalse();
    }
  }

  @Test
  void aZeroRetentionReleasesTheHistoryAtEveryIdleAndEveryRequestIsStillWhole() throws Exception {
    ManualTimers time = new ManualTimers(Instant.parse("2026-12-01T10:00:00Z"));
    Recording model = echoThenAnswers();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(time).timers(time).model(model)
        .idleHistoryRetention(java.time.Duration.ZERO).build()) {
      horae.tools().register(echo());
      RuntimeAgent agent = horae.openAgent("s-zero");
      horae.prompt(agent, "say hi");
      settle(agent);
      assertThat(agent.holdsHistory()).isFalse();
      horae.prompt(agent, "again");
      settle(agent);
      assertThat(agent.holdsHistory()).isFalse();
    }
    assertThat(model.requests).hasSize(3);
    assertFirstTurnThenAgain(model.requests.get(2));
    assertThatThrownBy(() -> HoraeRuntime.builder().idleHistoryRetention(java.time.Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("idle history retention must be zero or more, got PT-1S");
  }

  @Test
  void aResponseCutAtTheTokenLimitEndsTheTurnMaxTokensWithoutRunningItsCalls() throws Exception {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    Recording model = new Recording().then(new ModelResponse("partial",
        List.of(new ToolCall("c1", "echo", Json.parse("{\"text\":\"x\"}"))), FinishReason.MAX_TOKENS, new TokenUsage(10, 4096)));
    MemorySessionStore store = new MemorySessionStore();
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).model(model).build()) {
      horae.tools().register(ToolDefinition.builder("echo").body((a, e) -> {
        ran.add("echo");
        return CompletableFuture.completedFuture(a);
      }).build());
      RuntimeAgent agent = horae.openAgent("s1");
      horae.prompt(agent, "go");
      settle(agent);
      List<SessionEvent> log = agent.session().events();
      SessionEvent end = log.get(log.size() - 1);
      assertThat(end.type()).isEqualTo("turn/end");
      assertThat(end.data().path("reason").asText()).isEqualTo("max-tokens");
      assertThat(log).filteredOn(e -> e.type().equals("assistant/message")).singleElement()
          .satisfies(e -> assertThat(e.data().path("usage").path("output").asLong()).isEqualTo(4096));
    }
    assertThat(ran).isEmpty();
  }

  @Test
  void aTurnStoppingHookThatInjectsKeepsTheTurnGoingForOneMoreStep() throws Exception {
    Recording model = new Recording().then(ModelResponse.text("first")).then(ModelResponse.text("second"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      boolean[] injected = {false};
      var unused = horae.agents().onTurnStopping((agent, turn) -> {
        if (!injected[0]) {
          injected[0] = true;
          agent.inject(horae.messages().text("late notice", dev.horae.spi.message.MessageSource.plugin("test")));
        }
      });
      RuntimeAgent agent = horae.openAgent("s1");
      horae.prompt(agent, "go");
      settle(agent);
      List<SessionEvent> log = agent.session().events();
      assertThat(log).filteredOn(e -> e.type().equals("turn/start")).hasSize(1);
      assertThat(log).filteredOn(e -> e.type().equals("step/start")).hasSize(2);
      assertThat(log.get(log.size() - 1).data().path("reason").asText()).isEqualTo("completed");
    }
    assertThat(model.requests.get(1).latestUserMessages()).extracting(ChatMessage.User::text).containsExactly("late notice");
  }

  @Test
  void aStreamingModelsPiecesBecomeChunksBeforeTheAssistantMessage() throws Exception {
    ModelPort streaming = request -> {
      request.stream().text("Hel");
      request.stream().text("lo");
      return CompletableFuture.completedFuture(ModelResponse.text("Hello"));
    };
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(streaming).build()) {
      RuntimeAgent agent = horae.openAgent("s1");
      horae.prompt(agent, "greet");
      settle(agent);
      List<String> types = agent.session().events().stream().map(SessionEvent::type)
          .filter(t -> t.startsWith("assistant/")).toList();
      assertThat(types).containsExactly("assistant/chunk", "assistant/chunk", "assistant/message");
    }
  }

  @Test
  void aTurnACrashLeftOpenIsClosedInterruptedWhenTheSessionIsReopened(@TempDir Path dir) throws Exception {
    try (FileSessionStore store = FileSessionStore.open(dir)) {
      try (HoraeRuntime first = HoraeRuntime.builder().store(store).clock(CLOCK).build()) {
        RuntimeAgent agent = first.openAgent("s1");
        agent.session().append("turn/start", Json.parse("{\"turn\":1}"));
        agent.session().append("step/start", Json.parse("{\"turn\":1,\"step\":1}"));
        // the process dies here: the flush at close stands in for what was durable before the crash
      }
      try (HoraeRuntime second = HoraeRuntime.builder().store(store).clock(CLOCK).model(new Recording()).build()) {
        RuntimeAgent agent = second.openAgent("s1");
        List<SessionEvent> log = agent.session().events();
        assertThat(log.subList(2, 4)).extracting(SessionEvent::type).containsExactly("step/end", "turn/end");
        assertThat(log.get(3).data().path("reason").asText()).isEqualTo("interrupted");
        second.prompt(agent, "next");
        settle(agent);
        assertThat(agent.session().events()).filteredOn(e -> e.type().equals("turn/start"))
            .extracting(e -> e.data().path("turn").asLong()).containsExactly(1L, 2L);
      }
    }
  }

  @Test
  void reopeningALiveSessionReturnsItsAgent() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent a = horae.openAgent("s1", "Europe/Amsterdam");
      assertThat(horae.openAgent("s1")).isSameAs(a);
      assertThat(a.session().header().timeZone()).contains("Europe/Amsterdam");
    }
  }

  @Test
  void aSettingGivenTwiceIsRefused(@TempDir Path dir) {
    assertThatThrownBy(() -> HoraeRuntime.builder().clock(CLOCK).clock(CLOCK))
        .isInstanceOf(IllegalStateException.class).hasMessage("clock was already set for this runtime");
    assertThatThrownBy(() -> HoraeRuntime.builder().store(new MemorySessionStore()).dataDir(dir))
        .isInstanceOf(IllegalStateException.class).hasMessage("a runtime has either a store or a data folder, not both");
  }

  @Test
  void workACreatedListenerHandsTheNewAgentStartsATurnWithTheRuntimesModel() throws Exception {
    Recording model = new Recording().then(ModelResponse.text("handled"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      // an overdue reminder of a resumed session is handed over exactly like this
      var unused = horae.agents().onCreated(agent -> agent.followup(
          horae.messages().text("overdue", dev.horae.spi.message.MessageSource.plugin("test"))));
      RuntimeAgent agent = horae.openAgent("s1");
      settle(agent);
      assertThat(agent.session().events()).filteredOn(e -> e.type().equals("turn/end")).hasSize(1);
    }
    assertThat(model.requests).singleElement()
        .satisfies(r -> assertThat(r.latestUserMessages()).extracting(ChatMessage.User::text).containsExactly("overdue"));
  }

  @Test
  void aTurnAPluginMessageOpenedIsReportedAsAnUnpromptedReplyAndAPromptedOneIsNot() throws Exception {
    Recording model = new Recording().then(ModelResponse.text("to the user")).then(ModelResponse.text("nobody asked"));
    List<dev.horae.runtime.agent.TurnOutcome> replies = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      var unused = horae.onUnpromptedReply(replies::add);
      RuntimeAgent agent = horae.openAgent("s1");
      horae.prompt(agent, "hello");
      settle(agent);
      agent.followup(horae.messages().text("[SCHEDULE REMINDER] stretch", dev.horae.spi.message.MessageSource.plugin("tool-schedule")));
      settle(agent);
    }
    assertThat(replies).singleElement().satisfies(r -> {
      assertThat(r.turn()).isEqualTo(2);
      assertThat(r.sessionId()).isEqualTo("s1");
      assertThat(r.finalText()).isEqualTo("nobody asked");
      assertThat(r.trigger().orElseThrow().text()).contains("stretch");
    });
  }

  @Test
  void registeredPromptSectionsFollowTheAgentsPromptInOrder() throws Exception {
    Recording model = new Recording();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      dev.horae.spi.jobs.PromptSections sections = horae.service(dev.horae.spi.jobs.PromptSections.class).orElseThrow();
      var late = sections.register(java.util.Optional.empty(), new dev.horae.spi.jobs.PromptSection("b", 20, "Second."));
      var early = sections.register(java.util.Optional.empty(), new dev.horae.spi.jobs.PromptSection("a", 10, "First."));
      RuntimeAgent agent = horae.openAgent("s1").systemPrompt("Base.");
      horae.prompt(agent, "hi");
      settle(agent);
      late.close();
      early.close();
    }
    assertThat(model.requests.get(0).systemPrompt()).isEqualTo("Base.\n\nFirst.\n\nSecond.");
  }
}
