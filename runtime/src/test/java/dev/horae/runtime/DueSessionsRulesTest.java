package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.DueIndexer;
import dev.horae.store.MemorySessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The due-sessions worker's own rules, without any plugin (so nothing ever dispatches): a session
 * the application holds is left alone, an overdue session is retried after {@code retryAfter}, and
 * the builder refuses a worker without an index. Its full run with Schedule's owner is {@code
 * schedule-tools}' {@code DueSessionsTest}.
 */
class DueSessionsRulesTest {

  private static final Instant START = Instant.parse("2026-12-01T09:00:00Z");

  /** A session is due at the {@code at} of its last {@code test/due} event, or never when it is null. */
  private static final DueIndexer INDEXER = header -> {
    OptionalLong[] due = {OptionalLong.empty()};
    return events -> {
      for (SessionEvent e : events) {
        if (e.type().equals("test/due")) {
          due[0] = e.data().get("at").isNull() ? OptionalLong.empty() : OptionalLong.of(e.data().get("at").asLong());
        }
      }
      return due[0];
    };
  };

  private static void seed(HoraeRuntime horae, String id, long dueAt) {
    ObjectNode data = Json.mapper().createObjectNode();
    data.put("at", dueAt);
    horae.store().persist(SessionHeader.root(id, START.toEpochMilli(), Optional.empty()),
        List.of(SessionEvent.of(0, "test/due", START.toEpochMilli(), data))).toCompletableFuture().join();
  }

  private static HoraeRuntime runtime(ManualTimers time, DueSessions.Settings settings) {
    return HoraeRuntime.builder().dueIndexer(INDEXER).dueSessions(settings).clock(time).timers(time).build();
  }

  private static DueSessions.Pass next(ManualTimers time, BlockingQueue<DueSessions.Pass> passes, Duration by) throws InterruptedException {
    time.advance(by);
    DueSessions.Pass pass = passes.poll(30, TimeUnit.SECONDS);
    assertThat(pass).as("a pass").isNotNull();
    return pass;
  }

  /** Seeds {@code id} due now, starts the worker and asserts that its first pass opens it. */
  private static BlockingQueue<DueSessions.Pass> openedByTheWorker(HoraeRuntime horae, ManualTimers time, String id)
      throws InterruptedException {
    seed(horae, id, START.toEpochMilli());
    BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
    var unused = horae.startDueSessions().onPass(passes::add);
    assertThat(next(time, passes, Duration.ZERO).opened()).containsExactly(id);
    return passes;
  }

  @Test
  void anOverdueSessionNobodyDispatchesIsClosedAfterRetryAfterAndOpenedAgain() throws Exception {
    ManualTimers time = new ManualTimers(START);
    DueSessions.Settings settings = DueSessions.Settings.DEFAULTS.withRetryAfter(Duration.ofSeconds(5));
    try (HoraeRuntime horae = runtime(time, settings)) {
      BlockingQueue<DueSessions.Pass> passes = openedByTheWorker(horae, time, "stuck");
      for (int s = 1; s < 5; s++) {
        DueSessions.Pass kept = next(time, passes, Duration.ofSeconds(1));
        assertThat(kept.closed()).as("second %d", s).isEmpty();
        assertThat(kept.open()).isEqualTo(1);
      }
      DueSessions.Pass retried = next(time, passes, Duration.ofSeconds(1));
      assertThat(retried.closed()).containsExactly("stuck");
      // closed and, still due, opened again in the same pass: its new owner would preflight afresh
      assertThat(retried.opened()).containsExactly("stuck");
    }
  }

  @Test
  void aSessionWhoseAgentHasQueuedMessagesIsNotClosedSoTheyAreNotLost() throws Exception {
    ManualTimers time = new ManualTimers(START);
    DueSessions.Settings settings = DueSessions.Settings.DEFAULTS.withRetryAfter(Duration.ofSeconds(2));
    try (HoraeRuntime horae = runtime(time, settings)) {
      BlockingQueue<DueSessions.Pass> passes = openedByTheWorker(horae, time, "queued");
      // a message waiting for the agent's next step (a dispatched reminder's follow-up waits the same
      // way until the owner's maintenance ends): closing now would drop it with the agent
      dev.horae.runtime.agent.RuntimeAgent agent =
          (dev.horae.runtime.agent.RuntimeAgent) horae.agents().get("queued").orElseThrow();
      agent.inject(new dev.horae.spi.message.UserMessage("m-1",
          List.of(new dev.horae.spi.message.ContentBlock("still to be read")), dev.horae.spi.message.MessageSource.user()));
      for (int s = 1; s <= 4; s++) {
        assertThat(next(time, passes, Duration.ofSeconds(1)).closed()).as("second %d", s).isEmpty();
      }
      assertThat(horae.agents().get("queued")).isPresent();
      assertThat(agent.pendingNextStep()).hasSize(1);
    }
  }

  @Test
  void aSessionTheApplicationHoldsIsNeitherOpenedAgainNorClosed() throws Exception {
    ManualTimers time = new ManualTimers(START);
    try (HoraeRuntime horae = runtime(time, DueSessions.Settings.DEFAULTS.withKeepOpenWithin(Duration.ZERO))) {
      seed(horae, "mine", START.toEpochMilli());
      seed(horae, "later", START.plusSeconds(3).toEpochMilli());
      var unusedAgent = horae.openAgent("mine");
      BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
      DueSessions worker = horae.startDueSessions();
      var unused = worker.onPass(passes::add);

      DueSessions.Pass first = next(time, passes, Duration.ZERO);
      assertThat(first.opened()).isEmpty();
      assertThat(next(time, passes, Duration.ofSeconds(1)).opened()).isEmpty();
      assertThat(next(time, passes, Duration.ofSeconds(1)).opened()).isEmpty();
      DueSessions.Pass due = next(time, passes, Duration.ofSeconds(1));
      assertThat(due.opened()).containsExactly("later");
      assertThat(worker.opened()).containsExactly("later");
      for (int s = 0; s < 3; s++) {
        assertThat(next(time, passes, Duration.ofMinutes(1)).closed()).doesNotContain("mine");
      }
      assertThat(horae.agents().get("mine")).isPresent();
    }
  }

  @Test
  @DisplayName("at most maxOpen agents are open: the earliest due first, and a place freed is taken at the next pass (persistence.md, The worker 2)")
  void atMostMaxOpenAreOpenedEarliestDueFirstAndAFreedPlaceIsTakenAtTheNextPass() throws Exception {
    ManualTimers time = new ManualTimers(START);
    try (HoraeRuntime horae = runtime(time, DueSessions.Settings.DEFAULTS.withMaxOpen(2))) {
      seed(horae, "c", START.minusSeconds(1).toEpochMilli());
      seed(horae, "a", START.minusSeconds(3).toEpochMilli());
      seed(horae, "b", START.minusSeconds(2).toEpochMilli());
      BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
      DueSessions worker = horae.startDueSessions();
      var unused = worker.onPass(passes::add);
      DueSessions.Pass first = next(time, passes, Duration.ZERO);
      assertThat(first.opened()).containsExactly("a", "b");
      assertThat(first.open()).isEqualTo(2);
      // full: nothing more is opened while both are still within their retry time
      DueSessions.Pass full = next(time, passes, Duration.ofSeconds(1));
      assertThat(full.opened()).isEmpty();
      assertThat(full.closed()).isEmpty();
      assertThat(horae.agents().get("c")).isEmpty();
      // b's log says nothing is due any more, and the application closes it: the worker forgets it
      // (it did not close it) and takes c
      ObjectNode none = Json.mapper().createObjectNode();
      none.putNull("at");
      dev.horae.spi.session.Session b = horae.sessions().get("b").orElseThrow();
      b.append("test/due", none);
      horae.sessions().flush(b).toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(horae.closeSession("b")).isTrue();
      DueSessions.Pass freed = next(time, passes, Duration.ofSeconds(1));
      assertThat(freed.closed()).isEmpty();
      assertThat(freed.opened()).containsExactly("c");
      assertThat(freed.open()).isEqualTo(2);
      assertThat(worker.opened()).containsExactly("a", "c");
    }
  }

  @Test
  @DisplayName("a session due within keepOpenWithin stays open, one due later is closed (persistence.md, The worker 1)")
  void aSessionDueWithinKeepOpenWithinStaysOpenAndOneDueLaterIsClosed() throws Exception {
    ManualTimers time = new ManualTimers(START);
    try (HoraeRuntime horae = runtime(time, DueSessions.Settings.DEFAULTS.withKeepOpenWithin(Duration.ofSeconds(10)))) {
      BlockingQueue<DueSessions.Pass> passes = openedByTheWorker(horae, time, "near");
      dev.horae.spi.session.Session session = horae.sessions().get("near").orElseThrow();
      // the log moves its due time 10 s ahead of the next pass: still within keepOpenWithin
      ObjectNode soon = Json.mapper().createObjectNode();
      soon.put("at", START.plusSeconds(11).toEpochMilli());
      session.append("test/due", soon);
      horae.sessions().flush(session).toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(next(time, passes, Duration.ofSeconds(1)).closed()).isEmpty();
      // then 11 s ahead of the next pass: beyond it, so the session is closed until it is due
      ObjectNode later = Json.mapper().createObjectNode();
      later.put("at", START.plusSeconds(13).toEpochMilli());
      session.append("test/due", later);
      horae.sessions().flush(session).toCompletableFuture().get(10, TimeUnit.SECONDS);
      DueSessions.Pass closed = next(time, passes, Duration.ofSeconds(1));
      assertThat(closed.closed()).containsExactly("near");
      assertThat(closed.opened()).isEmpty();
      assertThat(closed.open()).isZero();
      assertThat(horae.dueSessions().orElseThrow().opened()).isEmpty();
    }
  }

  @Test
  @DisplayName("a pass listener that fails is reported and the others still hear every pass; a second start arms no second timer; after close no pass runs")
  void aFailingPassListenerIsReportedASecondStartDoesNothingAndNoPassRunsAfterClose() throws Exception {
    ManualTimers time = new ManualTimers(START);
    List<String> warned = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().dueIndexer(INDEXER).dueSessions(DueSessions.Settings.DEFAULTS)
        .clock(time).timers(time).warnings((m, c) -> warned.add(m)).build()) {
      DueSessions worker = horae.startDueSessions();
      var unusedBroken = worker.onPass(p -> {
        throw new IllegalStateException("listener broke");
      });
      BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
      var unused = worker.onPass(passes::add);
      assertThat(horae.startDueSessions()).isSameAs(worker);
      next(time, passes, Duration.ZERO);
      next(time, passes, Duration.ofSeconds(1));
      // one pass per poll: a second timer would have made two
      assertThat(passes.poll(200, TimeUnit.MILLISECONDS)).isNull();
      assertThat(warned).contains("a due-sessions pass listener failed");
      worker.close();
      seed(horae, "after-close", START.toEpochMilli());
      time.advance(Duration.ofSeconds(5));
      assertThat(passes.poll(200, TimeUnit.MILLISECONDS)).isNull();
      assertThat(horae.agents().get("after-close")).isEmpty();
    }
  }

  @Test
  void closingTheRuntimeClosesItsWorkerAndLeavesNoPassArmed() {
    ManualTimers time = new ManualTimers(START);
    HoraeRuntime horae = runtime(time, DueSessions.Settings.DEFAULTS);
    int before;
    DueSessions worker;
    try {
      before = time.armed();
      worker = horae.startDueSessions();
      assertThat(time.armed()).as("the first pass, armed at once").isEqualTo(before + 1);
    } finally {
      horae.close();
    }
    assertThat(time.armed()).isEqualTo(before);
    // a closed worker arms nothing when started again
    worker.start();
    assertThat(time.armed()).isEqualTo(before);
  }

  @Test
  void theBuilderRefusesAWorkerWithoutAnIndexAndAnIndexerForAStoreItDidNotOpen() {
    assertThatThrownBy(() -> HoraeRuntime.builder().store(new MemorySessionStore()).dueSessions(DueSessions.Settings.DEFAULTS).build())
        .isInstanceOf(IllegalStateException.class).hasMessage("dueSessions needs a store with a due index: open the given "
            + "store with HoraeRuntime.dueIndexer(...) as its indexer");
    // the store the runtime opens itself is indexed for scheduled actions even without an indexer
    try (HoraeRuntime own = HoraeRuntime.builder().dueSessions(DueSessions.Settings.DEFAULTS).build()) {
      assertThat(own.dueSessions()).isPresent();
      assertThat(((dev.horae.store.DueIndexed) own.store()).dueIndex()).isPresent();
    }
    assertThatThrownBy(() -> HoraeRuntime.builder().store(new MemorySessionStore()).dueIndexer(INDEXER).build())
        .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("dueIndexer indexes the store the runtime opens itself");
    try (HoraeRuntime plain = HoraeRuntime.builder().build()) {
      assertThat(plain.dueSessions()).isEmpty();
      assertThatThrownBy(plain::startDueSessions).isInstanceOf(IllegalStateException.class)
          .hasMessage("this runtime was built without dueSessions");
    }
  }

  @Test
  void settingsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> DueSessions.Settings.DEFAULTS.withMaxOpen(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dueSessions maxOpen must be at least 1, got 0");
    assertThatThrownBy(() -> DueSessions.Settings.DEFAULTS.withPoll(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dueSessions poll must be at least 1 ms, got PT0S");
    assertThatThrownBy(() -> DueSessions.Settings.DEFAULTS.withKeepOpenWithin(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("dueSessions keepOpenWithin must not be negative, got PT-1S");
    assertThatThrownBy(() -> DueSessions.Settings.DEFAULTS.withRetryAfter(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("dueSessions retryAfter must be at least 1 ms, got PT0S");
  }

  @Test
  void theSmallestSettingsAreAccepted() {
    DueSessions.Settings least = DueSessions.Settings.DEFAULTS.withMaxOpen(1).withPoll(Duration.ofMillis(1))
        .withRetryAfter(Duration.ofMillis(1)).withKeepOpenWithin(Duration.ZERO);
    assertThat(least.maxOpen()).isEqualTo(1);
    assertThat(least.poll()).isEqualTo(Duration.ofMillis(1));
    assertThat(least.retryAfter()).isEqualTo(Duration.ofMillis(1));
    assertThat(least.keepOpenWithin()).isZero();
  }
}
