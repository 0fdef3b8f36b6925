package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.Registration;
import dev.horae.spi.message.PromptRejectedException;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.spi.session.SurfaceOp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The sessions service's own rules (host contract §3.4–§3.6 and §4.1–§4.2), checked on {@link
 * LogSessions} directly rather than through a runtime: append order and stamping, validator
 * vetoes, observer containment, nested appends, create/fork/resume, detach and every row of the
 * flush table.
 */
class LogSessionsRulesTest {

  private final AtomicLong now = new AtomicLong(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli());
  private final List<String> warnings = new ArrayList<>();
  private final MemorySessionStore store = new MemorySessionStore();
  private final LogSessions sessions = new LogSessions(
      () -> Instant.ofEpochMilli(now.get()), (message, cause) -> warnings.add(message), store);

  private static ObjectNode data(int n) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("n", n);
    return o;
  }

  private static List<String> types(List<SessionEvent> events) {
    return events.stream().map(SessionEvent::type).toList();
  }

  // ---- append (§3.1, §3.4) ---------------------------------------------------------------

  @Test
  void appendsGetContiguousSeqsTheInjectedTimeAndASnapshotOfTheData() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    ObjectNode payload = data(1);
    SessionEvent first = s.append("a/one", payload);
    payload.put("n", 99);
    // a clock rollback is stamped as it is: time is the wall clock, not monotonic
    now.addAndGet(-Duration.ofMinutes(5).toMillis());
    SessionEvent second = s.append("a/two", data(2), AppendOptions.VISIBLE);

    assertThat(first.seq()).isZero();
    assertThat(second.seq()).isEqualTo(1);
    assertThat(first.time()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli());
    assertThat(second.time()).isEqualTo(Instant.parse("2026-12-01T09:55:00Z").toEpochMilli());
    assertThat(s.events().get(0).data().path("n").asInt()).isEqualTo(1);
    assertThat(s.events().get(1).surfaceOp()).contains(SurfaceOp.APPEND);
    assertThat(s.length()).isEqualTo(2);
  }

  @Test
  void anAtomicAppendLandsWholeWithOneTimeAndItsOptions() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    s.append("a/zero", data(0));
    List<SessionEvent> committed = s.appendAll(List.of(
        Candidate.logOnly("b/one", data(1)),
        new Candidate("b/two", data(2), new AppendOptions(Optional.of(new SurfaceOp.Replace(0, 1)), List.of(0L, 1L)))));
    assertThat(committed).extracting(SessionEvent::seq).containsExactly(1L, 2L);
    assertThat(committed).extracting(SessionEvent::time).containsOnly(now.get());
    assertThat(committed.get(1).sourceEventSeqs()).containsExactly(0L, 1L);
    assertThat(s.events()).containsExactlyElementsOf(
        List.of(s.events().get(0), committed.get(0), committed.get(1)));
    assertThat(s.appendAll(List.of())).isEmpty();
    assertThat(s.length()).isEqualTo(3);
  }

  @Test
  void aSnapshotNeverChangesAfterLaterAppendsAndRefusesIndexesOutsideIt() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    s.append("x/0", data(0));
    List<SessionEvent> early = s.events();
    // enough appends to outgrow the first backing array several times
    for (int i = 1; i < 100; i++) {
      s.append("x/" + i, data(i));
    }
    assertThat(early).hasSize(1);
    assertThat(early.get(0).type()).isEqualTo("x/0");
    assertThatThrownBy(() -> early.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> early.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    List<SessionEvent> all = s.events();
    assertThat(all).hasSize(100);
    for (int i = 0; i < 100; i++) {
      assertThat(all.get(i).seq()).isEqualTo(i);
      assertThat(all.get(i).type()).isEqualTo("x/" + i);
    }
    assertThatThrownBy(() -> all.get(100)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void eventsFromReturnsTheSuffixAndRefusesANegativeSeq() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    for (int i = 0; i < 5; i++) {
      s.append("x/" + i, data(i));
    }
    assertThat(types(s.eventsFrom(0))).containsExactly("x/0", "x/1", "x/2", "x/3", "x/4");
    assertThat(types(s.eventsFrom(3))).containsExactly("x/3", "x/4");
    assertThat(s.eventsFrom(3).get(0).seq()).isEqualTo(3);
    assertThatThrownBy(() -> s.eventsFrom(3).get(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(s.eventsFrom(5)).isEmpty();
    assertThat(s.eventsFrom(Long.MAX_VALUE)).isEmpty();
    assertThatThrownBy(() -> s.eventsFrom(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fromSeq must be >= 0, got -1");
    // reading leaves the session's lock free: the reader may append right after
    assertThat(s.append("x/5", data(5)).seq()).isEqualTo(5);
    assertThat(s.length()).isEqualTo(6);
  }

  @Test
  void validatorsRunInOrderAndAThrowingOneVetoesTheAppend() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    s.append("ok/0", data(0));
    List<String> calls = new ArrayList<>();
    List<SessionEvent> observed = new ArrayList<>();
    sessions.onPreAppend((h, log, candidate) -> calls.add("first " + candidate.type() + "@" + log.size()));
    sessions.onPreAppend((h, log, candidate) -> {
      calls.add("second " + candidate.seq());
      if (candidate.type().equals("bad")) {
        throw new IllegalStateException("vetoed by the companion");
      }
    });
    sessions.onEvent((session, event) -> observed.add(event));

    assertThatThrownBy(() -> s.append("bad", data(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("vetoed by the companion");
    assertThat(s.length()).isEqualTo(1);
    assertThat(observed).isEmpty();
    // an atomic append with one vetoed candidate lands nothing at all
    assertThatThrownBy(() -> s.appendAll(List.of(Candidate.logOnly("fine", data(2)), Candidate.logOnly("bad", data(3)))))
        .hasMessage("vetoed by the companion");
    assertThat(s.length()).isEqualTo(1);
    assertThat(observed).isEmpty();

    s.append("ok/1", data(4));
    assertThat(calls).containsExactly(
        "first bad@1", "second 1", "first fine@1", "second 1", "first bad@2", "second 2", "first ok/1@1", "second 1");
    assertThat(types(observed)).containsExactly("ok/1");
  }

  @Test
  void aValidatorOfAnAtomicAppendSeesTheEarlierCandidatesAfterTheCommittedLog() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    s.append("c/0", data(0));
    s.append("c/1", data(1));
    List<List<String>> seen = new ArrayList<>();
    List<Runnable> outOfRange = new ArrayList<>();
    sessions.onPreAppend((h, log, candidate) -> {
      List<String> view = new ArrayList<>();
      for (int i = 0; i < log.size(); i++) {
        view.add(log.get(i).seq() + ":" + log.get(i).type());
      }
      seen.add(view);
      outOfRange.add(() -> log.get(log.size()));
      outOfRange.add(() -> log.get(-1));
      assertThat(h.id()).isEqualTo(s.id());
    });
    s.appendAll(List.of(
        Candidate.logOnly("p/2", data(2)), Candidate.logOnly("p/3", data(3)), Candidate.logOnly("p/4", data(4))));
    assertThat(seen).containsExactly(
        List.of("0:c/0", "1:c/1"),
        List.of("0:c/0", "1:c/1", "2:p/2"),
        List.of("0:c/0", "1:c/1", "2:p/2", "3:p/3"));
    for (Runnable r : outOfRange) {
      assertThatThrownBy(r::run).isInstanceOf(IndexOutOfBoundsException.class);
    }
  }

  @Test
  void observersRunAfterTheCommitInOrderAndAFailureIsContainedAndReported() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    List<String> calls = new ArrayList<>();
    sessions.onEvent((session, event) -> {
      calls.add("first " + event.seq() + " length " + session.length());
      throw new IllegalStateException("observer broke");
    });
    sessions.onEvent((session, event) -> calls.add("second " + event.seq()));
    SessionEvent e = s.append("user/message", data(1));
    assertThat(e.seq()).isZero();
    assertThat(s.length()).isEqualTo(1);
    // the event is already in the log when observers run
    assertThat(calls).containsExactly("first 0 length 1", "second 0");
    assertThat(warnings).containsExactly(
        "event observer failed on user/message seq 0 of session \"" + s.id() + "\"");
  }

  @Test
  void aNestedAppendFromAValidatorOrObserverIsRefused() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    List<Throwable> nested = new ArrayList<>();
    Registration validator = sessions.onPreAppend((h, log, candidate) -> {
      try {
        s.append("nested", data(0));
      } catch (IllegalStateException refused) {
        nested.add(refused);
      }
    });
    s.append("outer", data(1));
    validator.close();
    sessions.onEvent((session, event) -> {
      if (event.type().equals("outer")) {
        session.append("nested", data(2));
      }
    });
    s.append("outer", data(3));
    assertThat(nested).singleElement().satisfies(t -> assertThat(t)
        .hasMessage("nested append to session \"" + s.id() + "\": validators and observers must not append to the"
            + " session they run for"));
    assertThat(types(s.events())).containsExactly("outer", "outer");
    assertThat(warnings).hasSize(1);
  }

  @Test
  void closingARegistrationRemovesOnlyThatEntryAndIsIdempotent() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    List<String> calls = new ArrayList<>();
    dev.horae.spi.session.EventObserver observer = (session, event) -> calls.add(event.type());
    Registration one = sessions.onEvent(observer);
    Registration two = sessions.onEvent(observer);
    s.append("a", data(0));
    one.close();
    one.close();
    s.append("b", data(1));
    two.close();
    s.append("c", data(2));
    assertThat(calls).containsExactly("a", "a", "b");
  }

  // ---- create (§3.3, §4.1) ---------------------------------------------------------------

  @Test
  void createStampsTheHeaderAndNumbersFreshIdsPastStoredAndLiveOnes() {
    store.persist(header("session-2"), log(1)).toCompletableFuture().join();
    Session first = sessions.create(CreateOptions.DEFAULT);
    Session second = sessions.create(CreateOptions.withTimeZone("Europe/Berlin"));
    Session preallocated = sessions.create(new CreateOptions(Optional.of("session-4"), Optional.of("/w"), Optional.empty()));
    Session third = sessions.create(CreateOptions.DEFAULT);
    assertThat(first.id()).isEqualTo("session-1");
    assertThat(second.id()).isEqualTo("session-3");
    assertThat(preallocated.id()).isEqualTo("session-4");
    assertThat(third.id()).isEqualTo("session-5");
    assertThat(first.header()).isEqualTo(SessionHeader.root("session-1", now.get(), Optional.empty()));
    assertThat(second.header().timeZone()).contains("Europe/Berlin");
    assertThat(preallocated.header().cwd()).contains("/w");
    assertThat(sessions.list()).containsExactly(first, second, preallocated, third);
    assertThat(sessions.get("session-3")).containsSame(second);
    assertThat(sessions.get("session-2")).isEmpty();
  }

  @Test
  void aFreshIdIsCheckedAgainstTheStoreOneIdAtATimeNeverByListingIt() {
    store.persist(header("session-1"), log(1)).toCompletableFuture().join();
    dev.horae.spi.session.SessionStore unlisted = new dev.horae.spi.session.SessionStore() {
      @Override
      public Optional<StoredSession> load(String id) {
        return store.load(id);
      }

      @Override
      public java.util.Set<String> ids() {
        throw new AssertionError("a create listed every stored session");
      }

      @Override
      public boolean contains(String id) {
        return store.contains(id);
      }

      @Override
      public java.util.concurrent.CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
        return store.persist(header, log);
      }
    };
    LogSessions fresh = new LogSessions(() -> Instant.ofEpochMilli(now.get()), (m, c) -> { }, unlisted);
    assertThat(fresh.create(CreateOptions.DEFAULT).id()).isEqualTo("session-2");
  }

  @Test
  void aRepeatedPreallocatedCreateIsTheSameSessionOrAConflict() {
    CreateOptions berlin = new CreateOptions(Optional.of("chat-7"), Optional.of("/work"), Optional.of("Europe/Berlin"));
    Session s = sessions.create(berlin);
    assertThat(sessions.create(berlin)).isSameAs(s);
    assertThatThrownBy(() -> sessions.create(
        new CreateOptions(Optional.of("chat-7"), Optional.of("/work"), Optional.of("Asia/Tokyo"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session \"chat-7\" already exists with a different time zone");
    assertThatThrownBy(() -> sessions.create(
        new CreateOptions(Optional.of("chat-7"), Optional.of("/elsewhere"), Optional.of("Europe/Berlin"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session \"chat-7\" already exists with a different working directory");
    assertThatThrownBy(() -> sessions.create(new CreateOptions(Optional.of("chat-7"), Optional.of("/work"), Optional.empty())))
        .hasMessageContaining("different time zone");
    assertThat(sessions.list()).containsExactly(s);
  }

  @Test
  void anInvalidZoneIsRefusedBeforeAnythingIsRegistered() {
    assertThatThrownBy(() -> sessions.create(CreateOptions.withTimeZone("Mars/Olympus")))
        .isInstanceOf(PromptRejectedException.class);
    assertThat(sessions.list()).isEmpty();
  }

  @Test
  void aThrowingCreatedListenerFailsTheCreateAndNothingIsRegistered() {
    List<String> seen = new ArrayList<>();
    Registration r = sessions.onSessionCreated((h, log) -> {
      seen.add(h.id() + "/" + log.size());
      throw new IllegalStateException("refused by the companion");
    });
    assertThatThrownBy(() -> sessions.create(CreateOptions.DEFAULT)).hasMessage("refused by the companion");
    assertThat(sessions.list()).isEmpty();
    assertThat(seen).containsExactly("session-1/0");
    r.close();
    assertThat(sessions.create(CreateOptions.DEFAULT).id()).isEqualTo("session-2");
  }

  // ---- fork (§4.1) -----------------------------------------------------------------------

  @Test
  void aForkCopiesTheSeedAndItsMarkerHasSeqSeedLength() {
    Session parent = sessions.create(new CreateOptions(Optional.empty(), Optional.of("/p"), Optional.of("Europe/Berlin")));
    for (int i = 0; i < 4; i++) {
      parent.append("p/" + i, data(i));
    }
    List<String> created = new ArrayList<>();
    sessions.onSessionCreated((h, log) -> created.add(h.id() + "/" + types(log)));
    Session child = sessions.fork(parent, 3, true);
    assertThat(types(child.events())).containsExactly("p/0", "p/1", "p/2", "session/end-seed");
    assertThat(child.events().get(3).seq()).isEqualTo(3);
    assertThat(child.header().parentSession()).contains(parent.id());
    assertThat(child.header().seedLength()).isEqualTo(3);
    assertThat(child.header().timeZone()).contains("Europe/Berlin");
    assertThat(child.header().cwd()).contains("/p");
    assertThat(created).containsExactly(child.id() + "/[p/0, p/1, p/2]");
    // the seed is a copy: the parent goes on alone
    parent.append("p/4", data(4));
    assertThat(child.length()).isEqualTo(4);

    assertThat(sessions.fork(parent, 0, false).events()).isEmpty();
    assertThat(sessions.fork(parent, parent.length(), false).length()).isEqualTo(5);
  }

  @Test
  void aForkBoundaryOutsideTheParentLogIsRefused() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    parent.append("p/0", data(0));
    parent.append("p/1", data(1));
    assertThatThrownBy(() -> sessions.fork(parent, 3, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fork boundary 3 is outside the parent log 0..2");
    assertThatThrownBy(() -> sessions.fork(parent, -1, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fork boundary -1 is outside the parent log 0..2");
    assertThat(sessions.list()).containsExactly(parent);
  }

  @Test
  void aVetoedEndSeedMarkerWithdrawsTheChild() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    parent.append("p/0", data(0));
    sessions.onPreAppend((h, log, candidate) -> {
      if (candidate.type().equals("session/end-seed")) {
        throw new IllegalStateException("no marker here");
      }
    });
    assertThatThrownBy(() -> sessions.fork(parent, 1, true)).hasMessage("no marker here");
    assertThat(sessions.list()).containsExactly(parent);
  }

  // ---- resume (§4.1) ---------------------------------------------------------------------

  @Test
  void resumeKeepsTheHeaderAsPersistedAndRunsTheCreatedListeners() {
    SessionHeader stored = header("r").forkChild("r-child", 5, 2);
    store.put(new StoredSession(stored, log(3)));
    List<String> created = new ArrayList<>();
    sessions.onSessionCreated((h, log) -> created.add(h.id() + "/" + log.size()));
    Session s = sessions.resume("r-child");
    assertThat(s.header()).isEqualTo(stored);
    assertThat(s.events()).isEqualTo(log(3));
    assertThat(created).containsExactly("r-child/3");
    assertThatThrownBy(() -> sessions.resume("r-child"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session \"r-child\" is already live");
    assertThatThrownBy(() -> sessions.resume("nobody"))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessage("no persisted session \"nobody\"");
  }

  @Test
  void aStoredLogWithASeqGapIsNotResumed() {
    SessionEvent misplaced = Logs.event(2);
    store.put(new StoredSession(header("gap"), List.of(Logs.event(0), misplaced)));
    assertThatThrownBy(() -> sessions.resume("gap"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session \"gap\" has a corrupt log: event at index 1 has seq 2");
    assertThat(sessions.list()).isEmpty();
  }

  @Test
  void resumeAllResumesEveryStoredSessionNotYetLiveInIdOrder() {
    store.put(new StoredSession(header("b"), log(1)));
    store.put(new StoredSession(header("a"), log(2)));
    store.put(new StoredSession(header("c"), log(0)));
    Session b = sessions.resume("b");
    List<Session> resumed = sessions.resumeAll();
    assertThat(resumed).extracting(Session::id).containsExactly("a", "c");
    assertThat(sessions.list()).extracting(Session::id).containsExactly("b", "a", "c");
    assertThat(sessions.get("b")).containsSame(b);
    assertThat(sessions.resumeAll()).isEmpty();
  }

  // ---- detach ------------------------------------------------------------------------------

  @Test
  void aDetachedSessionRefusesAppendsAndFlushesAndIsNoLongerListed() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    Session other = sessions.create(CreateOptions.DEFAULT);
    sessions.detach(s);
    sessions.detach(s);
    assertThat(sessions.list()).containsExactly(other);
    assertThat(sessions.get(s.id())).isEmpty();
    assertThatThrownBy(() -> s.append("late", data(0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session \"" + s.id() + "\" is not live");
    assertThat(s.length()).isZero();
    sessions.onFlush(store);
    assertThat(sessions.flush(s).toCompletableFuture()).isCompletedExceptionally();
    assertThat(sessions.flush(other).toCompletableFuture().join()).isTrue();

    sessions.detachAll();
    assertThat(sessions.list()).isEmpty();
    assertThatThrownBy(() -> other.append("late", data(1))).hasMessageContaining("is not live");
  }

  @Test
  void detachingASessionOfAnotherServiceWithTheSameIdLeavesThisOneLive() {
    LogSessions elsewhere = new LogSessions(() -> Instant.ofEpochMilli(now.get()), (m, c) -> { }, new MemorySessionStore());
    Session mine = sessions.create(CreateOptions.DEFAULT);
    Session theirs = elsewhere.create(CreateOptions.DEFAULT);
    assertThat(theirs.id()).isEqualTo(mine.id());
    sessions.detach(theirs);
    assertThat(sessions.get(mine.id())).containsSame(mine);
    mine.append("still", data(0));
    sessions.onFlush(store);
    // flushing their session here is flushing a session this service does not hold
    assertThatThrownBy(() -> sessions.flush(theirs).toCompletableFuture().join())
        .hasCauseInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is not live");
    assertThat(store.load(mine.id())).isEmpty();
  }

  // ---- flush (§4.2) ------------------------------------------------------------------------

  @Test
  void withoutAListenerAFlushProvesNothing() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    assertThat(sessions.flush(s).toCompletableFuture().join()).isFalse();
    Registration r = sessions.onFlush(store);
    assertThat(sessions.flush(s).toCompletableFuture().join()).isTrue();
    r.close();
    assertThat(sessions.flush(s).toCompletableFuture().join()).isFalse();
  }

  @Test
  void everyListenerGetsTheSameSnapshotInRegistrationOrder() {
    Session s = sessions.create(CreateOptions.withTimeZone("UTC"));
    s.append("e/0", data(0));
    s.appendAll(List.of(Candidate.logOnly("e/1", data(1)), Candidate.logOnly("e/2", data(2))));
    List<String> calls = new ArrayList<>();
    sessions.onFlush((h, log) -> {
      calls.add("first " + h.id() + " " + types(log));
      return CompletableFuture.completedFuture(null);
    });
    sessions.onFlush((h, log) -> {
      calls.add("second " + log.size());
      return CompletableFuture.completedFuture(null);
    });
    assertThat(sessions.flush(s).toCompletableFuture().join()).isTrue();
    assertThat(calls).containsExactly("first " + s.id() + " [e/0, e/1, e/2]", "second 3");
  }

  @Test
  void aFailingListenerFailsTheFlushWithTheEarliestFailureOnceAllSettled() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    CompletableFuture<Void> slow = new CompletableFuture<>();
    IllegalStateException early = new IllegalStateException("disk full");
    IllegalStateException late = new IllegalStateException("replica down");
    sessions.onFlush((h, log) -> CompletableFuture.completedFuture(null));
    sessions.onFlush((h, log) -> CompletableFuture.failedFuture(early));
    sessions.onFlush((h, log) -> slow);
    CompletableFuture<Boolean> result = sessions.flush(s).toCompletableFuture();
    assertThat(result).isNotDone();
    slow.completeExceptionally(late);
    assertThatThrownBy(result::join).isInstanceOf(CompletionException.class).hasCause(early);
  }

  @Test
  void aLaterListenerFailureIsReportedWhenTheEarlierOnesSucceed() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    IllegalStateException failure = new IllegalStateException("replica down");
    sessions.onFlush((h, log) -> CompletableFuture.completedFuture(null));
    sessions.onFlush((h, log) -> CompletableFuture.runAsync(() -> {
      throw failure;
    }));
    assertThatThrownBy(() -> sessions.flush(s).toCompletableFuture().join()).hasCause(failure);
  }

  @Test
  void aCancelledListenerStageFailsTheFlush() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    CompletableFuture<Void> cancelled = new CompletableFuture<>();
    cancelled.cancel(false);
    sessions.onFlush((h, log) -> cancelled);
    assertThat(sessions.flush(s).toCompletableFuture()).isCompletedExceptionally();
  }

  @Test
  void aListenerThatThrowsMakesFlushThrowAndLaterListenersAreNotCalled() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    List<String> calls = new ArrayList<>();
    sessions.onFlush((h, log) -> {
      throw new IllegalStateException("store gone");
    });
    sessions.onFlush((h, log) -> {
      calls.add("later");
      return CompletableFuture.completedFuture(null);
    });
    assertThatThrownBy(() -> sessions.flush(s)).isInstanceOf(IllegalStateException.class).hasMessage("store gone");
    assertThat(calls).isEmpty();
  }

  @Test
  void overMakesTheStoreBothTheResumeSourceAndTheDurabilityListener() {
    LogSessions first = LogSessions.over(store, () -> Instant.ofEpochMilli(now.get()), (m, c) -> { });
    Session s = first.create(CreateOptions.DEFAULT);
    s.append("kept", data(0));
    assertThat(first.flush(s).toCompletableFuture().join()).isTrue();
    s.append("lost", data(1));
    LogSessions second = LogSessions.over(store, () -> Instant.ofEpochMilli(now.get()), (m, c) -> { });
    assertThat(types(second.resume(s.id()).events())).containsExactly("kept");
    // a fresh id never reuses a stored one
    assertThat(second.create(CreateOptions.DEFAULT).id()).isEqualTo("session-2");
  }
}
