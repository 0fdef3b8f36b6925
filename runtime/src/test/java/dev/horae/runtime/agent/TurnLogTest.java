package dev.horae.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.store.LogSessions;
import dev.horae.store.MemorySessionStore;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** Reading the open turn of a log (host contract §6.1) that this runtime did not write itself. */
class TurnLogTest {

  private final Session session = LogSessions.over(new MemorySessionStore(),
      InstantSource.fixed(Instant.parse("2026-12-01T09:00:00Z")), (m, c) -> { }).create(CreateOptions.DEFAULT);

  @Test
  void anOpenTurnReportsItsOpenStepItsUnansweredCallsAndItsLastAssistantText() {
    session.append(EventTypes.TURN_START, Json.parse("{\"turn\":3}"));
    session.append(EventTypes.STEP_START, Json.parse("{\"turn\":3,\"step\":1}"));
    session.append(EventTypes.ASSISTANT_MESSAGE, Json.parse(
        "{\"turn\":3,\"step\":1,\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"on it\"}]}}"));
    session.append(EventTypes.TOOL_CALL, Json.parse("{\"turn\":3,\"step\":1,\"callId\":\"c1\",\"tool\":\"a\",\"args\":{}}"));
    session.append(EventTypes.TOOL_CALL, Json.parse("{\"turn\":3,\"step\":1,\"callId\":\"c2\",\"tool\":\"b\",\"args\":{}}"));
    session.append(EventTypes.TOOL_RESULT, Json.parse("{\"turn\":3,\"step\":1,\"callId\":\"c1\",\"tool\":\"a\",\"isError\":false,\"content\":[]}"));

    TurnLog.OpenTurn open = TurnLog.openTurn(session).orElseThrow();

    assertThat(open.turn()).isEqualTo(3);
    assertThat(open.openStep()).isEqualTo(1);
    assertThat(open.unanswered()).containsExactly(java.util.Map.entry("c2", "b"));
    assertThat(open.finalText()).isEqualTo("on it");
    assertThat(TurnLog.nextTurnNumber(session)).isEqualTo(4);
  }

  @Test
  void aUserMessageThisRuntimeCannotReadLeavesTheTurnWithoutATriggerInsteadOfFailing() {
    session.append(EventTypes.TURN_START, Json.parse("{\"turn\":1}"));
    session.append(EventTypes.USER_MESSAGE, Json.parse("{\"text\":\"written by another host\"}"));

    TurnLog.OpenTurn open = TurnLog.openTurn(session).orElseThrow();

    assertThat(open.trigger()).isEmpty();
    assertThat(open.openStep()).isZero();
  }

  @Test
  void aClosedLogHasNoOpenTurn() {
    session.append(EventTypes.TURN_START, Json.parse("{\"turn\":1}"));
    session.append(EventTypes.TURN_END, Json.parse("{\"turn\":1,\"reason\":\"completed\"}"));
    assertThat(TurnLog.openTurn(session)).isEmpty();
  }
}
