package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The context messages of a resume on the production engine (gate specification §6.4 step 3):
 * they land with the answer's first commit and the model reads them at the next step; a replay
 * of a committed one is dropped, the same id with another payload is {@code contextConflict}, and
 * a message that is not a user message is {@code invalidContext} — both leave the ticket.
 */
@Timeout(30)
class ResumeContextRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  private static JsonNode note(String text) {
    return new UserMessage("m-1", List.of(new ContentBlock(text)), MessageSource.user()).toJson();
  }

  private static ResumeCommand withContext(ResumeTicket t, List<JsonNode> messages) {
    return new ResumeCommand(t.correlationId(), t.runId(), t.threadId(), t.snapshotId(), t.catalogFingerprint(),
        ResumeResult.allow(), 0, Optional.empty(), messages);
  }

  private static ResumeOutcome get(java.util.concurrent.CompletionStage<ResumeOutcome> stage) throws Exception {
    return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static long committedCopies(RuntimeAgent agent, String id) {
    return agent.session().events().stream().filter(e -> e.type().equals("gate/commit"))
        .flatMap(e -> java.util.stream.StreamSupport.stream(e.data().path("commit").path("messages").spliterator(), false))
        .filter(m -> m.path("id").asText().equals(id)).count();
  }

  private static long userMessages(RuntimeAgent agent, String id) {
    return agent.session().events().stream().filter(e -> e.type().equals(EventTypes.USER_MESSAGE))
        .filter(e -> e.data().toString().contains("\"" + id + "\"")).count();
  }

  private static String code(ResumeOutcome o) {
    assertThat(o).isInstanceOf(ResumeOutcome.Rejected.class);
    return ((ResumeOutcome.Rejected) o).code();
  }

  @Test
  void contextLandsWithTheFirstCommitAReplayIsDroppedAConflictAndANonUserMessageAreRejected() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    HoraeRuntimeTest.Recording model = new HoraeRuntimeTest.Recording()
        .then(ModelResponse.calls(new ToolCall("c1", "act", Json.parse("{}"))))
        .then(ModelResponse.calls(new ToolCall("c2", "act", Json.parse("{}"))))
        .then(ModelResponse.text("done"));
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(model).build()) {
      horae.tools().register(TurnEngineRulesTest.counting("act", runs));
      var unusedGate = horae.gates().register(ToolGate.named("ask",
          (call, state) -> CompletableFuture.completedFuture(GateOutcome.requireConfirmation("confirm-" + call.callId()))));
      Semaphore parked = new Semaphore(0);
      var unusedListener = horae.onAwaiting(c -> parked.release());
      RuntimeAgent agent = horae.openAgent("s-context");
      horae.prompt(agent, "act twice");
      assertThat(parked.tryAcquire(20, TimeUnit.SECONDS)).isTrue();

      ResumeTicket first = horae.awaiting().get(0).ticket();
      assertThat(code(get(horae.resume(withContext(first, List.of(Json.parse("{\"id\":\"x\"}")))))))
          .isEqualTo("invalidContext");
      assertThat(get(horae.resume(withContext(first, List.of(note("context"))))))
          .isEqualTo(new ResumeOutcome.Advanced(RunState.awaiting()));
      assertThat(parked.tryAcquire(20, TimeUnit.SECONDS)).isTrue();
      assertThat(committedCopies(agent, "m-1")).isEqualTo(1);
      List<String> stepTwo = new ArrayList<>();
      model.requests.get(1).latestUserMessages().forEach(m -> stepTwo.add(m.text()));
      assertThat(stepTwo).as("the model reads the context at the next step").containsExactly("context");

      ResumeTicket second = horae.awaiting().get(0).ticket();
      ResumeOutcome conflict = get(horae.resume(withContext(second, List.of(note("other")))));
      assertThat(conflict).isEqualTo(new ResumeOutcome.Rejected("contextConflict",
          "resume context message m-1 conflicts with a committed message", dev.horae.gate.runtime.GateRuntimeException.Category.EXECUTION));
      assertThat(runs).hasValue(1);
      assertThat(horae.awaiting()).as("the ticket stays").hasSize(1);

      assertThat(get(horae.resume(withContext(second, List.of(note("context"))))))
          .isEqualTo(new ResumeOutcome.Advanced(RunState.ended(EndCause.naturalEnd())));
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(committedCopies(agent, "m-1")).as("a replay is dropped").isEqualTo(1);
      assertThat(userMessages(agent, "m-1")).as("and not read again").isEqualTo(1);
      assertThat(model.requests.get(2).messages()).filteredOn(m -> m instanceof ChatMessage.User u && u.text().equals("context"))
          .hasSize(1);
    }
    assertThat(runs).hasValue(2);
  }
}
