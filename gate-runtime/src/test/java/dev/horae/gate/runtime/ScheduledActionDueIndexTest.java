package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.GateJsonException;
import dev.horae.gate.RunState;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The scheduled-action due index over real session logs of the gate runtime: a session is due at
 * the commit time of its earliest active scheduled-action ticket, and not due once every such
 * ticket is consumed, whatever else the log holds.
 */
class ScheduledActionDueIndexTest {

  private static SessionHeader header(Fixture f) {
    return SessionHeader.root(f.thread(), 0, Optional.empty());
  }

  /** The answer of a fresh tracker fed the whole log, and of one fed it event by event. */
  private static OptionalLong due(SessionHeader header, List<SessionEvent> log) {
    OptionalLong whole = ScheduledActionDueIndex.track(header).apply(log);
    Function<List<SessionEvent>, OptionalLong> stepwise = ScheduledActionDueIndex.track(header);
    OptionalLong last = stepwise.apply(List.of());
    for (SessionEvent e : log) {
      last = stepwise.apply(List.of(e));
    }
    assertThat(last).as("incremental answer").isEqualTo(whole);
    return whole;
  }

  private static long commitTimeOfAwaiting(Fixture f, String runId) {
    return f.session.events().stream()
        .filter(e -> e.type().equals("gate/commit")
            && e.data().path("commit").path("run").path("ticket").path("runId").asText().equals(runId))
        .reduce((a, b) -> b).orElseThrow().time();
  }

  @Test
  void aSessionIsDueAtItsEarliestActiveScheduledActionAndNotDueOncePerformed() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    assertThat(due(header(f), f.session.events())).isEmpty();

    assertThat(f.execute("run-1")).isEqualTo(RunState.awaiting());
    long first = commitTimeOfAwaiting(f, "run-1");
    assertThat(due(header(f), f.session.events())).hasValue(first);

    f.host.advance(Duration.ofMinutes(5));
    assertThat(f.execute("run-2")).isEqualTo(RunState.awaiting());
    long second = commitTimeOfAwaiting(f, "run-2");
    assertThat(second).isGreaterThan(first);
    // two active tickets: the earlier one decides
    assertThat(due(header(f), f.session.events())).hasValue(first);

    // the perform's pre-commit consumes run-1's ticket: the later one is left
    var unused = f.perform("run-1");
    assertThat(due(header(f), f.session.events())).hasValue(second);
    var unused2 = f.perform("run-2");
    assertThat(f.toolRuns).hasValue(2);
    assertThat(due(header(f), f.session.events())).isEmpty();
  }

  @Test
  void aCallWaitingForConfirmationIsNotDue() {
    Fixture f = new Fixture();
    f.gate((call, state) -> CompletableFuture.completedFuture(GateOutcome.requireConfirmation("ask-1")));
    assertThat(f.execute("run-1")).isEqualTo(RunState.awaiting());
    assertThat(f.store.view().resumeTicket("run-1")).isPresent();
    assertThat(due(header(f), f.session.events())).isEmpty();
  }

  @Test
  void aPerformCutAfterItsPreCommitLeavesTheSessionNotDue() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");
    var unused = f.perform("run-1");
    // the log as a process that died while the tool ran left it: up to the running pre-commit
    List<SessionEvent> log = f.session.events();
    List<SessionEvent> cut = new ArrayList<>();
    int commits = 0;
    for (SessionEvent e : log) {
      cut.add(e);
      if (e.type().equals("gate/commit") && ++commits == 4) {
        break;
      }
    }
    assertThat(cut.get(cut.size() - 1).data().path("commit").path("run").path("type").asText()).isEqualTo("running");
    assertThat(due(header(f), cut)).isEmpty();
  }

  @Test
  void aForksInheritedCommitsBelongToItsParentAndAreNotDue() {
    Fixture f = new Fixture();
    f.gate(Fixture.scheduling("sched-1"));
    f.execute("run-1");
    List<SessionEvent> log = f.session.events();
    SessionHeader child = header(f).forkChild("child", 1, log.size());
    assertThat(due(header(f), log)).isPresent();
    assertThat(due(child, log)).isEmpty();
  }

  @Test
  void aCorruptCommitThrowsAsTheCommitStoresFoldWould() {
    Function<List<SessionEvent>, OptionalLong> tracker =
        ScheduledActionDueIndex.track(SessionHeader.root("s", 0, Optional.empty()));
    assertThat(tracker.apply(List.of(SessionEvent.of(0, "turn/start", 1, Json.parse("{\"turn\":1}"))))).isEmpty();
    assertThatThrownBy(() -> tracker.apply(List.of(
        SessionEvent.of(1, "gate/commit", 2, Json.parse("{\"sequence\":1,\"commit\":{\"threadId\":\"s\"}}")))))
        .isInstanceOf(GateJsonException.class);
  }
}
