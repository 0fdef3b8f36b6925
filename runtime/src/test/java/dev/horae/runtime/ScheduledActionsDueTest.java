package dev.horae.runtime;

import static dev.horae.runtime.ActionNodes.START;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.AwaitReason;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.store.DueIndex;
import dev.horae.store.DueIndexer;
import dev.horae.store.DueIndexed;
import dev.horae.store.FileSessionStore;
import dev.horae.store.MemorySessionStore;
import dev.horae.store.SyncMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed scheduled actions of sessions nobody holds open (docs/persistence.md, "The due index";
 * docs/runtime.md, "Durable gates"): node A commits an action and stops before performing it; node
 * B, serving due sessions on the same store, opens the session because the index says it is due,
 * performs the action once, and closes the session again. A perform cut after its pre-commit is
 * not replayed: the session is not due, and opening it ends the Run. The manual time drives every
 * pass; every wait is bounded and on the agent or a latch, never on wall time.
 */
@Timeout(60)
class ScheduledActionsDueTest {

  private static final String ID = "s-action";
  private static final String RUN = TurnRun.runId(ID, 1);
  private static final DueSessions.Settings SETTINGS = DueSessions.Settings.DEFAULTS.withKeepOpenWithin(Duration.ZERO);

  private final ActionNodes nodes = new ActionNodes();

  private static DueSessions.Pass next(ManualTimers time, BlockingQueue<DueSessions.Pass> passes, Duration by)
      throws InterruptedException {
    time.advance(by);
    DueSessions.Pass pass = passes.poll(30, TimeUnit.SECONDS);
    assertThat(pass).as("a pass").isNotNull();
    return pass;
  }

  /**
   * Node B's part: the first pass opens the due session, the reopened agent performs the action,
   * the next pass closes the session, and later passes open nothing again.
   */
  private void nodeBPerformsOnceAndCloses(HoraeRuntime b, ManualTimers time, DueIndex index) throws Exception {
    BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
    DueSessions worker = b.startDueSessions();
    var unused = worker.onPass(passes::add);
    DueSessions.Pass opened = next(time, passes, Duration.ZERO);
    assertThat(opened.opened()).containsExactly(ID);
    ActionNodes.awaitIdle((RuntimeAgent) b.agents().get(ID).orElseThrow());
    assertThat(nodes.sendsOf(ID)).isEqualTo(1);
    assertThat(index.dueAt(ID)).isEmpty();

    DueSessions.Pass closed = next(time, passes, Duration.ofSeconds(1));
    assertThat(closed.closed()).containsExactly(ID);
    assertThat(closed.opened()).isEmpty();
    assertThat(b.sessions().list()).isEmpty();
    assertThat(worker.opened()).isEmpty();
    for (int i = 0; i < 3; i++) {
      assertThat(next(time, passes, Duration.ofMinutes(1)).opened()).isEmpty();
    }
  }

  private static void assertPerformedOnce(List<SessionEvent> log, ActionNodes nodes) {
    assertThat(nodes.sendsOf(ID)).isEqualTo(1);
    assertThat(ActionNodes.runFacts(log, RUN)).containsExactly("awaiting", "running", "ended(naturalEnd)");
    assertThat(ActionNodes.terminalFacts(log, RUN)).isEqualTo(1);
    assertThat(log.get(log.size() - 1).type()).isEqualTo(EventTypes.TURN_END);
  }

  @Test
  void anActionNodeACommittedIsPerformedOnceByNodeBOnTheInMemoryStore() throws Exception {
    ManualTimers time = new ManualTimers(START);
    MemorySessionStore store = new MemorySessionStore(HoraeRuntime.dueIndexer());
    DueIndex index = store.dueIndex().orElseThrow();
    try (HoraeRuntime a = nodes.node(HoraeRuntime.builder().store(store).dispatchScheduledActions(false), time)) {
      ActionNodes.commitActions(a, List.of(ID));
    }
    List<SessionEvent> committed = store.load(ID).orElseThrow().events();
    // the entry the commit's own flush wrote: due at once, from the commit on
    assertThat(index.dueAt(ID)).hasValue(ActionNodes.awaitingCommitTime(committed, RUN));
    assertThat(nodes.sendsOf(ID)).isZero();

    try (HoraeRuntime b = nodes.node(HoraeRuntime.builder().store(store).dueSessions(SETTINGS), time)) {
      nodeBPerformsOnceAndCloses(b, time, index);
    }
    assertPerformedOnce(store.load(ID).orElseThrow().events(), nodes);
    assertThat(index.earliest()).isEmpty();
  }

  @Test
  void anActionNodeACommittedIsPerformedOnceByNodeBOnTheFileStore(@TempDir Path root) throws Exception {
    ManualTimers time = new ManualTimers(START);
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.ALWAYS, HoraeRuntime.dueIndexer())) {
      try (HoraeRuntime a = nodes.node(HoraeRuntime.builder().store(store).dispatchScheduledActions(false), time)) {
        ActionNodes.commitActions(a, List.of(ID));
        assertThat(store.dueIndex().orElseThrow().dueAt(ID))
            .hasValue(ActionNodes.awaitingCommitTime(store.load(ID).orElseThrow().events(), RUN));
      }
    }
    // node B is a runtime over its own file store, given no indexer: it indexes scheduled actions
    try (HoraeRuntime b = nodes.node(HoraeRuntime.builder().dataDir(root).dueSessions(SETTINGS), time)) {
      DueIndex index = ((DueIndexed) b.store()).dueIndex().orElseThrow();
      assertThat(index.dueAt(ID)).isPresent();
      nodeBPerformsOnceAndCloses(b, time, index);
    }
    try (FileSessionStore reread = FileSessionStore.open(root, SyncMode.NEVER, HoraeRuntime.dueIndexer())) {
      assertPerformedOnce(reread.load(ID).orElseThrow().events(), nodes);
      assertThat(reread.dueIndex().orElseThrow().rebuild()).isZero();
      assertThat(reread.dueIndex().orElseThrow().earliest()).isEmpty();
    }
  }

  /** The application's indexer of the composition test: due at the {@code at} of a {@code test/due} event. */
  private static final DueIndexer APP = header -> {
    OptionalLong[] due = {OptionalLong.empty()};
    return events -> {
      for (SessionEvent e : events) {
        if (e.type().equals("test/due")) {
          due[0] = OptionalLong.of(e.data().get("at").asLong());
        }
      }
      return due[0];
    };
  };

  /**
   * The builder's indexer is composed with the scheduled actions: the runtime's own store indexes
   * the application's due times and the actions both, each session at the earlier of the two.
   */
  @Test
  void theApplicationsIndexerIsComposedWithTheScheduledActionsOnTheRuntimesOwnStore() throws Exception {
    ManualTimers time = new ManualTimers(START);
    long later = START.plusSeconds(600).toEpochMilli();
    try (HoraeRuntime a = nodes.node(HoraeRuntime.builder().dueIndexer(APP).dispatchScheduledActions(false), time)) {
      DueIndex index = ((DueIndexed) a.store()).dueIndex().orElseThrow();
      ObjectNode data = Json.mapper().createObjectNode().put("at", later);
      a.store().persist(SessionHeader.root("s-app", START.toEpochMilli(), Optional.empty()),
          List.of(SessionEvent.of(0, "test/due", START.toEpochMilli(), data))).toCompletableFuture().join();
      ActionNodes.commitActions(a, List.of(ID));
      assertThat(index.dueAt("s-app")).hasValue(later);
      assertThat(index.dueAt(ID)).hasValue(ActionNodes.awaitingCommitTime(a.store().load(ID).orElseThrow().events(), RUN));
      assertThat(index.earliest()).hasValue(START.toEpochMilli());
    }
  }

  /**
   * A session the worker opened for an action whose continued turn then parks on a call waiting for
   * confirmation is closed, not held open for as long as the person takes: the ticket is durable and
   * not due, and the call is still waiting when the application opens the session again.
   */
  @Test
  void aSessionParkedOnAConfirmationAfterItsActionIsClosedByTheWorker() throws Exception {
    ManualTimers time = new ManualTimers(START);
    MemorySessionStore store = new MemorySessionStore(HoraeRuntime.dueIndexer());
    try (HoraeRuntime a = nodes.node(HoraeRuntime.builder().store(store).dispatchScheduledActions(false), time)) {
      BlockingQueue<AwaitingCall> parked = new LinkedBlockingQueue<>();
      var unused = a.onAwaiting(parked::add);
      a.prompt(a.openAgent(ID), "send the report, then wipe");
      assertThat(parked.poll(20, TimeUnit.SECONDS)).isNotNull();
    }
    BlockingQueue<AwaitingCall> waiting = new LinkedBlockingQueue<>();
    try (HoraeRuntime b = nodes.node(HoraeRuntime.builder().store(store).dueSessions(SETTINGS), time)) {
      var unusedAwaiting = b.onAwaiting(waiting::add);
      BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
      var unused = b.startDueSessions().onPass(passes::add);
      assertThat(next(time, passes, Duration.ZERO).opened()).containsExactly(ID);
      // first the action the reopened agent found, then the call its continued turn parked on
      AwaitingCall found = waiting.poll(20, TimeUnit.SECONDS);
      assertThat(found).isNotNull();
      assertThat(found.reason()).isEqualTo(AwaitReason.SCHEDULED_ACTION);
      AwaitingCall confirm = waiting.poll(20, TimeUnit.SECONDS);
      assertThat(confirm).isNotNull();
      assertThat(confirm.reason()).isEqualTo(AwaitReason.TOOL_PERMISSION);
      assertThat(confirm.toolId()).isEqualTo("wipe");
      RuntimeAgent agent = (RuntimeAgent) b.agents().get(ID).orElseThrow();
      assertThat(agent.parked()).isTrue();
      assertThat(store.dueIndex().orElseThrow().dueAt(ID)).isEmpty();

      DueSessions.Pass closed = next(time, passes, Duration.ofSeconds(1));
      assertThat(closed.closed()).containsExactly(ID);
      assertThat(b.agents().all()).isEmpty();

      // the application opens it to answer: the call still waits, nothing ran twice
      RuntimeAgent again = b.openAgent(ID);
      assertThat(again.parked()).isTrue();
      assertThat(b.awaiting()).extracting(AwaitingCall::toolId).containsExactly("wipe");
    }
    assertThat(nodes.sendsOf(ID)).isEqualTo(1);
    assertThat(nodes.wipesOf(ID)).isZero();
  }

  /**
   * The retry budget of a perform is its one attempt (recovery policy {@code neverReplay}): node B
   * dies while the tool runs, after the pre-commit consumed the ticket. The session is not due, so
   * no worker reopens it again and again; when it is opened, the cut turn is closed {@code
   * interrupted}, its Run gets one terminal fact, and the tool is not run again.
   */
  @Test
  void aPerformCutMidToolIsEndedNotReplayedAndTheSessionIsNotDue() throws Exception {
    ManualTimers time = new ManualTimers(START);
    MemorySessionStore store = new MemorySessionStore(HoraeRuntime.dueIndexer());
    DueIndex index = store.dueIndex().orElseThrow();
    try (HoraeRuntime a = nodes.node(HoraeRuntime.builder().store(store).dispatchScheduledActions(false), time)) {
      ActionNodes.commitActions(a, List.of(ID));
    }
    assertThat(index.dueAt(ID)).isPresent();

    // node B's store stops persisting the moment the tool runs: nothing after it reaches the store
    AtomicBoolean dead = new AtomicBoolean();
    SessionStore dying = HoraeRuntimeRulesTest.over(store, (header, log) -> dead.get()
        ? CompletableFuture.failedFuture(new IllegalStateException("the node stopped")) : store.persist(header, log));
    CountDownLatch inTool = new CountDownLatch(1);
    nodes.inSend = () -> {
      dead.set(true);
      inTool.countDown();
    };
    try (HoraeRuntime b = nodes.node(HoraeRuntime.builder().store(dying).warnings((m, c) -> { }), time)) {
      var unused = b.openAgent(ID);
      assertThat(inTool.await(20, TimeUnit.SECONDS)).isTrue();
    }
    nodes.inSend = () -> { };
    List<SessionEvent> cut = store.load(ID).orElseThrow().events();
    assertThat(ActionNodes.runFacts(cut, RUN)).containsExactly("awaiting", "running");
    assertThat(nodes.sendsOf(ID)).isEqualTo(1);
    assertThat(index.dueAt(ID)).isEmpty();

    try (HoraeRuntime c = nodes.node(HoraeRuntime.builder().store(store).dueSessions(SETTINGS), time)) {
      BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
      var unused = c.startDueSessions().onPass(passes::add);
      assertThat(next(time, passes, Duration.ZERO).opened()).isEmpty();
      assertThat(next(time, passes, Duration.ofMinutes(5)).opened()).isEmpty();

      // the application opens it (a new message, say): the cut turn is closed, never replayed
      RuntimeAgent agent = c.openAgent(ID);
      assertThat(agent.parked()).isFalse();
      ActionNodes.awaitIdle(agent);
      assertThat(c.closeSession(ID)).isTrue();
    }
    List<SessionEvent> log = store.load(ID).orElseThrow().events();
    assertThat(nodes.sendsOf(ID)).isEqualTo(1);
    assertThat(ActionNodes.runFacts(log, RUN)).containsExactly("awaiting", "running", "ended(stopped:interrupted)");
    assertThat(log).filteredOn(e -> e.type().equals(EventTypes.TOOL_RESULT))
        .extracting(e -> e.data().path("content").toString()).anySatisfy(t -> assertThat(t).contains("Error: tool outcome unknown"));
    assertThat(log.get(log.size() - 1).type()).isEqualTo(EventTypes.TURN_END);
    assertThat(log.get(log.size() - 1).data().path("reason").asText()).isEqualTo("interrupted");
    assertThat(index.dueAt(ID)).isEmpty();
  }
}
