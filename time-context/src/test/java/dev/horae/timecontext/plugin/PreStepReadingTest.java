package dev.horae.timecontext.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.ReadingMessages;
import dev.horae.timecontext.TimeContextConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PreStepReadingTest {

  private final TestHost host = TestHost.builder().start(Instant.parse("2026-07-14T00:00:00Z")).build();
  private final TestAgent agent = host.createAgent();
  private final PreStepReading listener =
      new PreStepReading(new TimeContextConfig.Resolved("UTC", 0, false), host.wallClock(), host.ids());

  private StepDecision decide(Steps step) {
    return listener.onPreStep(step).toCompletableFuture().join();
  }

  @Test
  void theReadingIsAppendedAfterTheDecisionsMessages() {
    UserMessage prompt = host.messages().text("hi", MessageSource.user());
    Steps step = new Steps(agent, List.of(), 1, 1, AbortSignal.never(), new StepDecision.Enter(List.of(prompt)));
    StepDecision.Enter enter = (StepDecision.Enter) decide(step);
    assertThat(enter.messages()).hasSize(2).first().isEqualTo(prompt);
    UserMessage reading = enter.messages().get(1);
    assertThat(reading.source().toJson()).isEqualTo(ReadingMessages.source(reading.text()));
    assertThat(reading.toJson().get("content")).isEqualTo(ReadingMessages.content(reading.text()));
    assertThat(reading.id()).isNotEqualTo(prompt.id());
  }

  @Test
  void rejectionsAndAbortedSignalsPassThroughUnchanged() {
    StepDecision reject = new StepDecision.Reject("policy");
    assertThat(decide(new Steps(agent, List.of(), 1, 1, AbortSignal.never(), reject))).isSameAs(reject);
    AbortController aborted = new AbortController();
    aborted.abort();
    StepDecision enter = new StepDecision.Enter(List.of());
    assertThat(decide(new Steps(agent, List.of(), 1, 1, aborted.signal(), enter))).isSameAs(enter);
  }

  @Test
  void aClosedListenerAddsNothing() {
    listener.close();
    StepDecision enter = new StepDecision.Enter(List.of());
    assertThat(decide(new Steps(agent, List.of(), 1, 1, AbortSignal.never(), enter))).isSameAs(enter);
  }

  private static long size(SessionIndexes indexes, Session session) {
    return indexes.<Long>withIndex(session, index -> index.size());
  }

  @Test
  void eachStepReadsOnlyTheEventsAppendedSinceTheLastOne() {
    CountingSession session = new CountingSession(agent.session());
    SessionIndexes indexes = new SessionIndexes();
    for (int i = 0; i < 100; i++) {
      session.append(EventTypes.TURN_START, Json.mapper().createObjectNode().put("turn", i + 1));
    }
    assertThat(size(indexes, session)).isEqualTo(100L);
    session.append(EventTypes.STEP_START, Json.mapper().createObjectNode().put("turn", 100).put("step", 1));
    assertThat(size(indexes, session)).isEqualTo(101L);
    assertThat(size(indexes, session)).isEqualTo(101L);
    // one full read to build, then only the tail from the last indexed event
    assertThat(session.reads).containsExactly(0L, 99L, 100L);
  }

  @Test
  void aLogThatDoesNotContinueTheIndexedOneIsReadAgainFromTheStart() {
    SessionIndexes indexes = new SessionIndexes();
    Session original = agent.session();
    original.append(EventTypes.TURN_START, Json.mapper().createObjectNode().put("turn", 1));
    original.append(EventTypes.TURN_END, Json.mapper().createObjectNode().put("turn", 1));
    CountingSession view = new CountingSession(original);
    assertThat(size(indexes, view)).isEqualTo(2L);
    // the same session object now shows a different log (as after a rewrite by a host)
    view.replace(List.of(original.events().get(0)));
    assertThat(size(indexes, view)).isEqualTo(1L);
    assertThat(view.reads).containsExactly(0L, 1L, 0L);
  }

  /** A session view that records every {@code eventsFrom} call and can pretend a different log. */
  private static final class CountingSession implements Session {
    private final Session delegate;
    private Optional<List<SessionEvent>> replaced = Optional.empty();
    final List<Long> reads = new ArrayList<>();

    CountingSession(Session delegate) {
      this.delegate = delegate;
    }

    void replace(List<SessionEvent> events) {
      replaced = Optional.of(events);
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public dev.horae.spi.session.SessionHeader header() {
      return delegate.header();
    }

    @Override
    public List<SessionEvent> events() {
      return eventsFrom(0);
    }

    @Override
    public List<SessionEvent> eventsFrom(long fromSeq) {
      reads.add(fromSeq);
      List<SessionEvent> all = replaced.orElseGet(delegate::events);
      return all.subList((int) Math.min(fromSeq, all.size()), all.size());
    }

    @Override
    public long length() {
      return replaced.map(l -> (long) l.size()).orElseGet(delegate::length);
    }

    @Override
    public SessionEvent append(String type, com.fasterxml.jackson.databind.JsonNode data, dev.horae.spi.session.AppendOptions options) {
      return delegate.append(type, data, options);
    }

    @Override
    public List<SessionEvent> appendAll(List<dev.horae.spi.session.Candidate> candidates) {
      return delegate.appendAll(candidates);
    }
  }
}
